/* The recipes of the kernel families (kernels/recipe.h): which tile, how k is split, whether the tensor cores run a
 * problem.  The measurements behind each rule: doc/NOTES.md ("The blocked kernel's choice of tile by shape", "The
 * DGEMM kernel (dmma): where it stands") and bench/RESULTS.md. */
#include <config.h>
#include <stddef.h>
#include <stdio.h>
#include "recipes.h"

/* The tuning of the rules, a row per architecture (compute capability): the row of the device's, else the first
 * (measured on sm_90, H100 and H200).
 * blocked: C with a side of at most thin_side takes the thin tile, k split into slices at least thin_slice deep;
 *   the large tile only where its tiles use at least large_use of their area, its k split where they fill their
 *   waves under large_fill and k is at least 2 mid_slice deep; mid_slice: the shallowest slice of the large and
 *   middle tiles; the small tile's k is split from small_split_k deep on, into slices at least small_slice deep.
 * dmma: the big tile only where k is at least big_min_k deep; split_depth: the shallowest slice of k;
 *   persist_depth: up to this depth of a slice, blocks go on from one tile to the next.
 * tc (tc32 against blocked): k at least min_k deep, tiles at least min_used used, at most max_pass_bytes of the
 *   passes' traffic per flop (7 (1/m + 1/n)), at least min_flops, and a wave of tiles or tiles times slices that
 *   fill at least min_fill of their waves; slices of k at least slice_depth deep.
 * complex (the 4M kernels): CGEMM's products of at most thin_cols columns and thin_elems complex elements of C, or
 *   at most slim_cols and slim_elems, are computed as complex numbers (cx-simt) rather than on tc32; op(A)'s blocks
 *   are read in place up to few_cols_n columns of C (op(A) N), few_cols_t (T or C; tc32: tc32_few_cols_t); dmma
 *   reads a transposed op(B) as pairs where op(A) has at most z_pairs_rows rows; ZGEMM's products of at most
 *   z_direct_flops real flops (8 m n k), or whose C has at most z_direct_side rows or columns, are computed as
 *   complex numbers (cx-dmma).
 * cx: slice, the shallowest slice of k; deep_slice: tiles that split k where C has fewer tiles than a wave also cut
 *   it into slices at least this deep that fill every block that fits, and the wave slices are at least this deep;
 *   cluster_depth: slices deeper than this sum in the workspace even where clusters could (but the wave slices);
 *   l2_share: the 32 x 48 tiles where op(A) is past the L2 cache / l2_share (two partitions, each caching for its
 *   SMs, so what every SM reads can be held twice). */
static const struct tuning {
    int cc;
    struct {
        int64_t thin_side, thin_slice, mid_slice, small_split_k, small_slice;
        double large_use, large_fill;
    } blocked;
    struct {
        int64_t big_min_k, split_depth, persist_depth;
    } dmma;
    struct {
        int64_t min_k, slice_depth;
        double min_used, max_pass_bytes, min_flops, min_fill;
    } tc;
    struct {
        int64_t thin_cols, slim_cols;
        double thin_elems, slim_elems;
        int64_t few_cols_n, few_cols_t, tc32_few_cols_t, z_pairs_rows;
        double z_direct_flops;
        int64_t z_direct_side;
    } complex;
    struct {
        int64_t slice, deep_slice, cluster_depth, l2_share;
    } cx;
} tuning_rows[] = {
    { 90,
      { 32, 128, 512, 128, 32, 0.6, 0.8 },
      { 1024, 256, 256 },
      { 256, 256, 0.5, 0.07, 2.5e9, 0.75 },
      { 320, 192, 3e5, 2e6, 1024, 192, 1024, 896, 1e9, 1024 },
      { 128, 256, 384, 2 } },
};

static const struct tuning *tuning_for(const tb_device_facts *f)
{
    for (size_t i = 0; i < sizeof tuning_rows / sizeof tuning_rows[0]; i++)
        if (tuning_rows[i].cc == f->cc)
            return &tuning_rows[i];
    return &tuning_rows[0];
}

/* The kernels' tiles as rows (kernels/recipe.h) */
static const struct {
    int bm, bn, bk;
} blocked_tile[] = {
#define ROW(id, bm, bn, tn, bk, minb) { bm, bn, bk },
    TB_BLOCKED_SHAPES(ROW)
#undef ROW
};
static const struct {
    int bm, bn, minb;
} dmma_tile[] = {
#define ROW(id, bm, bn, stages, minb, wm, wn) { bm, bn, minb },
    TB_DMMA_SHAPES(ROW)
#undef ROW
};

