/* The problem every layer hands down: one product on column-major matrices. */
#ifndef TB_PROBLEM_H
#define TB_PROBLEM_H

#include <stdint.h>
#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * C = alpha * op(A) * op(B) + beta * C, column-major (pointers on the device for a kernel, on the host
 * in a call), elements of type `type`.
 * op(A) is m x k (A stored m x k, or k x m when transa), op(B) k x n; C is m x n with leading dimension ldc.
 * transa, transb: 0 (op(X) = X), 1 (X^T), or for complex types 2 (X^H, the conjugate transpose).
 * alpha and beta are held as double, which represents every float exactly; for complex types alpha_im and
 * beta_im are their imaginary parts (0 for real types).
 * Contract: m, n, k >= 1 (the core answers calls with nothing to multiply itself);
 * when beta == 0, C is not read (NaN or Inf in C do not propagate); only the m x n part of C is written.
 */
/* The fields of a problem, with elements of type T and scalars of type S (a kernel's typed view uses the same) */
#define TB_PROBLEM_FIELDS(T, S)                                                                                     \
    int transa, transb;                                                                                             \
    int64_t m, n, k;                                                                                                \
    S alpha, beta;                                                                                                  \
    const T *a;                                                                                                     \
    int64_t lda;                                                                                                    \
    const T *b;                                                                                                     \
    int64_t ldb;                                                                                                    \
    T *c;                                                                                                           \
    int64_t ldc;

/* The part of C a routine computes: all of it (GEMM), or one triangle with its diagonal (SYRK, HERK) */
typedef enum tb_part { TB_PART_ALL = 0, TB_PART_UPPER, TB_PART_LOWER } tb_part;

typedef struct tb_kproblem {
    tb_type type;
    TB_PROBLEM_FIELDS(void, double)
    double alpha_im, beta_im;
    /* Only the part of C that `part` names is written: element (i, j) is on the triangle's diagonal when
     * i + diag == j (diag is 0 for a whole call; tb_kproblem_block moves it); herm: that diagonal's imaginary
     * parts are set to 0 (HERK's C is Hermitian).  Kernels compute all of C; the layers above write the part. */
    tb_part part;
    int64_t diag;
    int herm;
} tb_kproblem;

/* Whether element (i, j) of C is p's to write */
static inline int tb_in_part(const tb_kproblem *p, int64_t i, int64_t j)
{
    return p->part == TB_PART_ALL || (p->part == TB_PART_UPPER ? i + p->diag <= j : i + p->diag >= j);
}

/* The number of (i, j), 0 <= i < rows, 0 <= j < cols, with j - i <= d */
static inline double tb_count_below(double rows, double cols, double d)
{
    const double full = d + 1 < 0 ? 0 : d + 1 > cols ? cols : d + 1; /* columns wholly in: j <= d */
    const double lo = d + 1 > 0 ? d + 1 : 0, hi = d + rows - 1 < cols - 1 ? d + rows - 1 : cols - 1;
    const double part = hi >= lo ? (hi - lo + 1) * (rows + d) - (lo + hi) * (hi - lo + 1) / 2 : 0;
    return full * rows + part;
}

/* The elements of C that p writes: m n, or those of its part */
static inline double tb_part_elems(const tb_kproblem *p)
{
    const double m = (double)p->m, n = (double)p->n, d = (double)p->diag;
    return p->part == TB_PART_ALL     ? m * n
           : p->part == TB_PART_LOWER ? tb_count_below(m, n, d)
                                      : tb_count_below(n, m, -d);
}

/* alpha == 0 (both parts): nothing to multiply */
static inline int tb_alpha_zero(const tb_kproblem *p)
{
    return p->alpha == 0.0 && p->alpha_im == 0.0;
}

/* beta == 0 (both parts): C is not read */
static inline int tb_beta_zero(const tb_kproblem *p)
{
    return p->beta == 0.0 && p->beta_im == 0.0;
}

/* Element i of an array of esize-byte elements */
static inline void *tb_at(const void *base, int64_t i, unsigned esize)
{
    return (char *)base + i * (int64_t)esize;
}

/* p restricted to rows [i0, i0 + rows) and columns [j0, j0 + cols) of C: op(A)'s rows and op(B)'s columns with them */
static inline tb_kproblem tb_kproblem_block(const tb_kproblem *p, int64_t i0, int64_t rows, int64_t j0, int64_t cols)
{
    tb_kproblem t = *p;
    const unsigned e = tb_type_size(t.type);
    t.m = rows, t.n = cols;
    t.a = tb_at(t.a, t.transa ? i0 * t.lda : i0, e);
    t.b = tb_at(t.b, t.transb ? j0 : j0 * t.ldb, e);
    t.c = tb_at(t.c, i0 + j0 * t.ldc, e);
    t.diag += i0 - j0;
    return t;
}

#ifdef __cplusplus
}
#endif
#endif
