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
    char line[512], shown[4 * sizeof line];
    vsnprintf(line, sizeof line, fmt, ap);
    /* control characters (from the environment, from file names) as \xHH: a message stays one line of its own,
     * and no escape sequence reaches the terminal */
    size_t n = 0;
    for (const unsigned char *c = (const unsigned char *)line; *c; c++)
        if (*c < 0x20 || *c == 0x7f)
            n += (size_t)snprintf(shown + n, sizeof shown - n, "\\x%02x", *c);
        else
            shown[n++] = (char)*c;
    shown[n] = 0;
    fprintf(stderr, "tileblas: %s\n", shown);
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
