#include <config.h>
#include <stdio.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
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

/* A number >= 0, else the default (with one warning). */
static double env_number(const char *name, double dflt)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return dflt;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !isfinite(v) || v < 0) {
        char fallback[32];
        snprintf(fallback, sizeof fallback, "%g", dflt);
        bad_value(name, s, "a number >= 0", fallback);
        return dflt;
    }
    return v;
}

double tb_parse_size(const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || !isfinite(v) || v < 0)
        return -1;
    static const char units[] = "KMGT";
    const char *u = *end ? strchr(units, *end) : NULL;
    if (u) {
        for (const char *x = units; x <= u; x++)
            v *= 1024;
        end++;
    }
    return *end ? -1 : v;
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

    s = getenv("TILEBLAS_KERNEL");
    if (s && *s) {
        cfg->kernel = tb_kernel_find(s);
        if (cfg->kernel < 0)
            bad_value("TILEBLAS_KERNEL", s, "a kernel built into this library (see tileblas(7))", "the default");
    }

    s = getenv("TILEBLAS_CPU_BLAS");
    cfg->cpu_blas = (s && *s) ? s : NULL;

    s = getenv("TILEBLAS_VERBOSE");
    if (s && *s) {
        if (!strcmp(s, "0") || !strcmp(s, "1") || !strcmp(s, "2")) cfg->verbose = s[0] - '0';
        else bad_value("TILEBLAS_VERBOSE", s, "0, 1 or 2", "0");
    }

    s = getenv("TILEBLAS_COPY_THREADS");
    if (s && *s) {
        char *end;
        long v = strtol(s, &end, 10);
        if (*end || v < 1 || v > TB_MAX_COPY_THREADS)
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

    cfg->gpu_min_flops = 1e9 * env_number("TILEBLAS_GPU_MIN_GFLOP", TB_DEFAULT_GPU_MIN_GFLOP);
    cfg->gpu_min_intensity = env_number("TILEBLAS_GPU_MIN_INTENSITY", TB_DEFAULT_GPU_MIN_INTENSITY);
}

static void config_init(void)
{
    tb_config_parse(&config);
}

const tb_config *tb_config_get(void)
{
    pthread_once(&config_once, config_init);
    return &config;
}