static const struct {
    int bm, bn, bk, split, tma, clusters;
} cx_tile[] = {
#define ROW(id, bm, bn, bk, split, tma, clusters) { bm, bn, bk, split, tma, clusters },
    TB_CX_SHAPES(ROW)
#undef ROW
};

static int64_t tiles(const tb_kproblem *p, int bm, int bn)
{
    return ((p->m + bm - 1) / bm) * ((p->n + bn - 1) / bn);
}

/* ---- blocked ---- */

static int64_t blocked_tiles(const tb_kproblem *p, int shape)
{
    return tiles(p, blocked_tile[shape].bm, blocked_tile[shape].bn);
}

/* the blocks of a tile that fit on all SMs at once */
static int64_t blocked_wave(const tb_device_facts *f, int shape)
{
    const int per_sm = f->blocked_per_sm[shape];
    return (int64_t)(per_sm > 0 ? per_sm : 1) * f->sms;
}

/* 1 when the middle tile takes p, with *slices of k: split into slices at least mid_slice deep wherever its blocks
 * then fill their waves, for C too small for a wave of large tiles but with tiles at least half used and a long k,
 * where the small tile would be taken */
static int middle_split(const tb_kproblem *p, const tb_device_facts *f, const struct tuning *t, int64_t *slices)
{
    const int64_t n = blocked_tiles(p, TB_BLOCKED_MID), slots = blocked_wave(f, TB_BLOCKED_MID);
    const int bk = blocked_tile[TB_BLOCKED_MID].bk;
    if ((double)p->m * (double)p->n <
            0.5 * (double)n * blocked_tile[TB_BLOCKED_MID].bm * blocked_tile[TB_BLOCKED_MID].bn ||
        p->k < 2 * t->blocked.mid_slice)
        return n >= f->sms;
    int64_t s = tb_fill_slices(n, slots, p->k, bk, t->blocked.mid_slice);
    tb_slice_depth(p->k, bk, &s);
    if (n < f->sms && tb_fill(n * s, slots) < 0.75)
        return 0;
    *slices = s;
    return 1;
}

/* 1 when the thin tile takes p: transposed where its thin side is m (C^T then has it along n), *slices its split,
 * to at most about a wave of blocks.  Operands in a complex form cannot be transposed: then only a thin n. */
static int thin(const tb_kproblem *p, int form, const tb_device_facts *f, const struct tuning *t, tb_recipe *r)
{
    if ((p->m > t->blocked.thin_side && p->n > t->blocked.thin_side) || (form && p->m < p->n))
        return 0;
    tb_kproblem q = *p;
    r->transposed = p->m < p->n;
    if (r->transposed)
        q.m = p->n, q.n = p->m;
    const int64_t n = blocked_tiles(&q, TB_BLOCKED_THIN), slots = blocked_wave(f, TB_BLOCKED_THIN);
    const int64_t deep = q.k * n / slots;
    r->slices = tb_fill_slices(n, slots, q.k, blocked_tile[TB_BLOCKED_THIN].bk,
                               deep > t->blocked.thin_slice ? deep : t->blocked.thin_slice);
    return 1;
}

/* The largest tile that keeps the SMs busy (at least 0.9 of one large tile per SM, else one middle tile per SM),
 * else the small tile with k split so that the blocks fill exactly one wave: a block count just past a whole wave
 * is what costs.  The large and middle tiles split a long k where that fills their waves better.  The large tile
 * oriented by the transposes (TT: wide, unless op(A) is read as complex blocks, which its threads do not cover). */
