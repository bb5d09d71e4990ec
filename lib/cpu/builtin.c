/* The built-in GEMM loop: for a process with no CPU BLAS at all, and for calls made while the process exits in
 * another thread (lib/gpu/gpu.h).  Reference GEMM's loop for NN (C = beta C, then a column of op(A) at a time), for
 * every type and op, on the problem's part of C (the triangle of SYRK and the like), one product after the other,
 * a symmetric operand read through its triangle: slow but right. */
#include <config.h>
#include <complex.h>
#include "cpu_blas.h"

#define SAME(x) (x)

/* op(X)(row, col) of column-major X (conjugated for op 2, complex types only) */
#define OP_AT(x, ld, op, row, col, CONJ) \
    ((op) == 0 ? (x)[(row) + (col) * (ld)] : (op) == 1 ? (x)[(col) + (row) * (ld)] : CONJ((x)[(col) + (row) * (ld)]))

/* Element (i, l) of p's symmetric operand x (base/problem.h), of leading dimension ld: X's (sym_r + i, sym_c + l),
 * read from the stored triangle (the other: the transpose, conjugated for HEMM; HEMM's diagonal real) */
#define SYM_AT(x, ld, i, l, CONJ, REAL)                                                                            \
    (p->sym_r + (i) == p->sym_c + (l)                                                                              \
         ? (p->sym_herm ? REAL((x)[(i) + (l) * (ld)]) : (x)[(i) + (l) * (ld)])                                     \
     : (p->sym_r + (i) > p->sym_c + (l)) == (p->sym_uplo == TB_LOWER)                                              \
         ? (x)[(i) + (l) * (ld)]                                                                                   \
     : p->sym_herm ? CONJ((x)[(p->sym_c + (l) - p->sym_r) + (p->sym_r + (i) - p->sym_c) * (ld)])                   \
                   : (x)[(p->sym_c + (l) - p->sym_r) + (p->sym_r + (i) - p->sym_c) * (ld)])

/* op(A)(row, col) and op(B)(row, col) of p */
#define A_AT(row, col, CONJ, REAL)                                                                                 \
    (p->sym == 1 ? SYM_AT(a, p->lda, row, col, CONJ, REAL) : OP_AT(a, p->lda, p->transa, row, col, CONJ))
#define B_AT(row, col, CONJ, REAL)                                                                                 \
    (p->sym == 2 ? SYM_AT(b, p->ldb, row, col, CONJ, REAL) : OP_AT(b, p->ldb, p->transb, row, col, CONJ))

/* T the element type, CONJ its conjugate, alpha and beta as T, REAL(c) c with its imaginary part 0.  Only C's
 * rows [i0, i1) of column j are p's (its part), and with herm the diagonal's imaginary part is set to 0. */
#define BUILTIN(T, CONJ, ALPHA, BETA, REAL)                                                                        \
    do {                                                                                                           \
        const T alpha = (ALPHA), beta = (BETA), *a = p->a, *b = p->b;                                              \
        for (int64_t j = 0; j < p->n; j++) {                                                                       \
            T *c = (T *)p->c + j * p->ldc;                                                                         \
            const int64_t d = j - p->diag; /* the row on the diagonal */                                           \
            const int64_t i0 = p->part == TB_PART_LOWER ? (d > 0 ? d : 0) : 0;                                     \
            const int64_t i1 = p->part == TB_PART_UPPER ? (d + 1 < p->m ? d + 1 : p->m) : p->m;                    \
            for (int64_t i = i0; i < i1; i++) /* C = 0 when beta = 0: NaN in C does not propagate */              \
                c[i] = beta == (T)0 ? (T)0 : beta * c[i];                                                          \
            for (int64_t l = 0; alpha != (T)0 && l < p->k; l++) {                                                  \
                const T t = alpha * B_AT(l, j, CONJ, REAL);                                       \
                for (int64_t i = i0; i < i1; i++)                                                                  \
                    c[i] += t * A_AT(i, l, CONJ, REAL);                                           \
            }                                                                                                      \
            if (p->herm && d >= 0 && d < p->m)                                                                     \
                c[d] = REAL(c[d]);                                                                                 \
        }                                                                                                          \
    } while (0)

static void product(const tb_kproblem *p)
{
    switch (p->type) {
    case TB_TYPE_D: BUILTIN(double, SAME, p->alpha, p->beta, SAME); break;
    case TB_TYPE_C:
        BUILTIN(float complex, conjf, CMPLXF(p->alpha, p->alpha_im), CMPLXF(p->beta, p->beta_im), crealf);
        break;
    case TB_TYPE_Z:
        BUILTIN(double complex, conj, CMPLX(p->alpha, p->alpha_im), CMPLX(p->beta, p->beta_im), creal);
        break;
    default: BUILTIN(float, SAME, (float)p->alpha, (float)p->beta, SAME); break;
    }
}

void tb_builtin_gemm(const tb_kproblem *p)
{
    tb_kproblem x[2];
    for (int i = 0, n = tb_products(p, x); i < n; i++)
        product(&x[i]);
}
