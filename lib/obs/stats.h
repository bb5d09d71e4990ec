/* Call statistics (process-wide), the thread's last call, the per-call log and the summary at exit. */
#ifndef TB_STATS_H
#define TB_STATS_H

#include "call.h"
#include "entries.h"
#include "tileblas.h"

typedef struct tb_call_record {
    tb_entry_id entry;
    tb_path path;     /* TB_PATH_NONE for a quick return */
    int kernel;       /* table index when on the GPU */
    int gpu_failed;   /* meant for the GPU, ran on the CPU */
    double seconds;
    tb_cost predicted; /* auto mode's predictions; zeros when the path was forced */
    double flops;      /* 2*M*N*K, 0 for a quick return */
    double bytes;      /* moved between host and device memory */
    tb_pipe_times host; /* the calling thread's time in the pipeline's copies and waits (zeros without one) */
    int in_place;      /* some operands were in device or managed memory, used where they were */
    unsigned devices;  /* the CUDA devices that computed some of C: bit d for device d (tb_device_bit) */
    char recipe[112];  /* TILEBLAS_VERBOSE=2: how the GPU kernel ran (the first tile), in words; else "" */
} tb_call_record;

/* A device's bit in tb_call_record's devices; devices beyond the bits count as the last one */
static inline unsigned tb_device_bit(int device)
{
    return device < 0 ? 0u : 1u << (device < 31 ? device : 31);
}

/* 1 when every call's time is wanted: TILEBLAS_VERBOSE >= 1, or the program has asked for the statistics
 * (tileblas_get_stats or tileblas_reset_stats) at least once. */
TB_HIDDEN int tb_stats_timing_wanted(void);

/* Set once the program has asked for the statistics (tileblas_get_stats or tileblas_reset_stats). */
TB_HIDDEN extern _Atomic int tb_stats_asked_for;

/* This thread's last call (tileblas_last_call). */
TB_HIDDEN extern __thread tileblas_call_info tb_stats_last_call;

/* Count the call, remember it as this thread's last, and log it when TILEBLAS_VERBOSE >= 1. */
TB_HIDDEN void tb_stats_record(const tb_call *g, const tb_call_record *r);

/* What the summary at exit tells beyond the counts, as the core found it: the GPU's state (tb_gpu_state's value
 * and text) and the CPU BLAS of each entry point (name(entry, n): the n-th library, NULL past the last). */
typedef struct tb_summary_facts {
    int gpu;
    const char *gpu_text;
    const char *(*cpu_blas_name)(tb_entry_id entry, int n);
} tb_summary_facts;

/* The summary (TILEBLAS_SUMMARY=1, or TILEBLAS_VERBOSE=2): where the calls went, printed at exit. */
TB_HIDDEN void tb_stats_summary(const tb_summary_facts *facts);

/* The statistics' getters mark them asked for (tb_stats_asked_for); the caller then closes the tiny calls' gate. */
TB_HIDDEN void tb_stats_get(tileblas_stats *out);
TB_HIDDEN void tb_stats_reset(void);
TB_HIDDEN void tb_stats_last(tileblas_call_info *out);

#endif
