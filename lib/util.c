#include <config.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include "util.h"

double tb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void vmsg(const char *fmt, va_list ap)
{
    /* one fprintf per line keeps lines from different threads whole */
    char line[512];
    vsnprintf(line, sizeof line, fmt, ap);
    fprintf(stderr, "tileblas: %s\n", line);
}

void tb_msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(fmt, ap);
    va_end(ap);
}

void tb_warn_once(_Atomic int *flag, const char *fmt, ...)
{
    if (atomic_exchange(flag, 1))
        return;
    va_list ap;
    va_start(ap, fmt);
    vmsg(fmt, ap);
    va_end(ap);
}
