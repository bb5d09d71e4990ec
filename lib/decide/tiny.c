/* The tiny calls' gates (lib/decide/tiny.h). */
#include <config.h>
#include "tiny.h"

tb_tiny_gate tb_tiny_gates[TB_TYPE_COUNT];

void tb_tiny_update(const tb_config *cfg)
{
    /* below the sizes whose operands are looked at (device pointers) or whose time is always taken */
    const double cap = (TB_DEVPTR_MIN_FLOPS < TB_STATS_TIMED_FLOPS ? TB_DEVPTR_MIN_FLOPS : TB_STATS_TIMED_FLOPS) - 1.0;
    const int open = !cfg->watched && !tb_stats_asked_for && cfg->mode != TB_MODE_GPU;
    for (int t = 0; t < TB_TYPE_COUNT; t++) {
        tb_tiny_gate *g = &tb_tiny_gates[t];
        double most = 0.0;
        if (open && cfg->mode == TB_MODE_CPU) {
            g->half = 0.0;
            most = cap;
        } else if (open) { /* auto: the CPU finishes within the GPU's fixed cost (tb_cost_cpu_within) */
            g->half = cfg->cost.cpu_half[t];
            most = (cfg->cost.gpu_call - cfg->cost.cpu_call) * cfg->cost.cpu_rate[t];
            most = most < cap ? most : cap;
        }
        atomic_store_explicit(&g->most, most > 0.0 ? most : 0.0, memory_order_release);
    }
}
