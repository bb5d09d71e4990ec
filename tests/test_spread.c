/* Unit tests of how a host-memory call is spread over several devices (lib/decide/spread.c), linked against the
 * core: pure arithmetic, run everywhere.  Random shapes print their seed; TILEBLAS_TEST_SEED replays it. */
#include <config.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include "spread.h"
#include "suite.h"

/* Rates of the H200 host's order (bench/RESULTS.md), fixed here so that the expectations do not move with the
 * built-in defaults */
static const tb_cost_params rates = { .gpu_call = 60e-6, .h2d_a = 45e9, .h2d_b = 45e9, .d2h = 52e9,
                                      .gpu_rate = { 50e12, 60e12, 45e12, 60e12 }, .gpu_half = { 128, 160, 160, 240 },
                                      .cpu_call = 2e-7, .cpu_rate = { 1.3e12, 6.2e11, 1.3e12, 6.2e11 },
                                      .cpu_half = { 64, 32, 64, 32 }, .gpu_rate_tc = 145e12, .gpu_half_tc = 600,
                                      .gpu_extra = { 0, 0, 30e-6, 30e-6 }, .host_copy = 80e9, .device_call = 30e-6 };

static tb_kproblem problem(tb_type type, int64_t m, int64_t n, int64_t k, double beta)
{
    tb_kproblem p = { .type = type };
    p.m = m, p.n = n, p.k = k, p.alpha = 1.0, p.beta = beta;
    return p;
}

static unsigned long long state;
static int64_t draw(int64_t lo, int64_t hi)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (int64_t)((state >> 33) % (unsigned long long)(hi - lo + 1));
}

/* The invariants of any spread: blocks of whole TB_SPREAD_ALIGN multiples (the last the rest) covering the side,
 * no more than the devices or the side's multiples, never predicted slower than one device, and more than one
 * only where that is at least a tenth faster. */
static void check_spread(const tb_kproblem *p, int tc, int devices, const tb_spread *s)
{
    const int64_t side = s->by_rows ? p->m : p->n;
    ck_assert_int_eq(s->by_rows, p->m > p->n);
    ck_assert_msg(s->count >= 1 && s->count <= devices && s->count <= TB_MAX_DEVICES, "%d devices of %d", s->count,
                  devices);
    ck_assert_int_le(s->count, (side + TB_SPREAD_ALIGN - 1) / TB_SPREAD_ALIGN);
    ck_assert_int_eq(s->start[0], 0);
    ck_assert_int_eq(s->start[s->count], side);
    for (int d = 0; d < s->count; d++) {
        ck_assert_int_gt(s->start[d + 1], s->start[d]);
        if (d + 1 < s->count)
            ck_assert_int_eq(s->start[d + 1] % TB_SPREAD_ALIGN, 0);
    }
    const double one = tb_spread_predict(&rates, p, tc, 1, s->by_rows);
    ck_assert(s->predicted <= one);
    if (s->count > 1)
        ck_assert_msg(s->predicted <= 0.9 * one, "%d devices predicted %g s, one %g s", s->count, s->predicted, one);
    ck_assert(s->predicted == tb_spread_predict(&rates, p, tc, s->count, s->by_rows));
}

/* p planned over `devices` devices, its invariants checked */
static tb_spread spread_of(const tb_kproblem *p, int tc, int devices)
{
    tb_spread s;
    tb_spread_plan(&rates, p, tc, devices, &s);
    check_spread(p, tc, devices, &s);
    return s;
}

/* On one device the prediction is the single-device model's, to the bit */
START_TEST(one_device_is_the_single_prediction)
{
    for (int i = 0; i < 200; i++) {
        const tb_type type = (tb_type)draw(0, TB_TYPE_COUNT - 1);
        const int tc = (type == TB_TYPE_S || type == TB_TYPE_C) && draw(0, 1);
        const tb_kproblem p = problem(type, draw(1, 20000), draw(1, 20000), draw(1, 20000), draw(0, 1) ? 0.5 : 0.0);
        const tb_call g = { .p = p };
        const tb_spread s = spread_of(&p, tc, 1);
        ck_assert_int_eq(s.count, 1);
        ck_assert(s.predicted == tb_cost_predict(&rates, &g, tc).gpu);
    }
}
END_TEST

