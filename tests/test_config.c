/* Unit tests of internals (linked against the core, not the exported library): TILEBLAS_* parsing, the
 * calibration file's loading, auto mode's decisions, the kernel table. */
#include <config.h>
#include <check.h>
#include "suite.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "counters.h"
#include "env.h"
#include "spread.h"
#include "kernels.h"
#include "route.h"
#include "util.h"

static const char *vars[] = { "TILEBLAS_MODE",        "TILEBLAS_KERNEL",       "TILEBLAS_CPU_BLAS",  "TILEBLAS_VERBOSE",
                              "TILEBLAS_CALIBRATION", "TILEBLAS_COPY_THREADS", "TILEBLAS_GPU_MEMORY",
                              "TILEBLAS_FAULT", "TILEBLAS_SUMMARY", "TILEBLAS_MATH", "TILEBLAS_DEVICES",
                              "TILEBLAS_RUN_PID" };

/* Parse with the given variables set (name=value pairs, NULL-terminated); returns what went to stderr. */
static char warnings[4096];
static tb_config parse_with(const char *const *assign)
{
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        unsetenv(vars[i]);
    setenv("XDG_CONFIG_HOME", "/nonexistent/tileblas-test", 1); /* not the user's calibration */
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
    ck_assert_int_eq(cfg.math, TB_MATH_FP32_TC);
    ck_assert_ptr_null(cfg.cpu_blas);
    ck_assert_int_eq(cfg.verbose, 0);
    ck_assert_int_eq(cfg.summary, 0);
    ck_assert_int_eq(cfg.watched, 0);
    ck_assert_int_eq(cfg.copy_threads, 0);
    ck_assert(cfg.gpu_memory == 0);
    if (!cfg.cost_source[0]) /* else this machine has a system-wide calibration */
        ck_assert(!memcmp(&cfg.cost, &tb_cost_defaults, sizeof cfg.cost));
    ck_assert_str_eq(warnings, "");
}
END_TEST

START_TEST(good_values)
{
    const char *set[] = { "TILEBLAS_MODE", "GPU", "TILEBLAS_VERBOSE", "2", "TILEBLAS_CPU_BLAS", "/x/libblas.so",
                          "TILEBLAS_COPY_THREADS", "7", "TILEBLAS_GPU_MEMORY", "1.5G", NULL };
    tb_config cfg = parse_with(set);
    ck_assert_int_eq(cfg.copy_threads, 7);
    ck_assert(cfg.gpu_memory == 1.5 * 1024 * 1024 * 1024);
    ck_assert_int_eq(cfg.mode, TB_MODE_GPU);
    ck_assert_int_eq(cfg.verbose, 2);
    ck_assert_int_eq(cfg.summary, 1); /* TILEBLAS_VERBOSE=2 implies the summary */
    ck_assert_int_eq(cfg.watched, 1);
    ck_assert_str_eq(cfg.cpu_blas, "/x/libblas.so");
    ck_assert_str_eq(warnings, "");
    const char *cpu[] = { "TILEBLAS_MODE", "cpu", NULL };
    ck_assert_int_eq(parse_with(cpu).mode, TB_MODE_CPU);
    const char *fp32[] = { "TILEBLAS_MATH", "FP32", NULL }, *tc[] = { "TILEBLAS_MATH", "fp32-tc", NULL };
    const char *tf32[] = { "TILEBLAS_MATH", "tf32", NULL };
    ck_assert_int_eq(parse_with(tf32).math, TB_MATH_TF32);
    ck_assert_int_eq(parse_with(fp32).math, TB_MATH_FP32);
    ck_assert_int_eq(parse_with(tc).math, TB_MATH_FP32_TC);
    ck_assert_str_eq(warnings, "");
    /* the summary alone: calls timed, no line per call */
    const char *summary[] = { "TILEBLAS_SUMMARY", "1", NULL };
    cfg = parse_with(summary);
    ck_assert(cfg.summary == 1 && cfg.verbose == 0 && cfg.watched == 1);
    ck_assert_str_eq(warnings, "");
}
END_TEST

