/*
 * A host-memory call spread over several devices: C cut into blocks of whole columns (each device then needs all
 * of op(A) and its columns of op(B)) or of whole rows (all of op(B), its rows of op(A)), whichever copies the
 * smaller operand to every device, one block a device, each computed by that device's own pipeline.
 *
 * The cost model (lib/decide/cost.h) predicts d devices' time as
 *   gpu_call + gpu_extra + (d - 1) device_call + max(link, host) + kernel,
 * with link the busiest device's copies over its own PCIe link (the whole shared operand, its share of the other
 * and of C), host the bytes that all the staging copies move through host memory together (the shared operand d
 * times) at host_copy, and kernel the busiest device's product.  One device is the single-device prediction; more
 * are used only where they are predicted at least a tenth faster, so that no call is slower for the spread.
 */
#ifndef TB_SPREAD_H
#define TB_SPREAD_H

#include <stdint.h>
#include "cost.h"

/* Blocks are whole multiples of this many rows or columns (the kernels' largest tile side), the last one the rest */
#define TB_SPREAD_ALIGN 128

typedef struct tb_spread {
    int count;                          /* devices used, 1 .. TB_MAX_DEVICES */
    int by_rows;                        /* 1: row blocks of C; 0: column blocks */
    int64_t start[TB_MAX_DEVICES + 1];  /* block d: rows (or columns) [start[d], start[d + 1]); start[count] = m or n */
    double predicted;                   /* seconds, as the model above */
} tb_spread;

/* The spread of p over at most `devices` devices (each of the same rates, c's) that the model predicts fastest; tc
 * as tb_cost_predict's.  Always fills *s (count 1: the whole of C on one device). */
TB_HIDDEN void tb_spread_plan(const tb_cost_params *c, const tb_kproblem *p, int tc, int devices, tb_spread *s);

/* The model's seconds for p cut into `count` blocks as tb_spread_plan would cut them (by_rows as given) */
TB_HIDDEN double tb_spread_predict(const tb_cost_params *c, const tb_kproblem *p, int tc, int count, int by_rows);

#endif
