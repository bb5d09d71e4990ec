/* The products with a symmetric operand under their CBLAS and Fortran names (base/entries.h), C M x N:
 *   SYMM  C = alpha A B + beta C (SIDE L, A M x M) or alpha B A + beta C (SIDE R, A N x N), A symmetric
 *   HEMM  the same with A Hermitian (its diagonal's imaginary parts not read)
 * A stored in its UPLO triangle alone.  A call the reference accepts is handed to the core as a GEMM whose op(A)
 * (SIDE L) or op(B) (SIDE R) is A read through its triangle (base/problem.h: sym); any other goes to the BLAS
 * beneath unchanged. */
#include <config.h>
#include <stdio.h>
#include "blas_abi.h"
#include "cpu_blas.h"
#include "checks.h"
#include "entry_body.h"
#include "util.h"

/* The product of a call from its column-major arguments (side, uplo: as read, -1 when invalid; lda is A's, ldb
 * B's): 1 when SIDE and UPLO are valid */
static inline __attribute__((always_inline)) int product(tb_routine r, tb_type type, int side, int uplo, int64_t m,
                                                         int64_t n, int64_t lda, int64_t ldb, int64_t ldc,
                                                         tb_kproblem *p)
{
    const int right = side == TB_RIGHT;
    *p = (tb_kproblem){ .type = type, .m = m, .n = n, .k = right ? n : m, .lda = right ? ldb : lda,
                        .ldb = right ? lda : ldb, .ldc = ldc, .part = TB_PART_ALL, .sym = right ? 2 : 1,
                        .sym_uplo = uplo, .sym_herm = r == TB_ROUTINE_HEMM };
    return side >= 0 && uplo >= 0;
}

/* A's and B's leading dimensions and pointers in a problem */
#define A_LD(p) ((p)->sym == 2 ? (p)->ldb : (p)->lda)
#define B_LD(p) ((p)->sym == 2 ? (p)->lda : (p)->ldb)
#define A_OF(p) ((p)->sym == 2 ? (p)->b : (p)->a)
#define B_OF(p) ((p)->sym == 2 ? (p)->a : (p)->b)

/* 0 when the reference accepts it, else the number of the argument it reports first (SIDE 1, UPLO 2, M 3, N 4,
 * LDA 7, LDB 9, LDC 12; OpenBLAS reports a CBLAS call's as its column-major problem's) */
static int info(int side, int uplo, const tb_kproblem *p)
{
    return side < 0 ? 1 : uplo < 0 ? 2 : p->m < 0 ? 3 : p->n < 0 ? 4 : A_LD(p) < tb_max1(p->k) ? 7
           : B_LD(p) < tb_max1(p->m) ? 9 : p->ldc < tb_max1(p->m) ? 12 : 0;
}

static void pointers(tb_kproblem *p, const void *a, const void *b, void *c)
{
    p->a = p->sym == 2 ? b : a, p->b = p->sym == 2 ? a : b, p->c = c;
}

/* ---- CBLAS ---- */

typedef struct cblas_symm {
    tb_type type;
    tb_routine routine;
    int order, side, uplo;
    tb_slot m, n;
    tb_cblas_scalar alpha;
    const void *a;
    tb_slot lda;
    const void *b;
    tb_slot ldb;
    tb_cblas_scalar beta;
    void *c;
    tb_slot ldc;
} cblas_symm;

#define CBLAS_FN(S) void (*)(int, int, int, tb_slot, tb_slot, S, const void *, tb_slot, const void *, tb_slot, S, \
                             void *, tb_slot)
#define CBLAS_CALL(S, u)                                                                                           \
    ((CBLAS_FN(S))f->fn)(x->order, x->side, x->uplo, x->m, x->n, x->alpha.u, x->a, x->lda, x->b, x->ldb,          \
                         x->beta.u, x->c, x->ldc)

static void cblas_call(const tb_blas_fn *f, const cblas_symm *x)
{
    const char k = tb_cblas_kind(x->type);
    TB_PASS(f, k == 's' ? CBLAS_CALL(float, s) : k == 'd' ? CBLAS_CALL(double, d) : CBLAS_CALL(const void *, z));
}

/* The caller's integers and characters as the column-major problem (row-major C = A B is column-major C^T = B^T A^T:
 * SIDE and UPLO swap, and M and N), read at the width of the BLAS beneath; *side, *uplo: as read, -1 when invalid.
 * Inline on the arguments as they came (the tiny calls' test). */
