/* The CPU path: every type, entry point and transpose, every shape and scalar set, bit for bit equal to OpenBLAS.
 * Loop indices run over both real types: index / TT_COMBOS is dp (DGEMM), index % TT_COMBOS the combination; for
 * the complex types index / TT_COMPLEX_COMBOS is dp (ZGEMM), index % TT_COMPLEX_COMBOS the combination. */
#include <check.h>
#include "suite.h"
#include <stdio.h>
#include "harness.h"

START_TEST(grid)
{
    char msg[1024] = "";
    tileblas_set_path(TILEBLAS_PATH_CPU);
    int failures = tt_run_grid(_i / TT_COMBOS, _i % TT_COMBOS, TT_BITWISE, msg, sizeof msg);
    ck_assert_msg(failures == 0, "%d cases differ from OpenBLAS; first: %s", failures, msg);
}
END_TEST

START_TEST(grid_complex)
{
    char msg[1024] = "";
    tileblas_set_path(TILEBLAS_PATH_CPU);
    int failures = tt_run_grid(2 + _i / TT_COMPLEX_COMBOS, _i % TT_COMPLEX_COMBOS, TT_BITWISE, msg, sizeof msg);
    ck_assert_msg(failures == 0, "%d cases differ from OpenBLAS; first: %s", failures, msg);
}
END_TEST

/* Past the tiny calls, complex products on the CPU path: the BLAS beneath's bits; each op pair in one of the three
 * entry points (index: type x op pair) */
START_TEST(large_complex)
{
    char msg[1024] = "";
    tt_case c;
    const int pair = _i % 9;
    tt_combo_complex(9 * (pair % 3) + pair, &c);
    c.dp = _i / 9;
    c.m = 300, c.n = 310, c.k = 290, c.pad = 3, c.alpha = -1.5, c.alpha_im = 0.5, c.beta = 0.75, c.beta_im = -0.25;
    tileblas_set_path(TILEBLAS_PATH_CPU);
    ck_assert_msg(tt_run(&c, TT_BITWISE, msg, sizeof msg), "%s", msg);
    tileblas_call_info info;
    tileblas_last_call(&info);
    ck_assert_int_eq(info.path, TILEBLAS_PATH_CPU);
}
END_TEST

START_TEST(large)
{
    char msg[1024] = "";
    tt_case c;
    tt_combo(_i % TT_COMBOS, &c);
    c.dp = _i / TT_COMBOS;
    c.m = 1100, c.n = 1030, c.k = 1050, c.pad = 3, c.alpha = -1.5, c.beta = 0.75;
    tileblas_set_path(TILEBLAS_PATH_CPU);
    ck_assert_msg(tt_run(&c, TT_BITWISE, msg, sizeof msg), "%s", msg);
    tileblas_call_info info;
    tileblas_last_call(&info);
    ck_assert_int_eq(info.path, TILEBLAS_PATH_CPU);
    ck_assert_ptr_null(info.kernel);
}
END_TEST

/* Element offsets past 2^31: A, then C, with a leading dimension of INT_MAX, bit for bit, for each type. */
START_TEST(far)
{
    char msg[1024] = "";
    tileblas_set_path(TILEBLAS_PATH_CPU);
    ck_assert_msg(tt_run_far(_i, TT_BITWISE, msg, sizeof msg) != 0, "%s", msg);
}
END_TEST

/* Misaligned operands, and B the same matrix as A, bit for bit (sizes on both sides of the tiny-call path). */
START_TEST(odd_pointers)
{
    char msg[1024] = "";
    tileblas_set_path(TILEBLAS_PATH_CPU);
    for (int n = 9; n <= 300; n += 291)
        ck_assert_msg(tt_run_odd_pointers(_i / TT_COMBOS, _i % TT_COMBOS, n, TT_BITWISE, msg, sizeof msg) == 0, "%s",
                      msg);
    tileblas_set_path(TILEBLAS_PATH_AUTO);
    ck_assert_msg(tt_run_odd_pointers(_i / TT_COMBOS, _i % TT_COMBOS, 9, TT_BITWISE, msg, sizeof msg) == 0, "%s", msg);
}
END_TEST

