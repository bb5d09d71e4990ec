/*
 * A stand-in for OpenBLAS built with INTERFACE64=1 SYMBOLSUFFIX=64_ (as Fedora and Julia ship it, named
 * libopenblas64_.so.0): cblas_sgemm64_, sgemm_64_ and the same of DGEMM, CGEMM, ZGEMM, the SYRKs, HERKs, SYR2Ks,
 * HER2Ks, SYMMs and HEMMs, of
 * Debian's ILP64 OpenBLAS (libopenblas64.so.0, whose 64-bit-integer symbols keep the plain names), taken from that
 * library itself, never through the global scope, where a preloaded tileblas's LP64 cblas_sgemm would be found.  Built by tests/ilp64.sh.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static void *ilp64(const char *name)
{
    static void *h;
    if (!h && !(h = dlopen("libopenblas64.so.0", RTLD_NOW | RTLD_LOCAL))) {
        fprintf(stderr, "openblas64-suffix: %s\n", dlerror());
        abort();
    }
    return dlsym(h, name);
}

/* cblas_?gemm64_ and ?gemm_64_ for element type T and CBLAS scalar type S (T itself, or for the complex types
 * void and const void *: scalars by pointer), from the library's cblas_?gemm and ?gemm_ (p: s, d, c or z) */
