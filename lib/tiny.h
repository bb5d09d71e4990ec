/*
 * Tiny calls: with nobody watching (no log, no summary, no statistics asked for, no path forced on this thread), a
 * valid product that goes to the CPU in any case (TILEBLAS_MODE=cpu, or auto mode's CPU finishing within the GPU's
 * fixed cost), too small for its operands to be looked at or its time taken, and not a quick return, is passed by
 * the entry point (compat/) straight to the BLAS beneath and counted.  Such a call costs that BLAS 100-200 ns; what
 * tileblas adds to it is all inline here.
 */
#ifndef TB_TINY_H
#define TB_TINY_H

#include "counters.h"
#include "devptr.h"
#include "env.h"
#include "route.h"
#include "stats.h"

/* 2*M*N*K when the valid call p may go straight to the BLAS beneath, else 0. */
static inline double tb_tiny_flops(const tb_kproblem *p)
{
    const tb_config *cfg = tb_config_get();
    if (cfg->watched || tb_stats_asked_for || tb_forced_path != TB_PATH_NONE)
        return 0.0;
    if (p->m == 0 || p->n == 0 || p->k == 0 || p->alpha == 0.0)
        return 0.0;
    const double flops = 2.0 * (double)p->m * (double)p->n * (double)p->k;
    if (flops >= TB_DEVPTR_MIN_FLOPS || flops >= TB_STATS_TIMED_FLOPS)
        return 0.0;
    return cfg->mode == TB_MODE_CPU ||
                   (cfg->mode == TB_MODE_AUTO && tb_cost_cpu_within(&cfg->cost, p, cfg->cost.gpu_call))
               ? flops
               : 0.0;
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
