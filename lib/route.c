#include <config.h>
#include <stddef.h>
#include "route.h"
#include "gpu.h"
#include "kernels.h"
#include "util.h"

static __thread tb_path forced_path = TB_PATH_NONE;
static __thread int forced_kernel = -1;

void tb_route_force_path(tb_path path) { forced_path = path; }
void tb_route_force_kernel(int kernel) { forced_kernel = kernel; }

double tb_gemm_flops(const tb_gemm *g)
{
    return 2.0 * (double)g->p.m * (double)g->p.n * (double)g->p.k;
}

double tb_gemm_pcie_bytes(const tb_gemm *g)
{
    double m = (double)g->p.m, n = (double)g->p.n, k = (double)g->p.k;
    return sizeof(float) * (m * k + k * n + m * n * (g->p.beta != 0.0f ? 2.0 : 1.0));
}

/*
 * Until issue 4's calibrated cost model: the GPU pays off when the flops per byte that must cross PCIe are high
 * enough that the copies (about 9 GB/s from pageable memory on the H200 host) plus the kernel beat OpenBLAS
 * (about 1.25 TFLOP/s on its 16 cores): I > (1/9e9) / (1/1.25e12 - 1/9e12) = ~160 flops per byte, i.e. a square
 * product with N >= ~1000.  A floor on the flops keeps launch and setup costs out of small calls.
 */
int tb_route_auto_wants_gpu(const tb_gemm *g, const tb_config *cfg)
{
    double flops = tb_gemm_flops(g);
    if (g->p.alpha == 0.0f || flops < cfg->gpu_min_flops)
        return 0;
    return flops >= cfg->gpu_min_intensity * tb_gemm_pcie_bytes(g);
}

tb_path tb_route(const tb_gemm *g, int *kernel)
{
    const tb_config *cfg = tb_config_get();
    tb_path path = forced_path;
    if (path == TB_PATH_NONE) {
        if (cfg->mode == TB_MODE_CPU)
            path = TB_PATH_CPU;
        else if (cfg->mode == TB_MODE_GPU)
            path = TB_PATH_GPU;
        else
            path = tb_route_auto_wants_gpu(g, cfg) ? TB_PATH_GPU : TB_PATH_CPU;
    }
    const char *why;
    if (path == TB_PATH_GPU && !tb_gpu_usable(&why)) {
        static _Atomic int warned;
        /* asked for in the environment: say once why it cannot be had (auto mode stays quiet) */
        if (cfg->mode == TB_MODE_GPU && forced_path == TB_PATH_NONE)
            tb_warn_once(&warned, "TILEBLAS_MODE=gpu, but no GPU is usable (%s); calls run on the CPU", why);
        path = TB_PATH_CPU;
    }
    *kernel = forced_kernel >= 0 ? forced_kernel : cfg->kernel >= 0 ? cfg->kernel : tb_kernel_default();
    return path;
}
