/*
 * How a kernel runs a problem, decided outside it (lib/decide/recipes.c) and handed to its launcher: the kernels'
 * configurations as rows the decision reads, the device facts it needs, and the recipe.  Plain C, for the .cu files
 * and the library proper alike.
 */
#ifndef TB_KERNEL_RECIPE_H
#define TB_KERNEL_RECIPE_H

#include <stdint.h>
#include "base.h"
#include "problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* blocked's tile configurations (kernels/blocked.cu): id, BM x BN of C, TN columns a thread, BK deep, MINB blocks an
 * SM for __launch_bounds__ */
#define TB_BLOCKED_SHAPES(X)                                                                                        \
    X(LARGE_M, 256, 128, 16, 8, 1) /* tall: for all but TT */                                                       \
    X(LARGE_N, 128, 256, 16, 8, 1) /* wide: for TT */                                                               \
    X(MID, 128, 128, 16, 8, 2)                                                                                      \
    X(SMALL, 64, 64, 8, 16, 1)                                                                                      \
    X(THIN, 256, 32, 8, 16, 2)
/* dmma's block tiles (kernels/dmma.cu): id, BM x BN of C, STAGES buffers, MINB blocks an SM, warps of WM x WN */
#define TB_DMMA_SHAPES(X)                                                                                           \
    X(BIG, 128, 128, 4, 1, 64, 32)                                                                                  \
    X(TALL, 128, 64, 3, 2, 64, 32)                                                                                  \
    X(WIDE, 64, 128, 3, 2, 64, 32)                                                                                  \
    X(SMALL, 64, 32, 3, 3, 32, 16)
/* cx's tiles (kernels/cx.cu): id, BM x BN of C, BK deep, SPLIT (k split only where C has fewer tiles than SPLIT
 * blocks an SM; 0: into slices that fill every block that fits), TMA (its stages filled by TMA where the operands
 * allow), CLUSTERS (its slices then summed in clusters) */
#define TB_CX_SHAPES(X)                                                                                             \
    X(C_SIMT, 32, 32, 8, 0, 0, 0)   /* cx-simt, single */                                                          \
    X(Z_SIMT, 32, 32, 8, 0, 0, 0)   /* cx-simt, double */                                                          \
    X(Z_DMMA, 32, 32, 16, 2, 1, 1)  /* cx-dmma */                                                                  \
    X(Z_NARROW, 64, 16, 16, 2, 1, 1)                                                                                \
    X(Z_SPAN, 32, 80, 16, 2, 1, 0)                                                                                  \
    X(Z_SPAN48, 32, 48, 16, 2, 1, 1)
#define TB_SHAPE_ID(id, ...) TB_BLOCKED_##id,
enum tb_blocked_shape { TB_BLOCKED_SHAPES(TB_SHAPE_ID) TB_BLOCKED_SHAPE_COUNT };
#undef TB_SHAPE_ID
#define TB_SHAPE_ID(id, ...) TB_DMMA_##id,
enum tb_dmma_shape { TB_DMMA_SHAPES(TB_SHAPE_ID) TB_DMMA_SHAPE_COUNT };
#undef TB_SHAPE_ID
#define TB_SHAPE_ID(id, ...) TB_CX_##id,
enum tb_cx_shape { TB_CX_SHAPES(TB_SHAPE_ID) TB_CX_SHAPE_COUNT };
#undef TB_SHAPE_ID
#define TB_DMMA_BK 16 /* dmma's tiles' depth along k */
/* the tensor-core kernels (kernels/tc32.cu): tiles TC_BM x TC_BN (tf32: TC_TF32_BN), TC_BK deep */
#define TB_TC_BM 128
#define TB_TC_BN 128
#define TB_TC_TF32_BN 256
#define TB_TC_BK 32

/* The kernel families whose launchers take a decided recipe (kernels/list.h's family column); NONE: the kernel
 * decides nothing by shape (it may still ask for the products it composes, tb_decider) */
typedef enum tb_family {
    TB_FAMILY_NONE,
    TB_FAMILY_BLOCKED,
    TB_FAMILY_DMMA,
    TB_FAMILY_TC128, /* FP32 on the tensor cores wherever they can run p, else blocked */
    TB_FAMILY_TC32,  /* the same where they are also faster than blocked */
    TB_FAMILY_TF32,  /* TF32 on the tensor cores wherever they can run p, else blocked */
    TB_FAMILY_CX_SIMT, /* complex products as complex numbers (kernels/cx.cu), on the FP32 or FP64 units */
    TB_FAMILY_CX_DMMA, /* the same on the FP64 tensor cores */
    /* complex products as one real product (kernels/complex.cu), on blocked, tf32, tc32 and dmma; _HERE: op(A)'s
     * blocks always read in place */
    TB_FAMILY_C4M_BLOCKED,
    TB_FAMILY_C4M_TF32,
    TB_FAMILY_C4M_TC32,
    TB_FAMILY_C4M_TC32_HERE,
    TB_FAMILY_Z4M_DMMA,
    TB_FAMILY_Z4M_DMMA_HERE
} tb_family;

