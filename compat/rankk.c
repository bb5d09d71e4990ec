/* The rank-k updates SYRK and HERK under their CBLAS and Fortran names (base/entries.h): C = alpha op(A) op(A)^T
 * + beta C (HERK: op(A)^H, alpha and beta real, C's diagonal real) on the triangle UPLO of the N x N matrix C, op(A)
 * N x K.  A call the reference accepts is handed to the core as the product C = alpha op(A) op(B) + beta C on that
 * triangle, op(B) being op(A)'s (conjugate) transpose; any other goes to the BLAS beneath unchanged. */
#include <config.h>
#include <stdio.h>
#include "blas_abi.h"
#include "cpu_blas.h"
#include "checks.h"
#include "entry_body.h"
#include "util.h"

/* The product of a rank-k update, from its arguments on the column-major matrices (trans: 0, 1 or 2 as read; uplo
 * tb_uplo): 1 when UPLO and TRANS are the routine's (SYRK of a complex type takes no conjugate transpose, HERK no
 * plain one) */
static inline __attribute__((always_inline)) int product(tb_routine r, tb_type type, int uplo, int trans, int64_t n,
                                                         int64_t k, int64_t lda, int64_t ldc, tb_kproblem *p)
{
    const int herk = r == TB_ROUTINE_HERK;
    if (trans == (herk ? 1 : 2))
        trans = -1;
    p->type = type;
    p->transa = trans, p->transb = trans ? 0 : herk ? 2 : 1;
    p->m = p->n = n, p->k = k;
    p->lda = p->ldb = lda, p->ldc = ldc;
    p->part = uplo == TB_UPPER ? TB_PART_UPPER : TB_PART_LOWER, p->diag = 0, p->herm = herk;
    return uplo >= 0 && trans >= 0;
}

/* 0 when the reference accepts it, else the number of the argument it reports first (UPLO 1, TRANS 2, N 3, K 4,
 * LDA 7, LDC 10; OpenBLAS reports a CBLAS call's as its column-major problem's) */
static int info(int valid, int uplo, const tb_kproblem *p)
{
    return uplo < 0 ? 1 : !valid ? 2 : p->m < 0 ? 3 : p->k < 0 ? 4 : p->lda < tb_max1(p->transa ? p->k : p->m) ? 7
           : p->ldc < tb_max1(p->m) ? 10 : 0;
}

/* alpha and beta of a valid problem, read where the BLAS reads them (not when N is 0): HERK's real, of the type's
 * real precision */
static void scalars(tb_routine r, tb_kproblem *p, const void *alpha, const void *beta)
{
    if (r != TB_ROUTINE_HERK) {
        tb_read_scalars(p, alpha, beta);
        return;
    }
    const tb_type real = p->type == TB_TYPE_C ? TB_TYPE_S : TB_TYPE_D;
    p->alpha = p->alpha_im = p->beta = p->beta_im = 0.0;
    if (p->m == 0)
        return;
    tb_read_scalar(real, alpha, &p->alpha, &p->alpha_im);
    tb_read_scalar(real, beta, &p->beta, &p->beta_im);
}

/* A piece on the diagonal: its triangle */
static int piece_uplo(const tb_kproblem *p)
{
    return p->part == TB_PART_UPPER ? TB_UPPER : TB_LOWER;
}

/* tb_reissue's part: a square on the diagonal to the routine beneath; a product (lib/cpu's pieces off the diagonal)
 * to the GEMM beneath the same caller, under the same kind of name.  0, or -1 when there is no BLAS beneath. */
static int part(const tb_call *g, const tb_kproblem *p)
{
    if (p->part != TB_PART_ALL)
        return tb_entry_part(g, p);
    const int gemm = tb_entry_sibling(g->entry, TB_ROUTINE_GEMM);
    if (gemm < 0)
        return -1;
    tb_call product = *g;
    product.entry = (tb_entry_id)gemm;
    product.beneath = tb_cpu_blas(product.entry, g->ret);
    product.via = tb_entries[g->entry].abi == TB_ABI_CBLAS ? &tb_cblas_gemm_ops.via : &tb_f77_gemm_ops.via;
    return tb_entry_part(&product, p);
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
    tb_cblas_scalar beta;
    void *c;
    tb_slot ldc;
} cblas_rankk;

