/* The rank-k and rank-2k updates under their CBLAS and Fortran names (base/entries.h), on the triangle UPLO of the
 * N x N matrix C, op(A) and op(B) N x K:
 *   SYRK  C = alpha op(A) op(A)^T + beta C             HERK  the same with ^H, alpha and beta real
 *   SYR2K C = alpha op(A) op(B)^T + alpha op(B) op(A)^T + beta C
 *   HER2K C = alpha op(A) op(B)^H + conj(alpha) op(B) op(A)^H + beta C, beta real
 * (HERK's and HER2K's diagonal real).  A call the reference accepts is handed to the core as products on that
 * triangle (base/problem.h: the second product of SYR2K and HER2K is op(B) op(A)^T); any other goes to the BLAS
 * beneath unchanged. */
#include <config.h>
#include <stdio.h>
#include "blas_abi.h"
#include "cpu_blas.h"
#include "checks.h"
#include "entry_body.h"
#include "util.h"

static inline int two(tb_routine r)
{
    return r == TB_ROUTINE_SYR2K || r == TB_ROUTINE_HER2K;
}

static inline int herm(tb_routine r)
{
    return r == TB_ROUTINE_HERK || r == TB_ROUTINE_HER2K;
}

/* The products of an update, from its arguments on the column-major matrices (trans: 0, 1 or 2 as read; uplo
 * tb_uplo; ldb: B's, of SYR2K and HER2K): 1 when UPLO and TRANS are the routine's (SYRK and SYR2K of a complex type
 * take no conjugate transpose, HERK and HER2K no plain one) */
static inline __attribute__((always_inline)) int product(tb_routine r, tb_type type, int uplo, int trans, int64_t n,
                                                         int64_t k, int64_t lda, int64_t ldb, int64_t ldc,
                                                         tb_kproblem *p)
{
    const int h = herm(r);
    if (trans == (h ? 1 : 2))
        trans = -1;
    p->type = type;
    p->transa = trans, p->transb = trans ? 0 : h ? 2 : 1;
    p->m = p->n = n, p->k = two(r) ? 2 * k : k, p->k1 = two(r) ? k : 0;
    p->lda = p->ldb2 = lda, p->ldb = p->lda2 = two(r) ? ldb : lda, p->ldc = ldc;
    p->part = uplo == TB_UPPER ? TB_PART_UPPER : TB_PART_LOWER, p->diag = 0, p->herm = h;
    return uplo >= 0 && trans >= 0;
}

/* 0 when routine r's reference accepts it, else the number of the argument it reports first (UPLO 1, TRANS 2, N 3,
 * K 4, LDA 7, then SYR2K's LDB 9 and LDC 12, or SYRK's LDC 10: whatever K is; OpenBLAS reports a CBLAS call's as
 * its column-major problem's) */
static int info(tb_routine r, int valid, int uplo, const tb_kproblem *p)
{
    const int64_t rows = tb_max1(p->transa ? tb_depth(p) : p->m);
    return uplo < 0 ? 1 : !valid ? 2 : p->m < 0 ? 3 : tb_depth(p) < 0 ? 4 : p->lda < rows ? 7
           : two(r) && p->ldb < rows ? 9 : p->ldc < tb_max1(p->m) ? (two(r) ? 12 : 10) : 0;
}

/* The scalars' types: HERK's alpha and beta and HER2K's beta are of the type's real precision */
static tb_type alpha_type(tb_routine r, tb_type t)
{
    return r == TB_ROUTINE_HERK ? tb_real_type(t) : t;
}

static tb_type beta_type(tb_routine r, tb_type t)
{
    return herm(r) ? tb_real_type(t) : t;
}

/* alpha2 of a problem whose alpha is read: alpha, conjugated for HER2K */
static void second_alpha(tb_routine r, tb_kproblem *p)
{
    p->alpha2 = p->alpha, p->alpha2_im = r == TB_ROUTINE_HER2K ? -p->alpha_im : p->alpha_im;
}

