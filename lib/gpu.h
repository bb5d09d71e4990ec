/* The GPU runtime: lazy one-time initialisation, reused device buffers, transfers, the kernel launch. */
#ifndef TB_GPU_H
#define TB_GPU_H

#include "gemm.h"

/* 1 when a device is usable.  The first call initialises CUDA (once, thread-safe); nothing CUDA happens
 * before.  When 0, *why_not (if given) says why. */
TB_HIDDEN int tb_gpu_usable(const char **why_not);

/* Without initialising anything: 0 when the runtime was never initialised, 1 when usable (*text: the
 * device), -1 when not usable (*text: why). */
TB_HIDDEN int tb_gpu_state(const char **text);

/* Run g on the GPU with kernel number `kernel` of the table.  Returns 0 on success; otherwise C is untouched,
 * *err says what failed, and the caller runs the call on the CPU.  A failure that leaves the device unusable
 * (anything but running out of memory) turns the GPU off for the rest of the process. */
TB_HIDDEN int tb_gpu_sgemm(const tb_gemm *g, int kernel, const char **err);

#endif