/* Garbage: one warning per variable naming it, and the default. */
START_TEST(bad_values)
{
    const char *set[] = { "TILEBLAS_MODE", "fast", "TILEBLAS_VERBOSE", "yes", "TILEBLAS_KERNEL", "nope",
                          "TILEBLAS_COPY_THREADS", "65", "TILEBLAS_GPU_MEMORY", "lots", "TILEBLAS_SUMMARY", "on",
                          "TILEBLAS_MATH", "tf16", NULL };
    tb_config cfg = parse_with(set);
    ck_assert_int_eq(cfg.mode, TB_MODE_AUTO);
    ck_assert_int_eq(cfg.verbose, 0);
    ck_assert_int_eq(cfg.kernel, -1);
    for (const char *const *v = set; *v; v += 2) {
        char expect[128];
        snprintf(expect, sizeof expect, "tileblas: %s='%s' is not", v[0], v[1]);
        ck_assert_msg(strstr(warnings, expect), "no warning for %s in: %s", v[0], warnings);
    }
    int lines = 0;
    for (const char *p = warnings; *p; p++)
        lines += *p == '\n';
    ck_assert_int_eq(lines, 7);
    ck_assert_int_eq(cfg.math, TB_MATH_FP32_TC);
    ck_assert_int_eq(cfg.summary, 0);
    ck_assert_int_eq(cfg.copy_threads, 0);
    ck_assert(cfg.gpu_memory == 0);
}
END_TEST

/* Numbers are digits only: what strtol would also take (spaces, signs, base prefixes) is refused with a warning,
 * and the default kept */
START_TEST(numbers_strict)
{
    static const char *bad[] = { " 4", "4 ", "+4", "0x4", "4.0", "04x", "-4", "4e0" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *set[] = { "TILEBLAS_COPY_THREADS", bad[i], NULL };
        tb_config cfg = parse_with(set);
        ck_assert_msg(cfg.copy_threads == 0, "TILEBLAS_COPY_THREADS='%s' taken as %d", bad[i], cfg.copy_threads);
        ck_assert_msg(strstr(warnings, "TILEBLAS_COPY_THREADS='") != NULL, "no warning for '%s'", bad[i]);
    }
    const char *set[] = { "TILEBLAS_COPY_THREADS", "04", NULL };
    ck_assert_int_eq(parse_with(set).copy_threads, 4);
    ck_assert_str_eq(warnings, "");
}
END_TEST

/* TILEBLAS_FAULT: each simulated failure, and garbage (one warning, no fault) */
START_TEST(faults)
{
    static const struct {
        const char *value;
        tb_fault fault;
        long n;
    } good[] = { { "nodriver", TB_FAULT_NODRIVER, 0 }, { "nodevice", TB_FAULT_NODEVICE, 0 }, { "oom", TB_FAULT_OOM, 0 },
                 { "launch", TB_FAULT_LAUNCH, 0 },     { "error:1", TB_FAULT_ERROR, 1 },     { "lost:12", TB_FAULT_LOST, 12 } };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        const char *set[] = { "TILEBLAS_FAULT", good[i].value, NULL };
        tb_config cfg = parse_with(set);
        ck_assert_msg(cfg.fault == good[i].fault && cfg.fault_n == good[i].n, "%s", good[i].value);
        ck_assert_str_eq(warnings, "");
    }
    static const char *bad[] = { "error",    "error:",   "error:0",  "error:-2", "lost:x",     "oom:3",
                                 "boom",     "nodriverx", "error: 3", "error:+3", "lost:3 ",   "lost:0x3",
                                 "error:3.0", "lost:99999999999999999999" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *set[] = { "TILEBLAS_FAULT", bad[i], NULL };
        tb_config cfg = parse_with(set);
        ck_assert_msg(cfg.fault == TB_FAULT_NONE, "%s", bad[i]);
        ck_assert_msg(strstr(warnings, "TILEBLAS_FAULT='") != NULL, "no warning for %s", bad[i]);
    }
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
    ck_assert(tb_parse_size("1e308T") < 0);
    ck_assert(tb_parse_size("0.5") < 0);
    ck_assert(tb_parse_size("1.5G") == 1.5 * 1024 * 1024 * 1024);
    ck_assert(tb_parse_size("1.G") < 0);
    ck_assert(tb_parse_size("0x10") < 0);
    ck_assert(tb_parse_size(" 5G") < 0);
    ck_assert(tb_parse_size("5G ") < 0);
    ck_assert(tb_parse_size("+5") < 0);
    ck_assert(tb_parse_size("99999999999T") < 0);
}
END_TEST

