/* The environment (TILEBLAS_*), read once on first use. */
#ifndef TB_ENV_H
#define TB_ENV_H

#include <stdatomic.h>
#include "calibration.h"
#include "base.h"

typedef enum tb_mode { TB_MODE_AUTO = 0, TB_MODE_CPU, TB_MODE_GPU } tb_mode;

/* TILEBLAS_FAULT (for tests): a GPU failure to simulate, each where the real one would arise (lib/gpu/gpu.c,
 * lib/gpu/cuda_ops.c).  n: the operation (error) or the call (lost) from which it happens, counted from 1. */
typedef enum tb_fault {
    TB_FAULT_NONE = 0,
    TB_FAULT_NODRIVER, /* "nodriver": CUDA reports no driver; the GPU is never used */
    TB_FAULT_NODEVICE, /* "nodevice": CUDA reports no device */
    TB_FAULT_OOM,      /* "oom": every device allocation runs out of memory */
    TB_FAULT_LAUNCH,   /* "launch": kernel launches fail */
    TB_FAULT_ERROR,    /* "error:N": the N-th device operation of each GPU call fails */
    TB_FAULT_LOST      /* "lost:N": from the N-th GPU call on, the device is gone */
} tb_fault;

typedef struct tb_config {
    tb_mode mode;             /* TILEBLAS_MODE=auto|cpu|gpu */
    int kernel;               /* TILEBLAS_KERNEL: index in the kernel table; -1 = default */
    tb_math math;             /* TILEBLAS_MATH=fp32-tc|fp32|tf32: single precision's default kernel */
    const char *cpu_blas;     /* TILEBLAS_CPU_BLAS: path of the CPU BLAS library, or NULL */
    int verbose;              /* TILEBLAS_VERBOSE=0|1|2 */
    int summary;              /* TILEBLAS_SUMMARY=1, or TILEBLAS_VERBOSE=2: the summary at exit */
    int watched;              /* verbose or summary: every call is timed (and none takes the tiny-call path) */
    tb_cost_params cost;      /* auto mode's cost model: the calibration file's, else the built-in defaults */
    char cost_source[512];    /* that file's path, or "" for the built-in defaults */
    int copy_threads;         /* TILEBLAS_COPY_THREADS: host threads for staging copies; 0 = the online CPUs */
    double gpu_memory;        /* TILEBLAS_GPU_MEMORY: most device bytes a call uses; 0 = no cap */
    int devices;              /* TILEBLAS_DEVICES: how many of device_list; 0: the first visible device alone (the
                                 default); TB_ALL_DEVICES: every visible one */
    int device_list[TB_MAX_DEVICES]; /* CUDA's numbers of the visible devices, in the order given */
    long long run_pid;        /* TILEBLAS_RUN_PID (set by tileblas-run): the program's pid; 0 = not under it */
    tb_fault fault;           /* TILEBLAS_FAULT */
    long fault_n;
} tb_config;

/* A list of devices ("0,1", "0-3", "2,0": the numbers CUDA gives the visible devices, in the order given, each once)
 * into list[0 .. max - 1]: their number; 0 for "all"; -1 when not such a list (empty, spaces, signs, a range
 * backwards, a device twice, more than max).  For TILEBLAS_DEVICES. */
TB_HIDDEN int tb_parse_devices(const char *s, int *list, int max);

enum { TB_ALL_DEVICES = -1 };

/* Most host threads a staging copy uses (TILEBLAS_COPY_THREADS's upper bound). */
#define TB_MAX_COPY_THREADS 64

/* The configuration, parsed on first use; after that one atomic load (it is read several times per call). */
TB_HIDDEN extern _Atomic(const tb_config *) tb_config_ready;
TB_HIDDEN const tb_config *tb_config_get_slow(void);
static inline const tb_config *tb_config_get(void)
{
    const tb_config *c = atomic_load_explicit(&tb_config_ready, memory_order_acquire);
    return c ? c : tb_config_get_slow();
}

/* A whole number from 0 to max written in decimal digits alone (no sign, space, base prefix or trailing text, at
 * most 18 digits); -1 otherwise. */
TB_HIDDEN long tb_parse_whole(const char *s, long max);

/* "oom", "error:3", ...: *fault and *n; -1 when not such a value. */
TB_HIDDEN int tb_parse_fault(const char *s, tb_fault *fault, long *n);

/* "512M", "1.5G", "1048576": a whole number of bytes, with an optional binary K, M, G or T; -1 when not such a
 * size (signs, spaces, exponents, hexadecimal, a fraction of a byte, or more than 2^62 bytes). */
TB_HIDDEN double tb_parse_size(const char *s);

/* 1 when the summary at exit is wanted.  A process that made no call, and so never read its configuration, reads
 * it now (opening the calibration files) only if the environment asks for a summary. */
TB_HIDDEN int tb_config_summary_wanted(void);

/* Parse the environment into *cfg (tb_config_get() does this once; tests may call it directly). */
TB_HIDDEN void tb_config_parse(tb_config *cfg);

#endif
