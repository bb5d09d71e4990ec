#include <config.h>
#include <stdio.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "env.h"
#include "kernels.h"
#include "util.h"

static tb_config config;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;

static void bad_value(const char *name, const char *value, const char *expected, const char *fallback)
{
    tb_msg("%s='%s' is not %s; using %s", name, value, expected, fallback);
}

/* The calibration file at path into cfg.  In a default location (must_exist 0) only a readable regular file counts:
 * anything else there falls through to the next place (-1), said only when asked (TILEBLAS_VERBOSE) and not for a
 * place with nothing at all. */
static int load_calibration(tb_config *cfg, const char *path, int must_exist)
{
    int r = tb_cost_load(&cfg->cost, path);
    if (r == -1 && !must_exist) {
        if (errno != ENOENT && cfg->verbose)
            tb_msg("calibration file %s skipped (%s)", path, strerror(errno));
        return -1;
    }
    if (r == -1)
        tb_msg("cannot read the calibration file %s (%s); using the built-in cost model", path, strerror(errno));
    else if (r > 0)
        tb_msg("calibration file %s, line %d: not \"name value\" with a known name and a value > 0; using the "
               "built-in cost model", path, r);
    else
        snprintf(cfg->cost_source, sizeof cfg->cost_source, "%s", path);
    return 0;
}

long tb_parse_whole(const char *s, long max)
{
    size_t len = strspn(s, "0123456789");
    if (len == 0 || len > 18 || s[len])
        return -1;
    long v = strtol(s, NULL, 10);
    return v <= max ? v : -1;
}

/* A whole number from 1 to max (tb_parse_whole's form); -1 otherwise. */
static long parse_count(const char *s, long max)
{
    const long v = tb_parse_whole(s, max);
    return v >= 1 ? v : -1;
}

int tb_parse_fault(const char *s, tb_fault *fault, long *n)
{
    static const struct {
        const char *name;
        tb_fault fault;
        int counted;
    } names[] = { { "nodriver", TB_FAULT_NODRIVER, 0 }, { "nodevice", TB_FAULT_NODEVICE, 0 },
                  { "oom", TB_FAULT_OOM, 0 },           { "launch", TB_FAULT_LAUNCH, 0 },
                  { "error", TB_FAULT_ERROR, 1 },       { "lost", TB_FAULT_LOST, 1 } };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t len = strlen(names[i].name);
        if (strncmp(s, names[i].name, len))
            continue;
        const char *rest = s + len;
        long v = 0;
        if (names[i].counted) {
            if (*rest != ':' || (v = parse_count(rest + 1, 1000000000L)) < 0)
                return -1;
        } else if (*rest) {
            return -1;
        }
        *fault = names[i].fault, *n = v;
        return 0;
    }
    return -1;
}

double tb_parse_size(const char *s)
{
    /* digits, a fraction only before a unit, at most one unit letter: nothing else (no sign, space, exponent or
     * hexadecimal), and a whole number of bytes */
    size_t len = strspn(s, "0123456789");
    if (len == 0 || len > 19)
        return -1;
    if (s[len] == '.') {
        size_t frac = strspn(s + len + 1, "0123456789");
        if (frac == 0 || frac > 9)
            return -1;
        len += 1 + frac;
    }
    static const char units[] = "KMGT";
    const char *u = s[len] ? strchr(units, s[len]) : NULL;
    if (s[len] && (!u || s[len + 1]))
        return -1;
    double v = strtod(s, NULL);
    for (const char *x = units; u && x <= u; x++)
        v *= 1024;
    return v == floor(v) && v < 0x1p62 ? v : -1; /* 0.5 bytes, or past any memory there is: a mistake */
}

int tb_parse_devices(const char *s, int *list, int max)
{
    if (!strcmp(s, "all"))
        return 0;
    int count = 0;
    for (const char *at = s;;) {
        long ends[2];
        for (int e = 0; e < 2; e++) { /* a number, or a range lo-hi */
            const size_t len = strspn(at, "0123456789");
            if (len == 0 || len > 4)
                return -1;
            ends[e] = strtol(at, NULL, 10), at += len;
            if (e == 0 && *at != '-') {
                ends[1] = ends[0];
                break;
            }
            at += e == 0;
        }
        if (ends[1] < ends[0])
            return -1;
        for (long d = ends[0]; d <= ends[1]; d++) {
            for (int i = 0; i < count; i++)
                if (list[i] == d)
                    return -1;
            if (count == max)
                return -1;
            list[count++] = (int)d;
        }
        if (!*at)
            return count;
        if (*at++ != ',')
            return -1;
    }
}

