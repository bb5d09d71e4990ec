/* Unit tests of the transfer pipeline's block plan (lib/gpu/plan.c), linked against the core: pure arithmetic, run
 * everywhere.  Random shapes and budgets print their seed; TILEBLAS_TEST_SEED replays it. */
#include <config.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "plan.h"
#include "suite.h"

#define MiB ((size_t)1 << 20)
#define GiB ((size_t)1 << 30)

/* The invariants of any plan: tiles cover C exactly, sides on the grain or whole, within the budget. */
static void check_plan(int64_t m, int64_t n, int64_t k, int ta, int tb, size_t budget, const tb_plan *p)
{
    ck_assert_msg(p->mb >= 1 && p->mb <= m && p->nb >= 1 && p->nb <= n, "m=%lld n=%lld: tile %lld x %lld",
                  (long long)m, (long long)n, (long long)p->mb, (long long)p->nb);
    ck_assert_int_eq(p->mtiles, (m + p->mb - 1) / p->mb);
    ck_assert_int_eq(p->ntiles, (n + p->nb - 1) / p->nb);
    ck_assert_msg(p->mb == m || p->mb % 256 == 0, "mb %lld", (long long)p->mb);
    ck_assert_msg(p->nb == n || p->nb % 256 == 0, "nb %lld", (long long)p->nb);
    ck_assert_msg(p->mb >= (m < TB_PLAN_MIN_TILE ? m : TB_PLAN_MIN_TILE), "mb %lld", (long long)p->mb);
    ck_assert_msg(p->nb >= (n < TB_PLAN_MIN_TILE ? n : TB_PLAN_MIN_TILE), "nb %lld", (long long)p->nb);
    ck_assert_msg(p->depth == 2 || p->depth == 3, "depth %d", p->depth);
    ck_assert_msg(p->bytes + p->ws_bytes <= budget, "%zu bytes and %zu of workspaces for a budget of %zu", p->bytes,
                  p->ws_bytes, budget);
    /* the bytes are what the buffers need */
    size_t a_block = ta ? tb_plan_block_bytes(k, p->mb, 4) : tb_plan_block_bytes(p->mb, k, 4);
    size_t a_whole = ta ? tb_plan_block_bytes(k, m, 4) : tb_plan_block_bytes(m, k, 4);
    size_t b_panel = tb ? tb_plan_block_bytes(p->nb, k, 4) : tb_plan_block_bytes(k, p->nb, 4);
    size_t b_whole = tb ? tb_plan_block_bytes(n, k, 4) : tb_plan_block_bytes(k, n, 4);
    int64_t d = p->depth, tiles = p->mtiles * p->ntiles;
    /* C tiles: at least one per kernel in flight, more only where the budget has room for them, 256-byte aligned */
    const int64_t least = tiles < d ? tiles : d, most = tiles < TB_PLAN_MAX_CTILES ? tiles : TB_PLAN_MAX_CTILES;
    ck_assert_msg(p->ctiles >= least && p->ctiles <= most, "%lld C tiles", (long long)p->ctiles);
    const size_t c_tile = tb_plan_ctile_bytes(p);
    ck_assert(c_tile % 256 == 0 && c_tile >= tb_plan_block_bytes(p->mb, p->nb, 4) &&
              c_tile < tb_plan_block_bytes(p->mb, p->nb, 4) + 256);
    size_t need = (p->a_resident ? a_whole : (size_t)(p->mtiles < d ? p->mtiles : d) * a_block) +
                  (p->b_resident ? b_whole : (size_t)(p->ntiles < d ? p->ntiles : d) * b_panel) +
                  (size_t)p->ctiles * c_tile;
    ck_assert(p->ctiles == most || p->bytes + p->ws_bytes + c_tile > budget);
    /* op(B) stays whole only beside op(A) */
    ck_assert(!p->b_resident || (p->a_resident && p->mtiles > 1 && p->ntiles > 1));
    ck_assert_msg(p->bytes == need, "bytes %zu, buffers %zu", p->bytes, need);
}

