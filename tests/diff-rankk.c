/*
 * The differential tests' program for the rank-k and rank-2k updates (tests/differential.sh, beside diff-blas.c):
 * SSYRK and SSYR2K calls (D with -DDOUBLE; CSYRK, CHERK, CSYR2K, CHER2K with -DCOMPLEX, Z with both), valid, invalid
 * and edge cases,
 * through the CBLAS and Fortran names (with -DSUFFIX64 their 64_ names), printing everything a program can observe of
 * each: the error handler's calls (with -DOWN_HANDLERS the program defines xerbla_ and cblas_xerbla), every element
 * of C in hexadecimal, and how the program ends.  TB_INT and -DILP64 as in diff-blas.c.
 *   diff-rankk list | all | N
 */
#include "diff-types.h"

void CBLAS_NAME(syrk)(int order, int uplo, int trans, blasint n, blasint k, scalar_arg alpha, const real *a,
                      blasint lda, scalar_arg beta, real *c, blasint ldc);
void F77_NAME(syrk)(const char *uplo, const char *trans, const blasint *n, const blasint *k, const real *alpha,
                    const real *a, const blasint *lda, const real *beta, real *c, const blasint *ldc, size_t lu,
                    size_t lt);
#ifdef COMPLEX /* HERK: real scalars (by value for CBLAS) */
void CBLAS_NAME(herk)(int order, int uplo, int trans, blasint n, blasint k, real alpha, const real *a, blasint lda,
                      real beta, real *c, blasint ldc);
void F77_NAME(herk)(const char *uplo, const char *trans, const blasint *n, const blasint *k, const real *alpha,
                    const real *a, const blasint *lda, const real *beta, real *c, const blasint *ldc, size_t lu,
                    size_t lt);
#endif

/* SYR2K (HER2K: alpha by pointer for CBLAS, beta real) */
void CBLAS_NAME(syr2k)(int order, int uplo, int trans, blasint n, blasint k, scalar_arg alpha, const real *a,
                       blasint lda, const real *b, blasint ldb, scalar_arg beta, real *c, blasint ldc);
void F77_NAME(syr2k)(const char *uplo, const char *trans, const blasint *n, const blasint *k, const real *alpha,
                     const real *a, const blasint *lda, const real *b, const blasint *ldb, const real *beta, real *c,
                     const blasint *ldc, size_t lu, size_t lt);
#ifdef COMPLEX
void CBLAS_NAME(her2k)(int order, int uplo, int trans, blasint n, blasint k, const void *alpha, const real *a,
                       blasint lda, const real *b, blasint ldb, real beta, real *c, blasint ldc);
void F77_NAME(her2k)(const char *uplo, const char *trans, const blasint *n, const blasint *k, const real *alpha,
                     const real *a, const blasint *lda, const real *b, const blasint *ldb, const real *beta, real *c,
                     const blasint *ldc, size_t lu, size_t lt);
#endif

#include "diff.h"

enum { ROW = 101, COL = 102, N = 111, T = 112, C = 113, U = 121, L = 122 };
#define BIG ((int64_t)1 << 32)

/* herk: the HERK names (complex types only); nulls: ALPHA and BETA passed as NULL where the BLAS never reads them */
typedef struct cblas_case {
    int herk, order, uplo, trans;
    int64_t n, k, lda, ldc;
    float alpha, beta, alpha_im, beta_im;
    int nulls;
} cblas_case;

