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

/* The part of C a routine computes: all of it (GEMM), or one triangle with its diagonal (SYRK, HERK, SYR2K, HER2K) */
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
    /* Two products (SYR2K, HER2K) when k1 > 0: op(A) = [op(A) op(A2)] and op(B) = [op(B); op(B2)], the first k1 of
     * the depth k from a and b, the rest from a2 and b2 (stored like a and b, under the same ops) and multiplied by
     * alpha2 (alpha's conjugate for HER2K) instead of alpha.  k1 == 0: one product, a2 and b2 unused. */
    int64_t k1;
    const void *a2, *b2;
    int64_t lda2, ldb2;
    double alpha2, alpha2_im;
    /* A symmetric operand (SYMM, HEMM) when sym is 1 (op(A)) or 2 (op(B)), its op 0: that operand is a window of a
     * square matrix X stored in its sym_uplo triangle alone (the other is read as the transpose, conjugated when
     * sym_herm, whose diagonal's imaginary parts are then taken as 0).  The window's element (i, l) is X's
     * (sym_r + i, sym_c + l), and its pointer is at X's (sym_r, sym_c); tb_kproblem_block moves the window. */
    int sym, sym_uplo, sym_herm;
    int64_t sym_r, sym_c;
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
    if (t.k1) {
        t.a2 = tb_at(t.a2, t.transa ? i0 * t.lda2 : i0, e);
        t.b2 = tb_at(t.b2, t.transb ? j0 : j0 * t.ldb2, e);
    }
    if (t.sym == 1)
        t.sym_r += i0;
    else if (t.sym == 2)
        t.sym_c += j0;
    return t;
}

/* The depth of each product's operands: k1 for two products, else k */
static inline int64_t tb_depth(const tb_kproblem *p)
{
    return p->k1 ? p->k1 : p->k;
}

/* Whether p's products share one alpha (a two-product p is then one product of depth k over its joined operands) */
static inline int tb_one_alpha(const tb_kproblem *p)
{
    return !p->k1 || (p->alpha2 == p->alpha && p->alpha2_im == p->alpha_im);
}

/* p as one-product problems, in order (1 or 2): a two-product p's second adds to the first's C (beta 1) */
static inline int tb_products(const tb_kproblem *p, tb_kproblem x[2])
{
    x[0] = *p;
    if (!p->k1)
        return 1;
    x[0].k = p->k1, x[0].k1 = 0, x[0].a2 = x[0].b2 = NULL;
    x[1] = x[0];
    x[1].k = p->k - p->k1;
    x[1].a = p->a2, x[1].lda = p->lda2, x[1].b = p->b2, x[1].ldb = p->ldb2;
    x[1].alpha = p->alpha2, x[1].alpha_im = p->alpha2_im, x[1].beta = 1.0, x[1].beta_im = 0.0;
    return 2;
}

/* The block of p's symmetric operand X at X's (r0, c0), wholly off X's diagonal, as a plain operand: its pointer,
 * and in *op how it is read (0 where X stores it; else the transpose of the block at (c0, r0): 1, or 2 under
 * sym_herm).  Wholly off the diagonal, it is below it when r0 > c0. */
static inline const void *tb_sym_plain(const tb_kproblem *p, int64_t r0, int64_t c0, int *op)
{
    const void *x = p->sym == 1 ? p->a : p->b;
    const int64_t ld = p->sym == 1 ? p->lda : p->ldb;
    const int stored = (r0 > c0) == (p->sym_uplo == TB_LOWER);
    *op = stored ? 0 : p->sym_herm ? 2 : 1;
    return stored ? tb_at(x, (r0 - p->sym_r) + (c0 - p->sym_c) * ld, tb_type_size(p->type))
                  : tb_at(x, (c0 - p->sym_r) + (r0 - p->sym_c) * ld, tb_type_size(p->type));
}

/* p (sym, its window's depth X's whole order) as at most three problems with its sum: the products of the depth
 * before and after X's diagonal square (plain operands, tb_sym_plain), and that square's (a window on X's diagonal,
 * a call of p's routine), in order of depth; the first keeps beta, the others add (beta 1).  Returns how many. */
