/* The GPU: lazy one-time initialisation (the GPU side is loaded then, lib/gpu/gpu_module.h), reused device buffers,
 * transfers, the kernel launch. */
#ifndef TB_GPU_H
#define TB_GPU_H

#include "devptr.h"
#include "env.h"
#include "call.h"
#include "pipeline.h"
#include "plan.h"
#include "spread.h"

/* One warning per process about the GPU not doing its part (whichever comes first: no usable GPU in
 * TILEBLAS_MODE=gpu, or a GPU failure that sent calls to the CPU). */
TB_HIDDEN extern _Atomic int tb_gpu_warned;

/* 1 when a device is usable.  The first call initialises CUDA (once, thread-safe); nothing CUDA happens
 * before.  When 0, *why_not (if given) says why.  Negative once the process is exiting: the GPU takes no new
 * work, and calls run on the CPU without a word; on the BLAS beneath from the thread that runs exit(), on the
 * built-in loop from the others (the BLAS beneath may be torn down under them). */
enum { TB_GPU_EXITING = -1, TB_GPU_EXITING_ELSEWHERE = -2 };
TB_HIDDEN int tb_gpu_usable(const char **why_not);

/* Without initialising anything: 0 when the runtime was never initialised, 1 when usable (*text: the
 * device), -1 when not usable (*text: why). */
TB_HIDDEN int tb_gpu_state(const char **text);

/* What a GPU call wrote, block by block of C (one block, unless the call was spread over several devices: lib/decide/
 * spread.h): each block's problem (a part of the call's, tb_kproblem_block), its plan, and how many of its tiles (in
 * the plan's order, tb_pipeline_tile) were written, complete and right; the rest of the block is untouched.  A
 * block that failed before it had a plan has done 0 and a plan of one tile. */
/* What the GPU side is told of the configuration (lib/config) when it is loaded, by lib/gpu/gpu.c; it reads nothing
 * else of it */
typedef struct tb_gpu_settings {
    tb_fault fault; /* TILEBLAS_FAULT: simulated failures */
    long fault_n;
    double memory_cap;                  /* TILEBLAS_GPU_MEMORY: most device bytes a call uses; 0: no cap */
    int copy_threads;                   /* TILEBLAS_COPY_THREADS; 0: the online CPUs */
    int say;                            /* TILEBLAS_VERBOSE >= 1: say what is done without (threads refused) */
    int devices;                        /* TILEBLAS_DEVICES: as many of device_list (0: the first visible device; */
    int device_list[TB_MAX_DEVICES];    /* TB_ALL_DEVICES: every visible one), CUDA's numbers */
} tb_gpu_settings;

typedef struct tb_gpu_result {
    int blocks;
    struct {
        tb_kproblem p;
        tb_plan plan;
        int64_t done;
        int device; /* the CUDA device it ran on (-1: none) */
    } block[TB_MAX_DEVICES];
} tb_gpu_result;

/* Run g on the GPU with kernel number *kernel of the table, or the one that kernel hands g to (tb_decide_kernel,
 * then in *kernel), tile by tile (lib/gpu/pipeline.h), in the blocks of sp, block d on the d-th device calls may
 * use (tb_gpu_devices).  Returns 0 on success.  Otherwise *err says what failed, *r
 * what was written, and the caller computes the rest on the CPU.  A failure that leaves the device unusable
 * (anything but running out of memory) turns the GPU off for the rest of the process. */
TB_HIDDEN int tb_gpu_gemm(const tb_call *g, int *kernel, const tb_spread *sp, tb_gpu_result *r, const char **err);

/* How many devices calls from host memory may use (TILEBLAS_DEVICES, of those present); 1 until the GPU is
 * usable (tb_gpu_usable). */
TB_HIDDEN int tb_gpu_devices(void);

/* Run g on the GPU with its operands where they are: those in device or managed memory (w[i] != TB_ON_HOST, for
 * A, B, C) in place, host ones copied to the device and (C) back, on *device, the device that holds the device
 * memory (tb_operands_where; with none, the library's first device).  Work is ordered on that device's default
 * stream after what the program queued there, and C is complete on return.  *kernel as for tb_gpu_gemm; *device
 * then the device it ran on.  0, or -1 with *err set and C untouched. */
TB_HIDDEN int tb_gpu_gemm_resident(const tb_call *g, int *kernel, const tb_where w[3], int *device, const char **err);

/* For programs built with the GPU side in them (the tools): its table (lib/gpu/gpu_module.h), used instead of the
 * module.  Called before any call that may use the GPU. */
struct tb_gpu_module;
TB_HIDDEN void tb_gpu_link(const struct tb_gpu_module *m);

/* How `kernel` ran p on `device` (a device a call has run on), in words: its recipe (lib/decide/recipes.h); "" where
 * there is nothing to say */
TB_HIDDEN void tb_gpu_describe(int device, int kernel, const tb_kproblem *p, char *buf, size_t size);

/* Bytes this thread's GPU calls moved between host and device memory, and where its pipelines' time went
 * (lib/gpu/pipeline.h), since last asked (then zero). */
TB_HIDDEN void tb_gpu_take_moved(double *bytes, tb_pipe_times *times);

#endif
