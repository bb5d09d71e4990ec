/* One call as the layers below compat/ see it: the routine's problem on host pointers, the entry point it came in
 * on, and the way back to the BLAS beneath. */
#ifndef TB_CALL_H
#define TB_CALL_H

#include <stddef.h>
#include <stdint.h>
#include "base.h"
#include "entries.h"
#include "problem.h"

typedef struct tb_call tb_call;

/* How compat/ gives a call back to the BLAS beneath.  whole: the caller's call, unchanged (same symbol, same
 * arguments); part: a column-major problem on host memory (a piece of the call that the GPU did not finish) through
 * the same symbol at that BLAS's integer width; describe: the call as the caller wrote it, for the log.  whole and
 * part return 0, or -1 when there is no BLAS beneath (nothing was done). */
typedef struct tb_reissue {
    int (*whole)(const tb_call *g);
    int (*part)(const tb_call *g, const tb_kproblem *p);
    void (*describe)(const tb_call *g, char *buf, size_t size);
} tb_reissue;

struct tb_call {
    /* column-major: C = alpha * op(A) * op(B) + beta * C on the routine's part of C (problem.h), the kernels'
     * problem with host pointers (a rank-k update: op(B) is op(A)'s transpose, or conjugate transpose) */
    tb_kproblem p;
    tb_entry_id entry; /* the entry point it came in on (entries.h: its ABI, integer width, type, routine) */
    const tb_reissue *via; /* NULL only in unit tests that never reach the CPU */
    const void *raw;       /* the caller's arguments, which only compat/ reads */
    const struct tb_blas_fn *beneath; /* the BLAS beneath this caller (lib/cpu/cpu_blas.h), which compat/ calls */
    const void *ret; /* the caller's return address: where compat/ finds the BLAS beneath it for other routines */
};

/* Flops of the call (2 M N K, 8 M N K for complex types; of a rank-k update, those of its triangle's elements,
 * N (N + 1) K, 4 N (N + 1) K); inline, since every call, however tiny, asks. */
static inline double tb_call_flops(const tb_call *g)
{
    return tb_type_flops(g->p.type) * tb_part_elems(&g->p) * (double)g->p.k;
}

/* Where the calling thread's time went in a GPU run (lib/gpu/pipeline.h), in seconds: the staging copies in (the caller's operands into the
 * in slots) and out (the out slots into C, and mapping C's pages first), and waits for the device (for a free in
 * slot, or for results). */
typedef struct tb_pipe_times {
    double copy_in, copy_out, wait;
} tb_pipe_times;

/* Calls of at least this many flops are always timed (16.7 MFLOP: 10 us or more on any path, where two clock
 * reads cost under 0.5 %); smaller ones only when someone watches (lib/obs/stats.h). */
#define TB_STATS_TIMED_FLOPS 16777216.0

/* Calls of fewer flops are not looked at for device memory (their operands are taken to be host memory, as the
 * CPU BLAS would take them): asking the driver costs more than a fifth of such a call (lib/gpu/devptr.h). */
#define TB_DEVPTR_MIN_FLOPS 16777216.0

#endif
