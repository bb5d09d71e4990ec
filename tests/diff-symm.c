/*
 * The differential tests' program for the products with a symmetric operand (tests/differential.sh, beside
 * diff-blas.c): SSYMM calls (D with -DDOUBLE; CSYMM and CHEMM with -DCOMPLEX, Z with both), valid, invalid and edge
 * cases, through the CBLAS names (order ROW or COL) and the Fortran ones (order 0: side and uplo are characters),
 * with -DSUFFIX64 their 64_ names, printing what a program can observe of each: the error handler's calls (with
 * -DOWN_HANDLERS), every element of C in hexadecimal, and how the program ends.  TB_INT and -DILP64 as in
 * diff-blas.c.
 *   diff-symm list | all | N
 */
#include "diff-types.h"

void CBLAS_NAME(symm)(int order, int side, int uplo, blasint m, blasint n, scalar_arg alpha, const real *a,
                      blasint lda, const real *b, blasint ldb, scalar_arg beta, real *c, blasint ldc);
void F77_NAME(symm)(const char *side, const char *uplo, const blasint *m, const blasint *n, const real *alpha,
                    const real *a, const blasint *lda, const real *b, const blasint *ldb, const real *beta, real *c,
                    const blasint *ldc, size_t ls, size_t lu);
#ifdef COMPLEX
void CBLAS_NAME(hemm)(int order, int side, int uplo, blasint m, blasint n, scalar_arg alpha, const real *a,
                      blasint lda, const real *b, blasint ldb, scalar_arg beta, real *c, blasint ldc);
void F77_NAME(hemm)(const char *side, const char *uplo, const blasint *m, const blasint *n, const real *alpha,
                    const real *a, const blasint *lda, const real *b, const blasint *ldb, const real *beta, real *c,
                    const blasint *ldc, size_t ls, size_t lu);
#endif

#include "diff.h"

enum { ROW = 101, COL = 102, U = 121, L = 122, LE = 141, RI = 142 };
#define BIG ((int64_t)1 << 32)

/* her: HEMM; nulls: ALPHA and BETA passed as NULL where the BLAS never reads them */
typedef struct sym_case {
    int her, order, side, uplo;
    int64_t m, n, lda, ldb, ldc;
    float alpha, beta, alpha_im, beta_im;
    int nulls;
} sym_case;

/* valid: M=5 N=4 (A 5x5 for SIDE L, 4x4 for R), then invalid and nothing-to-multiply ones */
#define SYMM_CASES(h)                                                                                              \
    { h, COL, LE, U, 5, 4, 5, 5, 5, 1.5f, 0.5f }, { h, COL, RI, L, 5, 4, 4, 6, 5, 1.5f, 0.0f },                     \
        { h, ROW, LE, U, 5, 4, 5, 4, 4, -1.0f, 2.0f }, { h, ROW, RI, L, 5, 4, 4, 5, 6, 1.0f, 1.0f },                \
        { h, COL, RI, U, 5, 4, 6, 5, 5, 1.0f, 0.5f, 0.5f, -0.25f }, { h, 0, 'L', 'U', 5, 4, 5, 5, 5, 1.5f, 0.5f }, \
        { h, 0, 'r', 'l', 5, 4, 4, 5, 6, 1.5f, 0.0f }, { h, 0, 'R', 'U', 5, 4, 5, 6, 5, -1.0f, 2.0f, 0.5f, 1.0f }, \
        { h, 0, 'l', 'L', 5, 4, 6, 5, 5, 0.5f, 1.0f }, /* invalid: */                                               \
        { h, 103, LE, U, 5, 4, 5, 5, 5, 1, 0 }, { h, COL, 0, U, 5, 4, 5, 5, 5, 1, 0 },                              \
        { h, COL, LE, 120, 5, 4, 5, 5, 5, 1, 0 }, { h, ROW, 143, 0, 5, 4, 5, 5, 5, 1, 0 },                          \
        { h, COL, LE, U, -1, 4, 5, 5, 5, 1, 0 }, { h, COL, RI, L, 5, -1, 5, 5, 5, 1, 0 },                           \
        { h, COL, LE, U, 5, 4, 4, 5, 5, 1, 0 }, { h, COL, RI, U, 5, 4, 3, 5, 5, 1, 0 },                             \
        { h, COL, LE, L, 5, 4, 5, 4, 5, 1, 0 }, { h, COL, RI, L, 5, 4, 4, 5, 4, 1, 0 },                             \
        { h, ROW, LE, U, 5, 4, 4, 4, 4, 1, 0 }, { h, ROW, RI, U, 5, 4, 4, 3, 4, 1, 0 },                             \
        { h, ROW, LE, L, 5, 4, 5, 4, 3, 1, 0 }, { h, COL, RI, U, 0, 4, 3, 1, 1, 1, 0 },                             \
        { h, 0, 'X', 'U', 5, 4, 5, 5, 5, 1, 0 }, { h, 0, 'L', 'X', 5, 4, 5, 5, 5, 1, 0 },                           \
        { h, 0, 'L', 'U', -1, 4, 5, 5, 5, 1, 0 }, { h, 0, 'R', 'L', 5, -1, 5, 5, 5, 1, 0 },                         \
        { h, 0, 'L', 'U', 5, 4, 4, 5, 5, 1, 0 }, { h, 0, 'R', 'U', 5, 4, 3, 5, 5, 1, 0 },                           \
        { h, 0, 'L', 'L', 5, 4, 5, 4, 5, 1, 0 }, { h, 0, 'R', 'L', 5, 4, 4, 5, 4, 1, 0 },                           \
        /* nothing to multiply: */                                                                                 \
        { h, COL, LE, U, 0, 4, 1, 1, 1, 1.5f, 0.5f }, { h, COL, RI, L, 5, 0, 5, 5, 5, 1.5f, 1.0f },                 \
        { h, ROW, LE, U, 5, 4, 5, 4, 4, 0.0f, 1.0f }, { h, COL, RI, L, 5, 4, 4, 5, 5, 0.0f, 0.0f },                 \
        { h, 0, 'L', 'U', 5, 4, 5, 5, 5, 0.0f, 0.5f }, { h, 0, 'R', 'L', 0, 4, 4, 1, 1, 1.5f, 0.5f },              \
        { h, COL, LE, U, 0, 4, 1, 1, 1, 1.5f, 0.5f, 0, 0, 1 }, { h, 0, 'R', 'U', 5, 0, 1, 5, 5, 1.5f, 0.5f, 0, 0, 1 }
