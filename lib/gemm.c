/* The core of every GEMM call: calls with nothing to multiply to the BLAS beneath, the route, the GPU with the CPU
 * behind it. */
#include <config.h>
#include "counters.h"
#include "cpu_blas.h"
#include "devptr.h"
#include "gpu.h"
#include "pipeline.h"
#include "route.h"
#include "stats.h"
#include "util.h"

/* Operands in device or managed memory (w): used in place on the GPU, whatever the mode, since the CPU BLAS cannot
 * read device memory.  If the GPU cannot take the call: with only managed memory besides the host's, the CPU BLAS
 * reads it like host memory; otherwise C is left untouched, with a warning.  Returns the path taken. */
static tb_path in_place(const tb_gemm *g, const tb_where w[3], int device, tb_call_record *r)
{
    static _Atomic int warned_lost; /* C not computed: said whatever was said before */
    const char *err = "no GPU kernel for this element type";
    int kernel = tb_route_kernel(&g->p);
    if (kernel >= 0 && tb_gpu_gemm_resident(g, &kernel, w, &device, &err) == 0) {
        r->kernel = kernel;
        r->devices = tb_device_bit(device);
        return TB_PATH_GPU;
    }
    r->gpu_failed = 1;
    if (w[0] != TB_ON_DEVICE && w[1] != TB_ON_DEVICE && w[2] != TB_ON_DEVICE) {
        tb_warn_once(&tb_gpu_warned, "GPU failed (%s); managed operands are read by the CPU BLAS", err);
        tb_cpu_gemm(g);
        return TB_PATH_CPU;
    }
    tb_warn_once(&warned_lost, "operands in device memory, but the GPU cannot take the call (%s): C is left "
                 "unchanged", err);
    return TB_PATH_NONE;
}

/* The GPU; when it fails, the CPU for what it did not finish, block by block.  0: C is done; else nothing was
 * written to C, and the value is the CPU's "kernel" for it (lib/route/route.h).  *kernel: the GPU kernel asked for,
 * then the one that ran. */
static int gpu_or_rest(const tb_gemm *g, int *kernel, unsigned *devices)
{
    const char *err;
    tb_gpu_result res;
    const int failed = tb_gpu_gemm(g, kernel, &res, &err);
    for (int b = 0; b < res.blocks; b++)
        if (!failed || res.block[b].done)
            *devices |= tb_device_bit(res.block[b].device);
    if (!failed)
        return 0;
    const int usable = tb_gpu_usable(NULL);
    if (usable >= 0) /* not when it turned the call away because the process is exiting */
        tb_warn_once(&tb_gpu_warned, "GPU failed (%s); this call and any the GPU cannot take run on the CPU", err);
    int64_t done = 0;
    for (int b = 0; b < res.blocks; b++)
        done += res.block[b].done;
    if (!done)
        return usable == TB_GPU_EXITING_ELSEWHERE ? TB_OWN_LOOP : -1;
    for (int b = 0; b < res.blocks; b++) {
        const tb_kproblem *p = &res.block[b].p;
        const tb_plan *plan = &res.block[b].plan;
        for (int64_t t = res.block[b].done; t < plan->mtiles * plan->ntiles; t++) {
            int64_t i0, rows, j0, cols;
            tb_pipeline_tile(plan, p->m, p->n, t, &i0, &rows, &j0, &cols);
            tb_kproblem rest = tb_kproblem_block(p, i0, rows, j0, cols);
            tb_cpu_gemm_part(g, &rest);
        }
    }
    return 0;
}

void tb_gemm_run(const tb_gemm *g)
{
    tb_call_record r = { .entry = g->entry, .path = TB_PATH_NONE, .kernel = -1 };
    /* Nothing to multiply (C = beta*C at most): the BLAS beneath answers it, as it would without us */
    if (g->p.m == 0 || g->p.n == 0 || tb_alpha_zero(&g->p) || g->p.k == 0) {
        tb_cpu_gemm(g);
        tb_stats_record(g, &r);
        return;
    }
    /* two clock reads cost more than a fifth of a tiny call: only when someone looks, or the call is long */
    r.flops = tb_gemm_flops(g);
    const int timed = tb_stats_timing_wanted() || r.flops >= TB_STATS_TIMED_FLOPS;
    double t0 = timed ? tb_now() : 0.0;
    if (timed)
        tb_counts_busy(1, t0);
    tb_where w[3];
    int device = TB_NO_DEVICE;
    if (r.flops >= TB_DEVPTR_MIN_FLOPS && tb_operands_where(g, w, &device)) {
        r.in_place = 1;
        r.path = in_place(g, w, device, &r);
    } else {
        r.path = tb_route(g, &r.kernel, &r.predicted);
        int cpu;
        if (r.path == TB_PATH_GPU && (cpu = gpu_or_rest(g, &r.kernel, &r.devices)) != 0) {
            r.path = TB_PATH_CPU;
            r.kernel = cpu;
            r.gpu_failed = 1;
        }
        if (r.path == TB_PATH_CPU)
            (r.kernel == TB_OWN_LOOP ? tb_cpu_gemm_builtin : tb_cpu_gemm)(g);
    }
    if (timed) {
        const double t1 = tb_now();
        tb_counts_busy(0, t1);
        r.seconds = t1 - t0;
    }
    if (r.path == TB_PATH_GPU || r.gpu_failed)
        tb_gpu_take_moved(&r.bytes, &r.host);
    tb_stats_record(g, &r);
}
