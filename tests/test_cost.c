/* Unit tests of the cost model (lib/decide/cost.c): the prediction's formula, the calibration file's format, where it is
 * looked for.  CPU only. */
#include <config.h>
#include <check.h>
#include "suite.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cost.h"
#include "tiny.h"

static tb_call shape(int64_t m, int64_t n, int64_t k, float beta)
{
    tb_call g = { .p.m = m, .p.n = n, .p.k = k, .p.alpha = 1.0f, .p.beta = beta };
    return g;
}

static int close_to(double x, double want)
{
    return fabs(x - want) <= 1e-12 * fabs(want);
}

/* Every term of the formula in cost.h, worked out by hand for one set of round numbers, for each type: its bytes
 * per element, its flops per multiply-add (8 for the complex types), its own rates, and for the complex types the
 * further fixed cost of their kernels (gpu_extra). */
START_TEST(prediction)
{
    const tb_cost_params c = { .gpu_call = 1e-3, .h2d_a = 1e9, .h2d_b = 2e9, .d2h = 4e9,
                               .gpu_rate = { 1e12, 5e11, 2e12, 1e12 }, .gpu_half = { 100, 50, 120, 60 },
                               .cpu_call = 1e-6, .cpu_rate = { 1e11, 2e10, 4e11, 1e11 },
                               .cpu_half = { 300, 100, 200, 150 }, .gpu_extra = { 0, 0, 3e-5, 5e-5 } };
    for (int ty = 0; ty < TB_TYPE_COUNT; ty++) {
        tb_call g = shape(100, 200, 300, 0.0f);
        g.p.type = (tb_type)ty;
        const double e = ty == TB_TYPE_S ? 4.0 : ty == TB_TYPE_Z ? 16.0 : 8.0, gh = c.gpu_half[ty], ch = c.cpu_half[ty];
        tb_cost t = tb_cost_predict(&c, &g, 0);
        double flops = (ty >= TB_TYPE_C ? 8.0 : 2.0) * 100 * 200 * 300;
        double fg = (100.0 / (100 + gh)) * (200.0 / (200 + gh)) * (300.0 / (300 + gh));
        double fc = (100.0 / (100 + ch)) * (200.0 / (200 + ch)) * (300.0 / (300 + ch));
        double gpu = 1e-3 + c.gpu_extra[ty] + e * 100 * 300 / 1e9 + e * 300 * 200 / 2e9 + e * 100 * 200 / 4e9 +
                     flops / (c.gpu_rate[ty] * fg);
        ck_assert_msg(close_to(t.gpu, gpu), "type %d: gpu %.17g, want %.17g", ty, t.gpu, gpu);
        ck_assert_msg(close_to(t.cpu, 1e-6 + flops / (c.cpu_rate[ty] * fc)), "type %d: cpu %.17g", ty, t.cpu);
        /* beta != 0: C goes in as well, at op(B)'s rate */
        g.p.beta = 0.5f;
        ck_assert(close_to(tb_cost_predict(&c, &g, 0).gpu, gpu + e * 100 * 200 / 2e9));
        /* the CPU's time does not depend on beta, nor either path on alpha */
        ck_assert(close_to(tb_cost_predict(&c, &g, 0).cpu, t.cpu));
    }
    /* a rank-k update (200 x 200, its lower triangle: 200 201 / 2 elements): the CPU BLAS computes the triangle
     * alone, the GPU whole tiles across it */
    tb_call g = shape(200, 200, 300, 0.0f);
    const tb_cost whole = tb_cost_predict(&c, &g, 0);
    g.p.part = TB_PART_LOWER;
    const tb_cost tri = tb_cost_predict(&c, &g, 0);
    ck_assert(close_to(tri.gpu, whole.gpu));
    ck_assert_msg(close_to(tri.cpu, 1e-6 + (whole.cpu - 1e-6) * (200.0 * 201 / 2) / (200.0 * 200)), "cpu %.17g",
                  tri.cpu);
}
END_TEST

/* On the tensor cores (tc): the faster of the type's curve and the tensor cores' (gpu_rate_tc, gpu_half_tc), the
 * rest of the GPU's time and the CPU's unchanged: a small product keeps the FP32 units' curve, a large one gets the
 * tensor cores'. */
