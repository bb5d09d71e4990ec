/* The GPU path: every kernel of the table x type it computes x entry point x transpose x shape x scalar set,
 * within the bound of doc/TESTING.md against OpenBLAS, and really on the GPU.  Skips (77) when no device is
 * usable.  Built as three programs, run side by side (TT_GPU_PART; -1: all): the real types on the even-numbered
 * kernels of the table, the complex types, the real types on the odd-numbered kernels with the rest. */
#include <check.h>
#include "suite.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"

#ifndef TT_GPU_PART
#define TT_GPU_PART -1
#endif
enum { PART_REAL, PART_COMPLEX, PART_REAL_ODD };
static int in_part(int part)
{
    return TT_GPU_PART < 0 || TT_GPU_PART == part;
}

/* whether this program runs the real types on the kernel numbered `kernel` */
static int real_kernel_here(int kernel)
{
    return TT_GPU_PART < 0 || TT_GPU_PART == (kernel % 2 ? PART_REAL_ODD : PART_REAL);
}

/* kernel forced on the GPU path, or NULL when it does not compute the type of BLAS prefix `type` (or is not among
 * TT_KERNELS) */
static const char *force(int kernel, char type)
{
    const char *name = tileblas_kernel_name(kernel);
    if (!strchr(tileblas_kernel_types(kernel), type) || !tt_kernel_selected(name))
        return NULL;
    tileblas_set_path(TILEBLAS_PATH_GPU);
    ck_assert_int_eq(tileblas_set_kernel(name), 0);
    return name;
}

/* loop index -> kernel, type (dp) and combination; NULL when the kernel does not compute that type */
static const char *use_kernel(int i, tt_case *c)
{
    tt_combo(i % TT_COMBOS, c);
    c->dp = i / TT_COMBOS % 2;
    return real_kernel_here(i / (2 * TT_COMBOS)) ? force(i / (2 * TT_COMBOS), c->dp ? 'd' : 's') : NULL;
}

/* the complex types: loop index -> kernel, type (c or z) and op pair, each of the 9 in one of the three entry
 * points (*combo: its number of the 27); NULL as above */
static const char *use_complex_kernel(int i, tt_case *c, int *combo)
{
    const int pair = i % 9;
    *combo = 9 * (pair % 3) + pair;
    tt_combo_complex(*combo, c);
    c->dp = i / 9 % 2;
    return force(i / 18, c->dp ? 'z' : 'c');
}

/* the default kernel of a type: the last of the table that computes it */
static const char *default_kernel(int dp)
{
    for (int k = tileblas_kernel_count() - 1; k >= 0; k--)
        if (strchr(tileblas_kernel_types(k), dp ? 'd' : 's'))
            return tileblas_kernel_name(k);
    return NULL;
}

/* on the GPU, on the kernel asked for, or on the one it hands such problems to (kernels/list.h: tc32, tc128 and
 * tf32 give blocked the shapes they do not take) */
static void assert_ran_on_gpu(const char *kernel)
{
    tileblas_call_info info;
    tileblas_last_call(&info);
    ck_assert_msg(info.path == TILEBLAS_PATH_GPU && !info.gpu_failed, "call did not run on the GPU (path %d%s)",
                  info.path, info.gpu_failed ? ", GPU failed" : "");
    const int handed = (!strncmp(kernel, "tc", 2) || !strcmp(kernel, "tf32")) && !strcmp(info.kernel, "blocked");
    ck_assert_msg(!strcmp(info.kernel, kernel) || handed, "ran on %s, not %s", info.kernel, kernel);
}

/* the bound a kernel's results keep: TF32's for the tf32 kernel, else its type's */
static tt_match bound_of(const char *kernel)
{
    return strstr(kernel, "tf32") ? TT_TOLERANCE_TF32 : TT_TOLERANCE;
}