/* the plan tb_plan_make must find for this problem and budget, checked against every invariant */
static tb_plan plan_for(int64_t m, int64_t n, int64_t k, int ta, int tb, size_t budget)
{
    tb_plan p;
    ck_assert_int_eq(tb_plan_make(m, n, k, ta, tb, 4, budget, &p), 0);
    check_plan(m, n, k, ta, tb, budget, &p);
    return p;
}

START_TEST(block_bytes_round_rows_to_four)
{
    ck_assert_uint_eq(tb_plan_block_bytes(1, 1, 4), 16);
    ck_assert_uint_eq(tb_plan_block_bytes(4, 3, 4), 48);
    ck_assert_uint_eq(tb_plan_block_bytes(5, 2, 4), 64);
    ck_assert_uint_eq(tb_plan_block_bytes(8192, 8192, 4), (size_t)256 * MiB);
}
END_TEST

START_TEST(large_square_is_cut_into_panels_with_a_resident)
{
    tb_plan p = plan_for(8192, 8192, 8192, 0, 0, 100 * GiB);
    /* A (256 MiB) in two row blocks of 128 MiB, so that the first kernel waits for half of it */
    ck_assert_int_eq(p.mb, 4096);
    ck_assert_int_eq(p.nb, 1024);
    ck_assert_int_eq(p.ntiles, TB_PLAN_TARGET_TILES);
    ck_assert_int_eq(p.a_resident, 1);
    ck_assert_int_eq(p.depth, 3);
    /* both whole where they fit (256 MiB each), and all 16 C tiles (16 MiB each) */
    ck_assert_int_eq(p.b_resident, 1);
    ck_assert_int_eq(p.ctiles, 16);
    ck_assert_uint_eq(p.bytes, (size_t)512 * MiB + 16 * (size_t)16 * MiB);
    /* with less room: A whole, three B panels (32 MiB each), three C tiles, and one more C tile with 16 MiB more */
    p = plan_for(8192, 8192, 8192, 0, 0, 400 * MiB);
    ck_assert_int_eq(p.mb, 4096);
    ck_assert_int_eq(p.a_resident, 1);
    ck_assert_int_eq(p.b_resident, 0);
    ck_assert_int_eq(p.ctiles, 3);
    ck_assert_uint_eq(p.bytes, (size_t)256 * MiB + 3 * (size_t)32 * MiB + 3 * (size_t)16 * MiB);
    ck_assert_int_eq(plan_for(8192, 8192, 8192, 0, 0, 416 * MiB).ctiles, 4);
    /* 4096^3: A is 64 MiB, one row block */
    ck_assert_int_eq(plan_for(4096, 4096, 4096, 0, 0, 100 * GiB).mb, 4096);
}
END_TEST

START_TEST(first_blocks_are_capped)
{
    /* the operand whose blocks span the shorter side of C comes in blocks of at most TB_PLAN_FIRST_BLOCK */
    tb_plan p = plan_for(16384, 16384, 16384, 0, 0, 100 * GiB);
    ck_assert_int_eq(p.mb, 2048);
    ck_assert_int_eq(p.nb, 2048);
    p = plan_for(16384, 8192, 16384, 1, 1, 100 * GiB);
    ck_assert_int_eq(p.mb, 2048);
    ck_assert_int_eq(p.nb, 2048);
    ck_assert_int_le((int64_t)tb_plan_block_bytes(p.nb, 16384, 4), TB_PLAN_FIRST_BLOCK);
}
END_TEST

START_TEST(tall_skinny_is_cut_into_row_blocks)
{
    tb_plan p = plan_for(16384, 64, 16384, 0, 0, 100 * GiB);
    ck_assert_int_eq(p.nb, 64);
    ck_assert_int_eq(p.ntiles, 1);
    ck_assert_int_eq(p.mb, 2048);
    ck_assert_int_eq(p.mtiles, 8);
    /* one panel: each row block of A is used once, so it is not kept */
    ck_assert_int_eq(p.a_resident, 0);
    ck_assert_int_eq(p.ctiles, 8);
    ck_assert_uint_eq(p.bytes, 3 * (size_t)128 * MiB + (size_t)4 * MiB + 8 * (size_t)512 * 1024);
}
END_TEST

