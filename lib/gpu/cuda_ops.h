/*
 * The pipeline's device interface (lib/gpu/pipeline.h) on CUDA: queues are streams, events are CUDA events, device
 * buffers come from a cache kept across calls, staging is pinned host memory kept across calls, each of them
 * per device (by CUDA device number, below TB_MAX_DEVICES), used by one call at a time (lib/gpu/cuda_gpu.c holds
 * the lock), with that device current.  Built only with CUDA.
 */
#ifndef TB_CUDA_OPS_H
#define TB_CUDA_OPS_H

#include <stddef.h>
#include "gpu.h"
#include "kernels.h"
#include "pipeline.h"
#include "spread.h"

/* The device's streams and events (once, with the device current); 0 or a cudaError_t. */
TB_HIDDEN int tb_cuda_ops_init(int device);

/* Kernel number `kernel` of the table on p, queued on stream (a cudaStream_t of the current device), as its recipe
 * says (lib/decide/recipes.h), with the workspace it asks for (kernels.h) from a memory pool of the library's own on
 * that device; 0 or the launch's cudaError_t. */
TB_HIDDEN int tb_cuda_launch(int kernel, const tb_kproblem *p, void *stream);

/* The decider of `device` (its facts measured the first time, which must be with it current) */
TB_HIDDEN const tb_decider *tb_cuda_decider(int device);

/* kernel's recipe for p on `device`, in words (lib/decide/recipes.h: tb_recipe_text) */
TB_HIDDEN void tb_cuda_describe(int device, int kernel, const tb_kproblem *p, char *buf, size_t size);

/* On `device`: the workspace of kernel's recipe for p; the bytes of `rows` rows of op(A) (which 0) or columns of
 * op(B) that its prepared operands take for `tile` (0: none, or none for that tile: kernels.h); the kernel that runs
 * p when `kernel` is asked for (tb_decide_kernel) */
TB_HIDDEN size_t tb_cuda_workspace(int device, int kernel, const tb_kproblem *p);
TB_HIDDEN size_t tb_cuda_prep_bytes(int device, int kernel, const tb_kproblem *tile, int which, int64_t rows);
TB_HIDDEN int tb_cuda_kernel_for(int device, int kernel, const tb_kproblem *p);

/* The interface on `device`, launching kernel number `kernel` of the table; ctx is the interface's context, and
 * must outlive its use. */
typedef struct tb_cuda_ctx {
    int device, kernel;
} tb_cuda_ctx;
TB_HIDDEN void tb_cuda_ops(const tb_cuda_ctx *ctx, tb_devops *ops);

/* Pinned staging slots of at least `bytes` each for the device's pipeline (grown as needed); NULL when they cannot
 * be had. */
TB_HIDDEN const tb_pipe_staging *tb_cuda_staging(int device, int64_t bytes);

/* Device bytes held in the device's cache and not in use (available to the next call). */
TB_HIDDEN size_t tb_cuda_cached_bytes(int device);

/* Give every cached buffer of the device back to CUDA (after running out of memory). */
TB_HIDDEN void tb_cuda_trim(int device);

/* What the library told the module of its configuration (tb_gpu_module's configure); zeros (the defaults) until
 * then */
TB_HIDDEN void tb_cuda_configure(const tb_gpu_settings *s);
TB_HIDDEN const tb_gpu_settings *tb_cuda_settings(void);

/* TILEBLAS_FAULT (lib/config/env.h): tb_cuda_fault_call() at the start of each GPU call; tb_cuda_fault(op) is the
 * cudaError_t that the simulated fault gives an operation of kind op, or 0; tb_cuda_fault_fired() says whether
 * it gave one during this call (so that the warning can say the failure was simulated). */
enum { TB_OP_ALLOC, TB_OP_LAUNCH, TB_OP_OTHER };
TB_HIDDEN void tb_cuda_fault_call(void);
TB_HIDDEN int tb_cuda_fault(int op);
TB_HIDDEN int tb_cuda_fault_fired(void);

/* The CUDA error behind the last failed operation of this thread's (cudaSuccess when none), cleared; an error of
 * another thread's noted as this one's (if it has none yet). */
TB_HIDDEN int tb_cuda_last_error(void);
TB_HIDDEN void tb_cuda_note_error(int e);

/* Host<->device traffic of the thread's calls: a copy of rows x cols elements of esize bytes counted; a pipeline's
 * times added; the bytes and times since last taken (then zero). */
TB_HIDDEN void tb_cuda_count_bytes(int64_t rows, int64_t cols, unsigned esize);
TB_HIDDEN void tb_cuda_count_times(const tb_pipe_times *t);
TB_HIDDEN void tb_cuda_take_moved(double *bytes, tb_pipe_times *times);

#endif
