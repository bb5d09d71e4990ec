/* Calls from host memory spread over several devices (lib/gpu/cuda_gpu.h): each block of C planned, staged and
 * computed on its own device, on a thread of its own (lib/gpu/spread_run.h). */
#include <config.h>
#include <stdlib.h>
#include "cuda_gpu.h"
#include "spread_run.h"
#include "util.h"

int tb_cuda_choose_devices(int count, int *devices)
{
    static _Atomic int warned;
    const tb_gpu_settings *cfg = tb_cuda_settings();
    int used = 0;
    if (cfg->devices == TB_ALL_DEVICES) {
        for (int d = 0; d < count && d < TB_MAX_DEVICES; d++)
            devices[used++] = d;
        return used;
    }
    for (int i = 0; i < cfg->devices; i++)
        if (cfg->device_list[i] < count)
            devices[used++] = cfg->device_list[i];
    if (used < cfg->devices)
        tb_warn_once(&warned, "TILEBLAS_DEVICES names devices that are not there (%d visible)", count);
    if (!used)
        devices[used++] = 0;
    return used;
}

/* One block's device and outcome, as its thread sees them */
typedef struct block {
    tb_call part; /* the block as a call of its own */
    int kernel, device;
    tb_spread_part *x;
    tb_cuda_ctx cc;
    tb_devops ops;
    const char *what; /* what failed before the pipeline, or NULL */
    cudaError_t error;
    double moved;
} block;

/* on the block's thread: its device current, its plan, staging and interface */
static int bind(void *arg)
{
    block *b = arg;
    cudaError_t e;
    tb_cuda_one_tile(&b->part.p, &b->x->plan); /* until it has a plan: all of the block left for the CPU */
    tb_cuda_fault_call();
    if ((e = cudaSetDevice(b->device)) != cudaSuccess || (e = (cudaError_t)tb_cuda_ops_init(b->device)) != cudaSuccess) {
        b->what = "making a device current", b->error = e;
        return 1;
    }
    const tb_pipe_staging *st = NULL;
    if (tb_cuda_prepare(&b->part, b->kernel, b->device, &b->x->plan, &st, &b->cc, &b->ops, &b->what)) {
        b->error = (cudaError_t)tb_cuda_last_error();
        tb_cuda_one_tile(&b->part.p, &b->x->plan); /* what tb_cuda_prepare had planned is not the block's outcome */
        return 1;
    }
    b->x->staging = st, b->x->ops = &b->ops;
    return 0;
}

/* on the block's thread, after its pipeline: the error and the traffic that its thread's state holds */
static void unbind(void *arg)
{
    block *b = arg;
    const cudaError_t e = (cudaError_t)tb_cuda_last_error();
    if (b->error == cudaSuccess)
        b->error = e;
    tb_pipe_times none; /* the pipeline's own are in the block's part */
    tb_cuda_take_moved(&b->moved, &none);
}

int tb_cuda_spread_gemm(const tb_call *g, int kernel, const tb_spread *sp, const int *devices, tb_gpu_result *r,
                        const char **what, int *failed_on)
{
    tb_spread_part parts[TB_MAX_DEVICES];
    block blocks[TB_MAX_DEVICES];
    for (int d = 0; d < sp->count; d++) {
        blocks[d] = (block){ .part = *g, .kernel = kernel, .device = devices[d], .x = &parts[d] };
        blocks[d].part.p = tb_spread_block(g, sp, d);
        parts[d] = (tb_spread_part){ .bind = bind, .unbind = unbind, .bind_arg = &blocks[d] };
    }
    tb_spread_run(g, sp, parts);
    int rc = 0;
    r->blocks = sp->count;
    for (int d = 0; d < sp->count; d++) {
        const block *b = &blocks[d];
        r->block[d].p = b->part.p, r->block[d].plan = parts[d].plan, r->block[d].done = parts[d].done;
        r->block[d].device = b->device;
        /* the blocks' traffic and times as this thread's, for the call's statistics */
        tb_cuda_count_bytes((int64_t)b->moved, 1, 1);
        tb_cuda_count_times(&parts[d].times);
        if (parts[d].err && !rc) {
            rc = -1;
            *what = b->what ? b->what : parts[d].err, *failed_on = b->device;
            if (b->error != cudaSuccess)
                tb_cuda_note_error((int)b->error);
        }
    }
    return rc;
}