START_TEST(small_volumes_make_fewer_tiles)
{
    /* 8 MiB to move: four tiles of 2 MiB, not eight */
    tb_plan p = plan_for(64, 16384, 64, 0, 0, 100 * GiB);
    ck_assert_int_eq(p.ntiles, 4);
    /* 3 MiB: one tile */
    p = plan_for(512, 512, 512, 0, 0, 100 * GiB);
    ck_assert_int_eq(p.mtiles * p.ntiles, 1);
}
END_TEST

START_TEST(small_problem_is_one_tile)
{
    tb_plan p = plan_for(100, 70, 5, 1, 1, 1 * GiB);
    ck_assert_int_eq(p.mtiles, 1);
    ck_assert_int_eq(p.ntiles, 1);
}
END_TEST

START_TEST(small_budget_goes_out_of_core)
{
    /* 8192^3 needs 768 MiB for A, B and C at once; 64 MiB forces small tiles and A streamed per panel */
    tb_plan p = plan_for(8192, 8192, 8192, 0, 0, 64 * MiB);
    ck_assert_int_eq(p.a_resident, 0);
    ck_assert_int_gt(p.mtiles, 1);
    ck_assert_int_gt(p.ntiles, 1);
}
END_TEST

START_TEST(budget_below_the_smallest_tiles_is_refused)
{
    tb_plan p;
    /* depth 2 with 256-row blocks of a k = 1e6 product needs about 4 GiB */
    ck_assert_int_eq(tb_plan_make(4096, 4096, 1000000, 0, 0, 4, 1 * GiB, &p), -1);
    ck_assert_int_eq(tb_plan_make(1, 1, 1, 0, 0, 4, 16, &p), -1);
    ck_assert_int_eq(tb_plan_make(1, 1, 1, 0, 0, 4, 287, &p), -1);
    /* one tile: A and B of 16 bytes each, C's buffer of 256 (C tile buffers lie 256 bytes apart) */
    ck_assert_int_eq(tb_plan_make(1, 1, 1, 0, 0, 4, 288, &p), 0);
}
END_TEST

/* a kernel's workspace for a tile: 8 bytes for each element of its operands' and C's blocks (the complex single
 * kernels' planes are 2 (mk + kn + mn) floats) */
static size_t planes_ws(const void *ctx, int64_t mb, int64_t nb)
{
    const int64_t k = *(const int64_t *)ctx;
    return (size_t)(8 * (mb * k + k * nb + mb * nb));
}

START_TEST(kernel_workspaces_are_left_room)
{
    const int64_t k = 8192;
    const tb_plan_ws ws = { planes_ws, &k, 0 };
    tb_plan p, alone;
    /* room for everything: the same tiles as without workspaces, and one workspace per kernel in flight */
    ck_assert_int_eq(tb_plan_make_ws(8192, 8192, k, 0, 0, 4, 100 * GiB, &ws, &p), 0);
    check_plan(8192, 8192, k, 0, 0, 100 * GiB, &p);
    ck_assert_int_eq(tb_plan_make(8192, 8192, k, 0, 0, 4, 100 * GiB, &alone), 0);
    ck_assert_int_eq(alone.ws_bytes, 0);
    ck_assert_int_eq(p.mb, alone.mb);
    ck_assert_int_eq(p.nb, alone.nb);
    ck_assert_uint_eq(p.ws_bytes, (size_t)p.depth * planes_ws(&k, p.mb, p.nb));
    /* 1 GiB: the tiles chosen without workspaces would leave too little room for theirs; with them, smaller tiles */
    ck_assert_int_eq(tb_plan_make(8192, 8192, k, 0, 0, 4, 1 * GiB, &alone), 0);
    ck_assert_uint_gt(alone.bytes + (size_t)alone.depth * planes_ws(&k, alone.mb, alone.nb), 1 * GiB);
    ck_assert_int_eq(tb_plan_make_ws(8192, 8192, k, 0, 0, 4, 1 * GiB, &ws, &p), 0);
    check_plan(8192, 8192, k, 0, 0, 1 * GiB, &p);
    ck_assert(p.ws_bytes > 0 && p.mb * p.nb < alone.mb * alone.nb);
    /* the smallest tiles' workspaces alone exceed 64 MiB (two in flight of 8 (256 k + k 256 + 256^2) bytes) */
    ck_assert_int_eq(tb_plan_make_ws(8192, 8192, k, 0, 0, 4, 64 * MiB, &ws, &p), -1);
    /* one tile: one workspace, whatever the depth */
    const int64_t k1 = 1;
    const tb_plan_ws ws1 = { planes_ws, &k1, 0 };
    ck_assert_int_eq(tb_plan_make_ws(1, 1, 1, 0, 0, 4, 1 * MiB, &ws1, &p), 0);
    ck_assert_uint_eq(p.ws_bytes, planes_ws(&k1, 1, 1));
}
END_TEST