static inline __attribute__((always_inline)) int cblas_problem(tb_routine r, tb_type type, int wide, int order,
                                                               int Side, int Uplo, tb_slot M, tb_slot N, tb_slot lda,
                                                               tb_slot ldb, tb_slot ldc, int *side, int *uplo,
                                                               tb_kproblem *p)
{
#define INT(v) (wide ? (int64_t)(v) : (int64_t)(int)(v))
    const int row = order == TB_CBLAS_ROW_MAJOR;
    int s = tb_cblas_side(Side), u = tb_cblas_uplo(Uplo);
    if (row && s >= 0)
        s = !s;
    if (row && u >= 0)
        u = !u;
    *side = s, *uplo = u;
    const int ok = product(r, type, s, u, INT(row ? N : M), INT(row ? M : N), INT(lda), INT(ldb), INT(ldc), p);
#undef INT
    return (row || order == TB_CBLAS_COL_MAJOR) && ok;
}

static int cblas_record_problem(const void *raw, int wide, tb_kproblem *p)
{
    const cblas_symm *x = raw;
    int side, uplo;
    if (!cblas_problem(x->routine, x->type, wide, x->order, x->side, x->uplo, x->m, x->n, x->lda, x->ldb, x->ldc,
                       &side, &uplo, p) ||
        info(side, uplo, p))
        return 0;
    if (p->m != 0 && p->n != 0) /* not read otherwise (a program may pass NULL) */
        tb_cblas_read(x->type, x->alpha, &p->alpha, &p->alpha_im),
            tb_cblas_read(x->type, x->beta, &p->beta, &p->beta_im);
    pointers(p, x->a, x->b, x->c);
    return 1;
}

static int cblas_record_info(const void *raw, int wide)
{
    const cblas_symm *x = raw;
    tb_kproblem p;
    int side, uplo;
    if (x->order != TB_CBLAS_ROW_MAJOR && x->order != TB_CBLAS_COL_MAJOR)
        return 0; /* OpenBLAS's number for the order */
    cblas_problem(x->routine, x->type, wide, x->order, x->side, x->uplo, x->m, x->n, x->lda, x->ldb, x->ldc, &side,
                  &uplo, &p);
    return info(side, uplo, &p);
}

static void cblas_reissue(const tb_blas_fn *f, const void *raw)
{
    cblas_call(f, raw);
}

/* a square on A's diagonal (base/problem.h: tb_sym_pieces), column-major, in slots that either width reads right */
static void cblas_piece(const tb_blas_fn *f, const tb_kproblem *p)
{
    double za[2], zb[2];
    const cblas_symm x = { .type = p->type, .routine = p->sym_herm ? TB_ROUTINE_HEMM : TB_ROUTINE_SYMM,
                           .order = TB_CBLAS_COL_MAJOR, .side = p->sym == 2 ? TB_CBLAS_RIGHT : TB_CBLAS_LEFT,
                           .uplo = p->sym_uplo == TB_UPPER ? TB_CBLAS_UPPER : TB_CBLAS_LOWER, .m = p->m, .n = p->n,
                           .alpha = tb_cblas_write(p->type, p->alpha, p->alpha_im, za), .a = A_OF(p),
                           .lda = A_LD(p), .b = B_OF(p), .ldb = B_LD(p),
                           .beta = tb_cblas_write(p->type, p->beta, p->beta_im, zb), .c = p->c, .ldc = p->ldc };
    cblas_call(f, &x);
}

static void cblas_describe(const tb_call *g, char *buf, size_t size)
{
    const cblas_symm *x = g->raw;
    snprintf(buf, size, "%s %c%c M=%lld N=%lld", x->order == TB_CBLAS_ROW_MAJOR ? "row-major" : "col-major",
             x->side == TB_CBLAS_LEFT ? 'L' : 'R', x->uplo == TB_CBLAS_UPPER ? 'U' : 'L', (long long)g->p.m,
             (long long)g->p.n);
}

static const tb_abi_ops cblas_ops = { { tb_entry_whole, tb_entry_own_part, cblas_describe }, cblas_record_problem,
                                      cblas_record_info, cblas_reissue, cblas_piece };

/* ---- Fortran ---- */