/* the BLAS beneath's function, by how the scalars come: float, double, or by pointer */
#define CBLAS_FN(S, name) void (*name)(int, int, int, tb_slot, tb_slot, S, const void *, tb_slot, S, void *, tb_slot)
typedef CBLAS_FN(float, cblas_s_fn);
typedef CBLAS_FN(double, cblas_d_fn);
typedef CBLAS_FN(const void *, cblas_z_fn);

/* how a type's and routine's scalars come: 's' float, 'd' double, 'z' by pointer */
static inline char cblas_scalars(tb_routine r, tb_type t)
{
    return r == TB_ROUTINE_HERK ? (t == TB_TYPE_C ? 's' : 'd') : t == TB_TYPE_S ? 's' : t == TB_TYPE_D ? 'd' : 'z';
}

static void cblas_call(const tb_blas_fn *f, const cblas_rankk *x)
{
    const char s = cblas_scalars(x->routine, x->type);
    TB_PASS(f, s == 's'   ? ((cblas_s_fn)f->fn)(x->order, x->uplo, x->trans, x->n, x->k, x->alpha.s, x->a, x->lda,
                                                x->beta.s, x->c, x->ldc)
               : s == 'd' ? ((cblas_d_fn)f->fn)(x->order, x->uplo, x->trans, x->n, x->k, x->alpha.d, x->a, x->lda,
                                                x->beta.d, x->c, x->ldc)
                          : ((cblas_z_fn)f->fn)(x->order, x->uplo, x->trans, x->n, x->k, x->alpha.z, x->a, x->lda,
                                                x->beta.z, x->c, x->ldc));
}

/* The caller's integers and characters as the column-major problem (row-major C is column-major C^T = C, or
 * conj(C) for HERK, of the other triangle, from op(A) transposed: UPLO and TRANS swap), read at the width of the
 * BLAS beneath; *uplo: the triangle, -1 when invalid.  Inline on the arguments as they came (the tiny calls' test). */
static inline __attribute__((always_inline)) int cblas_problem(tb_routine r, tb_type type, int wide, int order,
                                                               int Uplo, int Trans, tb_slot N, tb_slot K,
                                                               tb_slot lda, tb_slot ldc, int *uplo, tb_kproblem *p)
{
#define INT(v) (wide ? (int64_t)(v) : (int64_t)(int)(v))
    const int row = order == TB_CBLAS_ROW_MAJOR, herk = r == TB_ROUTINE_HERK;
    int u = tb_cblas_uplo(Uplo), t = tb_cblas_trans(Trans, type);
    if (row && u >= 0)
        u = !u;
    if (row && t >= 0 && t != (herk ? 1 : 2))
        t = t ? 0 : herk ? 2 : 1;
    *uplo = u;
    const int ok = product(r, type, u, t, INT(N), INT(K), INT(lda), INT(ldc), p);
#undef INT
    return (row || order == TB_CBLAS_COL_MAJOR) && ok;
}

static int cblas_record_problem(const void *raw, int wide, tb_kproblem *p)
{
    const cblas_rankk *x = raw;
    int uplo;
    if (!cblas_problem(x->routine, x->type, wide, x->order, x->uplo, x->trans, x->n, x->k, x->lda, x->ldc, &uplo,
                       p) ||
        info(1, uplo, p))
        return 0;
    const char s = cblas_scalars(x->routine, x->type);
    p->alpha_im = p->beta_im = 0.0;
    if (s == 'z')
        tb_read_scalars(p, x->alpha.z, x->beta.z);
    else
        p->alpha = s == 'd' ? x->alpha.d : x->alpha.s, p->beta = s == 'd' ? x->beta.d : x->beta.s;
    p->a = p->b = x->a, p->c = x->c;
    return 1;
}