/* a kernel that prepares its operands: 4096^3 (single precision), cut into panels of all of op(A) without,
 * is cut along both sides with both operands kept whole; one tile stays one tile */
START_TEST(prepared_operands_cut_both_sides)
{
    const int64_t k = 4096;
    const tb_plan_ws plain = { planes_ws, &k, 0 }, grid = { planes_ws, &k, 1 };
    tb_plan p;
    ck_assert_int_eq(tb_plan_make_ws(4096, 4096, k, 0, 0, 4, 100 * GiB, &plain, &p), 0);
    ck_assert_int_eq(p.mtiles, 1);
    ck_assert_int_gt(p.ntiles, 1);
    ck_assert_int_eq(tb_plan_make_ws(4096, 4096, k, 0, 0, 4, 100 * GiB, &grid, &p), 0);
    check_plan(4096, 4096, k, 0, 0, 100 * GiB, &p);
    ck_assert_int_ge(p.mtiles, 2);
    ck_assert_int_ge(p.ntiles, 2);
    ck_assert(p.a_resident && p.b_resident);
    const int64_t k1 = 16;
    const tb_plan_ws grid1 = { planes_ws, &k1, 1 };
    ck_assert_int_eq(tb_plan_make_ws(16, 16, k1, 0, 0, 4, 1 * GiB, &grid1, &p), 0);
    ck_assert_int_eq(p.mtiles * p.ntiles, 1);
}
END_TEST

static uint64_t state;
static int64_t pick(int64_t lo, int64_t hi)
{
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return lo + (int64_t)(state % (uint64_t)(hi - lo + 1));
}

START_TEST(random_shapes_and_budgets_keep_the_invariants)
{
    for (int i = 0; i < 20000; i++) {
        int64_t m = pick(0, 1) ? pick(1, 300) : pick(1, 70000);
        int64_t n = pick(0, 1) ? pick(1, 300) : pick(1, 70000);
        int64_t k = pick(0, 1) ? pick(1, 300) : pick(1, 70000);
        int ta = (int)pick(0, 1), tb = (int)pick(0, 1);
        size_t budget = (size_t)pick(1, 3) << pick(4, 36);
        tb_plan p;
        if (!tb_plan_make(m, n, k, ta, tb, 4, budget, &p))
            check_plan(m, n, k, ta, tb, budget, &p);
        const tb_plan_ws ws = { planes_ws, &k, (int)pick(0, 1) };
        if (!tb_plan_make_ws(m, n, k, ta, tb, 4, budget, &ws, &p)) {
            check_plan(m, n, k, ta, tb, budget, &p);
            const int64_t tiles = p.mtiles * p.ntiles;
            ck_assert_uint_eq(p.ws_bytes, (size_t)(tiles < p.depth ? tiles : p.depth) * planes_ws(&k, p.mb, p.nb));
        }
    }
}
END_TEST

int main(void)
{
    state = tt_test_seed();
    const TTest *const tests[] = { block_bytes_round_rows_to_four,
                                   large_square_is_cut_into_panels_with_a_resident,
                                   first_blocks_are_capped,
                                   small_volumes_make_fewer_tiles,
                                   tall_skinny_is_cut_into_row_blocks,
                                   small_problem_is_one_tile,
                                   small_budget_goes_out_of_core,
                                   budget_below_the_smallest_tiles_is_refused,
                                   kernel_workspaces_are_left_room,
                                   prepared_operands_cut_both_sides,
                                   random_shapes_and_budgets_keep_the_invariants,
                                   NULL };
    return tt_run_tests("pipeline plan", "plan", tests, 0, CK_FORK);
}