/* valid: N=5 K=4, tight leading dimensions (A 5x4 for N, 4x5 for T and C; C 5x5); each row changes something */
#define RANKK_CBLAS(h)                                                                                             \
    { h, COL, U, N, 5, 4, 5, 5, 1.5f, 0.5f }, { h, COL, L, T, 5, 4, 4, 5, 1.5f, 0.0f },                            \
        { h, ROW, U, N, 5, 4, 4, 5, -1.0f, 2.0f }, { h, ROW, L, T, 5, 4, 5, 6, 1.0f, 1.0f },                       \
        { h, COL, U, C, 5, 4, 4, 5, 1.0f, 0.5f }, { h, ROW, L, C, 5, 4, 5, 5, 1.0f, 0.5f },                        \
        { h, 0, U, N, 5, 4, 5, 5, 1, 0 }, { h, 103, U, N, 5, 4, 5, 5, 1, 0 }, { h, COL, 0, N, 5, 4, 5, 5, 1, 0 },  \
        { h, COL, 120, N, 5, 4, 5, 5, 1, 0 }, { h, COL, U, 0, 5, 4, 5, 5, 1, 0 },                                  \
        { h, ROW, L, 114, 5, 4, 5, 5, 1, 0 }, { h, COL, U, N, -1, 4, 5, 5, 1, 0 },                                 \
        { h, COL, U, N, 5, -1, 5, 5, 1, 0 }, { h, COL, U, N, -1, -1, 5, 5, 1, 0 },                                 \
        { h, COL, U, N, 5, 4, 4, 5, 1, 0 }, { h, COL, L, T, 5, 4, 3, 5, 1, 0 }, { h, COL, U, N, 5, 4, 5, 4, 1, 0 }, \
        { h, ROW, U, N, 5, 4, 3, 5, 1, 0 }, { h, ROW, L, T, 5, 4, 4, 5, 1, 0 }, { h, ROW, U, N, 5, 4, 4, 4, 1, 0 }, \
        { h, ROW, 0, 0, -1, 4, 0, 0, 1, 0 }, /* nothing to multiply: */                                           \
        { h, COL, U, N, 0, 4, 1, 1, 1.5f, 0.5f }, { h, COL, L, N, 5, 0, 5, 5, 1.5f, 1.0f },                        \
        { h, COL, U, N, 5, 0, 5, 5, 1.5f, 0.5f }, { h, ROW, L, T, 5, 0, 5, 5, 1.5f, 0.0f },                        \
        { h, COL, U, N, 5, 4, 5, 5, 0.0f, 1.0f }, { h, COL, L, N, 5, 4, 5, 5, 0.0f, 0.0f },                        \
        { h, ROW, U, T, 5, 4, 5, 5, 0.0f, 0.5f }, { h, COL, U, N, 0, 0, 1, 1, 1, 0 }
static const cblas_case cblas_cases[] = {
    RANKK_CBLAS(0),
#ifdef COMPLEX
    RANKK_CBLAS(1),
    { 0, COL, L, N, 5, 4, 5, 5, 0.0f, 0.5f, 1.0f, 0.0f }, { 0, ROW, U, T, 5, 4, 5, 5, 1.5f, 0.0f, -0.5f, 2.0f },
    { 0, COL, U, N, 0, 4, 5, 1, 1, 0, 0, 0, 1 },         { 0, COL, L, T, 5, 0, 5, 5, 0, 1, 0, 0, 0 },
#endif
#if defined(ILP64)
    { 0, COL, U, N, BIG, 4, BIG - 1, BIG, 1, 0 }, { 0, COL, L, N, BIG, 4, BIG, BIG - 1, 1, 0 },
    { 0, ROW, U, N, 0, BIG, BIG - 1, 1, 1, 0 },
#endif
};

typedef struct f77_case {
    int herk;
    char uplo, trans;
    int64_t n, k, lda, ldc;
    float alpha, beta, alpha_im, beta_im;
    int nulls;
} f77_case;