static int cblas_record_info(const void *raw, int wide)
{
    const cblas_rankk *x = raw;
    tb_kproblem p;
    int uplo;
    if (x->order != TB_CBLAS_ROW_MAJOR && x->order != TB_CBLAS_COL_MAJOR)
        return 0; /* OpenBLAS's number for the order */
    const int ok = cblas_problem(x->routine, x->type, wide, x->order, x->uplo, x->trans, x->n, x->k, x->lda, x->ldc,
                                 &uplo, &p);
    return info(ok, uplo, &p);
}

static void cblas_reissue(const tb_blas_fn *f, const void *raw)
{
    cblas_call(f, raw);
}

/* a diagonal piece, column-major, in slots that either width reads right */
static void cblas_piece(const tb_blas_fn *f, const tb_kproblem *p)
{
    const tb_routine r = p->herm ? TB_ROUTINE_HERK : TB_ROUTINE_SYRK;
    cblas_rankk x = { .type = p->type, .routine = r, .order = TB_CBLAS_COL_MAJOR,
                      .uplo = piece_uplo(p) == TB_UPPER ? TB_CBLAS_UPPER : TB_CBLAS_LOWER,
                      .trans = !p->transa ? TB_CBLAS_NO_TRANS : p->transa == 2 ? TB_CBLAS_CONJ_TRANS : TB_CBLAS_TRANS,
                      .n = p->m, .k = p->k, .a = p->a, .lda = p->lda, .c = p->c, .ldc = p->ldc };
    double za[2], zb[2];
    const char s = cblas_scalars(r, p->type);
    if (s == 'z')
        x.alpha.z = tb_write_scalar(p->type, p->alpha, p->alpha_im, za),
        x.beta.z = tb_write_scalar(p->type, p->beta, p->beta_im, zb);
    else if (s == 'd')
        x.alpha.d = p->alpha, x.beta.d = p->beta;
    else
        x.alpha.s = (float)p->alpha, x.beta.s = (float)p->beta; /* exact: they came as float */
    cblas_call(f, &x);
}

static void cblas_describe(const tb_call *g, char *buf, size_t size)
{
    const cblas_rankk *x = g->raw;
    snprintf(buf, size, "%s %c%c N=%lld K=%lld", x->order == TB_CBLAS_ROW_MAJOR ? "row-major" : "col-major",
             x->uplo == TB_CBLAS_UPPER ? 'U' : 'L',
             x->trans == TB_CBLAS_NO_TRANS ? 'N' : x->trans == TB_CBLAS_TRANS ? 'T' : 'C', (long long)g->p.m,
             (long long)g->p.k);
}

static const tb_abi_ops cblas_ops = { { tb_entry_whole, part, cblas_describe }, cblas_record_problem,
                                      cblas_record_info, cblas_reissue, cblas_piece };

/* ---- Fortran ---- */

typedef struct f77_rankk {
    tb_type type;
    tb_routine routine;
    const char *uplo, *trans;
    const void *n, *k, *alpha, *a, *lda, *beta;
    void *c;
    const void *ldc;
    size_t len_uplo, len_trans;
} f77_rankk;

typedef void (*f77_fn)(TB_F77_RANKK_ARGS(void, void));

static void f77_call(const tb_blas_fn *f, const f77_rankk *x)
{
    TB_PASS(f, ((f77_fn)f->fn)(x->uplo, x->trans, x->n, x->k, x->alpha, x->a, x->lda, x->beta, x->c, x->ldc,
                               x->len_uplo, x->len_trans));
}

static inline int64_t read_int(const void *p, int wide)
{
    return wide ? *(const int64_t *)p : *(const int *)p;
}

/* as cblas_problem, for the Fortran arguments */
static inline __attribute__((always_inline)) int f77_problem(tb_routine r, tb_type type, int w, const char *uplo,
                                                             const char *trans, const void *n, const void *k,
                                                             const void *lda, const void *ldc, int *u,
                                                             tb_kproblem *p)
{
    *u = tb_fortran_uplo(*uplo);
    return product(r, type, *u, tb_fortran_trans(*trans, type), read_int(n, w), read_int(k, w), read_int(lda, w),
                   read_int(ldc, w), p);
}

