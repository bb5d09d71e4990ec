/*
 * The GPU side of the library as a table of functions.  It is a module of its own (tileblas-gpu.so, linked with
 * the shared CUDA runtime), loaded by lib/gpu/gpu.c on the first call that may use the GPU: a program that makes no
 * such call never maps CUDA, and the library itself holds no CUDA runtime, whose static form cannot be dlopen'ed
 * (its initial-exec thread-local storage does not fit the room glibc keeps for late loads).  Programs built with
 * the GPU side linked in (the tools, the kernel tests) use the same table without loading anything.  Either way the
 * library configures it first (tb_gpu_settings): the module reads no configuration of its own.
 */
#ifndef TB_GPU_MODULE_H
#define TB_GPU_MODULE_H

#include "devptr.h"
#include "call.h"
#include "gpu.h"
#include "pipeline.h"
#include "plan.h"

/* The meaning of each function is that of its tb_gpu_* counterpart in lib/gpu/gpu.h. */
typedef struct tb_gpu_module {
    const char *version; /* PACKAGE_VERSION of the module: it must match the library's */
    int (*usable)(const char **why_not);
    int (*state)(const char **text);
    int (*gemm)(const tb_call *g, int *kernel, const tb_spread *sp, tb_gpu_result *r, const char **err);
    int (*devices)(void);
    int (*gemm_resident)(const tb_call *g, int *kernel, const tb_where w[3], int *device, const char **err);
    void (*take_moved)(double *bytes, tb_pipe_times *times);
    void (*describe)(int device, int kernel, const tb_kproblem *p, char *buf, size_t size);
    void (*configure)(const tb_gpu_settings *s); /* before anything else: what it is told of the configuration */
} tb_gpu_module;

/* The module's one exported symbol: the table. */
#define TB_GPU_MODULE_ENTRY "tileblas_gpu_module"
typedef const tb_gpu_module *(*tb_gpu_module_entry)(void);
__attribute__((visibility("default"))) const tb_gpu_module *tileblas_gpu_module(void);

/* The table itself, in the GPU side's code (lib/gpu/cuda_gpu.c). */
TB_HIDDEN extern const tb_gpu_module tb_cuda_gpu;

#endif