/* The forms of complex operands a real kernel reads (kernels.h: tb_launch_blocked_pairs, ..._blocks) */
enum { TB_FORM_PAIRS = 1, TB_FORM_BLOCKS = 2 };

/* What the decisions need of a device, measured once by the GPU side (tb_kernel_facts) */
typedef struct tb_device_facts {
    int sms;                                    /* streaming multiprocessors */
    int cc;                                     /* compute capability, 10 major + minor */
    int tma;                                    /* the driver's tensor-map encoder is there (tc32's TMA) */
    int64_t l2_bytes;                           /* the L2 cache (-1: CUDA cannot say) */
    int blocked_per_sm[TB_BLOCKED_SHAPE_COUNT]; /* blocks of each of blocked's tiles an SM holds at once */
    int cx_tma;                                 /* cx's TMA kernels run here as built (Hopper code, the encoder) */
    int cx_per_sm[TB_CX_SHAPE_COUNT];           /* blocks of each cx tile an SM holds (TMA's kernel where it has one) */
    int cx_clusters[TB_CX_SHAPE_COUNT][9];      /* clusters of s blocks (2 to 8) of each that run at once (0: unknown) */
} tb_device_facts;

struct tb_decider;

/* How a kernel of a family runs one problem.  shape: the tile (blocked, dmma); slices: k split into that many (1:
 * none); transposed: computed as C^T = op(B)^T op(A)^T (blocked's thin tile); persist_depth: dmma's blocks go on from
 * tile to tile where a slice of k is at most this deep; parts: dmma's C in one part or two run in turn, the second
 * the rows (by_rows) or columns of C from `at` on, with shape2 and slices2.  The tensor-core families: tensor, the
 * tensor cores run p, k split into tc_slices; the fields above are then blocked's recipe for p, which runs it where
 * they do not (or where there is no workspace).  The complex families: direct, p computed as complex numbers
 * (cx-simt, cx-dmma) rather than as the real product; else a_here, op(A)'s blocks read in place by the real kernel
 * (no Ab made), b_here, op(B) read in place (where a_here: its op kept, else only an N op), b_pairs, a transposed
 * op(B) read as its real view (pairs) beside Ab; where direct, the fields of cx below.  The cx families (and direct):
 * shape (TB_CX_*) and slices of k, summed in clusters where clustered, else in the workspace.  decider: for the
 * products a kernel composes. */
typedef struct tb_recipe {
    int shape, transposed;
    int64_t slices, persist_depth;
    int parts, by_rows;
    int64_t at;
    int shape2;
    int64_t slices2;
    int tensor;
    int64_t tc_slices;
    int direct, a_here, b_here, b_pairs;
    int clustered;
    const struct tb_decider *decider;
} tb_recipe;

/* The decision handed to the kernels, for the products they compose (the complex kernels' real ones): *r for
 * family's kernel on p with operands in `form` on the device of `dev` */
typedef struct tb_decider {
    const tb_device_facts *dev;
    void (*recipe)(const struct tb_decider *d, tb_family family, int form, const tb_kproblem *p, tb_recipe *r);
} tb_decider;

/* k cut into at most *slices pieces, each a whole number of bk-deep tiles: the pieces' depth; *slices is set to
 * how many pieces that makes */
static inline int64_t tb_slice_depth(int64_t k, int bk, int64_t *slices)
{
    const int64_t want = *slices, kchunk = ((k + want - 1) / want + bk - 1) / bk * bk;
    *slices = want > 1 ? (k + kchunk - 1) / kchunk : 1;
    return kchunk;
}

/* The waves (rounds) of `blocks` blocks where `slots` run at once */
static inline int64_t tb_waves(int64_t blocks, int64_t slots)
{
    return (blocks + slots - 1) / slots;
}

/* The share of `slots` (the blocks that run at once) that `blocks` blocks keep busy: each wave takes as long as a
 * full one */
static inline double tb_fill(int64_t blocks, int64_t slots)
{
    return (double)blocks / (double)(tb_waves(blocks, slots) * slots);
}

/* The slices of k for `tiles` tiles of C where `slots` blocks run at once: of the counts up to 3 ceil(slots /
 * tiles) (about three waves) that leave each slice at least min_depth deep (whole bk-deep tiles, as
 * tb_split_launch cuts k), the one whose blocks fill their waves best (fewer slices unless more fill 2% more:
 * relative, so that a few tiles far from a wave, whose fill grows by less than 0.02 a slice, are still split) */
static inline int64_t tb_fill_slices(int64_t tiles, int64_t slots, int64_t k, int bk, int64_t min_depth)
{
    const int64_t by_depth = k / min_depth, by_waves = 3 * ((slots + tiles - 1) / tiles);
    const int64_t most = by_depth < by_waves ? by_depth : by_waves;
    int64_t best = 1;
    for (int64_t want = 2; want <= most; want++) {
        int64_t n = want;
        tb_slice_depth(k, bk, &n);
        if (tb_fill(tiles * n, slots) > 1.02 * tb_fill(tiles * best, slots))
            best = n;
    }
    return best;
}

#ifdef __cplusplus
}
#endif
#endif