/* alpha and beta of a valid problem, passed by pointer, read where the BLAS reads them (not when N is 0) */
static void scalars(tb_routine r, tb_kproblem *p, const void *alpha, const void *beta)
{
    p->alpha = p->alpha_im = p->beta = p->beta_im = 0.0;
    if (p->m != 0) {
        tb_read_scalar(alpha_type(r, p->type), alpha, &p->alpha, &p->alpha_im);
        tb_read_scalar(beta_type(r, p->type), beta, &p->beta, &p->beta_im);
    }
    second_alpha(r, p);
}

/* The routine of a piece on the diagonal, and its triangle */
static tb_routine piece_routine(const tb_kproblem *p)
{
    return p->k1 ? (p->herm ? TB_ROUTINE_HER2K : TB_ROUTINE_SYR2K) : p->herm ? TB_ROUTINE_HERK : TB_ROUTINE_SYRK;
}

static int piece_uplo(const tb_kproblem *p)
{
    return p->part == TB_PART_UPPER ? TB_UPPER : TB_LOWER;
}

/* ---- CBLAS ---- */

typedef struct cblas_rankk {
    tb_type type;
    tb_routine routine;
    int order, uplo, trans;
    tb_slot n, k;
    tb_cblas_scalar alpha;
    const void *a;
    tb_slot lda;
    const void *b; /* SYR2K's and HER2K's */
    tb_slot ldb;
    tb_cblas_scalar beta;
    void *c;
    tb_slot ldc;
} cblas_rankk;

/* the BLAS beneath's function, by how alpha (SA) and beta (SB) come */
#define CBLAS_K(SA, SB) void (*)(int, int, int, tb_slot, tb_slot, SA, const void *, tb_slot, SB, void *, tb_slot)
#define CBLAS_2K(SA, SB)                                                                                           \
    void (*)(int, int, int, tb_slot, tb_slot, SA, const void *, tb_slot, const void *, tb_slot, SB, void *, tb_slot)
#define CBLAS_CALL(SA, SB, ma, mb)                                                                                 \
    (two(x->routine) ? ((CBLAS_2K(SA, SB))f->fn)(x->order, x->uplo, x->trans, x->n, x->k, x->alpha.ma, x->a,       \
                                                 x->lda, x->b, x->ldb, x->beta.mb, x->c, x->ldc)                   \
                     : ((CBLAS_K(SA, SB))f->fn)(x->order, x->uplo, x->trans, x->n, x->k, x->alpha.ma, x->a, x->lda, \
                                                x->beta.mb, x->c, x->ldc))

static void cblas_call(const tb_blas_fn *f, const cblas_rankk *x)
{
    const char a = tb_cblas_kind(alpha_type(x->routine, x->type)), b = tb_cblas_kind(beta_type(x->routine, x->type));
    TB_PASS(f, a == 's'   ? CBLAS_CALL(float, float, s, s)
               : a == 'd' ? CBLAS_CALL(double, double, d, d)
               : b == 's' ? CBLAS_CALL(const void *, float, z, s)
               : b == 'd' ? CBLAS_CALL(const void *, double, z, d)
                          : CBLAS_CALL(const void *, const void *, z, z));
}

/* The caller's integers and characters as the column-major problem (row-major C is column-major C^T = C, or
 * conj(C) for HERK and HER2K, of the other triangle, from op(A) and op(B) transposed: UPLO and TRANS swap, and
 * HER2K's alpha is conjugated), read at the width of the BLAS beneath; *uplo: the triangle, -1 when invalid.  Inline
 * on the arguments as they came (the tiny calls' test). */
static inline __attribute__((always_inline)) int cblas_problem(tb_routine r, tb_type type, int wide, int order,
                                                               int Uplo, int Trans, tb_slot N, tb_slot K,
                                                               tb_slot lda, tb_slot ldb, tb_slot ldc, int *uplo,
                                                               tb_kproblem *p)
{
#define INT(v) (wide ? (int64_t)(v) : (int64_t)(int)(v))
    const int row = order == TB_CBLAS_ROW_MAJOR, h = herm(r);
    int u = tb_cblas_uplo(Uplo), t = tb_cblas_trans(Trans, type);
    if (row && u >= 0)
        u = !u;
    if (row && t >= 0 && t != (h ? 1 : 2))
        t = t ? 0 : h ? 2 : 1;
    *uplo = u;
    const int ok = product(r, type, u, t, INT(N), INT(K), INT(lda), INT(ldb), INT(ldc), p);
#undef INT
    return (row || order == TB_CBLAS_COL_MAJOR) && ok;
}