static void blocked_recipe(const tb_kproblem *p, int form, const tb_device_facts *f, tb_recipe *r)
{
    const struct tuning *t = tuning_for(f);
    r->slices = 1, r->transposed = 0;
    if (thin(p, form, f, t, r)) {
        r->shape = TB_BLOCKED_THIN;
    } else {
        const int mirrored = p->transa && p->transb && !(form & TB_FORM_BLOCKS);
        const int large_shape = mirrored ? TB_BLOCKED_LARGE_N : TB_BLOCKED_LARGE_M;
        const int64_t large = blocked_tiles(p, large_shape), sms = f->sms;
        const double area = (double)large * blocked_tile[large_shape].bm * blocked_tile[large_shape].bn;
        const int bk = blocked_tile[large_shape].bk;
        if (10 * large >= 9 * sms && (double)p->m * (double)p->n >= t->blocked.large_use * area) {
            r->shape = large_shape;
            if (large < 3 * sms && tb_fill(large, sms) < t->blocked.large_fill && p->k >= 2 * t->blocked.mid_slice)
                r->slices = tb_fill_slices(large, sms, p->k, bk, t->blocked.mid_slice);
        } else if (middle_split(p, f, t, &r->slices)) {
            r->shape = TB_BLOCKED_MID;
        } else {
            const int64_t n = blocked_tiles(p, TB_BLOCKED_SMALL), full = blocked_wave(f, TB_BLOCKED_SMALL);
            int64_t s = n >= full ? 1 : full / n;
            s = p->k < t->blocked.small_split_k ? 1 : s > p->k / t->blocked.small_slice ? p->k / t->blocked.small_slice : s;
            r->slices = s > 64 ? 64 : s < 1 ? 1 : s;
            r->shape = TB_BLOCKED_SMALL;
        }
    }
    tb_slice_depth(p->k, blocked_tile[r->shape].bk, &r->slices); /* whole tiles deep, as the kernel cuts k */
}

/* ---- dmma ---- */

static int64_t dmma_tiles(const tb_kproblem *p, int shape)
{
    return tiles(p, dmma_tile[shape].bm, dmma_tile[shape].bn);
}

/* One block of 128 x 128 a SM when there are tiles enough for every SM and k is deep enough to hide a block's start
 * and end; otherwise two blocks a SM of the two half tiles, the one that leaves fewer rows or columns of its tiles
 * empty, with k split (slices at least split_depth deep) when its tiles would keep at most half the SMs busy (with
 * more, the sum of the slices costs more than the idle SMs).  Slices whole tiles deep. */
static int dmma_shape(const tb_kproblem *p, const tb_device_facts *f, const struct tuning *t, int64_t *slices)
{
    *slices = 1;
    const int64_t sms = f->sms;
    if (dmma_tiles(p, TB_DMMA_BIG) >= sms && p->k >= t->dmma.big_min_k)
        return TB_DMMA_BIG;
    /* rows of C in tall tiles, columns in wide ones: each uses whichever covers m x n with fewer tiles */
    const int64_t tall = dmma_tiles(p, TB_DMMA_TALL), wide = dmma_tiles(p, TB_DMMA_WIDE), n = tall <= wide ? tall : wide;
    const int64_t slots = dmma_tile[TB_DMMA_TALL].minb * sms;
    const int64_t deepest = p->k / t->dmma.split_depth < 64 ? p->k / t->dmma.split_depth : 64;
    if (2 * n <= sms) {
        int64_t s = slots / n;
        s = s > deepest ? deepest : s;
        *slices = s < 1 ? 1 : s;
    } else {
        /* n tiles in s slices fill n s / (slots waves) of the waves' room: the fewest slices that fill 90 %, where
         * that is a fifth more than without a split */
        const int64_t waves1 = tb_waves(n, slots);
        for (int64_t s = 2; s <= deepest; s++) {
            const int64_t waves = tb_waves(n * s, slots);
            if (10 * n * s >= 9 * slots * waves && 5 * s * waves1 >= 6 * waves) {
                *slices = s;
                break;
            }
        }
    }
    tb_slice_depth(p->k, TB_DMMA_BK, slices);
    /* as many tiles either way: 64 x 128 where neither operand is transposed (faster there; the two alike, or
     * 128 x 64 ahead by a little, with a transpose: doc/NOTES.md) */
    return tall < wide || (tall == wide && (p->transa || p->transb)) ? TB_DMMA_TALL : TB_DMMA_WIDE;
}

/* One part, or two run one after the other: when the 128 x 128 tiles fill whole waves of the SMs but for a last one
 * at most half full, the rows (or columns) of tiles that make the full waves are one part and the rest of C a
 * second, thin one, which then goes to the half tiles with k split: the last wave's few tiles are spread over
 * every SM instead of leaving most of them idle (1536^3: 144 tiles, 132 SMs). */