typedef struct f77_symm {
    const char *side, *uplo;
    const void *m, *n, *alpha, *a, *lda, *b, *ldb, *beta;
    void *c;
    const void *ldc;
    size_t len_side, len_uplo;
    tb_type type;
    tb_routine routine;
} f77_symm;

typedef void (*f77_fn)(TB_F77_SYMM_ARGS(void));

static void f77_call(const tb_blas_fn *f, const f77_symm *x)
{
    TB_PASS(f, ((f77_fn)f->fn)(x->side, x->uplo, x->m, x->n, x->alpha, x->a, x->lda, x->b, x->ldb, x->beta, x->c,
                               x->ldc, x->len_side, x->len_uplo));
}

/* as cblas_problem, for the Fortran arguments */
static inline __attribute__((always_inline)) int f77_problem(tb_routine r, tb_type type, int w, const char *side,
                                                             const char *uplo, const void *m, const void *n,
                                                             const void *lda, const void *ldb, const void *ldc,
                                                             int *s, int *u, tb_kproblem *p)
{
    *s = tb_fortran_side(*side), *u = tb_fortran_uplo(*uplo);
    return product(r, type, *s, *u, tb_f77_int(m, w), tb_f77_int(n, w), tb_f77_int(lda, w), tb_f77_int(ldb, w),
                   tb_f77_int(ldc, w), p);
}

static int f77_record_problem(const void *raw, int wide, tb_kproblem *p)
{
    const f77_symm *x = raw;
    int side, uplo;
    if (!f77_problem(x->routine, x->type, wide, x->side, x->uplo, x->m, x->n, x->lda, x->ldb, x->ldc, &side, &uplo,
                     p) ||
        info(side, uplo, p))
        return 0;
    tb_read_scalars(p, x->alpha, x->beta);
    pointers(p, x->a, x->b, x->c);
    return 1;
}

static int f77_record_info(const void *raw, int wide)
{
    const f77_symm *x = raw;
    tb_kproblem p;
    int side, uplo;
    f77_problem(x->routine, x->type, wide, x->side, x->uplo, x->m, x->n, x->lda, x->ldb, x->ldc, &side, &uplo, &p);
    return info(side, uplo, &p);
}

static void f77_reissue(const tb_blas_fn *f, const void *raw)
{
    f77_call(f, raw);
}

/* a square on A's diagonal, its integers at the width of the BLAS beneath */
static void f77_piece(const tb_blas_fn *f, const tb_kproblem *p)
{
    const char side = p->sym == 2 ? 'R' : 'L', uplo = p->sym_uplo == TB_UPPER ? 'U' : 'L';
    const int64_t w[5] = { p->m, p->n, A_LD(p), B_LD(p), p->ldc };
    const int i[5] = { (int)w[0], (int)w[1], (int)w[2], (int)w[3], (int)w[4] };
#define ARG(j) (f->wide ? (const void *)&w[j] : (const void *)&i[j])
    double sa[2], sb[2]; /* exact: they came so */
    const f77_symm x = { &side, &uplo, ARG(0), ARG(1), tb_write_scalar(p->type, p->alpha, p->alpha_im, sa),
                         A_OF(p), ARG(2), B_OF(p), ARG(3), tb_write_scalar(p->type, p->beta, p->beta_im, sb),
                         p->c, ARG(4), 1, 1, p->type, p->sym_herm ? TB_ROUTINE_HEMM : TB_ROUTINE_SYMM };
#undef ARG
    f77_call(f, &x);
}

static void f77_describe(const tb_call *g, char *buf, size_t size)
{
    const f77_symm *x = g->raw;
    snprintf(buf, size, "%c%c M=%lld N=%lld", *x->side, *x->uplo, (long long)g->p.m, (long long)g->p.n);
}

static const tb_abi_ops f77_ops = { { tb_entry_whole, tb_entry_own_part, f77_describe }, f77_record_problem,
                                    f77_record_info, f77_reissue, f77_piece };

/* ---- the entry points ---- */

/* R, T: the routine and type; ALPHA: the real part of alpha, read once the call is known valid (the tiny calls'
 * test); U: the CBLAS scalars' union member */