#define STAND_IN(p, T, S)                                                                                          \
    void cblas_##p##gemm64_(int order, int ta, int tb, int64_t m, int64_t n, int64_t k, S alpha, const T *a,        \
                            int64_t lda, const T *b, int64_t ldb, S beta, T *c, int64_t ldc);                      \
    void cblas_##p##gemm64_(int order, int ta, int tb, int64_t m, int64_t n, int64_t k, S alpha, const T *a,        \
                            int64_t lda, const T *b, int64_t ldb, S beta, T *c, int64_t ldc)                       \
    {                                                                                                              \
        typedef void (*fn)(int, int, int, int64_t, int64_t, int64_t, S, const T *, int64_t, const T *, int64_t, S, \
                           T *, int64_t);                                                                          \
        ((fn)ilp64("cblas_" #p "gemm"))(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);              \
    }                                                                                                              \
    void p##gemm_64_(const char *ta, const char *tb, const int64_t *m, const int64_t *n, const int64_t *k,          \
                     const T *alpha, const T *a, const int64_t *lda, const T *b, const int64_t *ldb, const T *beta, \
                     T *c, const int64_t *ldc);                                                                    \
    void p##gemm_64_(const char *ta, const char *tb, const int64_t *m, const int64_t *n, const int64_t *k,          \
                     const T *alpha, const T *a, const int64_t *lda, const T *b, const int64_t *ldb, const T *beta, \
                     T *c, const int64_t *ldc)                                                                     \
    {                                                                                                              \
        typedef void (*fn)(const char *, const char *, const int64_t *, const int64_t *, const int64_t *,          \
                           const T *, const T *, const int64_t *, const T *, const int64_t *, const T *, T *,      \
                           const int64_t *);                                                                       \
        ((fn)ilp64(#p "gemm_"))(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);                             \
    }

STAND_IN(s, float, float)
STAND_IN(d, double, double)
STAND_IN(c, void, const void *)
STAND_IN(z, void, const void *)

/* cblas_?syrk64_, ?syrk_64_ (and ?herk: r) the same way; S the CBLAS scalar type, F the Fortran scalars' */
#define STAND_IN_RANKK(p, r, T, S, F)                                                                              \
    void cblas_##p##r##64_(int order, int uplo, int trans, int64_t n, int64_t k, S alpha, const T *a, int64_t lda,  \
                           S beta, T *c, int64_t ldc);                                                             \
    void cblas_##p##r##64_(int order, int uplo, int trans, int64_t n, int64_t k, S alpha, const T *a, int64_t lda,  \
                           S beta, T *c, int64_t ldc)                                                              \
    {                                                                                                              \
        typedef void (*fn)(int, int, int, int64_t, int64_t, S, const T *, int64_t, S, T *, int64_t);               \
        ((fn)ilp64("cblas_" #p #r))(order, uplo, trans, n, k, alpha, a, lda, beta, c, ldc);                        \
    }                                                                                                              \
    void p##r##_64_(const char *uplo, const char *trans, const int64_t *n, const int64_t *k, const F *alpha,       \
                    const T *a, const int64_t *lda, const F *beta, T *c, const int64_t *ldc);                      \
    void p##r##_64_(const char *uplo, const char *trans, const int64_t *n, const int64_t *k, const F *alpha,       \
                    const T *a, const int64_t *lda, const F *beta, T *c, const int64_t *ldc)                       \
    {                                                                                                              \
        typedef void (*fn)(const char *, const char *, const int64_t *, const int64_t *, const F *, const T *,     \
                           const int64_t *, const F *, T *, const int64_t *);                                      \
        ((fn)ilp64(#p #r "_"))(uplo, trans, n, k, alpha, a, lda, beta, c, ldc);                                    \
    }

STAND_IN_RANKK(s, syrk, float, float, float)
STAND_IN_RANKK(d, syrk, double, double, double)
STAND_IN_RANKK(c, syrk, void, const void *, void)
STAND_IN_RANKK(z, syrk, void, const void *, void)
STAND_IN_RANKK(c, herk, void, float, float)
STAND_IN_RANKK(z, herk, void, double, double)

/* cblas_?syr2k64_, ?syr2k_64_ (and ?her2k, and ?symm and ?hemm, whose lists are of the same types: r) the same way;
 * SA, SB the CBLAS scalars' types, F the Fortran beta's */
#define STAND_IN_RANK2K(p, r, T, SA, SB, F)                                                                        \
    void cblas_##p##r##64_(int order, int uplo, int trans, int64_t n, int64_t k, SA alpha, const T *a, int64_t lda, \
                           const T *b, int64_t ldb, SB beta, T *c, int64_t ldc);                                   \
    void cblas_##p##r##64_(int order, int uplo, int trans, int64_t n, int64_t k, SA alpha, const T *a, int64_t lda, \
                           const T *b, int64_t ldb, SB beta, T *c, int64_t ldc)                                    \
    {                                                                                                              \
        typedef void (*fn)(int, int, int, int64_t, int64_t, SA, const T *, int64_t, const T *, int64_t, SB, T *,   \
                           int64_t);                                                                               \
        ((fn)ilp64("cblas_" #p #r))(order, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);                \
    }                                                                                                              \
    void p##r##_64_(const char *uplo, const char *trans, const int64_t *n, const int64_t *k, const T *alpha,       \
                    const T *a, const int64_t *lda, const T *b, const int64_t *ldb, const F *beta, T *c,           \
                    const int64_t *ldc);                                                                           \
    void p##r##_64_(const char *uplo, const char *trans, const int64_t *n, const int64_t *k, const T *alpha,       \
                    const T *a, const int64_t *lda, const T *b, const int64_t *ldb, const F *beta, T *c,           \
                    const int64_t *ldc)                                                                            \
    {                                                                                                              \
        typedef void (*fn)(const char *, const char *, const int64_t *, const int64_t *, const T *, const T *,     \
                           const int64_t *, const T *, const int64_t *, const F *, T *, const int64_t *);          \
        ((fn)ilp64(#p #r "_"))(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);                            \
    }

STAND_IN_RANK2K(s, syr2k, float, float, float, float)
STAND_IN_RANK2K(d, syr2k, double, double, double, double)
STAND_IN_RANK2K(c, syr2k, void, const void *, const void *, void)
STAND_IN_RANK2K(z, syr2k, void, const void *, const void *, void)
STAND_IN_RANK2K(c, her2k, void, const void *, float, float)
STAND_IN_RANK2K(z, her2k, void, const void *, double, double)
STAND_IN_RANK2K(s, symm, float, float, float, float)
STAND_IN_RANK2K(d, symm, double, double, double, double)
STAND_IN_RANK2K(c, symm, void, const void *, const void *, void)
STAND_IN_RANK2K(z, symm, void, const void *, const void *, void)
STAND_IN_RANK2K(c, hemm, void, const void *, const void *, void)
STAND_IN_RANK2K(z, hemm, void, const void *, const void *, void)