void tb_config_parse(tb_config *cfg)
{
    const char *s;
    memset(cfg, 0, sizeof *cfg);
    cfg->kernel = -1;

    s = getenv("TILEBLAS_MODE");
    if (s && *s) {
        if (!strcasecmp(s, "auto")) cfg->mode = TB_MODE_AUTO;
        else if (!strcasecmp(s, "cpu")) cfg->mode = TB_MODE_CPU;
        else if (!strcasecmp(s, "gpu")) cfg->mode = TB_MODE_GPU;
        else bad_value("TILEBLAS_MODE", s, "auto, cpu or gpu", "auto");
    }

    s = getenv("TILEBLAS_MATH");
    if (s && *s) { /* the names the log and the summary use (tb_math_names) */
        int m = 0;
        while (m < TB_MATH_COUNT && strcasecmp(s, tb_math_names[m]))
            m++;
        if (m < TB_MATH_COUNT)
            cfg->math = (tb_math)m;
        else
            bad_value("TILEBLAS_MATH", s, "fp32-tc, fp32 or tf32", "fp32-tc");
    }

    s = getenv("TILEBLAS_KERNEL");
    if (s && *s) {
        cfg->kernel = tb_kernel_find(s);
        if (cfg->kernel < 0)
            bad_value("TILEBLAS_KERNEL", s, "a kernel built into this library (see tileblas(7))", "the default");
    }

    /* the variables that name files: ignored in set-user-ID and set-group-ID programs, as glibc ignores
     * LD_PRELOAD there (lib/config/calibration.c reads HOME and XDG_CONFIG_HOME so too) */
    s = secure_getenv("TILEBLAS_CPU_BLAS");
    cfg->cpu_blas = (s && *s) ? s : NULL;

    s = getenv("TILEBLAS_VERBOSE");
    if (s && *s) {
        if (!strcmp(s, "0") || !strcmp(s, "1") || !strcmp(s, "2")) cfg->verbose = s[0] - '0';
        else bad_value("TILEBLAS_VERBOSE", s, "0, 1 or 2", "0");
    }
    s = getenv("TILEBLAS_SUMMARY");
    if (s && *s) {
        if (!strcmp(s, "0") || !strcmp(s, "1")) cfg->summary = s[0] - '0';
        else bad_value("TILEBLAS_SUMMARY", s, "0 or 1", "0");
    }
    cfg->summary |= cfg->verbose >= 2;
    cfg->watched = cfg->verbose || cfg->summary;

    s = getenv("TILEBLAS_COPY_THREADS");
    if (s && *s) {
        long v = parse_count(s, TB_MAX_COPY_THREADS);
        if (v < 0)
            bad_value("TILEBLAS_COPY_THREADS", s, "an integer from 1 to 64", "the online CPUs, up to 16");
        else
            cfg->copy_threads = (int)v;
    }

    s = getenv("TILEBLAS_GPU_MEMORY");
    if (s && *s) {
        cfg->gpu_memory = tb_parse_size(s);
        if (cfg->gpu_memory <= 0) {
            bad_value("TILEBLAS_GPU_MEMORY", s, "a size in bytes (such as 512M or 2G)", "the free device memory");
            cfg->gpu_memory = 0;
        }
    }

    s = getenv("TILEBLAS_FAULT");
    if (s && *s && tb_parse_fault(s, &cfg->fault, &cfg->fault_n))
        bad_value("TILEBLAS_FAULT", s, "nodriver, nodevice, oom, launch, error:N or lost:N", "no fault");

    s = getenv("TILEBLAS_DEVICES");
    if (s && *s) {
        const int n = tb_parse_devices(s, cfg->device_list, TB_MAX_DEVICES);
        if (n < 0)
            bad_value("TILEBLAS_DEVICES", s, "all, or a list of device numbers such as 0,1 or 0-3",
                      "the first device");
        else
            cfg->devices = n ? n : TB_ALL_DEVICES;
    }

    s = getenv("TILEBLAS_RUN_PID");
    if (s && *s) {
        const long v = tb_parse_whole(s, 0x7fffffffL);
        cfg->run_pid = v > 0 ? v : -1; /* not a pid: no process is the program, each made-call one says its pid */
    }

    cfg->cost = tb_cost_defaults;
    s = secure_getenv("TILEBLAS_CALIBRATION");
    if (s && *s) {
        load_calibration(cfg, s, 1);
    } else {
        char path[512];
        for (int n = 0; tb_cost_path(n, path, sizeof path); n++)
            if (path[0] && load_calibration(cfg, path, 0) == 0)
                break;
    }
}

static void config_init(void)
{
    tb_config_parse(&config);
}

int tb_config_summary_wanted(void)
{
    const char *v = getenv("TILEBLAS_VERBOSE"), *s = getenv("TILEBLAS_SUMMARY");
    if (!atomic_load(&tb_config_ready) && (!v || strcmp(v, "2")) && (!s || strcmp(s, "1")))
        return 0;
    return tb_config_get()->summary;
}

_Atomic(const tb_config *) tb_config_ready;

const tb_config *tb_config_get_slow(void)
{
    pthread_once(&config_once, config_init);
    atomic_store_explicit(&tb_config_ready, &config, memory_order_release);
    return &config;
}
