/*
 * A host-memory call spread over several devices (lib/decide/spread.h): block d of C computed by device d's own
 * pipeline (lib/gpu/pipeline.h: its devops, staging and plan), all at once, one host thread a block.  Each block
 * is a call of its own to the pipeline, with its own outcome: the tiles it wrote, or what failed, so that the caller
 * computes on the CPU what each device did not finish.
 */
#ifndef TB_SPREAD_RUN_H
#define TB_SPREAD_RUN_H

#include "pipeline.h"
#include "spread.h"

/* One device's part: given, its devops, staging and the plan of its block (tb_spread_block's problem); back, the
 * pipeline's outcome for that block (tb_pipeline_run's: tiles written, what failed or NULL, where the time went). */
typedef struct tb_spread_part {
    const tb_devops *ops;
    const tb_pipe_staging *staging;
    tb_plan plan;
    /* called on the block's thread before its pipeline runs, with bind_arg (CUDA: the device made current); NULL:
     * none.  A nonzero return fails the block (err "binding the device") before anything is written. */
    int (*bind)(void *bind_arg);
    void *bind_arg;
    /* called on the block's thread after its pipeline (or a refused bind), with bind_arg: what the thread's own
     * state holds of the block (CUDA: its last error, the bytes it moved) taken from there; NULL: none */
    void (*unbind)(void *bind_arg);
    int64_t done;
    const char *err;
    tb_pipe_times times;
} tb_spread_part;

/* Block d of s, of g's problem */
TB_HIDDEN tb_kproblem tb_spread_block(const tb_call *g, const tb_spread *s, int d);

/* Blocks 0 .. s->count - 1 on parts[0 ..]: block 0 on the calling thread, the others on threads started for the
 * call (a block whose thread cannot be started runs after block 0, on the calling thread).  Returns how many
 * blocks were not written whole (0: all of C). */
TB_HIDDEN int tb_spread_run(const tb_call *g, const tb_spread *s, tb_spread_part *parts);

#endif