static int cblas_record_problem(const void *raw, int wide, tb_kproblem *p)
{
    const cblas_rankk *x = raw;
    int uplo;
    if (!cblas_problem(x->routine, x->type, wide, x->order, x->uplo, x->trans, x->n, x->k, x->lda, x->ldb, x->ldc,
                       &uplo, p) ||
        info(x->routine, 1, uplo, p))
        return 0;
    p->alpha = p->alpha_im = p->beta = p->beta_im = 0.0;
    if (p->m != 0) /* not read when N is 0 (a program may pass NULL) */
        tb_cblas_read(alpha_type(x->routine, x->type), x->alpha, &p->alpha, &p->alpha_im),
            tb_cblas_read(beta_type(x->routine, x->type), x->beta, &p->beta, &p->beta_im);
    if (x->routine == TB_ROUTINE_HER2K && x->order == TB_CBLAS_ROW_MAJOR)
        p->alpha_im = -p->alpha_im;
    second_alpha(x->routine, p);
    p->a = p->b2 = x->a, p->c = x->c;
    p->b = p->a2 = two(x->routine) ? x->b : x->a;
    return 1;
}

static int cblas_record_info(const void *raw, int wide)
{
    const cblas_rankk *x = raw;
    tb_kproblem p;
    int uplo;
    if (x->order != TB_CBLAS_ROW_MAJOR && x->order != TB_CBLAS_COL_MAJOR)
        return 0; /* OpenBLAS's number for the order */
    const int ok = cblas_problem(x->routine, x->type, wide, x->order, x->uplo, x->trans, x->n, x->k, x->lda, x->ldb,
                                 x->ldc, &uplo, &p);
    return info(x->routine, ok, uplo, &p);
}

static void cblas_reissue(const tb_blas_fn *f, const void *raw)
{
    cblas_call(f, raw);
}

/* a diagonal piece, column-major, in slots that either width reads right */
static void cblas_piece(const tb_blas_fn *f, const tb_kproblem *p)
{
    const tb_routine r = piece_routine(p);
    double za[2], zb[2];
    const cblas_rankk x = {
        .type = p->type, .routine = r, .order = TB_CBLAS_COL_MAJOR,
        .uplo = piece_uplo(p) == TB_UPPER ? TB_CBLAS_UPPER : TB_CBLAS_LOWER,
        .trans = !p->transa ? TB_CBLAS_NO_TRANS : p->transa == 2 ? TB_CBLAS_CONJ_TRANS : TB_CBLAS_TRANS,
        .n = p->m, .k = tb_depth(p), .alpha = tb_cblas_write(alpha_type(r, p->type), p->alpha, p->alpha_im, za),
        .a = p->a, .lda = p->lda, .b = p->k1 ? p->b : NULL, .ldb = p->ldb,
        .beta = tb_cblas_write(beta_type(r, p->type), p->beta, p->beta_im, zb), .c = p->c, .ldc = p->ldc
    };
    cblas_call(f, &x);
}

static void cblas_describe(const tb_call *g, char *buf, size_t size)
{
    const cblas_rankk *x = g->raw;
    snprintf(buf, size, "%s %c%c N=%lld K=%lld", x->order == TB_CBLAS_ROW_MAJOR ? "row-major" : "col-major",
             x->uplo == TB_CBLAS_UPPER ? 'U' : 'L',
             x->trans == TB_CBLAS_NO_TRANS ? 'N' : x->trans == TB_CBLAS_TRANS ? 'T' : 'C', (long long)g->p.m,
             (long long)tb_depth(&g->p));
}

static const tb_abi_ops cblas_ops = { { tb_entry_whole, tb_entry_own_part, cblas_describe }, cblas_record_problem,
                                      cblas_record_info, cblas_reissue, cblas_piece };

/* ---- Fortran ---- */

