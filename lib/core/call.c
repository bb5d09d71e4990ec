/* The core of every call: calls with nothing to multiply to the BLAS beneath, the route, the GPU with the CPU
 * behind it, the statistics told. */
#include <config.h>
#include <pthread.h>
#include "core.h"
#include "counters.h"
#include "cpu_blas.h"
#include "devptr.h"
#include "env.h"
#include "gpu.h"
#include "kernels.h"
#include "pipeline.h"
#include "route.h"
#include "stats.h"
#include "tiny.h"
#include "util.h"

/* On the CPU path: run on the built-in loop (lib/gpu/gpu.h, TB_GPU_EXITING_ELSEWHERE) */
enum { TB_OWN_LOOP = -2 };

/* The tiny calls' gates (lib/decide/tiny.h) open once the configuration is read, here, before the first call
 * that is not tiny is routed, and close whenever the program asks for the statistics (core_stats_asked). */
static pthread_once_t gates_once = PTHREAD_ONCE_INIT;
static void open_gates(void)
{
    tb_tiny_update(tb_config_get());
}

void tb_core_stats_asked(void)
{
    pthread_once(&gates_once, open_gates);
    tb_tiny_update(tb_config_get());
}

/* The path for g, and the kernel (table index) when it is the GPU: the wanted path (lib/decide/route.h), then
 * whether a device can take it.  May initialise the GPU runtime.  On the CPU path, *kernel is TB_OWN_LOOP when
 * the call is to run on the built-in loop, else -1. */
static tb_path route(const tb_call *g, int *kernel, tb_gpu_plan *gp, tb_cost *predicted)
{
    const tb_config *cfg = tb_config_get();
    const tb_path path = tb_route_wanted(g, cfg, predicted);
    *kernel = -1;
    if (path != TB_PATH_GPU)
        return path;
    /* no kernel runs its type (while some kernel is built in): the CPU, without starting the GPU */
    if (tb_route_kernel(&g->p) < 0 && tb_kernel_count > 0) {
        static _Atomic int warned_type;
        if (cfg->mode == TB_MODE_GPU && tb_forced_path == TB_PATH_NONE)
            tb_warn_once(&warned_type, "TILEBLAS_MODE=gpu, but no GPU kernel runs %s yet; those calls run on the CPU",
                         tb_entries[g->entry].name);
        return TB_PATH_CPU;
    }
    const char *why;
    const int usable = tb_gpu_usable(&why);
    if (usable <= 0) {
        /* asked for in the environment: say once why it cannot be had (auto mode, and exit, stay quiet) */
        if (usable == 0 && cfg->mode == TB_MODE_GPU && tb_forced_path == TB_PATH_NONE)
            tb_warn_once(&tb_gpu_warned, "TILEBLAS_MODE=gpu, but no GPU is usable (%s); calls run on the CPU", why);
        *kernel = usable == TB_GPU_EXITING_ELSEWHERE ? TB_OWN_LOOP : -1;
        return TB_PATH_CPU;
    }
    if (tb_decide_gpu(g, cfg, tb_gpu_devices(), gp))
        return TB_PATH_CPU;
    *kernel = gp->kernel;
    return path;
}

/* Operands in device or managed memory (w): used in place on the GPU, whatever the mode, since the CPU BLAS cannot
 * read device memory.  If the GPU cannot take the call (it failed, or has no path for it): with only managed
 * memory besides the host's, the CPU BLAS reads it like host memory (a failure said once); otherwise C is left
 * untouched, with a warning.  Returns the path taken. */
