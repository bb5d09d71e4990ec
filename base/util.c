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
    /* control characters (from the environment, from file names), C1 ones too (a byte 0x80-0x9f after ASCII, or
     * UTF-8's 0xc2 0x80-0x9f), as \xHH: a message stays one line of its own, and no escape sequence reaches the
     * terminal */
    size_t n = 0;
    for (const unsigned char *c = (const unsigned char *)line; *c; c++) {
        const int utf8_c1 = *c == 0xc2 && c[1] >= 0x80 && c[1] <= 0x9f;
        const int raw_c1 = *c >= 0x80 && *c <= 0x9f && (c == (const unsigned char *)line || c[-1] < 0x80);
        if (*c < 0x20 || *c == 0x7f || raw_c1 || utf8_c1) {
            n += (size_t)snprintf(shown + n, sizeof shown - n, "\\x%02x", *c);
            if (utf8_c1)
                c++, n += (size_t)snprintf(shown + n, sizeof shown - n, "\\x%02x", *c);
        } else {
            shown[n++] = (char)*c;
        }
    }
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
