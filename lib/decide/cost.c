/* The cost model of auto mode (cost.h says what it computes and why). */
#include <config.h>
#include "cost.h"

/* flops M N K / (rate f(M) f(N) f(K)) with f(d) = d / (d + half) (flops: of a multiply-add, tb_type_flops): one
 * division, for the calls of a few nanoseconds */
static double compute_time(double flops, double m, double n, double k, double rate, double half)
{
    return flops * (m + half) * (n + half) * (k + half) / rate;
}

double tb_cost_kernel(const tb_cost_params *c, tb_type type, double m, double n, double k, int tc)
{
    const double f = tb_type_flops(type);
    double kernel = compute_time(f, m, n, k, c->gpu_rate[type], c->gpu_half[type]);
    if (tc) {
        const double on_tc = compute_time(f, m, n, k, c->gpu_rate_tc, c->gpu_half_tc);
        kernel = on_tc < kernel ? on_tc : kernel;
    }
    return kernel;
}

double tb_cost_link(const tb_cost_params *c, tb_type type, double a_elems, double b_elems, double c_elems, int reads_c)
{
    const double e = tb_type_size(type);
    return e * a_elems / c->h2d_a + e * (b_elems + (reads_c ? c_elems : 0.0)) / c->h2d_b + e * c_elems / c->d2h;
}

tb_cost tb_cost_predict(const tb_cost_params *c, const tb_call *g, int tc)
{
    const double m = (double)g->p.m, n = (double)g->p.n, k = (double)g->p.k;
    tb_cost t;
    t.gpu = c->gpu_call + c->gpu_extra[g->p.type] + tb_cost_link(c, g->p.type, m * k, k * n, m * n, !tb_beta_zero(&g->p)) +
            tb_cost_kernel(c, g->p.type, m, n, k, tc);
    t.cpu = tb_cost_predict_cpu(c, g);
    return t;
}

double tb_cost_predict_cpu(const tb_cost_params *c, const tb_call *g)
{
    const tb_kproblem *p = &g->p;
    /* the CPU BLAS computes the part alone (SYRK: about half of the product); the GPU, whole tiles across it */
    const double part = p->part == TB_PART_ALL ? 1.0 : tb_part_elems(p) / ((double)p->m * (double)p->n);
    return c->cpu_call + part * compute_time(tb_type_flops(p->type), (double)p->m, (double)p->n, (double)p->k,
                                             c->cpu_rate[p->type], c->cpu_half[p->type]);
}