static int f77_record_problem(const void *raw, int wide, tb_kproblem *p)
{
    const f77_rankk *x = raw;
    int uplo;
    if (!f77_problem(x->routine, x->type, wide, x->uplo, x->trans, x->n, x->k, x->lda, x->ldc, &uplo, p) ||
        info(1, uplo, p))
        return 0;
    p->a = p->b = x->a, p->c = x->c;
    scalars(x->routine, p, x->alpha, x->beta);
    return 1;
}

static int f77_record_info(const void *raw, int wide)
{
    const f77_rankk *x = raw;
    tb_kproblem p;
    int uplo;
    const int ok = f77_problem(x->routine, x->type, wide, x->uplo, x->trans, x->n, x->k, x->lda, x->ldc, &uplo, &p);
    return info(ok, uplo, &p);
}

static void f77_reissue(const tb_blas_fn *f, const void *raw)
{
    f77_call(f, raw);
}

/* a diagonal piece, its integers at the width of the BLAS beneath */
static void f77_piece(const tb_blas_fn *f, const tb_kproblem *p)
{
    const char uplo = piece_uplo(p) == TB_UPPER ? 'U' : 'L', trans = !p->transa ? 'N' : p->transa == 2 ? 'C' : 'T';
    const int64_t w[3] = { p->m, p->k, p->lda }, wc = p->ldc;
    const int n[3] = { (int)w[0], (int)w[1], (int)w[2] }, nc = (int)wc;
    const int wide = f->wide;
    double sa[2], sb[2]; /* as the routine has them (exact: they came so): HERK's real, of the type's precision */
    const tb_type st = !p->herm ? p->type : p->type == TB_TYPE_C ? TB_TYPE_S : TB_TYPE_D;
    const f77_rankk x = { p->type,
                          p->herm ? TB_ROUTINE_HERK : TB_ROUTINE_SYRK,
                          &uplo,
                          &trans,
                          wide ? (const void *)&w[0] : &n[0],
                          wide ? (const void *)&w[1] : &n[1],
                          tb_write_scalar(st, p->alpha, p->alpha_im, sa),
                          p->a,
                          wide ? (const void *)&w[2] : &n[2],
                          tb_write_scalar(st, p->beta, p->beta_im, sb),
                          p->c,
                          wide ? (const void *)&wc : &nc,
                          1,
                          1 };
    f77_call(f, &x);
}

static void f77_describe(const tb_call *g, char *buf, size_t size)
{
    const f77_rankk *x = g->raw;
    snprintf(buf, size, "%c%c N=%lld K=%lld", *x->uplo, *x->trans, (long long)g->p.m, (long long)g->p.k);
}

static const tb_abi_ops f77_ops = { { tb_entry_whole, part, f77_describe }, f77_record_problem,
                                    f77_record_info, f77_reissue, f77_piece };

/* ---- the entry points ---- */

/* T: the elements' C type, S: the scalars' (CBLAS: by value or pointer; Fortran: the pointee), U: the union's member
 * for CBLAS; ALPHA: the real part of alpha, read once the call is known valid (the tiny calls' test) */
#define DEFINE_CBLAS(id, name, R, t, T, S, U, ALPHA)                                                              \
    TB_EXPORT void name(TB_CBLAS_RANKK_ARGS(T, S))                                                                 \
    {                                                                                                              \
        int uplo_;                                                                                                 \
        TB_ENTRY_BODY(TB_E_##id,                                                                                   \
                      (cblas_problem(R, t, f->wide, order, Uplo, Trans, N, K, lda, ldc, &uplo_, &p) &&             \
                       tb_tiny_valid(&p) && (p.alpha = (ALPHA), 1)),                                               \
                      CBLAS_FN(S, ), (order, Uplo, Trans, N, K, alpha, A, lda, beta, C, ldc), cblas_rankk,          \
                      &cblas_ops, .type = t, .routine = R, .order = order, .uplo = Uplo, .trans = Trans, .n = N,   \
                      .k = K, .alpha.U = alpha, .a = A, .lda = lda, .beta.U = beta, .c = C, .ldc = ldc);           \
    }