typedef struct f77_rankk {
    tb_type type;
    tb_routine routine;
    const char *uplo, *trans;
    const void *n, *k, *alpha, *a, *lda, *b, *ldb, *beta; /* b, ldb: SYR2K's and HER2K's */
    void *c;
    const void *ldc;
    size_t len_uplo, len_trans;
} f77_rankk;

typedef void (*f77_fn)(TB_F77_RANKK_ARGS(void, void));
typedef void (*f77_2k_fn)(TB_F77_RANK2K_ARGS(void, void));

static void f77_call(const tb_blas_fn *f, const f77_rankk *x)
{
    TB_PASS(f, two(x->routine) ? ((f77_2k_fn)f->fn)(x->uplo, x->trans, x->n, x->k, x->alpha, x->a, x->lda, x->b,
                                                    x->ldb, x->beta, x->c, x->ldc, x->len_uplo, x->len_trans)
                               : ((f77_fn)f->fn)(x->uplo, x->trans, x->n, x->k, x->alpha, x->a, x->lda, x->beta,
                                                 x->c, x->ldc, x->len_uplo, x->len_trans));
}

/* as cblas_problem, for the Fortran arguments (ldb: NULL for SYRK and HERK) */
static inline __attribute__((always_inline)) int f77_problem(tb_routine r, tb_type type, int w, const char *uplo,
                                                             const char *trans, const void *n, const void *k,
                                                             const void *lda, const void *ldb, const void *ldc,
                                                             int *u, tb_kproblem *p)
{
    *u = tb_fortran_uplo(*uplo);
    return product(r, type, *u, tb_fortran_trans(*trans, type), tb_f77_int(n, w), tb_f77_int(k, w), tb_f77_int(lda, w),
                   ldb ? tb_f77_int(ldb, w) : 0, tb_f77_int(ldc, w), p);
}

static int f77_record_problem(const void *raw, int wide, tb_kproblem *p)
{
    const f77_rankk *x = raw;
    int uplo;
    if (!f77_problem(x->routine, x->type, wide, x->uplo, x->trans, x->n, x->k, x->lda, x->ldb, x->ldc, &uplo, p) ||
        info(x->routine, 1, uplo, p))
        return 0;
    p->a = p->b2 = x->a, p->c = x->c;
    p->b = p->a2 = two(x->routine) ? x->b : x->a;
    scalars(x->routine, p, x->alpha, x->beta);
    return 1;
}

static int f77_record_info(const void *raw, int wide)
{
    const f77_rankk *x = raw;
    tb_kproblem p;
    int uplo;
    const int ok = f77_problem(x->routine, x->type, wide, x->uplo, x->trans, x->n, x->k, x->lda, x->ldb, x->ldc,
                               &uplo, &p);
    return info(x->routine, ok, uplo, &p);
}

static void f77_reissue(const tb_blas_fn *f, const void *raw)
{
    f77_call(f, raw);
}

/* a diagonal piece, its integers at the width of the BLAS beneath */
static void f77_piece(const tb_blas_fn *f, const tb_kproblem *p)
{
    const tb_routine r = piece_routine(p);
    const char uplo = piece_uplo(p) == TB_UPPER ? 'U' : 'L', trans = !p->transa ? 'N' : p->transa == 2 ? 'C' : 'T';
    const int64_t w[4] = { p->m, tb_depth(p), p->lda, p->ldb }, wc = p->ldc;
    const int n[4] = { (int)w[0], (int)w[1], (int)w[2], (int)w[3] }, nc = (int)wc;
    const int wide = f->wide;
    double sa[2], sb[2]; /* as the routine has them (exact: they came so) */
    const f77_rankk x = { p->type,
                          r,
                          &uplo,
                          &trans,
                          wide ? (const void *)&w[0] : &n[0],
                          wide ? (const void *)&w[1] : &n[1],
                          tb_write_scalar(alpha_type(r, p->type), p->alpha, p->alpha_im, sa),
                          p->a,
                          wide ? (const void *)&w[2] : &n[2],
                          p->k1 ? p->b : NULL,
                          wide ? (const void *)&w[3] : &n[3],
                          tb_write_scalar(beta_type(r, p->type), p->beta, p->beta_im, sb),
                          p->c,
                          wide ? (const void *)&wc : &nc,
                          1,
                          1 };
    f77_call(f, &x);
}