static inline int tb_sym_pieces(const tb_kproblem *p, tb_kproblem x[3])
{
    const int left = p->sym == 1;
    const unsigned e = tb_type_size(p->type);
    /* along the depth l, X's rows (left: its window's columns) against the other index's span [w, w + len) */
    const int64_t w = left ? p->sym_r : p->sym_c, len = left ? p->m : p->n, d = left ? p->sym_c : p->sym_r;
    const int64_t cut[4] = { 0, w - d, w - d + len, p->k };
    int n = 0;
    for (int s = 0; s < 3; s++) {
        const int64_t l0 = cut[s], l1 = cut[s + 1];
        if (l1 <= l0)
            continue;
        tb_kproblem t = *p;
        t.k = l1 - l0;
        if (left) { /* op(A) = X's window, rows [sym_r, +m) and columns [d + l0, d + l1) */
            t.b = tb_at(p->b, p->transb ? l0 * p->ldb : l0, e);
            if (s == 1)
                t.a = tb_at(p->a, l0 * p->lda, e), t.sym_c = d + l0;
            else
                t.a = tb_sym_plain(p, p->sym_r, d + l0, &t.transa), t.sym = 0;
        } else { /* op(B) = X's window, rows [d + l0, d + l1) and columns [sym_c, +n) */
            t.a = tb_at(p->a, p->transa ? l0 : l0 * p->lda, e);
            if (s == 1)
                t.b = tb_at(p->b, l0, e), t.sym_r = d + l0;
            else
                t.b = tb_sym_plain(p, d + l0, p->sym_c, &t.transb), t.sym = 0;
        }
        if (n > 0)
            t.beta = 1.0, t.beta_im = 0.0;
        x[n++] = t;
    }
    return n;
}

/* The pieces of a block of a lower triangle (rows x cols, element (i, j) in it when j - i <= d): the columns wholly
 * in and off the diagonal, the square on the diagonal, the rows below that square; each {i0, rows, j0, cols}.
 * Returns how many. */
static inline int tb_lower_pieces(int64_t rows, int64_t cols, int64_t d, int64_t piece[3][4])
{
    int n = 0;
    const int64_t whole = d < 0 ? 0 : d < cols ? d : cols; /* columns [0, whole) */
    const int64_t c0 = whole, c1 = d + rows < cols ? d + rows : cols; /* the square's columns */
    if (whole > 0)
        piece[n][0] = 0, piece[n][1] = rows, piece[n][2] = 0, piece[n][3] = whole, n++;
    if (c1 > c0) {
        piece[n][0] = c0 - d, piece[n][1] = c1 - c0, piece[n][2] = c0, piece[n][3] = c1 - c0, n++;
        if (c1 - d < rows)
            piece[n][0] = c1 - d, piece[n][1] = rows - (c1 - d), piece[n][2] = c0, piece[n][3] = c1 - c0, n++;
    }
    return n;
}

/* What p (part != TB_PART_ALL) writes of its m x n C, as at most three blocks {i0, rows, j0, cols}: wholly inside the
 * part, or the square on the diagonal (p->diag + i0 == j0, rows == cols); none when it writes nothing */
static inline int tb_part_pieces(const tb_kproblem *p, int64_t x[3][4])
{
    if (p->part == TB_PART_LOWER)
        return tb_lower_pieces(p->m, p->n, p->diag, x);
    const int n = tb_lower_pieces(p->n, p->m, -p->diag, x); /* of the transpose: rows and columns swap */
    for (int i = 0; i < n; i++) {
        const int64_t i0 = x[i][2], rows = x[i][3];
        x[i][2] = x[i][0], x[i][3] = x[i][1], x[i][0] = i0, x[i][1] = rows;
    }
    return n;
}

/* The same as problems: products of all their elements (part TB_PART_ALL), and the square on the diagonal (its
 * part, diag 0, herm kept) */
static inline int tb_part_blocks(const tb_kproblem *p, tb_kproblem block[3])
{
    if (p->part == TB_PART_ALL) {
        block[0] = *p;
        return 1;
    }
    int64_t x[3][4];
    const int n = tb_part_pieces(p, x);
    for (int i = 0; i < n; i++) {
        block[i] = tb_kproblem_block(p, x[i][0], x[i][1], x[i][2], x[i][3]);
        if (block[i].diag != 0 || block[i].m != block[i].n)
            block[i].part = TB_PART_ALL, block[i].herm = 0; /* wholly inside the triangle, off its diagonal */
    }
    return n;
}

#ifdef __cplusplus
}
#endif
#endif