static void dmma_recipe(const tb_kproblem *p, const tb_device_facts *f, tb_recipe *r)
{
    const struct tuning *t = tuning_for(f);
    r->parts = 1;
    r->shape = dmma_shape(p, f, t, &r->slices);
    if (r->shape == TB_DMMA_BIG)
        r->slices = 1;
    const int bm = dmma_tile[TB_DMMA_BIG].bm, bn = dmma_tile[TB_DMMA_BIG].bn;
    const int64_t sms = f->sms, tm = (p->m + bm - 1) / bm, tn = (p->n + bn - 1) / bn;
    const int64_t all = tm * tn, full = all / sms * sms;
    if (r->shape != TB_DMMA_BIG || all == full || 2 * (all - full) > sms)
        return;
    /* whole rows of tiles, or whole columns, within the full waves: whichever leaves fewer tiles over.  Only where
     * they fill those waves but for a few tiles and leave at most half a wave over. */
    const int64_t rows = full / tn, cols = full / tm, rest_r = all - rows * tn, rest_c = all - cols * tm;
    const int by_rows = rest_r <= rest_c;
    const int64_t rest = by_rows ? rest_r : rest_c;
    if ((by_rows ? rows : cols) < 1 || 2 * rest > sms || 8 * (full - (all - rest)) > sms)
        return;
    tb_kproblem second = *p;
    r->parts = 2, r->by_rows = by_rows;
    if (by_rows)
        r->at = rows * bm, second.m = p->m - r->at;
    else
        r->at = cols * bn, second.n = p->n - r->at;
    r->shape2 = dmma_shape(&second, f, t, &r->slices2);
    if (r->shape2 == TB_DMMA_BIG)
        r->slices2 = 1;
}

/* ---- the tensor-core kernels (tc128, tc32, tf32) ---- */

/* 1 when the tensor cores can run p: a Hopper GPU with the TMA encoder, some k (C = beta C is blocked's), and
 * sizes that the grids and TMA's 32-bit coordinates cover */
static int tc_can_run(const tb_kproblem *p, const tb_device_facts *f)
{
    return f->cc == 90 && f->tma && p->k > 0 && p->m < (1ll << 31) - TB_TC_BM && p->n < (1ll << 31) - 256 &&
           p->k < (1ll << 31) - TB_TC_BK && (p->m + 31) / 32 + (p->n + 31) / 32 <= 65535;
}

/* the slices of k where C has fewer tiles (bn wide) than SMs */
static int64_t tc_slices(const tb_kproblem *p, int bn, const tb_device_facts *f, const struct tuning *t)
{
    const int64_t n = tiles(p, TB_TC_BM, bn);
    return n < f->sms ? tb_fill_slices(n, f->sms, p->k, TB_TC_BK, t->tc.slice_depth) : 1;
}

/* 1 when tc32 is also faster than blocked on p (bench/RESULTS.md): k deep enough for the split into parts to pay;
 * tiles at least half used (not a thin C); C's sides not so short that the passes' traffic outweighs the product
 * (about 14 bytes per element of op(A) and op(B)); a product large enough to repay the passes' fixed cost (about
 * 45 us against blocked's 35); and a wave of tiles of C, or tiles times slices that fill most of their waves */
static int tc32_faster(const tb_kproblem *p, const tb_device_facts *f, const struct tuning *t, int64_t slices)
{
    const int64_t n = tiles(p, TB_TC_BM, TB_TC_BN);
    const double used = (double)p->m * (double)p->n / ((double)n * TB_TC_BM * TB_TC_BN);
    const double pass_bytes_per_flop = 7.0 * (1.0 / (double)p->m + 1.0 / (double)p->n);
    return p->k >= t->tc.min_k && used >= t->tc.min_used && pass_bytes_per_flop <= t->tc.max_pass_bytes &&
           2.0 * p->m * p->n * p->k >= t->tc.min_flops && (n >= f->sms || tb_fill(n * slices, f->sms) >= t->tc.min_fill);
}

static void tc_recipe(tb_family family, int form, const tb_kproblem *p, const tb_device_facts *f, tb_recipe *r)
{
    const struct tuning *t = tuning_for(f);
    blocked_recipe(p, form, f, r); /* where the tensor cores do not run p, or there is no workspace */
    r->tc_slices = tc_slices(p, family == TB_FAMILY_TF32 ? TB_TC_TF32_BN : TB_TC_BN, f, t);
    r->tensor = tc_can_run(p, f) && (family != TB_FAMILY_TC32 || tc32_faster(p, f, t, r->tc_slices));
}

/* ---- the complex products as complex numbers (kernels/cx.cu) ---- */

/* whether cx's tile `shape` runs p on its TMA kernels: a tile that has them, a device where they run, both operands
 * at 16 bytes (TMA's addresses), some k, and sizes its 32-bit coordinates (in parts) reach */