#define RANKK_F77(h)                                                                                               \
    { h, 'U', 'N', 5, 4, 5, 5, 1.5f, 0.5f }, { h, 'l', 't', 5, 4, 4, 5, 1.5f, 0.0f },                              \
        { h, 'L', 'C', 5, 4, 4, 6, -1.0f, 2.0f }, { h, 'u', 'c', 5, 4, 4, 5, 1.0f, 1.0f },                         \
        { h, 'X', 'N', 5, 4, 5, 5, 1, 0 }, { h, 'U', 'X', 5, 4, 5, 5, 1, 0 }, { h, 'X', 'X', 5, 4, 5, 5, 1, 0 },   \
        { h, 'U', 'N', -1, 4, 5, 5, 1, 0 }, { h, 'L', 'N', 5, -1, 5, 5, 1, 0 },                                    \
        { h, 'U', 'N', 5, 4, 4, 5, 1, 0 }, { h, 'U', 'T', 5, 4, 3, 5, 1, 0 }, { h, 'L', 'N', 5, 4, 5, 4, 1, 0 },   \
        { h, 'U', 'N', 0, 4, 1, 1, 1.5f, 0.5f }, { h, 'L', 'N', 5, 0, 5, 5, 1.5f, 1.0f },                          \
        { h, 'U', 'T', 5, 0, 1, 5, 1.5f, 0.5f }, { h, 'U', 'N', 5, 4, 5, 5, 0.0f, 1.0f },                          \
        { h, 'L', 'N', 5, 4, 5, 5, 0.0f, 0.0f }, { h, 'U', 'N', 5, 4, 5, 5, 0.0f, 0.5f },                          \
        { h, 'U', 'N', 0, 4, 5, 1, 1, 0, 0, 0, 1 }, { h, 'L', 'T', 0, 0, 1, 1, 0, 1, 0, 0, 1 }
static const f77_case f77_cases[] = {
    RANKK_F77(0),
#ifdef COMPLEX
    RANKK_F77(1),
    { 0, 'L', 'N', 5, 4, 5, 5, 0.0f, 0.5f, 1.0f, 0.0f }, { 0, 'U', 'T', 5, 4, 4, 5, 1.5f, 0.0f, -0.5f, 2.0f },
#endif
#if defined(ILP64) /* (not N = 2^32 with LDA = 2^32 - 1: Debian's ILP64 OpenBLAS takes it, and crashes in it) */
    { 0, 'L', 'N', 0, BIG, 1, 1, 1, 0 },
#endif
};

/* SYR2K and HER2K (her), through CBLAS (order ROW or COL) or Fortran (order 0: uplo and trans are characters);
 * nullb: B passed as NULL (the BLAS never reads it when N or K is 0) */
typedef struct two_case {
    int her, order, uplo, trans;
    int64_t n, k, lda, ldb, ldc;
    float alpha, beta, alpha_im;
    int nullb;
} two_case;

