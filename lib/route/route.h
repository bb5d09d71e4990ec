/* Where a call runs: the thread's forced path, TILEBLAS_MODE, auto mode's cost model, a usable device. */
#ifndef TB_ROUTE_H
#define TB_ROUTE_H

#include "env.h"
#include "gemm.h"

/* Values match tileblas_path. */
typedef enum tb_path { TB_PATH_NONE = 0, TB_PATH_CPU = 1, TB_PATH_GPU = 2 } tb_path;

/* Flops of the call (2*M*N*K, 8*M*N*K for complex types); inline, since every call, however tiny, asks. */
static inline double tb_gemm_flops(const tb_gemm *g)
{
    return tb_type_flops(g->p.type) * (double)g->p.m * (double)g->p.n * (double)g->p.k;
}

/* 1 when p's kernel under cfg (as tb_route_kernel) computes on the tensor cores: single precision (real or complex)
 * under fp32-tc or tf32, the cost model's tc */
TB_HIDDEN int tb_route_on_tensor_cores(const tb_kproblem *p, const tb_config *cfg);

/* Auto mode's choice alone (no device check): 1 when the cost model predicts the GPU faster; *t: its predictions. */
TB_HIDDEN int tb_route_auto_wants_gpu(const tb_gemm *g, const tb_config *cfg, tb_cost *t);

/* The path for g, and the kernel (table index) when it is the GPU.  May initialise the GPU runtime.  *predicted:
 * the cost model's times when auto mode chose, else zeros.  On the CPU path, *kernel is TB_OWN_LOOP when the call
 * is to run on the built-in loop (lib/gpu/gpu.h, TB_GPU_EXITING_ELSEWHERE), else -1. */
enum { TB_OWN_LOOP = -2 };
TB_HIDDEN tb_path tb_route(const tb_gemm *g, int *kernel, tb_cost *predicted);

/* The GPU kernel (table index) for p: the thread's, else TILEBLAS_KERNEL's, where that kernel runs p's type, else the
 * type's default; -1 when no kernel runs it. */
TB_HIDDEN int tb_route_kernel(const tb_kproblem *p);

/* Per-thread overrides (tileblas_set_path / tileblas_set_kernel). */
TB_HIDDEN void tb_route_force_path(tb_path path); /* TB_PATH_NONE: no override */
TB_HIDDEN extern __thread tb_path tb_forced_path;  /* the thread's forced path, read by the tiny-call test */
TB_HIDDEN void tb_route_force_kernel(int kernel); /* -1: no override */

#endif