START_TEST(prediction_tc)
{
    tb_cost_params c = tb_cost_defaults;
    c.gpu_rate[TB_TYPE_S] = 50e12, c.gpu_half[TB_TYPE_S] = 100, c.gpu_rate_tc = 150e12, c.gpu_half_tc = 800;
    static const int64_t sides[] = { 64, 256, 8192 };
    for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
        const double d = (double)sides[i], flops = 2.0 * d * d * d;
        tb_call g = shape(sides[i], sides[i], sides[i], 0.0f);
        const tb_cost plain = tb_cost_predict(&c, &g, 0), tc = tb_cost_predict(&c, &g, 1);
        const double f = d / (d + 100), ft = d / (d + 800);
        const double fp32 = flops / (50e12 * f * f * f), on_tc = flops / (150e12 * ft * ft * ft);
        const double want = plain.gpu - fp32 + (on_tc < fp32 ? on_tc : fp32);
        ck_assert_msg(close_to(tc.gpu, want), "%g^3: gpu %.17g, want %.17g", d, tc.gpu, want);
        ck_assert(close_to(tc.cpu, plain.cpu));
        ck_assert(i < 2 ? tc.gpu == plain.gpu : tc.gpu < plain.gpu); /* 256^3: 1.8 us on the FP32 units, 15.7 on the tensor cores */
    }
}
END_TEST

START_TEST(parse_format)
{
    tb_cost_params c = tb_cost_defaults;
    ck_assert_int_eq(tb_cost_parse(&c, ""), 0);
    ck_assert(!memcmp(&c, &tb_cost_defaults, sizeof c));
    ck_assert_int_eq(tb_cost_parse(&c, "# comment\n\n  gpu_rate   4.5e13 # tail\r\nh2d_a 1e9\ngpu_half_d 300"), 0);
    ck_assert(c.gpu_rate[TB_TYPE_S] == 4.5e13 && c.h2d_a == 1e9 && c.d2h == tb_cost_defaults.d2h);
    ck_assert(c.gpu_half[TB_TYPE_D] == 300 && c.gpu_rate[TB_TYPE_D] == tb_cost_defaults.gpu_rate[TB_TYPE_D]);
    ck_assert_int_eq(tb_cost_parse(&c, "gpu_rate_tc 1.2e14\ngpu_half_tc 240\n"), 0);
    ck_assert(c.gpu_rate_tc == 1.2e14 && c.gpu_half_tc == 240 && c.gpu_rate[TB_TYPE_S] == 4.5e13);
    /* the complex types' fields end in _c and _z; a file without them keeps the built-in ones */
    ck_assert_int_eq(tb_cost_parse(&c, "gpu_extra_z 3e-5\n"), 0);
    ck_assert(c.gpu_extra[TB_TYPE_Z] == 3e-5 && c.gpu_extra[TB_TYPE_C] == tb_cost_defaults.gpu_extra[TB_TYPE_C]);
    /* each bad line: its number back, nothing changed */
    static const char *bad[] = { "gpu_rate 1e13\nwarp_speed 9\n",
                                 "gpu_rate 1e13\n\ncpu_half 0\n",
                                 "x\n",
                                 "gpu_rate\n",
                                 "gpu_rate -5\n",
                                 "gpu_rate nan\n",
                                 "gpu_rate inf\n",
                                 "gpu_rate 1e13 extra\n",
                                 "gpu_rate_q 1e13\n",
                                 "gpu_rate 1e13x\n" };
    static const int line[] = { 2, 3, 1, 1, 1, 1, 1, 1, 1, 1 };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tb_cost_params before = c;
        ck_assert_msg(tb_cost_parse(&c, bad[i]) == line[i], "\"%s\"", bad[i]);
        ck_assert(!memcmp(&c, &before, sizeof c));
    }
    char long_line[400];
    memset(long_line, ' ', sizeof long_line - 1);
    long_line[sizeof long_line - 1] = 0;
    ck_assert_int_eq(tb_cost_parse(&c, long_line), 1);
}
END_TEST

