#include <config.h>
#include <stddef.h>
#include "route.h"
#include "kernels.h"

__thread tb_path tb_forced_path = TB_PATH_NONE;
static __thread int forced_kernel = -1;

void tb_route_force_path(tb_path path) { tb_forced_path = path; }
void tb_route_force_kernel(int kernel) { forced_kernel = kernel; }

/* tb_route_kernel under cfg */
static int kernel_under(const tb_kproblem *p, const tb_config *cfg)
{
    if (tb_kernel_can(forced_kernel, p))
        return forced_kernel;
    return tb_kernel_can(cfg->kernel, p) ? cfg->kernel : tb_kernel_default(p->type, cfg->math);
}

int tb_route_on_tensor_cores(const tb_kproblem *p, const tb_config *cfg)
{
    const int kernel = p->type == TB_TYPE_S || p->type == TB_TYPE_C ? kernel_under(p, cfg) : -1;
    return kernel >= 0 && (tb_kernel_maths[kernel] & (TB_MATH_BIT(TB_MATH_FP32_TC) | TB_MATH_BIT(TB_MATH_TF32)));
}

/* Auto mode: the path the cost model predicts faster (lib/decide/cost.h), with its predictions in *t.  A call that the
 * CPU finishes within the GPU's fixed cost stays there without the rest of the model, and with no division (a
 * few nanoseconds of a tiny call's tens): *t is then zero, unless the log shows the predictions. */
int tb_route_auto_wants_gpu(const tb_call *g, const tb_config *cfg, tb_cost *t)
{
    if (!cfg->verbose && tb_cost_cpu_within(&cfg->cost, &g->p, cfg->cost.gpu_call)) {
        t->cpu = t->gpu = 0.0;
        return 0;
    }
    *t = tb_cost_predict(&cfg->cost, g, tb_route_on_tensor_cores(&g->p, cfg));
    return t->gpu < t->cpu;
}

int tb_route_kernel(const tb_kproblem *p)
{
    return kernel_under(p, tb_config_get());
}

tb_path tb_route_wanted(const tb_call *g, const tb_config *cfg, tb_cost *predicted)
{
    predicted->gpu = predicted->cpu = 0.0;
    if (tb_forced_path != TB_PATH_NONE)
        return tb_forced_path;
    if (cfg->mode == TB_MODE_CPU)
        return TB_PATH_CPU;
    if (cfg->mode == TB_MODE_GPU)
        return TB_PATH_GPU;
    if (tb_kernel_count > 0 && tb_kernel_default(g->p.type, cfg->math) < 0)
        return TB_PATH_CPU; /* no kernel runs the type (complex, in builds without those kernels) */
    return tb_route_auto_wants_gpu(g, cfg, predicted) ? TB_PATH_GPU : TB_PATH_CPU;
}

int tb_decide_gpu(const tb_call *g, const tb_config *cfg, int devices, tb_gpu_plan *plan)
{
    plan->kernel = kernel_under(&g->p, cfg);
    if (plan->kernel < 0)
        return -1;
    tb_spread_plan(&cfg->cost, &g->p, tb_route_on_tensor_cores(&g->p, cfg), devices, &plan->spread);
    return 0;
}