static int cx_tma_runs(int shape, const tb_kproblem *p, const tb_device_facts *f)
{
    const int64_t most = (int64_t)1 << 30;
    const uintptr_t esize = p->type == TB_TYPE_Z ? 16 : 8;
    return cx_tile[shape].tma && f->cx_tma && (uintptr_t)p->a % esize == 0 && (uintptr_t)p->b % esize == 0 &&
           p->k > 0 && p->m < most && p->n < most && p->k < most && p->lda < most && p->ldb < most;
}

/* the blocks of `shape` that run at once: plain (s = 1), or in clusters of s blocks (where the device says) */
static int64_t cx_wave(int shape, int64_t s, const tb_device_facts *f)
{
    const int64_t plain = (int64_t)(f->cx_per_sm[shape] > 0 ? f->cx_per_sm[shape] : 1) * f->sms;
    if (s < 2 || s > 8 || !f->cx_clusters[shape][s])
        return plain;
    return (int64_t)f->cx_clusters[shape][s] * s;
}

/* whether s slices, at most a portable cluster's blocks, are summed by the clusters of the slices of each tile
 * (cx_cluster.cuh): the TMA kernels of a tile that does so; no workspace, no second launch */
static int cx_cluster_sums(int shape, const tb_kproblem *p, const tb_device_facts *f, int64_t s)
{
    return s >= 2 && s <= 8 && cx_tile[shape].clusters && cx_tma_runs(shape, p, f);
}

/* where C's t tiles are more than a wave (w) and its last wave runs partly empty, the slices (up to a cluster's 8,
 * each at least deep_slice deep) whose rounds take the least time, where that is at least an eighth less than
 * unsplit (777 x 777 x 4096: 625 tiles of 528 slots, two rounds of all of k; in 3 slices, 4 rounds of 489 blocks,
 * each a third deep); the clusters sum them at little cost */
static int64_t cx_wave_slices(int shape, int64_t t, int64_t w, int64_t k, const tb_device_facts *f,
                              const struct tuning *tu)
{
    const int64_t bk = cx_tile[shape].bk, kt = (k + bk - 1) / bk;
    int64_t best = 1, least = tb_waves(t, w) * kt;
    const int64_t most = least * 7 / 8;
    for (int64_t s = 2; s <= 8 && k / s >= tu->cx.deep_slice; s++) {
        const int64_t cost = tb_waves(t * s, cx_wave(shape, s, f)) * ((kt + s - 1) / s);
        if (cost < least && cost <= most)
            best = s, least = cost;
    }
    return best;
}

/* The slices of k: without SPLIT, slices that fill every block that fits; with it, the more of deep slices that
 * fill those where C has fewer tiles, and, where C has fewer tiles than SPLIT blocks an SM, slices that fill those;
 * where C's tiles are more than a wave and clusters can sum slices, the wave slices.  Clustered: the wave slices,
 * and slices at most cluster_depth deep that take no more rounds in clusters; where the slices do not fit the
 * clusters' rounds, a quarter fewer at most that do (slices up to a third deeper cost less than the workspace's
 * second launch: bench/RESULTS.md). */
static void cx_slices(int shape, const tb_kproblem *p, const tb_device_facts *f, tb_recipe *r)
{
    const struct tuning *tu = tuning_for(f);
    const int bk = cx_tile[shape].bk, split = cx_tile[shape].split;
    const int64_t t = tiles(p, cx_tile[shape].bm, cx_tile[shape].bn), w = cx_wave(shape, 1, f);
    int64_t s = 1;
    if (!split) {
        s = tb_fill_slices(t, w, p->k, bk, tu->cx.slice);
    } else {
        const int64_t most = (int64_t)split * f->sms, slots = w < most ? w : most;
        if (t < w)
            s = tb_fill_slices(t, w, p->k, bk, tu->cx.deep_slice);
        if (t < slots) {
            const int64_t near = tb_fill_slices(t, slots, p->k, bk, tu->cx.slice);
            s = near > s ? near : s;
        }
    }
    int wave = 0;
    if (s == 1 && cx_cluster_sums(shape, p, f, 2))
        s = cx_wave_slices(shape, t, w, p->k, f, tu), wave = s > 1;
    const int64_t depth = tb_slice_depth(p->k, bk, &s), s0 = s;
#define IN_CLUSTERS(n, d)                                                                                          \
    (cx_cluster_sums(shape, p, f, n) && (d) <= tu->cx.cluster_depth &&                                              \
     tb_waves(t * (n), cx_wave(shape, n, f)) <= tb_waves(t * s0, w))
    int summed = wave ? cx_cluster_sums(shape, p, f, s) : IN_CLUSTERS(s, depth);
    for (int64_t n = s - 1; !summed && 4 * n >= 3 * s0; n--) {
        int64_t got = n;
        const int64_t d = tb_slice_depth(p->k, bk, &got);
        if (got == n && IN_CLUSTERS(n, d))
            s = n, summed = 1;
    }
#undef IN_CLUSTERS
    r->shape = shape, r->slices = s, r->clustered = summed;
}