/* Tiny calls in auto mode with nothing watching take a shorter path (lib/decide/tiny.h): still OpenBLAS's bits, still
 * counted, still the thread's last call. */
START_TEST(tiny_unwatched)
{
    char msg[1024] = "";
    tt_case c;
    tileblas_set_path(TILEBLAS_PATH_AUTO);
    int calls = 0;
    for (int combo = 0; combo < TT_COMBOS; combo++, calls++) {
        tt_combo(combo, &c);
        c.m = 8, c.n = 7, c.k = 9, c.pad = 1, c.alpha = 1.5, c.beta = combo % 2 ? 0.5 : 0.0, c.nan_c = !(combo % 2);
        c.dp = combo % 3 == 0;
        ck_assert_msg(tt_run(&c, TT_BITWISE, msg, sizeof msg), "%s", msg);
        tileblas_call_info info;
        tileblas_last_call(&info);
        ck_assert_int_eq(info.path, TILEBLAS_PATH_CPU);
    }
    tileblas_stats s; /* the first look at the statistics: every call above is in them */
    tileblas_get_stats(&s);
    ck_assert_uint_eq(s.cpu_calls, (unsigned long long)calls);
    ck_assert(s.cpu_flops == calls * 2.0 * 8 * 7 * 9);
}
END_TEST

/* Quick returns touch nothing and are counted as such; real calls are counted on the CPU with their flops. */
START_TEST(stats)
{
    char msg[1024] = "";
    tileblas_set_path(TILEBLAS_PATH_CPU);
    tileblas_reset_stats();
    tt_case c;
    tt_combo(0, &c);
    c.m = 7, c.n = 0, c.k = 5, c.alpha = 1, c.beta = 0;
    ck_assert_msg(tt_run(&c, TT_BITWISE, msg, sizeof msg), "%s", msg);
    c.n = 9;
    ck_assert_msg(tt_run(&c, TT_BITWISE, msg, sizeof msg), "%s", msg);
    tileblas_stats s;
    tileblas_get_stats(&s);
    ck_assert_uint_eq(s.quick_returns, 1);
    ck_assert_uint_eq(s.cpu_calls, 1);
    ck_assert_uint_eq(s.gpu_calls, 0);
    ck_assert(s.cpu_flops == 2.0 * 7 * 9 * 5);
    ck_assert(s.cpu_seconds >= 0.0);
    /* complex: a quick return only when both parts of alpha are 0; 8 real flops a multiply-add */
    tileblas_reset_stats();
    tt_combo_complex(2, &c); /* cblas col-major NC */
    c.m = 7, c.n = 9, c.k = 5, c.alpha = 0.0, c.alpha_im = 1.0, c.beta = 0.5;
    ck_assert_msg(tt_run(&c, TT_BITWISE, msg, sizeof msg), "%s", msg);
    c.alpha_im = 0.0;
    ck_assert_msg(tt_run(&c, TT_BITWISE, msg, sizeof msg), "%s", msg);
    c.dp = 1, c.api = TT_FORTRAN, c.alpha = 2.0;
    ck_assert_msg(tt_run(&c, TT_BITWISE, msg, sizeof msg), "%s", msg);
    tileblas_get_stats(&s);
    ck_assert_uint_eq(s.quick_returns, 1);
    ck_assert_uint_eq(s.cpu_calls, 2);
    ck_assert(s.cpu_flops == 2 * 8.0 * 7 * 9 * 5);
}
END_TEST

int main(void)
{
    tt_seed();
    Suite *s = suite_create("cpu path");
    TCase *tc = tcase_create("vs OpenBLAS");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, grid, 0, 2 * TT_COMBOS);
    tcase_add_loop_test(tc, large, 0, 2 * TT_COMBOS);
    tcase_add_loop_test(tc, grid_complex, 0, 2 * TT_COMPLEX_COMBOS);
    tcase_add_loop_test(tc, large_complex, 0, 2 * 9);
    tcase_add_test(tc, stats);
    tcase_add_loop_test(tc, far, 0, 2);
    tcase_add_test(tc, tiny_unwatched);
    tcase_add_loop_test(tc, odd_pointers, 0, 2 * TT_COMBOS);
    suite_add_tcase(s, tc);
    return tt_run_suite(s, CK_FORK);
}
