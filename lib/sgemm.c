/* The core of every SGEMM call: reference BLAS quick returns, the route, the GPU with the CPU behind it. */
#include <config.h>
#include "cpu_blas.h"
#include "gpu.h"
#include "route.h"
#include "stats.h"
#include "util.h"

void tb_scale_c(const tb_gemm *g)
{
    for (int64_t j = 0; j < g->p.n; j++) {
        float *c = g->p.c + j * g->p.ldc;
        for (int64_t i = 0; i < g->p.m; i++)
            c[i] = g->p.beta == 0.0f ? 0.0f : g->p.beta * c[i];
    }
}

void tb_sgemm(const tb_gemm *g)
{
    if (tb_in_cpu_blas) {
        /* the CPU BLAS called one of our symbols from inside itself: let it do its own work */
        tb_cpu_sgemm(g);
        return;
    }
    tb_call_record r = { .iface = g->iface, .path = TB_PATH_NONE, .kernel = -1 };
    /* Nothing to multiply: reference SGEMM returns at once, or sets C = beta*C, never reading A or B.  Done here
     * for every path, since OpenBLAS's small-matrix kernels (0.3.21, 0.3.26) read A and B when alpha = 0. */
    if (g->p.m == 0 || g->p.n == 0 || g->p.alpha == 0.0f || g->p.k == 0) {
        if (g->p.m > 0 && g->p.n > 0 && g->p.beta != 1.0f)
            tb_scale_c(g);
        tb_stats_record(g, &r);
        return;
    }
    double t0 = tb_now();
    r.path = tb_route(g, &r.kernel);
    if (r.path == TB_PATH_GPU) {
        static _Atomic int warned;
        const char *err;
        if (tb_gpu_sgemm(g, r.kernel, &err)) {
            tb_warn_once(&warned, "GPU failed (%s); this call and any the GPU cannot take run on the CPU", err);
            r.path = TB_PATH_CPU;
            r.gpu_failed = 1;
        }
    }
    if (r.path == TB_PATH_CPU)
        tb_cpu_sgemm(g);
    r.seconds = tb_now() - t0;
    tb_stats_record(g, &r);
}
