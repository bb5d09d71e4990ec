/*
 * The cost model of auto mode: how long a call would take on the GPU (the operands' trips over PCIe, the kernel,
 * a fixed cost per call) and on the CPU (the CPU BLAS's rate for the shape); the faster path wins.  Its
 * parameters are the configuration's (lib/config/calibration.h).
 */
#ifndef TB_COST_H
#define TB_COST_H

#include "calibration.h"
#include "call.h"

/*
 * rate(M, N, K) = rate * f(M) f(N) f(K) with f(d) = d / (d + half), on both paths, with the call's type's rates;
 * where tc (single precision whose kernel is a tensor-core one), the larger of that and the tensor cores' curve
 * (gpu_rate_tc, gpu_half_tc): those kernels hand the products they are slower at to blocked, whose curve stays;
 * with e the bytes of an element,
 * gpu = gpu_call [+ gpu_extra of the type] + e(M K)/h2d_a + e(K N [+ M N when beta != 0])/h2d_b + e M N/d2h + 2 M N K / rate(M, N, K),
 * with no credit for the pipeline's overlap of copies and kernel (conservative: the GPU is never predicted faster
 * than it can be); cpu = cpu_call + 2 M N K / rate(M, N, K), times the fraction of C in the call's part (SYRK: its
 * triangle, which the CPU BLAS computes alone; the GPU's tiles across the diagonal are computed whole).
 */
TB_HIDDEN tb_cost tb_cost_predict(const tb_cost_params *c, const tb_call *g, int tc);
/* Its parts: the kernel's seconds for an M x N x K product of the type (tc as above), and the link's for op(A),
 * op(B) and C of so many elements (C both ways when reads_c) */
TB_HIDDEN double tb_cost_kernel(const tb_cost_params *c, tb_type type, double m, double n, double k, int tc);
TB_HIDDEN double tb_cost_link(const tb_cost_params *c, tb_type type, double a_elems, double b_elems, double c_elems,
                              int reads_c);
TB_HIDDEN double tb_cost_predict_cpu(const tb_cost_params *c, const tb_call *g); /* its cpu alone */
/* 1 when tb_cost_predict_cpu for the shape of p <= seconds, worked out without a division, inline (for tiny calls) */
static inline int tb_cost_cpu_within(const tb_cost_params *c, const tb_kproblem *p, double seconds)
{
    const double h = c->cpu_half[p->type];
    return tb_type_flops(p->type) * ((double)p->m + h) * ((double)p->n + h) * ((double)p->k + h) <=
           (seconds - c->cpu_call) * c->cpu_rate[p->type];
}

#endif