START_TEST(device_lists)
{
    int l[4];
    ck_assert_int_eq(tb_parse_devices("all", l, 4), 0);
    ck_assert_int_eq(tb_parse_devices("0", l, 4), 1);
    ck_assert_int_eq(l[0], 0);
    ck_assert_int_eq(tb_parse_devices("1,0", l, 4), 2);
    ck_assert(l[0] == 1 && l[1] == 0);
    ck_assert_int_eq(tb_parse_devices("0-3", l, 4), 4);
    ck_assert(l[0] == 0 && l[3] == 3);
    ck_assert_int_eq(tb_parse_devices("3,0-1", l, 4), 3);
    ck_assert(l[0] == 3 && l[1] == 0 && l[2] == 1);
    ck_assert_int_eq(tb_parse_devices("7-7", l, 4), 1);
    ck_assert_int_eq(l[0], 7);
    static const char *const bad[] = { "", ",", "0,", ",0", "a", "-1", "1-0", "0,0", "0-1,1", " 0", "0 ", "0;1",
                                       "12345", "0-", "-", "0--1", "0-1-2", "ALL", "0-4", "0,1,2,3,4", "+1" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(tb_parse_devices(bad[i], l, 4) == -1, "\"%s\" taken", bad[i]);
    /* TILEBLAS_DEVICES: the first device unless it says otherwise; a bad list warns and keeps that */
    ck_assert_int_eq(parse_with(NULL).devices, 0);
    ck_assert_str_eq(warnings, "");
    ck_assert_int_eq(parse_with((const char *[]){ "TILEBLAS_DEVICES", "all", NULL }).devices, TB_ALL_DEVICES);
    tb_config cfg = parse_with((const char *[]){ "TILEBLAS_DEVICES", "2,0-1", NULL });
    ck_assert(cfg.devices == 3 && cfg.device_list[0] == 2 && cfg.device_list[1] == 0 && cfg.device_list[2] == 1);
    ck_assert_str_eq(warnings, "");
    ck_assert_int_eq(parse_with((const char *[]){ "TILEBLAS_DEVICES", "0,0", NULL }).devices, 0);
    ck_assert_msg(strstr(warnings, "tileblas: TILEBLAS_DEVICES='0,0' is not"), "%s", warnings);
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
    /* single precision's default by math; double precision has one */
    ck_assert_int_eq(tb_kernel_default(TB_TYPE_S, TB_MATH_FP32), tb_kernel_find("blocked"));
    ck_assert_int_eq(tb_kernel_default(TB_TYPE_S, TB_MATH_FP32_TC), tb_kernel_find("tc32"));
    ck_assert_int_eq(tb_kernel_default(TB_TYPE_S, TB_MATH_TF32), tb_kernel_find("tf32"));
    ck_assert_str_eq(tb_kernel_math_name(tb_kernel_find("tf32"), TB_TYPE_S), "tf32");
    ck_assert_str_eq(tb_kernel_math_name(tb_kernel_find("tc32"), TB_TYPE_S), "fp32-tc");
    ck_assert_str_eq(tb_kernel_math_name(tb_kernel_find("blocked"), TB_TYPE_S), "fp32");
    ck_assert_str_eq(tb_kernel_math_name(tb_kernel_find("naive"), TB_TYPE_D), "fp64");
    const char *set[] = { "TILEBLAS_KERNEL", "tiled16", NULL };
    ck_assert_int_eq(parse_with(set).kernel, tb_kernel_find("tiled16"));
    ck_assert_int_eq(tb_kernel_default(TB_TYPE_D, TB_MATH_FP32_TC), tb_kernel_find("dmma"));
    ck_assert_int_eq(tb_kernel_default(TB_TYPE_D, TB_MATH_FP32), tb_kernel_find("dmma"));
    /* every stated default is a kernel of the table that runs its type, and single precision's its math */
    for (int t = 0; t < TB_TYPE_COUNT; t++)
        for (int m = 0; m < TB_MATH_COUNT; m++) {
            const int k = tb_kernel_default((tb_type)t, (tb_math)m);
            ck_assert_msg(k >= 0 && tb_kernel_can(k, &(tb_kproblem){ .type = (tb_type)t }), "type %d math %d", t, m);
            if (t == TB_TYPE_S || t == TB_TYPE_C)
                ck_assert_msg(tb_kernel_maths[k] & TB_MATH_BIT(m), "%s", tb_kernel_names[k]);
        }
    ck_assert_int_eq(tb_kernel_default(TB_TYPE_C, TB_MATH_FP32_TC), tb_kernel_find("c4m-tc32"));
    ck_assert_int_eq(tb_kernel_default(TB_TYPE_Z, TB_MATH_FP32), tb_kernel_find("z4m-dmma"));
    /* the contract: every kernel runs some type, naive (the reference) every one; a number outside the table runs
     * nothing; a kernel forced for a type it does not run gives way to the type's default */
    const tb_kproblem s = { .type = TB_TYPE_S }, d = { .type = TB_TYPE_D };
    for (int k = 0; k < tb_kernel_count; k++) {
        int runs = 0;
        for (int t = 0; t < TB_TYPE_COUNT; t++)
            runs += tb_kernel_can(k, &(tb_kproblem){ .type = (tb_type)t });
        ck_assert_msg(runs > 0, "%s", tb_kernel_names[k]);
    }
    for (int t = 0; t < TB_TYPE_COUNT; t++)
        ck_assert(tb_kernel_can(0, &(tb_kproblem){ .type = (tb_type)t }));
    ck_assert(!tb_kernel_can(-1, &s) && !tb_kernel_can(tb_kernel_count, &s));
    ck_assert(tb_kernel_can(tb_route_kernel(&s), &s) && tb_kernel_can(tb_route_kernel(&d), &d));
    tb_route_force_kernel(tb_kernel_find("tiled16"));
    ck_assert_int_eq(tb_route_kernel(&d), tb_kernel_find("dmma"));
    ck_assert_int_eq(tb_route_kernel(&s), tb_kernel_find("tiled16"));
    tb_route_force_kernel(-1);
#else
    ck_assert_int_eq(tb_kernel_count, 0);
    ck_assert_int_eq(tb_kernel_default(TB_TYPE_S, TB_MATH_FP32_TC), -1);
    ck_assert_int_eq(tb_kernel_default(TB_TYPE_D, TB_MATH_FP32), -1);
#endif
    ck_assert_int_eq(tb_kernel_find("no-such-kernel"), -1);
}
END_TEST

/* A file with the given text; its path in path[64] (the caller unlinks it). */
static void write_file(char *path, const char *text)
{
    strcpy(path, "/tmp/tileblas-test-calibration.XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
    close(fd);
}

/* TILEBLAS_CALIBRATION: its fields replace the defaults', the rest stay; a file that cannot be read or parsed
 * gives one warning and the built-in model. */
START_TEST(calibration_file)
{
    char path[64];
    write_file(path, "# measured\ngpu_call 0.002\n\ncpu_rate 2e12  # OpenBLAS\ncpu_rate_d 9e11\n");
    const char *set[] = { "TILEBLAS_CALIBRATION", path, NULL };
    tb_config cfg = parse_with(set);
    ck_assert_str_eq(warnings, "");
    ck_assert_str_eq(cfg.cost_source, path);
    ck_assert(cfg.cost.gpu_call == 0.002);
    ck_assert(cfg.cost.cpu_rate[TB_TYPE_S] == 2e12 && cfg.cost.cpu_rate[TB_TYPE_D] == 9e11);
    ck_assert(cfg.cost.h2d_a == tb_cost_defaults.h2d_a &&
              cfg.cost.gpu_rate[TB_TYPE_S] == tb_cost_defaults.gpu_rate[TB_TYPE_S] &&
              cfg.cost.gpu_rate[TB_TYPE_D] == tb_cost_defaults.gpu_rate[TB_TYPE_D]);
    unlink(path);

    write_file(path, "gpu_call 0.002\nh2d_b fast\n");
    cfg = parse_with(set);
    ck_assert_msg(strstr(warnings, "line 2") && strstr(warnings, path), "warning: %s", warnings);
    ck_assert(!memcmp(&cfg.cost, &tb_cost_defaults, sizeof cfg.cost));
    ck_assert_str_eq(cfg.cost_source, "");
    unlink(path);

    cfg = parse_with(set); /* now missing */
    ck_assert_msg(strstr(warnings, "cannot read the calibration file") && strstr(warnings, path), "warning: %s",
                  warnings);
    ck_assert(!memcmp(&cfg.cost, &tb_cost_defaults, sizeof cfg.cost));

    /* found in $XDG_CONFIG_HOME/tileblas/ without TILEBLAS_CALIBRATION */
    char dir[] = "/tmp/tileblas-test-xdg.XXXXXX", sub[128], file[160];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(sub, sizeof sub, "%s/tileblas", dir);
    snprintf(file, sizeof file, "%s/calibration", sub);
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    FILE *f = fopen(file, "w");
    ck_assert_ptr_nonnull(f);
    fputs("d2h 1e9\n", f);
    fclose(f);
    parse_with(NULL);
    setenv("XDG_CONFIG_HOME", dir, 1);
    tb_config_parse(&cfg);
    ck_assert_str_eq(cfg.cost_source, file);
    ck_assert(cfg.cost.d2h == 1e9);
    unlink(file), rmdir(sub), rmdir(dir);
}
END_TEST

/* A calibration that is not a regular file (a FIFO nobody writes, a directory): one warning, the built-in model,
 * and no wait; a relative XDG_CONFIG_HOME is ignored (the XDG rules), and a HOME too long for a path skips only
 * the user's place. */
START_TEST(calibration_not_a_file)
{
    char dir[] = "/tmp/tileblas-test-fifo.XXXXXX", fifo[128];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(fifo, sizeof fifo, "%s/calibration", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    const char *set_fifo[] = { "TILEBLAS_CALIBRATION", fifo, NULL };
    tb_config cfg = parse_with(set_fifo); /* before the fix: blocked here for ever (check's timeout fails it) */
    ck_assert_msg(strstr(warnings, "cannot read the calibration file") && strstr(warnings, fifo), "%s", warnings);
    ck_assert(!memcmp(&cfg.cost, &tb_cost_defaults, sizeof cfg.cost));
    const char *set_dir[] = { "TILEBLAS_CALIBRATION", dir, NULL };
    cfg = parse_with(set_dir);
    ck_assert_msg(strstr(warnings, "cannot read the calibration file"), "%s", warnings);
    unlink(fifo);

    /* XDG_CONFIG_HOME=tileblas-rel: never ./tileblas-rel/tileblas/calibration */
    char cwd[512];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(dir), 0);
    ck_assert_int_eq(mkdir("rel", 0700), 0);
    ck_assert_int_eq(mkdir("rel/tileblas", 0700), 0);
    FILE *f = fopen("rel/tileblas/calibration", "w");
    ck_assert_ptr_nonnull(f);
    fputs("d2h 1e9\n", f);
    fclose(f);
    char path[600];
    unsetenv("TILEBLAS_CALIBRATION");
    setenv("XDG_CONFIG_HOME", "rel", 1);
    setenv("HOME", "/nonexistent/tileblas-home", 1);
    ck_assert_str_eq(tb_cost_path(0, path, sizeof path), "/nonexistent/tileblas-home/.config/tileblas/calibration");
    tb_config_parse(&cfg);
    ck_assert(cfg.cost.d2h != 1e9);
    unlink("rel/tileblas/calibration"), rmdir("rel/tileblas"), rmdir("rel");
    ck_assert_int_eq(chdir(cwd), 0);
    rmdir(dir);

    /* a HOME longer than a path: the user's place is skipped, the system-wide one still looked at */
    static char long_home[700];
    memset(long_home, 'h', sizeof long_home - 1);
    long_home[0] = '/';
    unsetenv("XDG_CONFIG_HOME");
    setenv("HOME", long_home, 1);
    ck_assert_str_eq(tb_cost_path(0, path, sizeof path), "");
    ck_assert_ptr_nonnull(tb_cost_path(1, path, sizeof path));
    ck_assert_msg(strstr(path, "/tileblas/calibration") != NULL, "%s", path);
    ck_assert_ptr_null(tb_cost_path(2, path, sizeof path));
}
END_TEST

/* In the user's place, anything but a readable regular file (here a directory) falls through to the next place in
 * silence; TILEBLAS_VERBOSE=1 says why. */
START_TEST(calibration_default_unreadable)
{
    char dir[] = "/tmp/tileblas-test-skip.XXXXXX", sub[128];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(sub, sizeof sub, "%s/tileblas", dir);
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    strcat(sub, "/calibration");
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    const char *quiet[] = { "XDG_CONFIG_HOME", dir, NULL };
    const char *verbose[] = { "XDG_CONFIG_HOME", dir, "TILEBLAS_VERBOSE", "1", NULL };
    tb_config cfg = parse_with(quiet);
    ck_assert_str_ne(cfg.cost_source, sub);
    ck_assert_str_eq(warnings, "");
    parse_with(verbose);
    char expect[256];
    snprintf(expect, sizeof expect, "tileblas: calibration file %s skipped (Is a directory)\n", sub);
    ck_assert_str_eq(warnings, expect);
    rmdir(sub);
    sub[strlen(sub) - strlen("/calibration")] = 0;
    rmdir(sub), rmdir(dir);
}
END_TEST

/* A value with control characters (C1 ones too, raw or in UTF-8) is shown escaped: the warning is one line, and
 * no escape reaches the terminal; other UTF-8 stays as it is */
START_TEST(values_shown_escaped)
{
    const char *set[] = { "TILEBLAS_MODE", "gpu\ntileblas: forged\033[2J \x9b" "2J \xc2\x9b" "2J caf\xc3\xa9", NULL };
    parse_with(set);
    ck_assert_str_eq(warnings, "tileblas: TILEBLAS_MODE='gpu\\x0atileblas: forged\\x1b[2J \\x9b2J \\xc2\\x9b2J caf\xc3\xa9' is "
                               "not auto, cpu or gpu; using auto\n");
}
END_TEST

static tb_call shape(int64_t m, int64_t n, int64_t k, float alpha, float beta)
{
    tb_call g = { .p.m = m, .p.n = n, .p.k = k, .p.alpha = alpha, .p.beta = beta };
    return g;
}

/* Auto mode with the built-in model: the decisions measured right on the H200 host (bench/RESULTS.md). */
START_TEST(auto_decisions)
{
    tb_config cfg = parse_with(NULL);
    cfg.cost = tb_cost_defaults;
    static const struct {
        int64_t m, n, k;
        float beta;
        int gpu;
    } cases[] = {
        { 16, 16, 16, 0, 0 },         { 64, 64, 64, 0, 0 },         { 128, 128, 128, 0, 0 },
        { 256, 256, 256, 0, 0 },      { 256, 256, 256, 1.5f, 0 },   { 512, 512, 512, 0, 1 },
        { 512, 512, 512, 1.5f, 1 },   { 1024, 1024, 1024, 0, 1 },   { 1024, 1024, 1024, 1, 1 },
        { 2048, 2048, 2048, 0, 1 },   { 8192, 8192, 8192, 1, 1 },   { 16384, 64, 16384, 0, 1 },
        { 64, 64, 16384, 0, 1 },      { 64, 16384, 64, 0, 1 },      { 16384, 16384, 64, 0, 1 },
        { 16384, 16384, 64, 1.5f, 1 }, { 64, 16384, 16384, 0, 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tb_call g = shape(cases[i].m, cases[i].n, cases[i].k, 1, cases[i].beta);
        tb_cost t;
        int gpu = tb_route_auto_wants_gpu(&g, &cfg, &t);
        ck_assert_msg(gpu == cases[i].gpu, "%lldx%lldx%lld beta %g: predicted gpu %g s, cpu %g s",
                      (long long)cases[i].m, (long long)cases[i].n, (long long)cases[i].k, cases[i].beta, t.gpu, t.cpu);
        /* a call the CPU finishes within the GPU's fixed cost is decided without predictions (both 0) */
        tb_cost full = tb_cost_predict(&cfg.cost, &g, tb_route_on_tensor_cores(&g.p, &cfg));
        int within = full.cpu <= cfg.cost.gpu_call;
        ck_assert_int_eq(tb_cost_cpu_within(&cfg.cost, &g.p, cfg.cost.gpu_call), within);
        if (within)
            ck_assert(!gpu && t.cpu == 0 && t.gpu == 0);
        else
            ck_assert(t.cpu == full.cpu && t.gpu == full.gpu && (t.gpu < t.cpu) == gpu);
        /* with the log on, both predictions, and the same decision */
        tb_config loud = cfg;
        loud.verbose = 1;
        tb_cost both;
        ck_assert_int_eq(tb_route_auto_wants_gpu(&g, &loud, &both), gpu);
        ck_assert(both.gpu == full.gpu && both.cpu == full.cpu);
    }
    /* the parameters decide: a slow bus keeps even 8192^3 on the CPU, a slow CPU sends 64^3 to the GPU */
    tb_call g = shape(8192, 8192, 8192, 1, 0);
    tb_cost t;
    cfg.cost.h2d_a = cfg.cost.h2d_b = cfg.cost.d2h = 1e6;
    ck_assert(!tb_route_auto_wants_gpu(&g, &cfg, &t));
    cfg.cost = tb_cost_defaults;
    cfg.cost.cpu_rate[TB_TYPE_S] = 1e8;
    g = shape(64, 64, 64, 1, 0);
    ck_assert(tb_route_auto_wants_gpu(&g, &cfg, &t));
    ck_assert(tb_call_flops(&g) == 2.0 * 64 * 64 * 64);
    /* each type by its own rates: a slow CPU for SGEMM leaves DGEMM's 64^3 on the CPU; DGEMM's slower CPU sends a
     * product to the GPU that SGEMM keeps (the built-in rates: 1.3 and 0.62 TFLOP/s on the CPU) */
    g.p.type = TB_TYPE_D;
    ck_assert(!tb_route_auto_wants_gpu(&g, &cfg, &t));
    cfg.cost = tb_cost_defaults;
    int differ = 0;
    for (int64_t n = 128; n <= 1024 && !differ; n += 16) {
        tb_call s = shape(n, n, n, 1, 0), d = s;
        d.p.type = TB_TYPE_D;
        tb_cost ts, td;
        const int sg = tb_route_auto_wants_gpu(&s, &cfg, &ts), dg = tb_route_auto_wants_gpu(&d, &cfg, &td);
        ck_assert_msg(!sg || dg, "%lld^3: the GPU for SGEMM but not DGEMM", (long long)n);
        differ = dg && !sg;
    }
    ck_assert_msg(differ, "no square where DGEMM goes to the GPU and SGEMM does not");
}
END_TEST

/* the busy time counts a call still in progress (the summary at exit, with calls in flight on other threads) */
START_TEST(busy_time_open)
{
    tb_counts sum;
    tb_counts_reset();
    tb_counts_busy(1, tb_now() - 0.5);
    tb_counts_sum(&sum);
    ck_assert_msg(sum.busy >= 0.5 && sum.busy < 5.0, "busy %g s with a call in progress for 0.5 s", sum.busy);
    tb_counts_busy(0, tb_now());
    tb_counts_sum(&sum);
    ck_assert_msg(sum.busy >= 0.5 && sum.busy < 5.0, "busy %g s after a 0.5 s call", sum.busy);
}
END_TEST

/* the flags of a counted call: GPU failures and fp32-tc calls each counted where they were, reset with the rest */
START_TEST(count_flags)
{
    tb_counts sum;
    tb_counts_reset();
    tb_counts_add(TB_E_CBLAS_SGEMM, 2, 1e9, 0.1, 0.0, TB_COUNT_FP32_TC);
    tb_counts_add(TB_E_CBLAS_SGEMM, 2, 1e9, 0.1, 0.0, 0);
    tb_counts_add(TB_E_CBLAS_SGEMM, 1, 1e9, 0.1, 0.0, TB_COUNT_GPU_FAILED);
    tb_counts_sum(&sum);
    const tb_counter *gpu = &sum.c[TB_E_CBLAS_SGEMM][2], *cpu = &sum.c[TB_E_CBLAS_SGEMM][1];
    ck_assert_uint_eq(gpu->calls, 2);
    ck_assert_uint_eq(gpu->fp32_tc, 1);
    ck_assert_uint_eq(gpu->gpu_failures, 0);
    ck_assert_uint_eq(cpu->calls, 1);
    ck_assert_uint_eq(cpu->gpu_failures, 1);
    ck_assert_uint_eq(cpu->fp32_tc, 0);
    tb_counts_reset();
    tb_counts_sum(&sum);
    ck_assert_uint_eq(sum.c[TB_E_CBLAS_SGEMM][2].fp32_tc, 0);
}
END_TEST

int main(void)
{
    const TTest *const tests[] = { defaults_are_quiet, good_values,    bad_values,     sizes,          device_lists,
                                   kernel_table,       calibration_file, calibration_not_a_file, auto_decisions,
                                   calibration_default_unreadable, values_shown_escaped,
                                   faults,             numbers_strict, busy_time_open, count_flags,
                                   NULL };
    return tt_run_tests("config", "environment and routing", tests, 0, CK_FORK);
}