/* cx-dmma's tile for p: 32 x 80 where C has 65 to 80 columns and the TMA kernels run (op(A)'s panel read once
 * instead of by three 32-column tiles or five 16-column ones: the thin products are bound by L2's bytes about as
 * much as by the tensor pipe); 32 x 48 where C has 33 to 48 columns and op(A) is past a share of the L2 cache (read
 * from memory once instead of by each of three 64 x 16 tiles; where it stays in L2 those were faster); 64 x 16
 * where 32-column tiles would compute more than an eighth more columns than C has in 16-column ones; else
 * 32 x 32 (doc/NOTES.md, bench/RESULTS.md) */
static int cx_dmma_shape(const tb_kproblem *p, const tb_device_facts *f)
{
    const struct tuning *tu = tuning_for(f);
    if (p->n > 64 && p->n <= cx_tile[TB_CX_Z_SPAN].bn && cx_tma_runs(TB_CX_Z_SPAN, p, f))
        return TB_CX_Z_SPAN;
    const double a_bytes = (double)p->m * (double)p->k * 16.0, l2 = (double)(f->l2_bytes >= 0 ? f->l2_bytes : 50 << 20);
    if (p->n > 32 && p->n <= cx_tile[TB_CX_Z_SPAN48].bn && a_bytes * (double)tu->cx.l2_share > l2 &&
        cx_tma_runs(TB_CX_Z_SPAN48, p, f))
        return TB_CX_Z_SPAN48;
    const int64_t wide_bn = cx_tile[TB_CX_Z_DMMA].bn, slim_bn = cx_tile[TB_CX_Z_NARROW].bn;
    const int64_t wide = (p->n + wide_bn - 1) / wide_bn * wide_bn, slim = (p->n + slim_bn - 1) / slim_bn * slim_bn;
    return 8 * wide > 9 * slim ? TB_CX_Z_NARROW : TB_CX_Z_DMMA;
}

static void cx_recipe(tb_family family, const tb_kproblem *p, const tb_device_facts *f, tb_recipe *r)
{
    const int shape = family == TB_FAMILY_CX_DMMA     ? cx_dmma_shape(p, f)
                      : p->type == TB_TYPE_Z ? TB_CX_Z_SIMT
                                                      : TB_CX_C_SIMT;
    cx_slices(shape, p, f, r);
}

/* ---- the complex products as one real product (kernels/complex.cu) ---- */

/* What each complex family's real kernel can read in place (facts of its launchers) and which rules decide it:
 * reads, how op(A) is read (as Ab, Ab or in place by shape, always in place); blocks_pairs, beside op(A) in place a
 * transposed op(B) as its real view too; pairs, beside Ab a transposed op(B) as its real view; direct and here_all,
 * the rules (RULE_*) on the real shape for computing p as complex numbers and for op(A) in place whatever n */
enum { READS_AB, READS_BY_SHAPE, READS_HERE };
enum { RULE_NONE, RULE_TC32_DECLINES, RULE_C_DIRECT, RULE_Z_DIRECT };
static const struct four_m {
    tb_family family;
    int reads, blocks_pairs, pairs, direct, here_all;
} four_m_rows[] = {
    { TB_FAMILY_C4M_BLOCKED, READS_AB, 0, 1, RULE_TC32_DECLINES, RULE_NONE },
    { TB_FAMILY_C4M_TF32, READS_AB, 0, 0, RULE_NONE, RULE_NONE },
    { TB_FAMILY_C4M_TC32, READS_BY_SHAPE, 0, 1, RULE_C_DIRECT, RULE_TC32_DECLINES },
    { TB_FAMILY_C4M_TC32_HERE, READS_HERE, 1, 1, RULE_C_DIRECT, RULE_TC32_DECLINES },
    { TB_FAMILY_Z4M_DMMA, READS_BY_SHAPE, 0, 1, RULE_Z_DIRECT, RULE_NONE },
    { TB_FAMILY_Z4M_DMMA_HERE, READS_HERE, 1, 1, RULE_Z_DIRECT, RULE_NONE },
};

