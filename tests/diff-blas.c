/*
 * One program for the differential tests (tests/differential.sh): SGEMM calls (DGEMM with -DDOUBLE; CGEMM and ZGEMM
 * with -DCOMPLEX as well), invalid ones and edge cases among them, through cblas_sgemm and sgemm_ (cblas_dgemm and
 * dgemm_, ...), printing everything a program can observe of each: the error handler's
 * calls (with -DOWN_HANDLERS the program defines xerbla_ and cblas_xerbla, as numpy and R do), every element of C
 * in hexadecimal, and how the program ends.  Built against an LP64 BLAS (TB_INT int) or an ILP64 one (int64_t,
 * -DILP64), through the plain names or (-DSUFFIX64) through cblas_sgemm64_ and sgemm_64_.
 *   diff-blas list             the number of cases
 *   diff-blas all              every case in turn
 *   diff-blas N                case N alone (without own handlers an invalid call may end the program)
 */
#include "diff-types.h"

#define cblas_xgemm CBLAS_NAME(gemm)
#define xgemm_ F77_NAME(gemm)
void cblas_xgemm(int order, int ta, int tb, blasint m, blasint n, blasint k, scalar_arg alpha, const real *a,
                 blasint lda, const real *b, blasint ldb, scalar_arg beta, real *c, blasint ldc);
void xgemm_(const char *ta, const char *tb, const blasint *m, const blasint *n, const blasint *k, const real *alpha,
            const real *a, const blasint *lda, const real *b, const blasint *ldb, const real *beta, real *c,
            const blasint *ldc, size_t la, size_t lb);

#include "diff.h"

enum { ROW = 101, COL = 102, N = 111, T = 112, C = 113, CN = 114 };
#define BIG ((int64_t)1 << 32) /* past what 32 bits hold: ILP64 builds only */

typedef struct cblas_case {
    int order, ta, tb;
    int64_t m, n, k, lda, ldb, ldc;
    float alpha, beta, alpha_im, beta_im; /* the imaginary parts: complex types only */
    int nulls; /* ALPHA and BETA passed as NULL (complex types: by pointer), where the BLAS never reads them */
} cblas_case;