/* What tb_cost_write writes, tb_cost_load reads back (values with 6 significant digits survive exactly). */
START_TEST(write_and_load)
{
    const tb_cost_params c = { .gpu_call = 4.5e-5, .h2d_a = 7.25e9, .h2d_b = 3.7e10, .d2h = 3.2e10,
                               .gpu_rate = { 5e13, 6.25e13, 4.5e13, 5.5e13 }, .gpu_half = { 128, 250, 150, 240 },
                               .cpu_call = 2e-7,
                               .cpu_rate = { 1.3e12, 6.2e11, 1.25e12, 5.5e11 }, .cpu_half = { 64, 96, 48, 24 },
                               .gpu_rate_tc = 1.25e14, .gpu_half_tc = 250,
                               .gpu_extra = { 0, 0, 2.5e-5, 1.5e-5 }, .host_copy = 6.5e10, .device_call = 2.5e-5 };
    char path[] = "/tmp/tileblas-test-cost.XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_int_eq(tb_cost_write(&c, f), 0);
    fclose(f);
    tb_cost_params back = tb_cost_defaults;
    ck_assert_int_eq(tb_cost_load(&back, path), 0);
    ck_assert(!memcmp(&back, &c, sizeof c));
    /* not text */
    f = fopen(path, "w");
    fwrite("gpu_rate 1\0e13\n", 1, 15, f);
    fclose(f);
    ck_assert_int_gt(tb_cost_load(&back, path), 0);
    unlink(path);
    errno = 0;
    ck_assert_int_eq(tb_cost_load(&back, path), -1);
    ck_assert_int_eq(errno, ENOENT);
}
END_TEST

START_TEST(paths)
{
    char buf[256];
    setenv("XDG_CONFIG_HOME", "/x/cfg", 1);
    ck_assert_str_eq(tb_cost_path(0, buf, sizeof buf), "/x/cfg/tileblas/calibration");
    ck_assert_str_eq(tb_cost_path(1, buf, sizeof buf), SYSCONFDIR "/tileblas/calibration");
    ck_assert_ptr_null(tb_cost_path(2, buf, sizeof buf));
    unsetenv("XDG_CONFIG_HOME");
    setenv("HOME", "/home/u", 1);
    ck_assert_str_eq(tb_cost_path(0, buf, sizeof buf), "/home/u/.config/tileblas/calibration");
    ck_assert_str_eq(tb_cost_path(1, buf, sizeof buf), SYSCONFDIR "/tileblas/calibration");
    unsetenv("HOME");
    ck_assert_str_eq(tb_cost_path(0, buf, sizeof buf), ""); /* no user's place: skipped */
    ck_assert_str_eq(tb_cost_path(1, buf, sizeof buf), SYSCONFDIR "/tileblas/calibration");
    ck_assert_ptr_null(tb_cost_path(2, buf, sizeof buf));
    setenv("HOME", "/home/u", 1);
    ck_assert_str_eq(tb_cost_path(0, buf, 4), ""); /* does not fit: skipped */
}
END_TEST

/* 1 when p goes the tiny calls' way under the gates as they stand (lib/decide/tiny.h) */
static int tiny(int64_t m, int64_t n, int64_t k, tb_type type)
{
    const tb_kproblem p = { .type = type, .m = m, .n = n, .k = k, .lda = m, .ldb = k, .ldc = m, .alpha = 1.0 };
    return tb_tiny_valid(&p) && tb_tiny_flops(&p) > 0.0;
}

/* The tiny calls' gates: auto mode's are the cost model's "CPU within the GPU's fixed cost" below the flops whose
 * time is always taken; CPU mode's that bound alone; closed in GPU mode, when watched, once the statistics are asked
 * for, on a thread with a forced path, for ALPHA = 0, quick returns and invalid leading dimensions. */