/* 16384^3 SGEMM on the tensor cores: two devices, half the columns each (op(A) to both), about 0.65 of one */
START_TEST(large_square_takes_two_devices)
{
    const tb_kproblem p = problem(TB_TYPE_S, 16384, 16384, 16384, 0.0);
    tb_spread s = spread_of(&p, 1, 2);
    ck_assert_int_eq(s.count, 2);
    ck_assert_int_eq(s.by_rows, 0);
    ck_assert_int_eq(s.start[1], 8192);
    const double ratio = s.predicted / tb_spread_predict(&rates, &p, 1, 1, 0);
    ck_assert_msg(ratio > 0.6 && ratio < 0.7, "two devices at %.3f of one", ratio);
    /* eight: more, the host's copies of op(A) to each of them the limit */
    s = spread_of(&p, 1, 8);
    ck_assert_int_ge(s.count, 2);
}
END_TEST

/* 256^3 of any type, and 512^3 of the real ones: the further device's fixed cost and op(A)'s second copy outweigh
 * half the product and of op(B) and C's copies; one device */
START_TEST(small_product_stays_on_one)
{
    for (int type = 0; type < TB_TYPE_COUNT; type++)
        for (int side = 256; side <= (tb_type_complex((tb_type)type) ? 256 : 512); side *= 2)
            for (int beta = 0; beta <= 1; beta++) {
                const tb_kproblem p = problem((tb_type)type, side, side, side, beta);
                const tb_spread s = spread_of(&p, 0, 8);
                ck_assert_msg(s.count == 1, "type %d, %d^3, beta %d: %d devices", type, side, beta, s.count);
                ck_assert_int_eq(s.start[1], side);
            }
}
END_TEST

/* Tall C: row blocks, op(B) (the small operand) to every device */
START_TEST(tall_is_cut_into_row_blocks)
{
    const tb_kproblem p = problem(TB_TYPE_D, 65536, 512, 4096, 0.0);
    const tb_spread s = spread_of(&p, 0, 4);
    ck_assert_int_eq(s.by_rows, 1);
    ck_assert_int_eq(s.count, 4);
    ck_assert_int_eq(s.start[1], 16384);
}
END_TEST

/* A side narrower than two blocks is not cut, however long the product */
START_TEST(narrow_side_is_not_cut)
{
    const tb_kproblem p = problem(TB_TYPE_D, 100, 128, 1 << 22, 0.0);
    const tb_spread s = spread_of(&p, 0, 8);
    ck_assert_int_eq(s.count, 1);
}
END_TEST

/* Slower host copies never buy more devices; with copies too slow to feed two links, one */
START_TEST(host_copies_limit_the_devices)
{
    const tb_kproblem p = problem(TB_TYPE_S, 16384, 16384, 16384, 0.5);
    int last = TB_MAX_DEVICES;
    for (double host = 1e12; host >= 1e9; host /= 2) {
        tb_cost_params c = rates;
        c.host_copy = host;
        tb_spread s;
        tb_spread_plan(&c, &p, 1, 8, &s);
        ck_assert_msg(s.count <= last, "host copies at %g B/s: %d devices, %d at faster ones", host, s.count, last);
        last = s.count;
    }
    ck_assert_int_eq(last, 1);
}
END_TEST

/* Random shapes, types, betas and device counts keep the invariants */
START_TEST(random_spreads_keep_the_invariants)
{
    for (int i = 0; i < 3000; i++) {
        const tb_type type = (tb_type)draw(0, TB_TYPE_COUNT - 1);
        const int tc = (type == TB_TYPE_S || type == TB_TYPE_C) && draw(0, 1), devices = (int)draw(1, TB_MAX_DEVICES);
        const int64_t big = draw(0, 1) ? 40000 : 3000;
        const tb_kproblem p = problem(type, draw(1, big), draw(1, big), draw(1, big), draw(0, 1) ? 0.0 : -1.0);
        spread_of(&p, tc, devices);
    }
}
END_TEST

int main(void)
{
    state = tt_test_seed();
    const TTest *const tests[] = { one_device_is_the_single_prediction,
                                   large_square_takes_two_devices,
                                   small_product_stays_on_one,
                                   tall_is_cut_into_row_blocks,
                                   narrow_side_is_not_cut,
                                   host_copies_limit_the_devices,
                                   random_spreads_keep_the_invariants,
                                   NULL };
    return tt_run_tests("spread", "devices", tests, 0, CK_FORK);
}