/* valid: N=5 K=4, A and B 5x4 for N, 4x5 for T and C, then invalid and nothing-to-multiply ones */
#define RANK2K(h)                                                                                                  \
    { h, COL, U, N, 5, 4, 5, 5, 5, 1.5f, 0.5f, 0 }, { h, COL, L, T, 5, 4, 4, 4, 5, 1.5f, 0.0f, 0 },                 \
        { h, ROW, U, N, 5, 4, 4, 6, 5, -1.0f, 2.0f, 0 }, { h, ROW, L, T, 5, 4, 5, 5, 6, 1.0f, 1.0f, 0 },            \
        { h, COL, U, C, 5, 4, 4, 4, 5, 1.0f, 0.5f, 0 }, { h, ROW, L, C, 5, 4, 5, 5, 5, 1.0f, 0.5f, 0.5f },          \
        { h, COL, L, N, 5, 4, 5, 5, 5, 0.5f, 1.0f, -1.5f }, { h, 0, 'U', 'N', 5, 4, 5, 5, 5, 1.5f, 0.5f, 0 },       \
        { h, 0, 'l', 't', 5, 4, 4, 4, 5, 1.5f, 0.0f, 0 }, { h, 0, 'L', 'C', 5, 4, 4, 4, 6, -1.0f, 2.0f, 0.25f },    \
        { h, 0, 'u', 'n', 5, 4, 5, 6, 5, 0.5f, 1.0f, 2.0f }, /* invalid: */                                         \
        { h, 103, U, N, 5, 4, 5, 5, 5, 1, 0, 0 }, { h, COL, 0, N, 5, 4, 5, 5, 5, 1, 0, 0 },                         \
        { h, COL, U, 0, 5, 4, 5, 5, 5, 1, 0, 0 }, { h, COL, U, N, -1, 4, 5, 5, 5, 1, 0, 0 },                        \
        { h, COL, U, N, 5, -1, 5, 5, 5, 1, 0, 0 }, { h, COL, U, N, 5, 4, 4, 5, 5, 1, 0, 0 },                        \
        { h, COL, L, T, 5, 4, 4, 3, 5, 1, 0, 0 }, { h, COL, U, N, 5, 4, 5, 5, 4, 1, 0, 0 },                         \
        { h, ROW, U, N, 5, 4, 4, 3, 5, 1, 0, 0 }, { h, ROW, U, N, 5, 4, 4, 4, 4, 1, 0, 0 },                         \
        { h, 0, 'X', 'N', 5, 4, 5, 5, 5, 1, 0, 0 }, { h, 0, 'U', 'X', 5, 4, 5, 5, 5, 1, 0, 0 },                     \
        { h, 0, 'U', 'N', -1, 4, 5, 5, 5, 1, 0, 0 }, { h, 0, 'L', 'N', 5, -1, 5, 5, 5, 1, 0, 0 },                   \
        { h, 0, 'U', 'N', 5, 4, 4, 5, 5, 1, 0, 0 }, { h, 0, 'U', 'N', 5, 4, 5, 4, 5, 1, 0, 0 },                     \
        { h, 0, 'U', 'T', 5, 4, 4, 3, 5, 1, 0, 0 }, { h, 0, 'L', 'N', 5, 4, 5, 5, 4, 1, 0, 0 },                     \
        /* nothing to multiply: */                                                                                 \
        { h, COL, U, N, 0, 4, 1, 1, 1, 1.5f, 0.5f, 0 }, { h, COL, L, N, 5, 0, 5, 5, 5, 1.5f, 1.0f, 0 },             \
        { h, ROW, U, T, 5, 0, 5, 5, 5, 1.5f, 0.5f, 0 }, { h, COL, U, N, 5, 4, 5, 5, 5, 0.0f, 1.0f, 0 },             \
        { h, 0, 'L', 'N', 5, 4, 5, 5, 5, 0.0f, 0.0f, 0 }, { h, 0, 'U', 'T', 5, 0, 1, 1, 5, 1.5f, 0.5f, 0 },        \
        { h, COL, U, N, 0, 4, 1, 1, 1, 1.5f, 0.5f, 0, 1 }, { h, ROW, L, T, 5, 0, 5, 5, 5, 1.5f, 0.5f, 0, 1 },       \
        { h, 0, 'U', 'N', 0, 4, 1, 1, 1, 1.5f, 0.5f, 0, 1 }, { h, 0, 'L', 'N', 5, 0, 5, 5, 5, 1.5f, 1.0f, 0, 1 }
static const two_case two_cases[] = {
    RANK2K(0),
#ifdef COMPLEX
    RANK2K(1),
#endif
};

#define NCBLAS ((int)(sizeof cblas_cases / sizeof cblas_cases[0]))
#define NF77 ((int)(sizeof f77_cases / sizeof f77_cases[0]))
#define NTWO ((int)(sizeof two_cases / sizeof two_cases[0]))

