/*
 * Tiny calls: with nobody watching (no log, no summary, no statistics asked for, no path forced on this thread), a
 * valid product that goes to the CPU in any case (TILEBLAS_MODE=cpu, or auto mode's CPU finishing within the GPU's
 * fixed cost), too small for its operands to be looked at or its time taken, and not a quick return, is passed by
 * the entry point (compat/) straight to the BLAS beneath and counted.  Such a call costs that BLAS 100-200 ns; what
 * tileblas adds to it is all inline here, and kept to a few dozen instructions: the configuration's part of the
 * test is worked out once, into a gate per type.
 */
#ifndef TB_TINY_H
#define TB_TINY_H

#include <stdatomic.h>
#include "counters.h"
#include "env.h"
#include "route.h"
#include "stats.h"

/* Per type: a call of M x N x K is tiny when f (M + half) (N + half) (K + half) <= most (f: the type's flops of a
 * multiply-add, 2 or 8).  most is 0 (the gate
 * closed) until the configuration is read, and from when someone watches; half is written before most opens. */
typedef struct tb_tiny_gate {
    double half;
    _Atomic double most;
} tb_tiny_gate;
TB_HIDDEN extern tb_tiny_gate tb_tiny_gates[TB_TYPE_COUNT];

/* Opens or closes the gates for cfg and the statistics' state (after reading the configuration, and whenever the
 * program first asks for the statistics). */
TB_HIDDEN void tb_tiny_update(const tb_config *cfg);

/* 1 when the problem's numbers make it a valid call that is not a quick return (M, N, K >= 1: the leading
 * dimensions' lower bounds are then the rows themselves; each operand of a two-product call is k1 deep, and the
 * second pair are the first's swapped), the first test of a tiny call (before ALPHA is read). */
static inline int tb_tiny_valid(const tb_kproblem *p)
{
    const int64_t depth = tb_depth(p);
    return ((p->m - 1) | (p->n - 1) | (p->k - 1)) >= 0 && p->lda >= (p->transa ? depth : p->m) &&
           p->ldb >= (p->transb ? p->n : depth) && p->ldc >= p->m;
}

/* The call's flops when p, which passed tb_tiny_valid, may go straight to the BLAS beneath, else 0.  Only
 * alpha's real part has been read (a complex alpha of real part 0 is never tiny: the core looks at it). */
static inline double tb_tiny_flops(const tb_kproblem *p)
{
    const tb_tiny_gate *g = &tb_tiny_gates[p->type];
    const double m = (double)p->m, n = (double)p->n, k = (double)p->k, h = g->half, f = tb_type_flops(p->type);
    if (p->alpha == 0.0 || tb_forced_path != TB_PATH_NONE ||
        f * (m + h) * (n + h) * (k + h) > atomic_load_explicit(&g->most, memory_order_acquire))
        return 0.0;
    return f * tb_part_elems(p) * k;
}

/* What the statistics keep of such a call: counted on the CPU, the thread's last call. */
static inline void tb_tiny_done(tb_entry_id entry, double flops)
{
    tb_counts_add_cpu(entry, flops);
    tb_stats_last_call.path = TILEBLAS_PATH_CPU;
    tb_stats_last_call.kernel = NULL;
    tb_stats_last_call.gpu_failed = 0;
}

#endif