#define DEFINE_F77(id, name, R, t, T, S, ALPHA)                                                                   \
    TB_EXPORT void name(TB_F77_RANKK_ARGS(T, S))                                                                   \
    {                                                                                                              \
        int uplo_;                                                                                                 \
        TB_ENTRY_BODY(TB_E_##id,                                                                                   \
                      (f77_problem(R, t, f->wide, uplo, trans, n, k, lda, ldc, &uplo_, &p) && tb_tiny_valid(&p) && \
                       (p.alpha = (ALPHA), 1)),                                                                    \
                      f77_fn, (uplo, trans, n, k, alpha, a, lda, beta, c, ldc, len_uplo, len_trans), f77_rankk,     \
                      &f77_ops, t, R, uplo, trans, n, k, alpha, a, lda, beta, c, ldc, len_uplo, len_trans);        \
    }
#define TB_DEFINE_CBLAS_S_SYRK(id, name) DEFINE_CBLAS(id, name, TB_ROUTINE_SYRK, TB_TYPE_S, float, float, s, alpha)
#define TB_DEFINE_CBLAS_D_SYRK(id, name) DEFINE_CBLAS(id, name, TB_ROUTINE_SYRK, TB_TYPE_D, double, double, d, alpha)
#define TB_DEFINE_CBLAS_C_SYRK(id, name)                                                                           \
    DEFINE_CBLAS(id, name, TB_ROUTINE_SYRK, TB_TYPE_C, void, const void *, z, *(const float *)alpha)
#define TB_DEFINE_CBLAS_Z_SYRK(id, name)                                                                           \
    DEFINE_CBLAS(id, name, TB_ROUTINE_SYRK, TB_TYPE_Z, void, const void *, z, *(const double *)alpha)
#define TB_DEFINE_CBLAS_C_HERK(id, name) DEFINE_CBLAS(id, name, TB_ROUTINE_HERK, TB_TYPE_C, void, float, s, alpha)
#define TB_DEFINE_CBLAS_Z_HERK(id, name) DEFINE_CBLAS(id, name, TB_ROUTINE_HERK, TB_TYPE_Z, void, double, d, alpha)
#define TB_DEFINE_F77_S_SYRK(id, name) DEFINE_F77(id, name, TB_ROUTINE_SYRK, TB_TYPE_S, float, float, *alpha)
#define TB_DEFINE_F77_D_SYRK(id, name) DEFINE_F77(id, name, TB_ROUTINE_SYRK, TB_TYPE_D, double, double, *alpha)
#define TB_DEFINE_F77_C_SYRK(id, name)                                                                             \
    DEFINE_F77(id, name, TB_ROUTINE_SYRK, TB_TYPE_C, void, void, *(const float *)alpha)
#define TB_DEFINE_F77_Z_SYRK(id, name)                                                                             \
    DEFINE_F77(id, name, TB_ROUTINE_SYRK, TB_TYPE_Z, void, void, *(const double *)alpha)
#define TB_DEFINE_F77_C_HERK(id, name) DEFINE_F77(id, name, TB_ROUTINE_HERK, TB_TYPE_C, void, float, *alpha)
#define TB_DEFINE_F77_Z_HERK(id, name) DEFINE_F77(id, name, TB_ROUTINE_HERK, TB_TYPE_Z, void, double, *alpha)
TB_RANKK_ENTRIES(TB_DEFINE_ENTRY)

#define ALIAS(target, name, abi, type, r)                                                                          \
    TB_EXPORT void name(TB_F77_##type##_##r##_ARGS) __attribute__((alias(#target)));
TB_RANKK_ALIASES(ALIAS)