/* case x of the rank-2k updates */
static void run_two(int i, const two_case *x)
{
    const int f77 = x->order == 0;
    printf("case %d: %s" P "%s%s%s(%d, %d, %d, %lld, %lld, %g%+gi, A, %lld, %s, %lld, %g, C, %lld)\n", i,
           f77 ? "" : "cblas_", x->her ? "her2k" : "syr2k", f77 ? "_" : "", SUFFIX, x->order, x->uplo, x->trans,
           (long long)x->n, (long long)x->k, x->alpha, x->alpha_im, (long long)x->lda, x->nullb ? "NULL" : "B",
           (long long)x->ldb, x->beta, (long long)x->ldc);
    fflush(stdout);
    const real alpha[2] = { x->alpha, x->alpha_im }, beta[2] = { x->beta, 0 };
    const blasint n = (blasint)x->n, k = (blasint)x->k, lda = (blasint)x->lda, ldb = (blasint)x->ldb,
                  ldc = (blasint)x->ldc;
    const char u = (char)x->uplo, t = (char)x->trans;
    const real *pb = x->nullb ? NULL : b;
#ifdef COMPLEX
    if (x->her && f77)
        F77_NAME(her2k)(&u, &t, &n, &k, alpha, a, &lda, pb, &ldb, beta, c, &ldc, 1, 1);
    else if (x->her)
        CBLAS_NAME(her2k)(x->order, x->uplo, x->trans, n, k, alpha, a, lda, pb, ldb, beta[0], c, ldc);
    else
#endif
        if (f77)
        F77_NAME(syr2k)(&u, &t, &n, &k, alpha, a, &lda, pb, &ldb, beta, c, &ldc, 1, 1);
    else
        CBLAS_NAME(syr2k)(x->order, x->uplo, x->trans, n, k, SCALAR(alpha), a, lda, pb, ldb, SCALAR(beta), c, ldc);
    show(c, NREAL);
}

static void run(int i)
{
    fill();
    if (i >= NCBLAS + NF77) {
        run_two(i, &two_cases[i - NCBLAS - NF77]);
        return;
    }
    if (i < NCBLAS) {
        const cblas_case *x = &cblas_cases[i];
        printf("case %d: cblas_" P "%s%s(%d, %d, %d, %lld, %lld, %g%+gi, A, %lld, %g%+gi, C, %lld)%s\n", i,
               x->herk ? "herk" : "syrk", SUFFIX, x->order, x->uplo, x->trans, (long long)x->n, (long long)x->k,
               x->alpha, x->alpha_im, (long long)x->lda, x->beta, x->beta_im, (long long)x->ldc,
               x->nulls ? " with NULL scalars" : "");
        fflush(stdout);
        const real alpha[2] = { x->alpha, x->alpha_im }, beta[2] = { x->beta, x->beta_im };
#ifdef COMPLEX
        if (x->herk) {
            CBLAS_NAME(herk)(x->order, x->uplo, x->trans, (blasint)x->n, (blasint)x->k, alpha[0], a, (blasint)x->lda,
                             beta[0], c, (blasint)x->ldc);
            show(c, NREAL);
            return;
        }
        const real *pa = x->nulls ? NULL : alpha, *pb = x->nulls ? NULL : beta;
#else
        const real *pa = alpha, *pb = beta;
#endif
        CBLAS_NAME(syrk)(x->order, x->uplo, x->trans, (blasint)x->n, (blasint)x->k, SCALAR(pa), a, (blasint)x->lda,
                         SCALAR(pb), c, (blasint)x->ldc);
    } else {
        const f77_case *x = &f77_cases[i - NCBLAS];
        const blasint n = (blasint)x->n, k = (blasint)x->k, lda = (blasint)x->lda, ldc = (blasint)x->ldc;
        printf("case %d: " P "%s_%s('%c', '%c', %lld, %lld, %g%+gi, A, %lld, %g%+gi, C, %lld)%s\n", i,
               x->herk ? "herk" : "syrk", SUFFIX, x->uplo, x->trans, (long long)n, (long long)k, x->alpha,
               x->alpha_im, (long long)lda, x->beta, x->beta_im, (long long)ldc, x->nulls ? " with NULL scalars" : "");
        fflush(stdout);
        const real alpha[2] = { x->alpha, x->alpha_im }, beta[2] = { x->beta, x->beta_im };
        const real *pa = x->nulls ? NULL : alpha, *pb = x->nulls ? NULL : beta;
#ifdef COMPLEX
        if (x->herk)
            F77_NAME(herk)(&x->uplo, &x->trans, &n, &k, pa, a, &lda, pb, c, &ldc, 1, 1);
        else
#endif
            F77_NAME(syrk)(&x->uplo, &x->trans, &n, &k, pa, a, &lda, pb, c, &ldc, 1, 1);
    }
    show(c, NREAL);
}

static int cases(void)
{
    return NCBLAS + NF77 + NTWO;
}
