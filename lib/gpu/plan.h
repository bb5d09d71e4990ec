/*
 * How a host-memory call is cut into blocks for the transfer pipeline.  Pure arithmetic, no CUDA: the
 * unit tests check it on the CPU.
 *
 * C is cut into tiles of mb rows x nb columns.  Tile (i, j) needs row block i of op(A) (mb x k) and column panel
 * j of op(B) (k x nb).  Tiles run panel by panel (j outer, i inner), so a panel of B is copied in once and used by
 * all the tiles below it.  When the whole of op(A) fits on the device beside the rest (a_resident), each row block
 * is copied in once, during the first panel, and stays; otherwise row blocks are copied in again for every panel.
 * `depth` tiles are in flight at once: as many buffers for C tiles (and for A row blocks when A is not
 * resident), and as many for B panels.
 *
 * When op(B) fits whole too (b_resident, only with a_resident), both stay, and the tiles run in growing squares
 * instead: shell s is row block s against the panels before it, then panel s against row blocks 0 .. s.  Each
 * shell brings in one row block and one panel and computes 2s + 1 tiles, so the copies in are spread over the
 * call, where panel by panel all of op(A) comes in during the first panel, with little to compute meanwhile.
 */
#ifndef TB_PLAN_H
#define TB_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include "call.h"

typedef struct tb_plan {
    int64_t mb, nb;    /* rows and columns of a C tile; the last row block / panel may be smaller */
    int64_t mtiles, ntiles;
    int a_resident;    /* op(A) copied in once and kept for the whole call */
    int b_resident;    /* op(B) too; the tiles then run in growing squares */
    int depth;         /* kernels in flight (queues), and buffers for row blocks and panels not kept whole */
    int64_t ctiles;    /* device buffers for C tiles: results wait there until the host takes them */
    size_t bytes;      /* device memory the plan needs */
    unsigned esize;    /* bytes of an element */
    /* Device bytes of op(A)'s and op(B)'s prepared forms where the kernel converts its operands before the
     * product (kernels.h, tb_kernel_prep) and each row block and panel is converted once for all its tiles;
     * only with b_resident, else 0 (not prepared).  Not counted in `bytes`: tb_plan_make leaves them 0, and the
     * caller, who knows the kernel, sets them where they fit. */
    size_t prep_bytes[2];
    /* Device bytes kept free beside `bytes` for the kernels' own workspaces (split k, operand conversions, the
     * complex kernels' planes): one for each kernel in flight, of a whole tile (tb_plan_make_ws) */
    size_t ws_bytes;
} tb_plan;

/* The workspace one kernel needs for a tile of mb x nb (all of k): `bytes(ctx, mb, nb)`.  grid: the kernel prepares
 * its operands once for all their tiles (kernels.h), which it can only where both stay whole (b_resident): C is
 * then cut along both sides, into at least two row blocks and two panels, where it is cut at all. */
typedef struct tb_plan_ws {
    size_t (*bytes)(const void *ctx, int64_t mb, int64_t nb);
    const void *ctx;
    int grid;
} tb_plan_ws;

/* C tiles kept on the device at most, where memory allows (at least `depth`): the host copies a tile's results out
 * when they have arrived, and meanwhile goes on with the operands of the next tiles, up to this many tiles ahead of
 * the results it has taken. */
#define TB_PLAN_MAX_CTILES 32
/* Tiles at least this big (rows and columns), unless the matrix is smaller: smaller ones waste the kernel. */
#define TB_PLAN_MIN_TILE 256
/* Aim for this many tiles, so that copies in and out overlap the kernels of other tiles; but fewer where the
 * problem moves less than TB_PLAN_TILE_BYTES a tile, since each tile has fixed costs (events, copies too small
 * to share among threads): 64 x 16384 x 64 in 8 tiles took 0.9 ms on the H200, and OpenBLAS 0.7 ms. */
#define TB_PLAN_TARGET_TILES 8
#define TB_PLAN_TILE_BYTES ((int64_t)2 << 20)
/* The first kernel waits for a whole row block of op(A) and a whole panel of op(B): the one that spans the
 * shorter side of C is cut into blocks of at most this many bytes, about 3 ms of copying (8192^3 on the H200:
 * 32 -> 29 ms with two row blocks of A instead of one). */
#define TB_PLAN_FIRST_BLOCK_MIB 128
#define TB_PLAN_FIRST_BLOCK ((int64_t)TB_PLAN_FIRST_BLOCK_MIB << 20)

/* Device bytes of a rows x cols column-major block of esize-byte elements, its leading dimension rounded up to 4
 * elements. */
TB_HIDDEN size_t tb_plan_block_bytes(int64_t rows, int64_t cols, unsigned esize);

/* Device bytes of one of the plan's C tile buffers (they lie side by side in one allocation): a block of mb x nb,
 * rounded up to 256 bytes. */
TB_HIDDEN size_t tb_plan_ctile_bytes(const tb_plan *plan);

/*
 * The plan for C = alpha*op(A)*op(B) + beta*C (m, n, k >= 1, elements of esize bytes) within `budget` bytes of
 * device memory.  Returns 0,
 * or -1 when not even tiles of TB_PLAN_MIN_TILE (or the whole matrix, if smaller) fit with depth 2.
 */
TB_HIDDEN int tb_plan_make(int64_t m, int64_t n, int64_t k, int transa, int transb, unsigned esize, size_t budget,
                           tb_plan *plan);
/* The same with room left in `budget` for `depth` kernel workspaces of the plan's tiles (ws NULL: none) */
TB_HIDDEN int tb_plan_make_ws(int64_t m, int64_t n, int64_t k, int transa, int transb, unsigned esize, size_t budget,
                              const tb_plan_ws *ws, tb_plan *plan);

#endif