/* rule on q, p's real shape (2m x n x 2k, op(A)'s op kept): where tc32 does not take q (there blocked reads op(A)'s
 * blocks and op(B)'s pairs in place faster than Ab and B2 whatever n, and cx-simt is faster than either); c_direct
 * also CGEMM's thin products of a small C (tc32 has too few tiles of them to fill the GPU); z_direct: ZGEMM's small
 * products and those of a thin C, too few of the real form's tiles (bench/RESULTS.md) */
static int four_m_rule(int rule, const tb_kproblem *q, const tb_device_facts *f, const struct tuning *t)
{
    if (rule == RULE_Z_DIRECT)
        return 2.0 * (double)q->m * (double)q->n * (double)q->k <= t->complex.z_direct_flops ||
               q->m / 2 <= t->complex.z_direct_side || q->n <= t->complex.z_direct_side;
    if (rule != RULE_TC32_DECLINES && rule != RULE_C_DIRECT)
        return 0;
    tb_recipe r = { 0 };
    tc_recipe(TB_FAMILY_TC32, 0, q, f, &r);
    const double elems = (double)(q->m / 2) * (double)q->n;
    return !r.tensor || (rule == RULE_C_DIRECT && ((q->n <= t->complex.thin_cols && elems <= t->complex.thin_elems) ||
                                                   (q->n <= t->complex.slim_cols && elems <= t->complex.slim_elems)));
}

/* Direct, or else how the operands are read.  Ab, made once, serves each of the product's column tiles, so its
 * making weighs as 1/n beside the product; reading op(A)'s blocks in place slows the product a little, and more
 * where op(A) is transposed: by shape, in place up to few columns of C (tc32 prepares op(A)'s parts either way, so
 * Ab is a copy more there: its bound for T is N's), or wherever here_all says.  op(B) with an N op is read in place
 * (interleaved B read as real is B2 but for the order of Ab's columns); with op(A) in place, a transposed op(B) too
 * where the kernel reads it so, but only for a real alpha (there is no Ab to fold it into).  op(B)'s pairs are read
 * again by each row tile of the product, B2 made once: pairs only up to z_pairs_rows rows of op(A) for dmma. */
static void four_m_recipe(const struct four_m *k, const tb_kproblem *p, const tb_device_facts *f, tb_recipe *r)
{
    const struct tuning *t = tuning_for(f);
    const int z = k->family == TB_FAMILY_Z4M_DMMA || k->family == TB_FAMILY_Z4M_DMMA_HERE;
    tb_kproblem q = *p;
    q.type = z ? TB_TYPE_D : TB_TYPE_S, q.m = 2 * p->m, q.k = 2 * p->k, q.transb = 0;
    r->direct = four_m_rule(k->direct, &q, f, t);
    if (r->direct) {
        cx_recipe(z ? TB_FAMILY_CX_DMMA : TB_FAMILY_CX_SIMT, p, f, r);
        return;
    }
    const int here_all = four_m_rule(k->here_all, &q, f, t);
    const int64_t few = !p->transa                           ? t->complex.few_cols_n
                        : k->family == TB_FAMILY_C4M_TC32 ? t->complex.tc32_few_cols_t
                                                             : t->complex.few_cols_t;
    r->a_here = k->reads == READS_HERE || (k->reads == READS_BY_SHAPE && (p->n <= few || here_all));
    r->b_here = (!p->transb || (r->a_here && (k->blocks_pairs || here_all))) && !(r->a_here && p->alpha_im != 0.0);
    r->b_pairs = !r->a_here && k->pairs && p->transb && (!z || p->m <= t->complex.z_pairs_rows);
}