/* kernel's grid of one type (tt_run_grid's numbering) and combination, then c itself, which must run on the GPU */
static void grid_then(const char *kernel, int type, int combo, const tt_case *c)
{
    char msg[1024] = "";
    int failures = tt_run_grid(type, combo, bound_of(kernel), msg, sizeof msg);
    ck_assert_msg(failures == 0, "%s: %d cases out of tolerance; first: %s", kernel, failures, msg);
    ck_assert_msg(tt_run(c, bound_of(kernel), msg, sizeof msg), "%s: %s", kernel, msg);
    assert_ran_on_gpu(kernel);
}

START_TEST(grid)
{
    tt_case c;
    const char *kernel = use_kernel(_i, &c);
    if (!kernel)
        return;
    c.m = 33, c.n = 17, c.k = 65, c.alpha = 1.0, c.beta = 0.5;
    grid_then(kernel, c.dp, _i % TT_COMBOS, &c);
}
END_TEST

/* The complex types where a kernel computes them: every op pair, the real and the complex scalar sets; and a
 * product large enough for the real products' own choices (tiles, k split).  The entry points' own handling of
 * complex calls is test_cpu's. */
START_TEST(grid_complex)
{
    tt_case c;
    int combo;
    const char *kernel = use_complex_kernel(_i, &c, &combo);
    if (!kernel)
        return;
    c.m = 520, c.n = 300, c.k = 700, c.pad = 2, c.alpha = 0.5, c.alpha_im = -1.0, c.beta = 0.25, c.beta_im = 1.0;
    grid_then(kernel, 2 + c.dp, combo, &c);
}
END_TEST

START_TEST(large)
{
    tt_case c;
    char msg[1024] = "";
    const char *kernel = use_kernel(_i, &c);
    if (!kernel)
        return;
    c.m = 1100, c.n = 1030, c.k = 1050, c.pad = 3, c.alpha = -1.5, c.beta = 0.75;
    ck_assert_msg(tt_run(&c, bound_of(kernel), msg, sizeof msg), "%s: %s", kernel, msg);
    assert_ran_on_gpu(kernel);
    c.m = 1024, c.n = 1024, c.k = 1024, c.pad = 0, c.alpha = 1.0, c.beta = 0.0, c.nan_c = 1;
    ck_assert_msg(tt_run(&c, bound_of(kernel), msg, sizeof msg), "%s: %s", kernel, msg);
    assert_ran_on_gpu(kernel);
}
END_TEST

/* The tensor-core kernels (tc128, tc32, tf32) from host memory where the pipeline converts each row block of op(A)
 * and each panel of op(B) once for all their tiles (lib/gpu/pipeline.c): 6000^3 makes 2 row blocks of 3072 and 8
 * panels of 768 (the first block at most 128 MiB, up to 8 tiles along n), both operands kept whole (growing
 * squares), the tiles large enough for tc32 to take.  A few elements of A, B and C are Inf or NaN, in rows and
 * columns of different blocks: the rows of each block that hold them are listed per block. */
START_TEST(prepared)
{
    static const char *const with_prepared[] = { "tc128", "tc32", "tf32" };
    const char *kernel = with_prepared[_i / 4];
    if (getenv("TILEBLAS_GPU_MEMORY"))
        return; /* tests/out-of-core.sh: 6000^3 needs its operands whole on the device, 290 MB */
    tt_case c;
    char msg[1024] = "";
    tt_combo(_i % 4, &c); /* CBLAS column-major, every transpose pair */
    tileblas_set_path(TILEBLAS_PATH_GPU);
    ck_assert_int_eq(tileblas_set_kernel(kernel), 0);
    c.m = c.n = c.k = 6000, c.alpha = 1.0, c.beta = 0.5, c.specials = 2;
    ck_assert_msg(tt_run(&c, bound_of(kernel), msg, sizeof msg), "%s: %s", kernel, msg);
    assert_ran_on_gpu(kernel);
}
END_TEST