START_TEST(tiny_gates)
{
    tb_config cfg = { .mode = TB_MODE_AUTO, .cost = tb_cost_defaults };
    cfg.cost.gpu_call = 20e-6, cfg.cost.cpu_call = 1e-7;
    cfg.cost.cpu_rate[TB_TYPE_S] = 1e13, cfg.cost.cpu_rate[TB_TYPE_D] = 5e10; /* S: the flops bound binds */
    cfg.cost.cpu_half[TB_TYPE_S] = 24, cfg.cost.cpu_half[TB_TYPE_D] = 40;
    const int64_t sizes[] = { 1, 2, 3, 7, 16, 17, 31, 64, 100, 255, 1000, 4096, 100000 };
    const int ns = (int)(sizeof sizes / sizeof *sizes);
    for (int mode = 0; mode < 3; mode++) {
        cfg.mode = mode == 0 ? TB_MODE_AUTO : mode == 1 ? TB_MODE_CPU : TB_MODE_GPU;
        tb_tiny_update(&cfg);
        int seen = 0;
        for (int ty = 0; ty < TB_TYPE_COUNT; ty++)
            for (int a = 0; a < ns; a++)
                for (int b = 0; b < ns; b++)
                    for (int c = 0; c < ns; c++) {
                        const double m = (double)sizes[a], n = (double)sizes[b], k = (double)sizes[c];
                        const double h = cfg.mode == TB_MODE_AUTO ? cfg.cost.cpu_half[ty] : 0.0;
                        const double most = cfg.mode == TB_MODE_AUTO ? (20e-6 - 1e-7) * cfg.cost.cpu_rate[ty] : 1e300;
                        const double f = tb_type_flops((tb_type)ty); /* 2, or 8 for a complex type */
                        const int want = cfg.mode != TB_MODE_GPU && f * m * n * k < TB_STATS_TIMED_FLOPS &&
                                         f * (m + h) * (n + h) * (k + h) <= most &&
                                         f * (m + h) * (n + h) * (k + h) < TB_STATS_TIMED_FLOPS;
                        ck_assert_msg(tiny(sizes[a], sizes[b], sizes[c], (tb_type)ty) == want,
                                      "mode %d type %d %gx%gx%g: want %d", mode, ty, m, n, k, want);
                        seen += want;
                    }
        ck_assert(mode == 2 ? seen == 0 : seen > 10); /* the grid has both kinds */
    }
    cfg.mode = TB_MODE_CPU;
    tb_tiny_update(&cfg);
    ck_assert(tiny(16, 16, 16, TB_TYPE_D));
    tb_kproblem p = { .type = TB_TYPE_D, .m = 16, .n = 16, .k = 16, .lda = 16, .ldb = 16, .ldc = 16, .alpha = 0.0 };
    ck_assert(tb_tiny_flops(&p) == 0.0); /* ALPHA = 0 */
    p.alpha = 1.0, p.ldb = 15;
    ck_assert(!tb_tiny_valid(&p)); /* LDB < K */
    p.ldb = 16, p.k = 0;
    ck_assert(!tb_tiny_valid(&p)); /* a quick return */
    /* SYR2K's, op(A) = A^T and op(B) = B, K = 16 deep each (32 joined): LDA and LDB of K are valid, K - 1 not */
    const tb_kproblem two = { .type = TB_TYPE_D, .transa = 1, .m = 16, .n = 16, .k = 32, .k1 = 16, .lda = 16,
                              .ldb = 16, .ldc = 16, .alpha = 1.0, .alpha2 = 1.0 };
    tb_kproblem bad = two;
    bad.ldb = 15;
    ck_assert(tb_tiny_valid(&two) && !tb_tiny_valid(&bad));
    tb_route_force_path(TB_PATH_CPU);
    ck_assert(!tiny(16, 16, 16, TB_TYPE_D));
    tb_route_force_path(TB_PATH_NONE);
    cfg.watched = 1;
    tb_tiny_update(&cfg);
    ck_assert(!tiny(16, 16, 16, TB_TYPE_D) && !tiny(1, 1, 1, TB_TYPE_S));
    cfg.watched = 0;
    tb_stats_asked_for = 1;
    tb_tiny_update(&cfg);
    ck_assert(!tiny(16, 16, 16, TB_TYPE_D) && !tiny(1, 1, 1, TB_TYPE_S));
}
END_TEST

int main(void)
{
    const TTest *const tests[] = { prediction, prediction_tc, parse_format, write_and_load, paths, tiny_gates, NULL };
    return tt_run_tests("cost", "cost model", tests, 0, CK_FORK);
}