void tb_decide_recipe(const tb_decider *d, tb_family family, int form, const tb_kproblem *p, tb_recipe *r)
{
    /* persist_depth for every family: dmma's fixed tiles (dmma128, ..., for measuring) persist as its recipes do */
    *r = (tb_recipe){ .slices = 1, .parts = 1, .slices2 = 1, .tc_slices = 1,
                      .persist_depth = tuning_for(d->dev)->dmma.persist_depth };
    switch (family) {
    case TB_FAMILY_BLOCKED: blocked_recipe(p, form, d->dev, r); break;
    case TB_FAMILY_DMMA: dmma_recipe(p, d->dev, r); break;
    case TB_FAMILY_TC128:
    case TB_FAMILY_TC32:
    case TB_FAMILY_TF32: tc_recipe(family, form, p, d->dev, r); break;
    case TB_FAMILY_CX_SIMT:
    case TB_FAMILY_CX_DMMA: cx_recipe(family, p, d->dev, r); break;
    case TB_FAMILY_NONE: break;
    default:
        for (size_t i = 0; i < sizeof four_m_rows / sizeof four_m_rows[0]; i++)
            if (four_m_rows[i].family == family)
                four_m_recipe(&four_m_rows[i], p, d->dev, r);
    }
    r->decider = d;
}

int tb_decide_kernel(int kernel, const tb_kproblem *p, const tb_decider *d)
{
    for (int hops = 0; kernel >= 0 && kernel < tb_kernel_count && hops < tb_kernel_count; hops++) {
        const tb_family fam = tb_kernel_families[kernel];
        if (fam != TB_FAMILY_TC128 && fam != TB_FAMILY_TC32 && fam != TB_FAMILY_TF32)
            break;
        tb_recipe r;
        tb_decide_recipe(d, fam, 0, p, &r);
        if (r.tensor || !tb_kernel_instead[kernel])
            break;
        kernel = tb_kernel_find(tb_kernel_instead[kernel]);
    }
    return kernel;
}

/* "tile BMxBN" of a shape of blocked (which 0), dmma (1) or cx (2) and ", k in S slices" where split */
static int tile_text(int which, int shape, int64_t slices, char *buf, size_t size)
{
    const int bm = which == 2 ? cx_tile[shape].bm : which ? dmma_tile[shape].bm : blocked_tile[shape].bm;
    const int bn = which == 2 ? cx_tile[shape].bn : which ? dmma_tile[shape].bn : blocked_tile[shape].bn;
    return slices > 1 ? snprintf(buf, size, "tile %dx%d, k in %lld slices", bm, bn, (long long)slices)
                      : snprintf(buf, size, "tile %dx%d", bm, bn);
}

void tb_recipe_text(tb_family family, const tb_recipe *r, char *buf, size_t size)
{
    int n = 0;
    buf[0] = 0;
    switch (family) {
    case TB_FAMILY_NONE: break;
    case TB_FAMILY_BLOCKED:
        n = tile_text(0, r->shape, r->slices, buf, size);
        if (r->transposed && n >= 0 && (size_t)n < size)
            snprintf(buf + n, size - n, ", as C^T");
        break;
    case TB_FAMILY_DMMA:
        n = tile_text(1, r->shape, r->slices, buf, size);
        if (r->parts == 2 && n >= 0 && (size_t)n < size) {
            const int m = snprintf(buf + n, size - n, "; %s from %lld: ", r->by_rows ? "rows" : "columns",
                                   (long long)r->at);
            if (m >= 0 && (size_t)(n + m) < size)
                tile_text(1, r->shape2, r->slices2, buf + n + m, size - n - m);
        }
        break;
    case TB_FAMILY_TC128:
    case TB_FAMILY_TC32:
    case TB_FAMILY_TF32:
        if (r->tensor) {
            if (r->tc_slices > 1)
                snprintf(buf, size, "tensor cores, k in %lld slices", (long long)r->tc_slices);
            else
                snprintf(buf, size, "tensor cores");
        } else {
            n = snprintf(buf, size, "not on the tensor cores: ");
            if (n >= 0 && (size_t)n < size)
                tile_text(0, r->shape, r->slices, buf + n, size - n);
        }
        break;
    case TB_FAMILY_CX_SIMT:
    case TB_FAMILY_CX_DMMA:
        n = tile_text(2, r->shape, r->slices, buf, size);
        if (r->clustered && n >= 0 && (size_t)n < size)
            snprintf(buf + n, size - n, ", summed in clusters");
        break;
    default:
        if (r->direct) {
            n = snprintf(buf, size, "as complex numbers: ");
            if (n >= 0 && (size_t)n < size)
                tb_recipe_text(TB_FAMILY_CX_SIMT, r, buf + n, size - n);
        } else
            snprintf(buf, size, "as a real product: op(A) %s, op(B) %s", r->a_here ? "in place" : "as Ab",
                     r->b_here ? "in place" : r->b_pairs || r->a_here ? "as pairs" : "as B2");
    }
}
