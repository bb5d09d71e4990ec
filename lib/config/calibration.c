/* The cost model's parameters: the built-in defaults and the calibration file (calibration.h). */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "calibration.h"

/* The H200 host's figures, where no calibration file gives this machine's: doc/NOTES.md says where each comes
 * from.  gpu_call is above the measured fixed cost of a tiny GPU call, for the latencies of small copies. */
const tb_cost_params tb_cost_defaults = {
    .gpu_call = 60e-6,
    .h2d_a = 45e9,
    .h2d_b = 45e9,
    .d2h = 42e9,
    .gpu_rate = { [TB_TYPE_S] = 50e12, [TB_TYPE_D] = 68e12, [TB_TYPE_C] = 45e12, [TB_TYPE_Z] = 60e12 },
    .gpu_half = { [TB_TYPE_S] = 128, [TB_TYPE_D] = 200, [TB_TYPE_C] = 160, [TB_TYPE_Z] = 240 },
    .cpu_call = 0.2e-6,
    .cpu_rate = { [TB_TYPE_S] = 1.3e12, [TB_TYPE_D] = 0.62e12, [TB_TYPE_C] = 1.3e12, [TB_TYPE_Z] = 0.62e12 },
    .cpu_half = { [TB_TYPE_S] = 64, [TB_TYPE_D] = 32, [TB_TYPE_C] = 64, [TB_TYPE_Z] = 32 },
    .gpu_rate_tc = 145e12,
    .gpu_half_tc = 600,
    .gpu_extra = { [TB_TYPE_C] = 30e-6, [TB_TYPE_Z] = 30e-6 },
    .host_copy = 80e9,    /* estimates until measured on a host of several GPUs */
    .device_call = 30e-6,
};

static const struct {
    const char *name;
    size_t offset;
} fields[] = {
#define FIELD(f) { #f, offsetof(tb_cost_params, f) }
#define RATES(f) { #f, offsetof(tb_cost_params, f[TB_TYPE_S]) }, { #f "_d", offsetof(tb_cost_params, f[TB_TYPE_D]) }
#define COMPLEX(f)                                                                                                 \
    { #f "_c", offsetof(tb_cost_params, f[TB_TYPE_C]) }, { #f "_z", offsetof(tb_cost_params, f[TB_TYPE_Z]) }
    FIELD(gpu_call), FIELD(h2d_a), FIELD(h2d_b), FIELD(d2h), RATES(gpu_rate),
    RATES(gpu_half), FIELD(cpu_call), RATES(cpu_rate), RATES(cpu_half), FIELD(gpu_rate_tc), FIELD(gpu_half_tc),
    COMPLEX(cpu_rate), COMPLEX(cpu_half), COMPLEX(gpu_rate), COMPLEX(gpu_half), COMPLEX(gpu_extra), FIELD(host_copy),
    FIELD(device_call),
#undef COMPLEX
#undef RATES
#undef FIELD
};
#define NFIELDS (sizeof fields / sizeof fields[0])

int tb_cost_parse(tb_cost_params *c, const char *text)
{
    tb_cost_params out = *c;
    int line = 0;
    for (const char *at = text; *at;) {
        const char *end = strchr(at, '\n');
        size_t len = end ? (size_t)(end - at) : strlen(at);
        char buf[256], name[64], rest[8];
        double v;
        line++;
        if (len >= sizeof buf)
            return line;
        memcpy(buf, at, len);
        buf[len] = 0;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        at += len + (end != NULL);
        int got = sscanf(buf, "%63s %lf %7s", name, &v, rest);
        if (got == EOF)
            continue; /* blank or comment */
        if (got != 2 || !isfinite(v) || v <= 0)
            return line;
        size_t f = 0;
        while (f < NFIELDS && strcmp(fields[f].name, name))
            f++;
        if (f == NFIELDS)
            return line;
        *(double *)((char *)&out + fields[f].offset) = v;
    }
    *c = out;
    return 0;
}

int tb_cost_load(tb_cost_params *c, const char *path)
{
    /* non-blocking, and only a regular file: a FIFO or a device there must not stop the program */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        const int why = fstat(fd, &st) ? errno : S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        close(fd);
        errno = why;
        return -1;
    }
    char text[4096];
    ssize_t len = read(fd, text, sizeof text);
    close(fd);
    if (len < 0 || len == (ssize_t)sizeof text) { /* unreadable, or longer than any calibration file */
        errno = len < 0 ? errno : EFBIG;
        return -1;
    }
    text[len] = 0;
    if (strlen(text) != (size_t)len) /* a NUL inside: not a text file */
        return 1;
    return tb_cost_parse(c, text);
}

int tb_cost_write(const tb_cost_params *c, FILE *f)
{
    for (size_t i = 0; i < NFIELDS; i++)
        if (fprintf(f, "%s %.6g\n", fields[i].name, *(const double *)((const char *)c + fields[i].offset)) < 0)
            return -1;
    return fflush(f) ? -1 : 0;
}

const char *tb_cost_path(int n, char *buf, size_t size)
{
    /* a set-user-ID program reads the system-wide file only (secure_getenv: NULL there) */
    const char *xdg = secure_getenv("XDG_CONFIG_HOME"), *home = secure_getenv("HOME");
    int len;
    if (n == 0) {
        /* the XDG base directory rules: a relative XDG_CONFIG_HOME is ignored, as is a relative HOME */
        if (xdg && xdg[0] == '/')
            len = snprintf(buf, size, "%s/tileblas/calibration", xdg);
        else if (home && home[0] == '/')
            len = snprintf(buf, size, "%s/.config/tileblas/calibration", home);
        else
            len = -1;
    } else if (n == 1) {
        len = snprintf(buf, size, "%s/tileblas/calibration", SYSCONFDIR);
    } else {
        return NULL;
    }
    if (len < 0 || (size_t)len >= size)
        buf[0] = 0; /* no such place, or a path too long to open: skipped */
    return buf;
}
