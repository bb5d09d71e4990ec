/*
 * sgemm-demo: an ordinary BLAS program.  It knows nothing of tileblas and is linked only against the CPU BLAS;
 * run it under LD_PRELOAD=libtileblas.so to see its SGEMM calls taken over.  It makes a few cblas_sgemm and
 * sgemm_ calls of different shapes, checks each result against a double-precision computation of sampled
 * entries, and prints per call: the shape, the time, the rate, the largest error and a checksum of C.
 *   sgemm-demo [N]   N: size of the largest products (default 2048)
 * Exit status 0 when every result is right.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* the standard CBLAS and Fortran BLAS interfaces, declared here so that any BLAS's headers will do */
enum { RowMajor = 101, ColMajor = 102, NoTrans = 111, Trans = 112 };
void cblas_sgemm(int order, int transa, int transb, int m, int n, int k, float alpha, const float *a, int lda,
                 const float *b, int ldb, float beta, float *c, int ldc);
void sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k, const float *alpha,
            const float *a, const int *lda, const float *b, const int *ldb, const float *beta, float *c,
            const int *ldc);

static uint64_t rng = 0x9e3779b97f4a7c15ull; /* fixed: the same data on every run, so checksums compare */

static float uniform(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (float)((double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0);
}

static float *random_matrix(size_t count)
{
    float *x = malloc(count * sizeof *x);
    if (!x) {
        perror("sgemm-demo");
        exit(2);
    }
    for (size_t i = 0; i < count; i++)
        x[i] = uniform();
    return x;
}

typedef struct call {
    const char *api; /* "cblas" or "fortran" */
    int row_major, ta, tb, m, n, k;
    float alpha, beta;
} call;

/* element (r, c) of op(X) where X is stored with leading dimension ld in the call's layout */
static double op_at(const float *x, int ld, int row_major, int trans, int r, int c)
{
    if (trans) {
        int t = r;
        r = c, c = t;
    }
    return row_major ? x[(size_t)r * ld + c] : x[r + (size_t)c * ld];
}

static int run(const call *cl)
{
    int rm = cl->row_major;
    int arows = cl->ta ? cl->k : cl->m, acols = cl->ta ? cl->m : cl->k;
    int brows = cl->tb ? cl->n : cl->k, bcols = cl->tb ? cl->k : cl->n;
    int lda = rm ? acols : arows, ldb = rm ? bcols : brows, ldc = rm ? cl->n : cl->m;
    float *a = random_matrix((size_t)arows * acols), *b = random_matrix((size_t)brows * bcols);
    float *c = random_matrix((size_t)cl->m * cl->n), *c0 = malloc((size_t)cl->m * cl->n * sizeof *c0);
    memcpy(c0, c, (size_t)cl->m * cl->n * sizeof *c);

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (!strcmp(cl->api, "cblas")) {
        cblas_sgemm(rm ? RowMajor : ColMajor, cl->ta ? Trans : NoTrans, cl->tb ? Trans : NoTrans, cl->m, cl->n,
                    cl->k, cl->alpha, a, lda, b, ldb, cl->beta, c, ldc);
    } else {
        char ta = cl->ta ? 'T' : 'N', tb = cl->tb ? 'T' : 'N';
        sgemm_(&ta, &tb, &cl->m, &cl->n, &cl->k, &cl->alpha, a, &lda, b, &ldb, &cl->beta, c, &ldc);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);

    /* sampled entries against double precision, relative to the size of the terms */
    double worst = 0.0;
    for (int t = 0; t < 256; t++) {
        int i = (int)(rng % (uint64_t)cl->m), j = (int)((rng >> 20) % (uint64_t)cl->n);
        uniform();
        double sum = 0.0, mag = 0.0;
        for (int l = 0; l < cl->k; l++) {
            double p = op_at(a, lda, rm, cl->ta, i, l) * op_at(b, ldb, rm, cl->tb, l, j);
            sum += p, mag += fabs(p);
        }
        size_t at = rm ? (size_t)i * ldc + j : i + (size_t)j * ldc;
        double want = cl->alpha * sum + cl->beta * c0[at];
        double scale = fabs(cl->alpha) * mag + fabs(cl->beta * c0[at]) + 1e-30;
        double err = fabs(c[at] - want) / scale;
        if (!(err <= worst)) /* NaN counts as the worst */
            worst = isnan(err) ? INFINITY : err;
    }
    uint64_t h = 1469598103934665603ull; /* FNV-1a over the bytes of C */
    const unsigned char *bytes = (const unsigned char *)c;
    for (size_t i = 0; i < (size_t)cl->m * cl->n * sizeof *c; i++)
        h = (h ^ bytes[i]) * 1099511628211ull;

    /* float32 accumulation over k terms: error well under k * 2^-24 of the terms' size */
    int ok = worst <= 2.0 * cl->k * 5.96e-8 + 1e-6;
    printf("%-5s %-9s %c%c  M=%-5d N=%-5d K=%-5d  %9.3f ms %9.2f GFLOP/s  max error %.1e %s  checksum %016llx\n",
           cl->api, rm ? "row-major" : "col-major", cl->ta ? 'T' : 'N', cl->tb ? 'T' : 'N', cl->m, cl->n, cl->k,
           1e3 * s, 2e-9 * cl->m * cl->n * (double)cl->k / s, worst, ok ? "ok" : "WRONG", (unsigned long long)h);
    free(a), free(b), free(c), free(c0);
    return ok;
}

int main(int argc, char **argv)
{
    int big = argc > 1 ? atoi(argv[1]) : 2048;
    if (big < 1) {
        fprintf(stderr, "usage: sgemm-demo [N]\n");
        return 2;
    }
    const call calls[] = {
        { "cblas", 1, 0, 0, 64, 64, 64, 1.0f, 0.0f },
        { "cblas", 0, 0, 1, 300, 200, 100, 0.5f, 1.0f },
        { "fortran", 0, 1, 0, 257, 129, 65, -1.0f, 0.25f },
        { "cblas", 1, 0, 0, big, big, big, 1.0f, 0.0f },
        { "fortran", 0, 1, 1, big, big / 2, big, 1.0f, -1.0f },
        { "cblas", 1, 1, 0, big / 2 + 1, big / 2 + 3, big, 2.0f, 0.5f },
    };
    int all = 1;
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
        all &= run(&calls[i]);
    printf("%s\n", all ? "all results correct" : "SOME RESULTS WRONG");
    return all ? 0 : 1;
}
