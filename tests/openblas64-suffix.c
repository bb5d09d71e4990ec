/*
 * A stand-in for OpenBLAS built with INTERFACE64=1 SYMBOLSUFFIX=64_ (as Fedora and Julia ship it, named
 * libopenblas64_.so.0): cblas_sgemm64_ and sgemm_64_ of Debian's ILP64 OpenBLAS (libopenblas64.so.0, whose
 * 64-bit-integer symbols keep the plain names), taken from that library itself, never through the global scope, where
 * a preloaded tileblas's LP64 cblas_sgemm would be found.  Built by tests/ilp64.sh.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef void (*cblas_fn)(int, int, int, int64_t, int64_t, int64_t, float, const float *, int64_t, const float *,
                         int64_t, float, float *, int64_t);
typedef void (*f77_fn)(const char *, const char *, const int64_t *, const int64_t *, const int64_t *, const float *,
                       const float *, const int64_t *, const float *, const int64_t *, const float *, float *,
                       const int64_t *);

static void *ilp64(const char *name)
{
    static void *h;
    if (!h && !(h = dlopen("libopenblas64.so.0", RTLD_NOW | RTLD_LOCAL))) {
        fprintf(stderr, "openblas64-suffix: %s\n", dlerror());
        abort();
    }
    return dlsym(h, name);
}

void cblas_sgemm64_(int order, int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha, const float *a,
                    int64_t lda, const float *b, int64_t ldb, float beta, float *c, int64_t ldc)
{
    ((cblas_fn)ilp64("cblas_sgemm"))(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void sgemm_64_(const char *ta, const char *tb, const int64_t *m, const int64_t *n, const int64_t *k,
               const float *alpha, const float *a, const int64_t *lda, const float *b, const int64_t *ldb,
               const float *beta, float *c, const int64_t *ldc)
{
    ((f77_fn)ilp64("sgemm_"))(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