/* valid: M=4 N=5 K=6 with tight leading dimensions (A 4x6, B 6x5, C 4x5 column-major); each row changes it */
static const cblas_case cblas_cases[] = {
    { COL, N, N, 4, 5, 6, 4, 6, 4, 1.5f, 0.5f },   { ROW, N, N, 4, 5, 6, 6, 5, 5, 1.5f, 0.5f },
    { COL, T, C, 4, 5, 6, 6, 5, 4, 1.5f, 0.0f },   { ROW, C, T, 4, 5, 6, 4, 6, 5, -1.0f, 2.0f },
    { 0, N, N, 4, 5, 6, 4, 6, 4, 1, 0 },           { 103, N, N, 4, 5, 6, 4, 6, 4, 1, 0 },
    { COL, 0, N, 4, 5, 6, 4, 6, 4, 1, 0 },         { COL, N, 0, 4, 5, 6, 4, 6, 4, 1, 0 },
    { COL, CN, N, 4, 5, 6, 4, 6, 4, 1, 0 },        { COL, N, CN, 4, 5, 6, 4, 6, 4, 1, 0 },
    { ROW, CN, CN, 4, 5, 6, 6, 5, 5, 1, 0 },       { COL, 0, 0, 4, 5, 6, 4, 6, 4, 1, 0 },
    { COL, N, N, -1, 5, 6, 4, 6, 4, 1, 0 },        { COL, N, N, 4, -1, 6, 4, 6, 4, 1, 0 },
    { COL, N, N, 4, 5, -1, 4, 6, 4, 1, 0 },        { COL, N, N, -1, -1, 6, 4, 6, 4, 1, 0 },
    { COL, N, N, 4, 5, 6, 3, 6, 4, 1, 0 },         { COL, T, N, 4, 5, 6, 5, 6, 4, 1, 0 },
    { COL, N, N, 0, 5, 6, 0, 6, 1, 1, 0 },         { COL, N, N, 4, 5, 6, 4, 5, 4, 1, 0 },
    { COL, N, C, 4, 5, 6, 4, 4, 4, 1, 0 },         { COL, N, N, 4, 5, 6, 4, 6, 3, 1, 0 },
    { COL, N, N, 4, 5, 6, 3, 5, 3, 1, 0 },         { ROW, 0, N, 4, 5, 6, 6, 5, 5, 1, 0 },
    { ROW, N, 0, 4, 5, 6, 6, 5, 5, 1, 0 },         { ROW, N, N, -1, 5, 6, 6, 5, 5, 1, 0 },
    { ROW, N, N, 4, -1, 6, 6, 5, 5, 1, 0 },        { ROW, N, N, 4, 5, -1, 6, 5, 5, 1, 0 },
    { ROW, N, N, -1, -1, 6, 6, 5, 5, 1, 0 },       { ROW, N, N, 4, 5, 6, 5, 5, 5, 1, 0 },
    { ROW, T, N, 4, 5, 6, 3, 5, 5, 1, 0 },         { ROW, N, N, 4, 5, 6, 6, 4, 5, 1, 0 },
    { ROW, N, T, 4, 5, 6, 6, 5, 5, 1, 0 },         { ROW, N, N, 4, 5, 6, 5, 4, 5, 1, 0 },
    { ROW, N, N, 4, 5, 6, 6, 5, 4, 1, 0 },         { ROW, N, N, 4, 0, 6, 6, 1, 0, 1, 0 },
    /* nothing to multiply, and the leading dimensions that then matter to one BLAS and not another */
    { COL, N, N, 4, 5, 0, 4, 0, 4, 1.5f, 0.5f },   { COL, N, N, 0, 5, 6, 0, 6, 1, 1.5f, 0.5f },
    { ROW, N, N, 4, 5, 0, 0, 5, 5, 1.5f, 0.5f },   { COL, N, N, 4, 5, 6, 4, 6, 4, 0.0f, 0.5f },
    { COL, N, N, 4, 5, 6, 4, 6, 4, 0.0f, 0.0f },   { COL, N, N, 4, 5, 0, 4, 1, 4, 1.0f, 1.0f },
    { COL, N, N, 0, 0, 0, 1, 1, 1, 1.0f, 0.0f },   { ROW, T, T, 4, 5, 6, 4, 6, 5, 1.0f, 0.0f },
#ifdef COMPLEX /* complex scalars; alpha = i is no quick return; the conjugate transposes */
    { COL, C, N, 4, 5, 6, 6, 6, 4, 0.0f, 0.5f, 1.0f, 0.0f }, { ROW, C, C, 4, 5, 6, 4, 6, 5, 1.5f, 0.0f, -0.5f, 2.0f },
    { COL, N, C, 4, 5, 6, 4, 5, 4, 0.0f, 0.0f, 0.0f, 1.0f }, { COL, C, T, 4, 5, 6, 5, 5, 4, 1.0f, 1.0f, 0, 0 },
    { COL, N, N, 0, 5, 6, 1, 6, 1, 1, 0, 0, 0, 1 },          { ROW, N, N, 4, 0, 6, 6, 1, 1, 1, 0, 0, 0, 1 },
    { COL, T, N, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1 },
#endif
#if defined(ILP64)
    { COL, N, N, BIG + 4, 0, 6, BIG + 3, 6, BIG + 4, 1, 0 },
    { ROW, N, N, 0, BIG, 3, 3, BIG, BIG - 1, 1, 1 },         { COL, N, N, BIG, 5, 6, 4, 6, 4, 1, 0 },
#endif
};

typedef struct f77_case {
    char ta, tb;
    int64_t m, n, k, lda, ldb, ldc;
    float alpha, beta, alpha_im, beta_im;
    int nulls; /* ALPHA and BETA passed as NULL, where the BLAS never reads them */
} f77_case;

