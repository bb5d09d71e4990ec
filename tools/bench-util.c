/* The helpers tileblas-bench and tileblas-calibrate share (declared in bench.h). */
#define _GNU_SOURCE /* program_invocation_short_name */
#include <config.h>
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
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
void bench_fill(void *h, size_t count, size_t es)
{
    for (size_t i = 0; i < count; i++) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        const double v = (double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
        if (es == 8)
            ((double *)h)[i] = v;
        else
            ((float *)h)[i] = (float)v;
    }
}

double bench_max_diff(const void *c, const void *ref, int64_t m, int64_t n, int64_t ld, size_t es)
{
    double diff = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t r = 0; r < m; r++) {
            const size_t at = (size_t)r + (size_t)j * (size_t)ld;
            const double x = es == 8 ? ((const double *)c)[at] : ((const float *)c)[at];
            const double y = es == 8 ? ((const double *)ref)[at] : ((const float *)ref)[at];
            const double d = fabs(x - y) / (fabs(y) + 1.0);
            diff = d > diff || isnan(d) ? d : diff;
        }
    return diff;
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

typedef void (*cblas_s_fn)(int, int, int, int, int, int, float, const void *, int, const void *, int, float, void *,
                           int);
typedef void (*cblas_d_fn)(int, int, int, int, int, int, double, const void *, int, const void *, int, double, void *,
                           int);
typedef void (*cblas_z_fn)(int, int, int, int, int, int, const void *, const void *, int, const void *, int,
                           const void *, void *, int); /* the complex types: scalars by pointer */
static cblas_s_fn openblas_s;
static cblas_d_fn openblas_d;
static cblas_z_fn openblas_z[2]; /* c, z */

static void *openblas_lib;

void *bench_openblas_lib(void)
{
    return openblas_lib;
}

int bench_openblas_load(void)
{
    static int tried;
    if (!tried) {
        tried = 1;
        void *h = openblas_lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
        openblas_s = h ? (cblas_s_fn)dlsym(h, "cblas_sgemm") : NULL;
        openblas_d = h ? (cblas_d_fn)dlsym(h, "cblas_dgemm") : NULL;
        openblas_z[0] = h ? (cblas_z_fn)dlsym(h, "cblas_cgemm") : NULL;
        openblas_z[1] = h ? (cblas_z_fn)dlsym(h, "cblas_zgemm") : NULL;
    }
    return openblas_s && openblas_d && openblas_z[0] && openblas_z[1];
}

void bench_openblas_gemm(int type, int ta, int tb, int m, int n, int k, double alpha, const void *a, int lda,
                         const void *b, int ldb, double beta, void *c, int ldc)
{
    const int xa = 111 + ta, xb = 111 + tb; /* CblasNoTrans, CblasTrans, CblasConjTrans; 102: CblasColMajor */
    if (type >= 2) { /* complex: alpha and beta real, by pointer as the type has them */
        const double za[2] = { alpha, 0 }, zb[2] = { beta, 0 };
        const float fa[2] = { (float)alpha, 0 }, fb[2] = { (float)beta, 0 };
        const int z = type == 3;
        openblas_z[z](102, xa, xb, m, n, k, z ? (const void *)za : fa, a, lda, b, ldb, z ? (const void *)zb : fb, c,
                      ldc);
    } else if (type == 1) {
        openblas_d(102, xa, xb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    } else {
        openblas_s(102, xa, xb, m, n, k, (float)alpha, a, lda, b, ldb, (float)beta, c, ldc);
    }
}
