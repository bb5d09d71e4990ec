/* Call counters per entry point and path, kept per thread so that a call takes no lock (a tiny call lasts tens of
 * nanoseconds, as long as a contended mutex); readers add up every thread's. */
#ifndef TB_COUNTERS_H
#define TB_COUNTERS_H

#include <stdatomic.h>
#include "entries.h"

typedef struct tb_counter {
    unsigned long long calls, gpu_failures;
    unsigned long long fp32_tc; /* single-precision GPU calls on the tensor cores (TILEBLAS_MATH=fp32-tc) */
    double flops, seconds;
    double bytes; /* moved between host and device memory */
} tb_counter;

/* GPU calls are also counted by the devices that computed them (bit d of a call's mask: device d, the last bit
 * for any beyond) */
#define TB_COUNT_DEVICES 32

/* [entry point][path]; path 0 (TB_PATH_NONE) counts quick returns */
typedef struct tb_counts {
    tb_counter c[TB_ENTRY_COUNT][3];
    unsigned long long device_calls[TB_COUNT_DEVICES]; /* GPU calls that device took part in */
    double busy; /* seconds during which at least one timed call was in progress, on any thread */
} tb_counts;

/* What else a call was: flags of tb_counts_add */
enum { TB_COUNT_GPU_FAILED = 1, TB_COUNT_FP32_TC = 2 };

/* One call into this thread's counters. */
TB_HIDDEN void tb_counts_add(tb_entry_id entry, int path, double flops, double seconds, double bytes, int flags);

/* A GPU call's devices (a mask, as above) into this thread's counters. */
TB_HIDDEN void tb_counts_devices(unsigned mask);

/* A thread's counters, as it writes them (its only writer: relaxed loads and stores; readers see whole values). */
typedef struct tb_live_counter {
    _Atomic unsigned long long calls, gpu_failures, fp32_tc;
    _Atomic double flops, seconds, bytes;
} tb_live_counter;

/* A live counter read, and raised by its one writer, without a lock */
#define TB_LOAD(x) atomic_load_explicit(&(x), memory_order_relaxed)
#define TB_BUMP(x, v) atomic_store_explicit(&(x), TB_LOAD(x) + (v), memory_order_relaxed)

/* This thread's counters [entry point][path] once it has counted a call, NULL before that and after it exits. */
TB_HIDDEN extern __thread tb_live_counter (*tb_counts_here)[3];

/* tb_counts_add of an untimed CPU call, inline for the tiny-call path (1 = TB_PATH_CPU). */
static inline void tb_counts_add_cpu(tb_entry_id entry, double flops)
{
    tb_live_counter (*here)[3] = tb_counts_here;
    if (!here) {
        tb_counts_add(entry, 1, flops, 0.0, 0.0, 0);
        return;
    }
    tb_live_counter *c = &here[entry][1];
    TB_BUMP(c->calls, 1);
    TB_BUMP(c->flops, flops);
}

/* A timed call starts or ends at time t (tb_now()), for the busy time: the calls' seconds add up over threads,
 * and concurrent calls would count several times over.  Takes a lock: only for calls that are timed anyway. */
TB_HIDDEN void tb_counts_busy(int starts, double t);

/* All threads' counts (those of threads that have exited included) since start or the last reset. */
TB_HIDDEN void tb_counts_sum(tb_counts *out);

TB_HIDDEN void tb_counts_reset(void);

/* 1 in a forked child (whose counts start at the fork). */
TB_HIDDEN int tb_counts_forked(void);

#endif