/* The complex kernels from host memory, 2000^3 in tiles that tc32 takes: where the kernel prepares its operands,
 * each row block of op(A) and each panel of op(B) prepared once (their real forms, and c4m-tc32's and c4m-tf32's
 * own forms of those; 2 row blocks and 8 panels: complex plans are cut along both sides), and the inplace kernels
 * reading op(A) where it is, tile by tile; four op pairs, complex alpha and beta, a few elements of A, B and C Inf
 * or NaN, in different blocks. */
START_TEST(large_complex)
{
    static const char *const complex_kernels[] = { "c4m-tc32", "c4m-tf32", "c4m-blocked", "z4m-dmma", "c4m-tc32-inplace",
                                                   "z4m-dmma-inplace" };
    static const int pairs[4] = { 0, 7, 5, 3 }; /* NN, CT, TC, TN (tt_combo_complex's numbering: 3 ta + tb) */
    const char *kernel = complex_kernels[_i / 4];
    if (getenv("TILEBLAS_GPU_MEMORY"))
        return; /* tests/out-of-core.sh: 2000^3 complex needs 100-200 MB */
    tt_case c;
    char msg[1024] = "";
    tt_combo_complex(pairs[_i % 4], &c);
    c.dp = kernel[0] == 'z';
    tileblas_set_path(TILEBLAS_PATH_GPU);
    ck_assert_int_eq(tileblas_set_kernel(kernel), 0);
    c.m = c.n = c.k = 2000, c.alpha = 0.75, c.alpha_im = -0.5, c.beta = 0.5, c.beta_im = 0.25, c.specials = 2;
    ck_assert_msg(tt_run(&c, bound_of(kernel), msg, sizeof msg), "%s: %s", kernel, msg);
    assert_ran_on_gpu(kernel);
}
END_TEST

/* ZGEMM on cx-dmma through the library for op pair `pair` (tt_combo_complex's), m x n x k, alpha and beta complex
 * (ab: their real and imaginary parts), a few elements of A, B and C Inf or NaN */
static void cx_dmma_case(int pair, int m, int n, int k, const double ab[4])
{
    tt_case c;
    char msg[1024] = "";
    tt_combo_complex(pair, &c);
    c.dp = 1;
    tileblas_set_path(TILEBLAS_PATH_GPU);
    ck_assert_int_eq(tileblas_set_kernel("cx-dmma"), 0);
    c.m = m, c.n = n, c.k = k, c.alpha = ab[0], c.alpha_im = ab[1], c.beta = ab[2], c.beta_im = ab[3], c.specials = 2;
    ck_assert_msg(tt_run(&c, bound_of("cx-dmma"), msg, sizeof msg), "cx-dmma: %s", msg);
    assert_ran_on_gpu("cx-dmma");
}

/* cx-dmma with more tiles than a wave (750 x 750: 576 tiles of 32 x 32, past the 396 to 528 blocks that fit on
 * 132 SMs, but not two waves), k deep enough to be cut into two slices where a build sums them in clusters
 * (kernels/cx.cu's wave_slices) and shallow enough for tests/out-of-core.sh's 12 MiB of device memory, and C's last
 * tiles read from a tile back (750 is no multiple of 32); every op pair. */
START_TEST(past_a_wave)
{
    static const double ab[4] = { -0.5, 1.25, 0.75, -0.5 };
    cx_dmma_case(_i, 750, 750, 600, ab);
}
END_TEST

/* cx-dmma where C has 33 to 48 columns and op(A) is more bytes than half an H100's or H200's L2 cache (16000 x 500:
 * 128 MB): the 32 x 48 tiles (kernels/cx.cu's past_l2) where TMA runs, the 64 x 16 ones under tests/out-of-core.sh's
 * memory (the pipeline's smaller tiles); every op pair. */
START_TEST(past_l2)
{
    static const double ab[4] = { 0.75, -1.5, -0.25, 0.5 };
    cx_dmma_case(_i, 16000, 40, 500, ab);
}
END_TEST