static tb_path in_place(const tb_call *g, const tb_where w[3], int device, tb_call_record *r)
{
    static _Atomic int warned_lost; /* C not computed: said whatever was said before */
    const char *err = g->p.part != TB_PART_ALL ? "no GPU path writes a triangle of C in device memory yet"
                      : g->p.sym               ? "no GPU path reads a symmetric operand yet"
                                               : "no GPU kernel for this element type";
    int kernel = g->p.part != TB_PART_ALL || g->p.sym ? -1 : tb_route_kernel(&g->p);
    if (kernel >= 0 && tb_gpu_gemm_resident(g, &kernel, w, &device, &err) == 0) {
        r->kernel = kernel;
        r->devices = tb_device_bit(device);
        if (tb_config_get()->verbose >= 2)
            tb_gpu_describe(device, kernel, &g->p, r->recipe, sizeof r->recipe);
        return TB_PATH_GPU;
    }
    r->gpu_failed = kernel >= 0; /* no GPU path for the call is no failure */
    if (w[0] != TB_ON_DEVICE && w[1] != TB_ON_DEVICE && w[2] != TB_ON_DEVICE) {
        if (r->gpu_failed)
            tb_warn_once(&tb_gpu_warned, "GPU failed (%s); managed operands are read by the CPU BLAS", err);
        tb_cpu_gemm(g);
        return TB_PATH_CPU;
    }
    tb_warn_once(&warned_lost, "operands in device memory, but the GPU cannot take the call (%s): C is left "
                 "unchanged", err);
    return TB_PATH_NONE;
}

/* The GPU; when it fails, the CPU for what it did not finish, block by block.  0: C is done; else nothing was
 * written to C, and the value is the CPU's "kernel" for it (lib/decide/route.h).  r->kernel: the GPU kernel asked
 * for, then the one that ran; r->devices, those that ran some of it; under TILEBLAS_VERBOSE=2 r->recipe, how the
 * first tile ran. */
static int gpu_or_rest(const tb_call *g, const tb_spread *sp, tb_call_record *r)
{
    const char *err;
    tb_gpu_result res;
    const int failed = tb_gpu_gemm(g, &r->kernel, sp, &res, &err);
    for (int b = 0; b < res.blocks; b++)
        if (!failed || res.block[b].done)
            r->devices |= tb_device_bit(res.block[b].device);
    if (!failed) {
        if (tb_config_get()->verbose >= 2 && res.blocks > 0) {
            int64_t i0, rows, j0, cols;
            tb_pipeline_tile(&res.block[0].plan, res.block[0].p.m, res.block[0].p.n, 0, &i0, &rows, &j0, &cols);
            tb_kproblem tile = tb_kproblem_block(&res.block[0].p, i0, rows, j0, cols);
            tile.a = tile.b = tile.c = NULL; /* staged in device buffers, aligned as those are */
            tb_gpu_describe(res.block[0].device, r->kernel, &tile, r->recipe, sizeof r->recipe);
        }
        return 0;
    }
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

void tb_call_run(const tb_call *g)
{
    pthread_once(&gates_once, open_gates);
    tb_call_record r = { .entry = g->entry, .path = TB_PATH_NONE, .kernel = -1 };
    /* Nothing to multiply (C = beta*C at most): the BLAS beneath answers it, as it would without us */
    if (g->p.m == 0 || g->p.n == 0 || tb_alpha_zero(&g->p) || g->p.k == 0) {
        tb_cpu_gemm(g);
        tb_stats_record(g, &r);
        return;
    }
    /* two clock reads cost more than a fifth of a tiny call: only when someone looks, or the call is long */
    r.flops = tb_call_flops(g);
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
        tb_gpu_plan gp;
        r.path = route(g, &r.kernel, &gp, &r.predicted);
        int cpu;
        if (r.path == TB_PATH_GPU && (cpu = gpu_or_rest(g, &gp.spread, &r)) != 0) {
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

/* The summary (lib/obs/stats.h) with what the GPU and the CPU BLAS say of themselves */
__attribute__((destructor)) static void summary_at_exit(void)
{
    if (!tb_config_summary_wanted())
        return;
    tb_summary_facts facts = { .cpu_blas_name = tb_cpu_blas_name };
    facts.gpu = tb_gpu_state(&facts.gpu_text);
    tb_stats_summary(&facts);
}
