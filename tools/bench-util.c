/* The helpers tileblas-bench and tileblas-calibrate share (declared in bench.h). */
#define _GNU_SOURCE /* program_invocation_short_name */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "bench.h"

int bench_cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

double bench_median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, bench_cmp_double);
    return t[n / 2];
}

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void bench_settle(void)
{
    struct timespec t = { 0, 250000000 };
    nanosleep(&t, NULL);
}

static unsigned long long rng = 0x2545f4914f6cdd1dull;
void bench_fill(float *h, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        h[i] = (float)((double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0);
    }
}

void *bench_alloc(size_t bytes)
{
    void *x = malloc(bytes);
    if (!x) {
        fprintf(stderr, "%s: out of host memory\n", program_invocation_short_name);
        exit(1);
    }
    return x;
}
