#include <config.h>
#include <pthread.h>
#include "spread_run.h"

tb_kproblem tb_spread_block(const tb_call *g, const tb_spread *s, int d)
{
    const int64_t at = s->start[d], size = s->start[d + 1] - s->start[d];
    return s->by_rows ? tb_kproblem_block(&g->p, at, size, 0, g->p.n) : tb_kproblem_block(&g->p, 0, g->p.m, at, size);
}

typedef struct job {
    tb_call g; /* the block as a call of its own */
    tb_spread_part *part;
} job;

static void *run_block(void *arg)
{
    job *j = arg;
    tb_spread_part *x = j->part;
    x->err = NULL;
    if (x->bind && x->bind(x->bind_arg))
        x->done = 0, x->err = "binding the device", x->times = (tb_pipe_times){ 0 };
    else
        x->done = tb_pipeline_run(&j->g, &x->plan, x->ops, x->staging, &x->times, &x->err);
    if (x->unbind)
        x->unbind(x->bind_arg);
    return NULL;
}

int tb_spread_run(const tb_call *g, const tb_spread *s, tb_spread_part *parts)
{
    job jobs[TB_MAX_DEVICES];
    pthread_t threads[TB_MAX_DEVICES];
    int started[TB_MAX_DEVICES] = { 0 };
    for (int d = 0; d < s->count; d++) {
        jobs[d].g = *g, jobs[d].g.p = tb_spread_block(g, s, d), jobs[d].part = &parts[d];
        started[d] = d > 0 && !pthread_create(&threads[d], NULL, run_block, &jobs[d]);
    }
    run_block(&jobs[0]);
    int short_of = 0;
    for (int d = 0; d < s->count; d++) {
        if (started[d])
            pthread_join(threads[d], NULL);
        else if (d > 0)
            run_block(&jobs[d]);
        short_of += parts[d].done < parts[d].plan.mtiles * parts[d].plan.ntiles;
    }
    return short_of;
}