/* cx-dmma with slices of k that fill the GPU but, as clusters of their count, would not fit it at once: on 132 SMs,
 * 1500 x 40's 72 tiles of 64 x 16 (op(A) 24 MB, under half the L2) in 7 slices are 504 blocks of the 528 that fit,
 * but clusters of 7 keep 483, so 6 slices summed in clusters; every op pair. */
START_TEST(fewer_slices)
{
    static const double ab[4] = { 1.25, 0.5, -0.75, -0.25 };
    cx_dmma_case(_i, 1500, 40, 1000, ab);
}
END_TEST

/* Misaligned operands, and B the same matrix as A: through the pipeline with copies shared among the
 * threads (300^3: 352 KiB an operand in single precision) and the type's default kernel. */
START_TEST(odd_pointers)
{
    char msg[1024] = "";
    const int dp = _i / TT_COMBOS;
    tileblas_set_path(TILEBLAS_PATH_GPU);
    tileblas_set_kernel(NULL);
    ck_assert_msg(tt_run_odd_pointers(dp, _i % TT_COMBOS, 300, TT_TOLERANCE, msg, sizeof msg) == 0, "%s", msg);
    assert_ran_on_gpu(default_kernel(dp));
}
END_TEST

/* Element offsets past 2^31: A, then C, with a leading dimension of INT_MAX, through the pipeline;
 * both calls on the GPU, for each type. */
START_TEST(far)
{
    char msg[1024] = "";
    tileblas_stats before, after;
    tileblas_set_path(TILEBLAS_PATH_GPU);
    tileblas_set_kernel(NULL);
    tileblas_get_stats(&before);
    int r = tt_run_far(_i, TT_TOLERANCE, msg, sizeof msg);
    ck_assert_msg(r != 0, "%s", msg);
    tileblas_get_stats(&after);
    if (r > 0)
        ck_assert(after.gpu_calls == before.gpu_calls + 2 && after.gpu_failures == before.gpu_failures);
}
END_TEST

/* No call of the whole suite fell back to the CPU. */
START_TEST(no_failures)
{
    tileblas_stats s;
    tileblas_get_stats(&s);
    ck_assert_uint_eq(s.gpu_failures, 0);
    ck_assert_uint_gt(s.gpu_calls, 0);
}
END_TEST

int main(void)
{
    const char *why = NULL;
    tt_seed();
    if (!tileblas_gpu_available(&why)) {
        printf("SKIP: no usable GPU: %s\n", why);
        return 77;
    }
    int kernels = tileblas_kernel_count();
    Suite *s = suite_create("gpu path");
    TCase *tc = tcase_create("vs OpenBLAS");
    tcase_set_timeout(tc, 600);
    if (in_part(PART_REAL) || in_part(PART_REAL_ODD)) {
        tcase_add_loop_test(tc, grid, 0, kernels * 2 * TT_COMBOS);
        tcase_add_loop_test(tc, large, 0, kernels * 2 * TT_COMBOS);
    }
    if (in_part(PART_REAL_ODD)) {
        tcase_add_loop_test(tc, odd_pointers, 0, 2 * TT_COMBOS);
        tcase_add_loop_test(tc, prepared, 0, 3 * 4);
        tcase_add_loop_test(tc, far, 0, 2);
    }
    if (in_part(PART_COMPLEX))
        tcase_add_loop_test(tc, grid_complex, 0, kernels * 2 * 9);
    if (in_part(PART_COMPLEX))
        tcase_add_loop_test(tc, large_complex, 0, 6 * 4);
    if (in_part(PART_COMPLEX))
        tcase_add_loop_test(tc, past_a_wave, 0, 9);
    if (in_part(PART_COMPLEX))
        tcase_add_loop_test(tc, past_l2, 0, 9);
    if (in_part(PART_COMPLEX))
        tcase_add_loop_test(tc, fewer_slices, 0, 9);
    tcase_add_test(tc, no_failures);
    suite_add_tcase(s, tc);
    /* CUDA is initialised in this process: children forked by check could not use it */
    return tt_run_suite(s, CK_NOFORK);
}