#define S_CBLAS(id, name, R, T, ALPHA, U)                                                                          \
    TB_EXPORT void name(TB_CBLAS_##T##_##R##_ARGS)                                                                 \
    {                                                                                                              \
        int side_, uplo_;                                                                                          \
        TB_ENTRY_BODY(TB_E_##id,                                                                                   \
                      (cblas_problem(TB_ROUTINE_##R, TB_TYPE_##T, f->wide, order, Side, Uplo, M, N, lda, ldb, ldc, \
                                     &side_, &uplo_, &p) &&                                                        \
                       tb_tiny_valid(&p) && (p.alpha = (ALPHA), 1)),                                               \
                      void (*)(TB_CBLAS_##T##_##R##_ARGS),                                                         \
                      (order, Side, Uplo, M, N, alpha, A, lda, B, ldb, beta, C, ldc), cblas_symm, &cblas_ops,      \
                      .type = TB_TYPE_##T, .routine = TB_ROUTINE_##R, .order = order, .side = Side, .uplo = Uplo,  \
                      .m = M, .n = N, .alpha.U = alpha, .a = A, .lda = lda, .b = B, .ldb = ldb, .beta.U = beta,    \
                      .c = C, .ldc = ldc);                                                                         \
    }
#define S_F77(id, name, R, T, ALPHA)                                                                               \
    TB_EXPORT void name(TB_F77_##T##_##R##_ARGS)                                                                   \
    {                                                                                                              \
        int side_, uplo_;                                                                                          \
        TB_ENTRY_BODY(TB_E_##id,                                                                                   \
                      (f77_problem(TB_ROUTINE_##R, TB_TYPE_##T, f->wide, side, uplo, m, n, lda, ldb, ldc, &side_,  \
                                   &uplo_, &p) &&                                                                  \
                       tb_tiny_valid(&p) && (p.alpha = (ALPHA), 1)),                                               \
                      void (*)(TB_F77_##T##_##R##_ARGS),                                                           \
                      (side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc, len_side, len_uplo), f77_symm,       \
                      &f77_ops, .type = TB_TYPE_##T, .routine = TB_ROUTINE_##R, .side = side, .uplo = uplo,        \
                      .m = m, .n = n, .alpha = alpha, .a = a, .lda = lda, .b = b, .ldb = ldb, .beta = beta,        \
                      .c = c, .ldc = ldc, .len_side = len_side, .len_uplo = len_uplo);                             \
    }
#define ZRE(type, x) (*(const type *)(x)) /* a complex scalar's real part */
#define TB_DEFINE_CBLAS_S_SYMM(id, name) S_CBLAS(id, name, SYMM, S, alpha, s)
#define TB_DEFINE_CBLAS_D_SYMM(id, name) S_CBLAS(id, name, SYMM, D, alpha, d)
#define TB_DEFINE_CBLAS_C_SYMM(id, name) S_CBLAS(id, name, SYMM, C, ZRE(float, alpha), z)
#define TB_DEFINE_CBLAS_Z_SYMM(id, name) S_CBLAS(id, name, SYMM, Z, ZRE(double, alpha), z)
#define TB_DEFINE_CBLAS_C_HEMM(id, name) S_CBLAS(id, name, HEMM, C, ZRE(float, alpha), z)
#define TB_DEFINE_CBLAS_Z_HEMM(id, name) S_CBLAS(id, name, HEMM, Z, ZRE(double, alpha), z)
#define TB_DEFINE_F77_S_SYMM(id, name) S_F77(id, name, SYMM, S, *alpha)
#define TB_DEFINE_F77_D_SYMM(id, name) S_F77(id, name, SYMM, D, *alpha)
#define TB_DEFINE_F77_C_SYMM(id, name) S_F77(id, name, SYMM, C, ZRE(float, alpha))
#define TB_DEFINE_F77_Z_SYMM(id, name) S_F77(id, name, SYMM, Z, ZRE(double, alpha))
#define TB_DEFINE_F77_C_HEMM(id, name) S_F77(id, name, HEMM, C, ZRE(float, alpha))
#define TB_DEFINE_F77_Z_HEMM(id, name) S_F77(id, name, HEMM, Z, ZRE(double, alpha))
TB_SYMM_ENTRIES(TB_DEFINE_ENTRY)

#define ALIAS(target, name, abi, type, r)                                                                          \
    TB_EXPORT void name(TB_F77_##type##_##r##_ARGS) __attribute__((alias(#target)));
TB_SYMM_ALIASES(ALIAS)