static const f77_case f77_cases[] = {
    { 'N', 'N', 4, 5, 6, 4, 6, 4, 1.5f, 0.5f },  { 't', 'c', 4, 5, 6, 6, 5, 4, 1.5f, 0.0f },
    { 'X', 'N', 4, 5, 6, 4, 6, 4, 1, 0 },        { 'N', 'x', 4, 5, 6, 4, 6, 4, 1, 0 },
    { 'X', 'X', 4, 5, 6, 4, 6, 4, 1, 0 },        { 'R', 'N', 4, 5, 6, 4, 6, 4, 1, 0 },
    { 'N', 'r', 4, 5, 6, 4, 6, 4, 1, 0 },        { 'N', 'N', -1, 5, 6, 4, 6, 4, 1, 0 },
    { 'n', 'N', 4, -1, 6, 4, 6, 4, 1, 0 },       { 'N', 't', 4, 5, -1, 4, 6, 4, 1, 0 },
    { 'N', 'N', 4, 5, 6, 3, 6, 4, 1, 0 },        { 't', 'N', 4, 5, 6, 5, 6, 4, 1, 0 },
    { 'N', 'N', 4, 5, 6, 4, 5, 4, 1, 0 },        { 'N', 'c', 4, 5, 6, 4, 4, 4, 1, 0 },
    { 'N', 'N', 4, 5, 6, 4, 6, 3, 1, 0 },        { 'N', 'N', 0, 5, 6, 0, 6, 1, 1, 0 },
    { 'N', 'N', 4, 5, 6, 3, 5, 3, 1, 0 },        { 'N', 'N', 4, 5, 0, 4, 0, 4, 1.5f, 0.5f },
    { 'N', 'N', 0, 5, 6, 0, 6, 1, 1.5f, 0.5f },  { 'N', 'N', 4, 5, 6, 4, 6, 4, 0.0f, 0.5f },
    { 'N', 'N', 4, 5, 6, 4, 6, 4, 0.0f, 0.0f },  { 'T', 'T', 4, 5, 6, 6, 5, 4, 1.0f, 0.0f },
    { 'N', 'N', 0, 5, 6, 1, 6, 1, 1, 0, 0, 0, 1 }, { 'N', 'T', 4, 0, 6, 4, 1, 4, 1, 0, 0, 0, 1 },
    { 'N', 'N', 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1 }, { 'T', 'N', 0, 5, 0, 1, 1, 1, 1, 0, 0, 0, 1 },
#ifdef COMPLEX
    { 'C', 'c', 4, 5, 6, 6, 5, 4, 0.0f, 0.5f, -1.0f, 0.0f }, { 'c', 'N', 4, 5, 6, 5, 6, 4, 1.0f, 0.0f, 0, 0 },
    { 'N', 'C', 4, 5, 6, 4, 5, 4, 0.0f, 2.0f, 0.0f, -1.0f },
#endif
#if defined(ILP64)
    { 'N', 'N', BIG + 4, 0, 6, BIG + 3, 6, BIG + 4, 1, 0 },
    { 'N', 'N', BIG, 5, 6, 4, 6, 4, 1, 0 },
#endif
};

#define NCBLAS ((int)(sizeof cblas_cases / sizeof cblas_cases[0]))
#define NF77 ((int)(sizeof f77_cases / sizeof f77_cases[0]))

static void run(int i)
{
    fill();
    if (i < NCBLAS) {
        const cblas_case *x = &cblas_cases[i];
        printf("case %d: cblas_" P "gemm%s(%d, %d, %d, %lld, %lld, %lld, %g%+gi, A, %lld, B, %lld, %g%+gi, C, %lld)%s\n",
               i, SUFFIX, x->order, x->ta, x->tb, (long long)x->m, (long long)x->n, (long long)x->k, x->alpha,
               x->alpha_im, (long long)x->lda, (long long)x->ldb, x->beta, x->beta_im, (long long)x->ldc,
               x->nulls ? " with NULL scalars" : "");
        fflush(stdout);
        const real alpha[2] = { x->alpha, x->alpha_im }, beta[2] = { x->beta, x->beta_im };
#ifdef COMPLEX
        const real *pa = x->nulls ? NULL : alpha, *pb = x->nulls ? NULL : beta;
#else
        const real *pa = alpha, *pb = beta;
#endif
        cblas_xgemm(x->order, x->ta, x->tb, (blasint)x->m, (blasint)x->n, (blasint)x->k, SCALAR(pa), a,
                    (blasint)x->lda, b, (blasint)x->ldb, SCALAR(pb), c, (blasint)x->ldc);
    } else {
        const f77_case *x = &f77_cases[i - NCBLAS];
        const blasint m = (blasint)x->m, n = (blasint)x->n, k = (blasint)x->k;
        const blasint lda = (blasint)x->lda, ldb = (blasint)x->ldb, ldc = (blasint)x->ldc;
        printf("case %d: " P "gemm_%s('%c', '%c', %lld, %lld, %lld, %g%+gi, A, %lld, B, %lld, %g%+gi, C, %lld)%s\n", i,
               SUFFIX, x->ta, x->tb, (long long)m, (long long)n, (long long)k, x->alpha, x->alpha_im,
               (long long)lda, (long long)ldb, x->beta, x->beta_im, (long long)ldc, x->nulls ? " with NULL scalars" : "");
        fflush(stdout);
        const real alpha[2] = { x->alpha, x->alpha_im }, beta[2] = { x->beta, x->beta_im };
        xgemm_(&x->ta, &x->tb, &m, &n, &k, x->nulls ? NULL : alpha, a, &lda, b, &ldb, x->nulls ? NULL : beta, c, &ldc,
               1, 1);
    }
    show(c, NREAL);
}

static int cases(void)
{
    return NCBLAS + NF77;
}
