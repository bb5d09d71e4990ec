/* Unit tests of internals (linked against the core, not the exported library): TILEBLAS_* parsing, the
 * auto-mode size rule, the kernel table. */
#include <config.h>
#include <check.h>
#include "suite.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "env.h"
#include "kernels.h"
#include "route.h"

static const char *vars[] = { "TILEBLAS_MODE",          "TILEBLAS_KERNEL",           "TILEBLAS_CPU_BLAS",
                              "TILEBLAS_VERBOSE",       "TILEBLAS_GPU_MIN_GFLOP",    "TILEBLAS_GPU_MIN_INTENSITY",
                              "TILEBLAS_COPY_THREADS", "TILEBLAS_GPU_MEMORY" };

/* Parse with the given variables set (name=value pairs, NULL-terminated); returns what went to stderr. */
static char warnings[4096];
static tb_config parse_with(const char *const *assign)
{
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        unsetenv(vars[i]);
    for (; assign && *assign; assign += 2)
        setenv(assign[0], assign[1], 1);
    fflush(stderr);
    FILE *tmp = tmpfile();
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    tb_config cfg;
    tb_config_parse(&cfg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(warnings, 1, sizeof warnings - 1, tmp);
    warnings[n] = 0;
    fclose(tmp);
    return cfg;
}

START_TEST(defaults_are_quiet)
{
    tb_config cfg = parse_with(NULL);
    ck_assert_int_eq(cfg.mode, TB_MODE_AUTO);
    ck_assert_int_eq(cfg.kernel, -1);
    ck_assert_ptr_null(cfg.cpu_blas);
    ck_assert_int_eq(cfg.verbose, 0);
    ck_assert(cfg.gpu_min_flops == 1e9 * TB_DEFAULT_GPU_MIN_GFLOP);
    ck_assert(cfg.gpu_min_intensity == TB_DEFAULT_GPU_MIN_INTENSITY);
    ck_assert_int_eq(cfg.copy_threads, 0);
    ck_assert(cfg.gpu_memory == 0);
    ck_assert_str_eq(warnings, "");
}
END_TEST

START_TEST(good_values)
{
    const char *set[] = { "TILEBLAS_MODE", "GPU", "TILEBLAS_VERBOSE", "2", "TILEBLAS_CPU_BLAS", "/x/libblas.so",
                          "TILEBLAS_GPU_MIN_GFLOP", "0.5", "TILEBLAS_GPU_MIN_INTENSITY", "10",
                          "TILEBLAS_COPY_THREADS", "7", "TILEBLAS_GPU_MEMORY", "1.5G", NULL };
    tb_config cfg = parse_with(set);
    ck_assert_int_eq(cfg.copy_threads, 7);
    ck_assert(cfg.gpu_memory == 1.5 * 1024 * 1024 * 1024);
    ck_assert_int_eq(cfg.mode, TB_MODE_GPU);
    ck_assert_int_eq(cfg.verbose, 2);
    ck_assert_str_eq(cfg.cpu_blas, "/x/libblas.so");
    ck_assert(cfg.gpu_min_flops == 0.5e9);
    ck_assert(cfg.gpu_min_intensity == 10.0);
    ck_assert_str_eq(warnings, "");
    const char *cpu[] = { "TILEBLAS_MODE", "cpu", NULL };
    ck_assert_int_eq(parse_with(cpu).mode, TB_MODE_CPU);
}
END_TEST

/* Garbage: one warning per variable naming it, and the default. */
START_TEST(bad_values)
{
    const char *set[] = { "TILEBLAS_MODE", "fast", "TILEBLAS_VERBOSE", "yes", "TILEBLAS_KERNEL", "nope",
                          "TILEBLAS_GPU_MIN_GFLOP", "-1", "TILEBLAS_GPU_MIN_INTENSITY", "12abc",
                          "TILEBLAS_COPY_THREADS", "65", "TILEBLAS_GPU_MEMORY", "lots", NULL };
    tb_config cfg = parse_with(set);
    ck_assert_int_eq(cfg.mode, TB_MODE_AUTO);
    ck_assert_int_eq(cfg.verbose, 0);
    ck_assert_int_eq(cfg.kernel, -1);
    ck_assert(cfg.gpu_min_flops == 1e9 * TB_DEFAULT_GPU_MIN_GFLOP);
    ck_assert(cfg.gpu_min_intensity == TB_DEFAULT_GPU_MIN_INTENSITY);
    for (const char *const *v = set; *v; v += 2) {
        char expect[128];
        snprintf(expect, sizeof expect, "tileblas: %s='%s' is not", v[0], v[1]);
        ck_assert_msg(strstr(warnings, expect), "no warning for %s in: %s", v[0], warnings);
    }
    int lines = 0;
    for (const char *p = warnings; *p; p++)
        lines += *p == '\n';
    ck_assert_int_eq(lines, 7);
    ck_assert_int_eq(cfg.copy_threads, 0);
    ck_assert(cfg.gpu_memory == 0);
}
END_TEST

START_TEST(sizes)
{
    ck_assert(tb_parse_size("0") == 0);
    ck_assert(tb_parse_size("4096") == 4096);
    ck_assert(tb_parse_size("512K") == 512.0 * 1024);
    ck_assert(tb_parse_size("64M") == 64.0 * 1024 * 1024);
    ck_assert(tb_parse_size("2G") == 2.0 * 1024 * 1024 * 1024);
    ck_assert(tb_parse_size("1T") == 1024.0 * 1024 * 1024 * 1024);
    ck_assert(tb_parse_size("") < 0);
    ck_assert(tb_parse_size("G") < 0);
    ck_assert(tb_parse_size("-1M") < 0);
    ck_assert(tb_parse_size("3MB") < 0);
    ck_assert(tb_parse_size("2X") < 0);
}
END_TEST

START_TEST(kernel_table)
{
#ifdef HAVE_CUDA
    ck_assert_int_ge(tb_kernel_count, 4);
    ck_assert_int_eq(tb_kernel_find("naive"), 0);
    ck_assert_int_ge(tb_kernel_find("tiled16"), 0);
    ck_assert_int_ge(tb_kernel_find("tiled32"), 0);
    ck_assert_int_ge(tb_kernel_find("block64"), 0);
    ck_assert_int_eq(tb_kernel_default(), tb_kernel_find("blocked"));
    const char *set[] = { "TILEBLAS_KERNEL", "tiled16", NULL };
    ck_assert_int_eq(parse_with(set).kernel, tb_kernel_find("tiled16"));
#else
    ck_assert_int_eq(tb_kernel_count, 0);
    ck_assert_int_eq(tb_kernel_default(), -1);
#endif
    ck_assert_int_eq(tb_kernel_find("no-such-kernel"), -1);
}
END_TEST

static tb_gemm shape(int64_t m, int64_t n, int64_t k, float alpha, float beta)
{
    tb_gemm g = { .p.m = m, .p.n = n, .p.k = k, .p.alpha = alpha, .p.beta = beta };
    return g;
}

/* The auto rule: enough flops, and enough flops per byte that crosses PCIe. */
START_TEST(auto_rule)
{
    tb_config cfg = parse_with(NULL);
    tb_gemm g;
    g = shape(4096, 4096, 4096, 1, 0);
    ck_assert(tb_route_auto_wants_gpu(&g, &cfg));
    g = shape(1024, 1024, 1024, 1, 0); /* 2.1 GFLOP, 171 flops/byte */
    ck_assert(tb_route_auto_wants_gpu(&g, &cfg));
    g = shape(1024, 1024, 1024, 1, 1); /* C both ways: 128 flops/byte */
    ck_assert(!tb_route_auto_wants_gpu(&g, &cfg));
    g = shape(512, 512, 512, 1, 0); /* 0.27 GFLOP */
    ck_assert(!tb_route_auto_wants_gpu(&g, &cfg));
    g = shape(16384, 64, 16384, 1, 0); /* skinny: 32 flops/byte */
    ck_assert(!tb_route_auto_wants_gpu(&g, &cfg));
    g = shape(4096, 4096, 4096, 0, 1); /* alpha = 0: no product at all */
    ck_assert(!tb_route_auto_wants_gpu(&g, &cfg));
    ck_assert(tb_gemm_flops(&g) == 2.0 * 4096 * 4096 * 4096);
    g = shape(10, 20, 30, 1, 1);
    ck_assert(tb_gemm_pcie_bytes(&g) == 4.0 * (10 * 30 + 30 * 20 + 2 * 10 * 20));
    const char *low[] = { "TILEBLAS_GPU_MIN_GFLOP", "0", "TILEBLAS_GPU_MIN_INTENSITY", "0", NULL };
    cfg = parse_with(low);
    g = shape(2, 2, 2, 1, 0);
    ck_assert(tb_route_auto_wants_gpu(&g, &cfg));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("environment and routing");
    tcase_add_test(tc, defaults_are_quiet);
    tcase_add_test(tc, good_values);
    tcase_add_test(tc, bad_values);
    tcase_add_test(tc, sizes);
    tcase_add_test(tc, kernel_table);
    tcase_add_test(tc, auto_rule);
    suite_add_tcase(s, tc);
    return tt_run_suite(s, CK_FORK);
}