static void f77_describe(const tb_call *g, char *buf, size_t size)
{
    const f77_rankk *x = g->raw;
    snprintf(buf, size, "%c%c N=%lld K=%lld", *x->uplo, *x->trans, (long long)g->p.m, (long long)tb_depth(&g->p));
}

static const tb_abi_ops f77_ops = { { tb_entry_whole, tb_entry_own_part, f77_describe }, f77_record_problem,
                                    f77_record_info, f77_reissue, f77_piece };

/* ---- the entry points ---- */

/* R, t: the routine and type; ARGS: the argument list; LDB: SYR2K's and HER2K's ldb, 0 or NULL for the others;
 * CALL: the arguments in order, in parentheses; ALPHA: the real part of alpha, read once the call is known valid
 * (the tiny calls' test); UA, UB: the CBLAS alpha's and beta's union members; then the record's fields of B. */
#define DEFINE_CBLAS(id, name, R, t, ARGS, LDB, CALL, ALPHA, UA, UB, ...)                                         \
    TB_EXPORT void name(ARGS)                                                                                      \
    {                                                                                                              \
        int uplo_;                                                                                                 \
        TB_ENTRY_BODY(TB_E_##id,                                                                                   \
                      (cblas_problem(R, t, f->wide, order, Uplo, Trans, N, K, lda, LDB, ldc, &uplo_, &p) &&        \
                       tb_tiny_valid(&p) && (p.alpha = (ALPHA), 1)),                                               \
                      void (*)(ARGS), CALL, cblas_rankk, &cblas_ops, .type = t, .routine = R, .order = order,      \
                      .uplo = Uplo, .trans = Trans, .n = N, .k = K, .alpha.UA = alpha, .a = A, .lda = lda,         \
                      .beta.UB = beta, .c = C, .ldc = ldc, __VA_ARGS__);                                           \
    }
#define DEFINE_F77(id, name, R, t, ARGS, LDB, CALL, ALPHA, ...)                                                   \
    TB_EXPORT void name(ARGS)                                                                                      \
    {                                                                                                              \
        int uplo_;                                                                                                 \
        TB_ENTRY_BODY(TB_E_##id,                                                                                   \
                      (f77_problem(R, t, f->wide, uplo, trans, n, k, lda, LDB, ldc, &uplo_, &p) &&                 \
                       tb_tiny_valid(&p) && (p.alpha = (ALPHA), 1)),                                               \
                      void (*)(ARGS), CALL, f77_rankk, &f77_ops, .type = t, .routine = R, .uplo = uplo,            \
                      .trans = trans, .n = n, .k = k, .alpha = alpha, .a = a, .lda = lda, .beta = beta, .c = c,    \
                      .ldc = ldc, .len_uplo = len_uplo, .len_trans = len_trans, __VA_ARGS__);                      \
    }
/* a rank-k (K_) or rank-2k (K2_) update's names of routine R in type T */
#define K_CBLAS(id, name, R, T, ALPHA, UA, UB)                                                                     \
    DEFINE_CBLAS(id, name, TB_ROUTINE_##R, TB_TYPE_##T, TB_CBLAS_##T##_##R##_ARGS, 0,                              \
                 (order, Uplo, Trans, N, K, alpha, A, lda, beta, C, ldc), ALPHA, UA, UB, .b = NULL)
#define K2_CBLAS(id, name, R, T, ALPHA, UA, UB)                                                                    \
    DEFINE_CBLAS(id, name, TB_ROUTINE_##R, TB_TYPE_##T, TB_CBLAS_##T##_##R##_ARGS, ldb,                            \
                 (order, Uplo, Trans, N, K, alpha, A, lda, B, ldb, beta, C, ldc), ALPHA, UA, UB, .b = B, .ldb = ldb)
#define K_F77(id, name, R, T, ALPHA)                                                                               \
    DEFINE_F77(id, name, TB_ROUTINE_##R, TB_TYPE_##T, TB_F77_##T##_##R##_ARGS, NULL,                               \
               (uplo, trans, n, k, alpha, a, lda, beta, c, ldc, len_uplo, len_trans), ALPHA, .b = NULL)
