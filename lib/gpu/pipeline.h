/*
 * The transfer pipeline: a host-memory call computed tile by tile (lib/gpu/plan.h), so that the copies in and
 * out of some tiles overlap the kernels of others.
 *
 * Host side, every copy goes through pinned staging memory in chunks: the caller's pageable matrices are copied
 * into a ring of pinned "in" slots by several host threads (lib/gpu/hostcopy.h) and DMA'd from there; results come back
 * into a ring of "out" slots and are copied out to the caller's C.  Device side, every upload goes on one queue in
 * the host's order, every download on another, and tile t's kernel on queue t % depth, after the uploads queued
 * before it; a panel buffer (or a row block's, when op(A) is not kept whole) is uploaded into again only once the
 * kernels that read it are done.  Results wait in the plan's C buffers (plan->ctiles) until the out ring has room
 * for them: the host copies them out as they arrive, between chunks of the uploads, and waits for them only when
 * the next tile needs a buffer that the results of an older one still hold.  So the host goes on copying operands
 * in while the device computes, up to ctiles tiles ahead.  Tiles run in the plan's order: panel by panel, or in
 * growing squares when both operands stay whole (lib/gpu/plan.h).  Where the kernel converts its operands before the
 * product (tc32's scales and parts, kernels.h) and both stay whole, each row block and panel is converted once, on
 * a queue of its own after its upload, and the tiles' kernels multiply the converted forms.
 *
 * The device is reached only through tb_devops, so that the orchestration is tested on the CPU against a
 * simulated device that runs queued work late and in any order the dependences allow (tests/test_pipeline.c);
 * lib/gpu/cuda_ops.c provides the CUDA one.
 */
#ifndef TB_PIPELINE_H
#define TB_PIPELINE_H

#include <stddef.h>
#include <stdint.h>
#include "call.h"
#include "plan.h"

typedef struct tb_devops {
    void *ctx;
    /* device memory; 0 on success */
    int (*alloc)(void *ctx, size_t bytes, void **dev);
    void (*release)(void *ctx, void *dev);
    /* queued on queue q: copies between pinned host memory and the device (column-major blocks of esize-byte
     * elements) and the kernel */
    int (*h2d)(void *ctx, int q, void *dev, int64_t dld, const void *host, int64_t hld, int64_t rows, int64_t cols,
               unsigned esize);
    int (*d2h)(void *ctx, int q, void *host, int64_t hld, const void *dev, int64_t dld, int64_t rows, int64_t cols,
               unsigned esize);
    int (*gemm)(void *ctx, int q, const tb_kproblem *p);
    /* prepared operands (kernels.h), used where the plan has them (plan->prep_bytes; else they may be NULL):
     * queue on q the preparation of p's op(A) (which 0: its m rows) or op(B) (which 1: its n columns) as rows
     * [r0, ...) of prep, an operand of prep_rows rows; the kernel for tile p from prep_a's rows from i0 and
     * prep_b's from j0 (each block prepared there) */
    int (*prepare)(void *ctx, int q, const tb_kproblem *p, int which, void *prep, int64_t prep_rows, int64_t r0);
    int (*gemm_prepared)(void *ctx, int q, const tb_kproblem *p, const void *prep_a, int64_t a_rows, int64_t i0,
                         const void *prep_b, int64_t b_rows, int64_t j0);
    /* events, numbered 0 .. TB_PIPE_EVENTS - 1: record on queue q; queue q waits for the last record of ev; the
     * host waits for it (an event never recorded is complete); done: 1 if it is complete, 0 if not yet, -1 on a
     * failure */
    int (*record)(void *ctx, int q, int ev);
    int (*queue_wait)(void *ctx, int q, int ev);
    int (*host_wait)(void *ctx, int ev);
    int (*done)(void *ctx, int ev);
} tb_devops;

/* Pinned staging: TB_PIPE_SLOTS slots of `slot_bytes` each way.  The in ring lets the host fill the next slots
 * while the DMA reads the last ones; the out ring holds results on their way to C, two tiles or more. */
#define TB_PIPE_SLOTS 16
#define TB_PIPE_MAX_DEPTH 3
/* kernels on queues 0 .. depth - 1, uploads on TB_PIPE_MAX_DEPTH, downloads on TB_PIPE_MAX_DEPTH + 1, the
 * preparation of operands on TB_PIPE_MAX_DEPTH + 2 */
#define TB_PIPE_QUEUES (TB_PIPE_MAX_DEPTH + 3)
#define TB_PIPE_EVENTS                                                                                             \
    (2 * TB_PIPE_SLOTS + 2 + TB_PIPE_MAX_DEPTH + TB_PIPE_MAX_DEPTH * TB_PIPE_MAX_DEPTH + 2 * TB_PLAN_MAX_CTILES)

typedef struct tb_pipe_staging {
    void *in[TB_PIPE_SLOTS], *out[TB_PIPE_SLOTS]; /* pinned host memory */
    int64_t slot_bytes;
} tb_pipe_staging;

/*
 * Compute g (host pointers; m, n, k >= 1, alpha != 0) with plan `plan` on TB_PIPE_QUEUES queues.
 * Returns the number of tiles of C, in the plan's order (tb_pipeline_tile), that were written to the caller's C,
 * complete and right: all of them on success.  On a failure, the
 * tiles after those are untouched, *err names the operation that failed, and the caller computes the rest.
 * *times: where the time went (also on a failure).
 */
TB_HIDDEN int64_t tb_pipeline_run(const tb_call *g, const tb_plan *plan, const tb_devops *ops,
                                  const tb_pipe_staging *staging, tb_pipe_times *times, const char **err);

/* The smallest staging slot for the plan (bytes): a tile's results in at most TB_PIPE_SLOTS / 2 slots. */
TB_HIDDEN int64_t tb_pipeline_slot_bytes(const tb_plan *plan);

/* The slot to use for the plan on a k-deep product (bytes): at least TB_PIPE_GOOD_SLOT where its blocks are that
 * big, since every chunk costs a host wait and a wake-up of the copy threads (tens of microseconds), which small
 * chunks do not amortise (2048^3 in 1 MiB chunks moved about 16 GB/s). */
#define TB_PIPE_GOOD_SLOT_MIB 4
#define TB_PIPE_GOOD_SLOT ((int64_t)TB_PIPE_GOOD_SLOT_MIB << 20)
TB_HIDDEN int64_t tb_pipeline_slot_wanted(const tb_plan *plan, int64_t k);

/* Tile t of the plan's order: rows [*i0, *i0 + *rows) and columns [*j0, *j0 + *cols) of C. */
TB_HIDDEN void tb_pipeline_tile(const tb_plan *plan, int64_t m, int64_t n, int64_t t, int64_t *i0, int64_t *rows,
                                int64_t *j0, int64_t *cols);

#endif
