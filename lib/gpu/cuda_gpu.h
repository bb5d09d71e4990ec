/* Inside the GPU module: what lib/gpu/cuda_gpu.c shares with lib/gpu/cuda_spread.c.  Built only with CUDA. */
#ifndef TB_CUDA_GPU_H
#define TB_CUDA_GPU_H

#include <cuda_runtime_api.h>
#include "cuda_ops.h"
#include "gpu.h"

/* lib/gpu/cuda_plan.c: the plan (with room for the kernel's workspaces where it fits), staging and interface for computing g with
 * kernel on `device`, which is current: 0, or -1 with *what naming what could not be had */
TB_HIDDEN int tb_cuda_prepare(const tb_call *g, int kernel, int device, tb_plan *plan, const tb_pipe_staging **st,
                              tb_cuda_ctx *cc, tb_devops *ops, const char **what);

/* A GPU call failed at `what` on `device` with CUDA error e (cudaSuccess for a failure of ours): *err says so.
 * Running out of memory (or not fitting) leaves the device on for later calls, its cache trimmed; any other error
 * turns the GPU off.  Lock held. */
TB_HIDDEN void tb_cuda_call_failed(const char *what, cudaError_t e, int device, const char **err);

/* A plan of one tile, all of p's C: what a block that failed before it was planned is left with (tb_gpu_result) */
static inline void tb_cuda_one_tile(const tb_kproblem *p, tb_plan *plan)
{
    *plan = (tb_plan){ .mb = p->m, .nb = p->n, .mtiles = 1, .ntiles = 1, .depth = 1, .ctiles = 1 };
}

/* lib/gpu/cuda_spread.c: the devices that calls may use, of the `count` there are, as TILEBLAS_DEVICES says (the
 * first alone unless it says otherwise; a warning, once, for devices that are not there), into devices[]; their
 * number (at least 1) */
TB_HIDDEN int tb_cuda_choose_devices(int count, int *devices);

/* g spread as sp says, block d on devices[d] (made current on the block's thread; the first on the caller's):
 * 0, or -1 with *what (and *failed_on, the device) for the first block that failed; *r: what each block wrote.
 * Lock held, the first device current. */
TB_HIDDEN int tb_cuda_spread_gemm(const tb_call *g, int kernel, const tb_spread *sp, const int *devices,
                                  tb_gpu_result *r, const char **what, int *failed_on);

#endif