#define K2_F77(id, name, R, T, ALPHA)                                                                              \
    DEFINE_F77(id, name, TB_ROUTINE_##R, TB_TYPE_##T, TB_F77_##T##_##R##_ARGS, ldb,                                \
               (uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc, len_uplo, len_trans), ALPHA, .b = b,        \
               .ldb = ldb)
#define ZRE(type, x) (*(const type *)(x)) /* a complex scalar's real part */
#define TB_DEFINE_CBLAS_S_SYRK(id, name) K_CBLAS(id, name, SYRK, S, alpha, s, s)
#define TB_DEFINE_CBLAS_D_SYRK(id, name) K_CBLAS(id, name, SYRK, D, alpha, d, d)
#define TB_DEFINE_CBLAS_C_SYRK(id, name) K_CBLAS(id, name, SYRK, C, ZRE(float, alpha), z, z)
#define TB_DEFINE_CBLAS_Z_SYRK(id, name) K_CBLAS(id, name, SYRK, Z, ZRE(double, alpha), z, z)
#define TB_DEFINE_CBLAS_C_HERK(id, name) K_CBLAS(id, name, HERK, C, alpha, s, s)
#define TB_DEFINE_CBLAS_Z_HERK(id, name) K_CBLAS(id, name, HERK, Z, alpha, d, d)
#define TB_DEFINE_CBLAS_S_SYR2K(id, name) K2_CBLAS(id, name, SYR2K, S, alpha, s, s)
#define TB_DEFINE_CBLAS_D_SYR2K(id, name) K2_CBLAS(id, name, SYR2K, D, alpha, d, d)
#define TB_DEFINE_CBLAS_C_SYR2K(id, name) K2_CBLAS(id, name, SYR2K, C, ZRE(float, alpha), z, z)
#define TB_DEFINE_CBLAS_Z_SYR2K(id, name) K2_CBLAS(id, name, SYR2K, Z, ZRE(double, alpha), z, z)
#define TB_DEFINE_CBLAS_C_HER2K(id, name) K2_CBLAS(id, name, HER2K, C, ZRE(float, alpha), z, s)
#define TB_DEFINE_CBLAS_Z_HER2K(id, name) K2_CBLAS(id, name, HER2K, Z, ZRE(double, alpha), z, d)
#define TB_DEFINE_F77_S_SYRK(id, name) K_F77(id, name, SYRK, S, *alpha)
#define TB_DEFINE_F77_D_SYRK(id, name) K_F77(id, name, SYRK, D, *alpha)
#define TB_DEFINE_F77_C_SYRK(id, name) K_F77(id, name, SYRK, C, ZRE(float, alpha))
#define TB_DEFINE_F77_Z_SYRK(id, name) K_F77(id, name, SYRK, Z, ZRE(double, alpha))
#define TB_DEFINE_F77_C_HERK(id, name) K_F77(id, name, HERK, C, *alpha)
#define TB_DEFINE_F77_Z_HERK(id, name) K_F77(id, name, HERK, Z, *alpha)
#define TB_DEFINE_F77_S_SYR2K(id, name) K2_F77(id, name, SYR2K, S, *alpha)
#define TB_DEFINE_F77_D_SYR2K(id, name) K2_F77(id, name, SYR2K, D, *alpha)
#define TB_DEFINE_F77_C_SYR2K(id, name) K2_F77(id, name, SYR2K, C, ZRE(float, alpha))
#define TB_DEFINE_F77_Z_SYR2K(id, name) K2_F77(id, name, SYR2K, Z, ZRE(double, alpha))
#define TB_DEFINE_F77_C_HER2K(id, name) K2_F77(id, name, HER2K, C, ZRE(float, alpha))
#define TB_DEFINE_F77_Z_HER2K(id, name) K2_F77(id, name, HER2K, Z, ZRE(double, alpha))
TB_RANKK_ENTRIES(TB_DEFINE_ENTRY)

#define ALIAS(target, name, abi, type, r)                                                                          \
    TB_EXPORT void name(TB_F77_##type##_##r##_ARGS) __attribute__((alias(#target)));
TB_RANKK_ALIASES(ALIAS)