static const sym_case sym_cases[] = {
    SYMM_CASES(0),
#ifdef COMPLEX
    SYMM_CASES(1),
#endif
#if defined(ILP64)
    { 0, COL, LE, U, BIG, 4, BIG - 1, BIG, BIG, 1, 0 }, { 0, COL, RI, L, 0, BIG, BIG - 1, 1, 1, 1, 0 },
    { 0, 0, 'L', 'U', 4, BIG, 4, 3, BIG - 1, 1, 0 },
#endif
};
#define NCASES ((int)(sizeof sym_cases / sizeof sym_cases[0]))

static void run(int i)
{
    const sym_case *x = &sym_cases[i];
    const int f77 = x->order == 0;
    fill();
    printf("case %d: %s" P "%s%s%s(%d, %d, %d, %lld, %lld, %g%+gi, A, %lld, B, %lld, %g%+gi, C, %lld)%s\n", i,
           f77 ? "" : "cblas_", x->her ? "hemm" : "symm", f77 ? "_" : "", SUFFIX, x->order, x->side, x->uplo,
           (long long)x->m, (long long)x->n, x->alpha, x->alpha_im, (long long)x->lda, (long long)x->ldb, x->beta,
           x->beta_im, (long long)x->ldc, x->nulls ? " with NULL scalars" : "");
    fflush(stdout);
    const real alpha[2] = { x->alpha, x->alpha_im }, beta[2] = { x->beta, x->beta_im };
    const blasint m = (blasint)x->m, n = (blasint)x->n, lda = (blasint)x->lda, ldb = (blasint)x->ldb,
                  ldc = (blasint)x->ldc;
    const char s = (char)x->side, u = (char)x->uplo;
#ifdef COMPLEX
    const real *pa = x->nulls ? NULL : alpha, *pb = x->nulls ? NULL : beta;
#else
    const real *pa = alpha, *pb = beta; /* real CBLAS scalars come by value */
    if (f77 && x->nulls)
        pa = pb = NULL;
#endif
#ifdef COMPLEX
    if (x->her && f77)
        F77_NAME(hemm)(&s, &u, &m, &n, pa, a, &lda, b, &ldb, pb, c, &ldc, 1, 1);
    else if (x->her)
        CBLAS_NAME(hemm)(x->order, x->side, x->uplo, m, n, SCALAR(pa), a, lda, b, ldb, SCALAR(pb), c, ldc);
    else
#endif
        if (f77)
        F77_NAME(symm)(&s, &u, &m, &n, pa, a, &lda, b, &ldb, pb, c, &ldc, 1, 1);
    else
        CBLAS_NAME(symm)(x->order, x->side, x->uplo, m, n, SCALAR(pa), a, lda, b, ldb, SCALAR(pb), c, ldc);
    show(c, NREAL);
}

static int cases(void)
{
    return NCASES;
}
