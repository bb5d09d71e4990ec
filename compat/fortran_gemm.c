/* The Fortran names of GEMM (sgemm_, dgemm_, cgemm_, zgemm_, the names without the trailing underscore and the
 * ILP64 names; base/entries.h): a call the reference accepts is handed to the core; any other goes to the BLAS beneath
 * unchanged. */
#include <config.h>
#include <stdio.h>
#include "blas_abi.h"
#include "cpu_blas.h"
#include "checks.h"
#include "entry_body.h"
#include "util.h"

/* the caller's arguments: every pointer as it came, and the hidden lengths */
typedef struct f77_call {
    const char *transa, *transb;
    const void *m, *n, *k;
    const void *alpha, *a;
    const void *lda;
    const void *b;
    const void *ldb;
    const void *beta;
    void *c;
    const void *ldc;
    size_t len_a, len_b;
    tb_type type;
} f77_call;

/* every argument a pointer, whatever the type: one function type serves all */
typedef void (*f77_fn)(TB_F77_GEMM_ARGS(void));

static inline __attribute__((always_inline)) void call(const tb_blas_fn *f, const f77_call *x)
{
    TB_PASS(f, ((f77_fn)f->fn)(x->transa, x->transb, x->m, x->n, x->k, x->alpha, x->a, x->lda, x->b, x->ldb,
                               x->beta, x->c, x->ldc, x->len_a, x->len_b));
}

static char fortran_op(int trans)
{
    return trans == 2 ? 'C' : trans ? 'T' : 'N';
}

/* a column-major piece, its integers at the width of the BLAS beneath */
static void piece(const tb_blas_fn *f, const tb_kproblem *p)
{
    const char ta = fortran_op(p->transa), tb = fortran_op(p->transb);
    int64_t w[6] = { p->m, p->n, p->k, p->lda, p->ldb, p->ldc };
    int n[6];
    for (int i = 0; i < 6; i++)
        n[i] = (int)w[i];
    const void *v[6];
    for (int i = 0; i < 6; i++)
        v[i] = f->wide ? (const void *)&w[i] : (const void *)&n[i];
    double sa[2], sb[2]; /* the scalars as the type has them (exact: they came so) */
    const f77_call x = { &ta, &tb, v[0], v[1], v[2], tb_write_scalar(p->type, p->alpha, p->alpha_im, sa), p->a, v[3],
                         p->b, v[4], tb_write_scalar(p->type, p->beta, p->beta_im, sb), p->c, v[5], 1, 1, p->type };
    call(f, &x);
}

static void describe(const tb_call *g, char *buf, size_t size)
{
    const f77_call *x = g->raw;
    snprintf(buf, size, "%c%c M=%lld N=%lld K=%lld", *x->transa, *x->transb, (long long)g->p.m, (long long)g->p.n,
             (long long)g->p.k);
}

static inline int64_t read_int(const void *p, int wide)
{
    return wide ? *(const int64_t *)p : *(const int *)p;
}

/* The caller's integers as the problem they describe, read at the width of the BLAS beneath; 1 when both
 * transposes are valid characters.  Inline on the arguments as they came: the tiny calls' test (lib/decide/tiny.h) copies
 * nothing.  ALPHA and BETA are the caller's to read after the checks (reference SGEMM reads them after them). */
static inline __attribute__((always_inline)) int problem(tb_type type, int w, const char *transa,
                                                         const char *transb, const void *m, const void *n,
                                                         const void *k, const void *lda, const void *ldb,
                                                         const void *ldc, tb_kproblem *p)
{
    p->type = type;
    p->part = TB_PART_ALL, p->diag = 0, p->herm = 0, p->k1 = 0; /* all of C, one product */
    p->transa = tb_fortran_trans(*transa, type), p->transb = tb_fortran_trans(*transb, type);
    p->m = read_int(m, w), p->n = read_int(n, w), p->k = read_int(k, w);
    p->lda = read_int(lda, w), p->ldb = read_int(ldb, w), p->ldc = read_int(ldc, w);
    return p->transa >= 0 && p->transb >= 0;
}

/* The whole problem of a record (tb_abi_ops); ALPHA and BETA read only where the BLAS reads them (tb_read_scalars) */
static int record_problem(const void *raw, int wide, tb_kproblem *p)
{
    const f77_call *x = raw;
    if (!problem(x->type, wide, x->transa, x->transb, x->m, x->n, x->k, x->lda, x->ldb, x->ldc, p) ||
        !tb_gemm_valid(p))
        return 0;
    p->a = x->a, p->b = x->b, p->c = x->c;
    tb_read_scalars(p, x->alpha, x->beta);
    return 1;
}

static int record_info(const void *raw, int wide)
{
    const f77_call *x = raw;
    tb_kproblem p;
    problem(x->type, wide, x->transa, x->transb, x->m, x->n, x->k, x->lda, x->ldb, x->ldc, &p);
    return tb_gemm_info(&p);
}

static void reissue(const tb_blas_fn *f, const void *raw)
{
    call(f, raw);
}

const tb_abi_ops tb_f77_gemm_ops = { { tb_entry_whole, tb_entry_part, describe }, record_problem, record_info,
                                      reissue, piece };

/* The Fortran names of GEMM and their aliases (base/entries.h), defined: T the C type, t the type, R the type of
 * alpha's real part (the first of its two parts for a complex type) */
#define DEFINE_F77_GEMM(id, name, T, t, R)                                                                         \
    TB_EXPORT void name(TB_F77_GEMM_ARGS(T))                                                                       \
    {                                                                                                              \
        TB_ENTRY_BODY(TB_E_##id,                                                                                   \
                      (problem(t, f->wide, transa, transb, m, n, k, lda, ldb, ldc, &p) && tb_tiny_valid(&p) &&     \
                       (p.alpha = *(const R *)alpha, 1)),                                                          \
                      f77_fn, (transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, len_a, len_b),        \
                      f77_call, &tb_f77_gemm_ops, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, len_a, len_b, t);    \
    }
#define TB_DEFINE_F77_S_GEMM(id, name) DEFINE_F77_GEMM(id, name, float, TB_TYPE_S, float)
#define TB_DEFINE_F77_D_GEMM(id, name) DEFINE_F77_GEMM(id, name, double, TB_TYPE_D, double)
#define TB_DEFINE_F77_C_GEMM(id, name) DEFINE_F77_GEMM(id, name, void, TB_TYPE_C, float)
#define TB_DEFINE_F77_Z_GEMM(id, name) DEFINE_F77_GEMM(id, name, void, TB_TYPE_Z, double)
#define TB_DEFINE_CBLAS_S_GEMM(id, name) /* compat/cblas_gemm.c */
#define TB_DEFINE_CBLAS_D_GEMM(id, name)
#define TB_DEFINE_CBLAS_C_GEMM(id, name)
#define TB_DEFINE_CBLAS_Z_GEMM(id, name)
TB_GEMM_ENTRIES(TB_DEFINE_ENTRY)
#define ALIAS(target, name, abi, type, op) ALIAS_##abi##_##type##_##op(target, name)
#define ALIAS_F77_GEMM(target, name, T) TB_EXPORT void name(TB_F77_GEMM_ARGS(T)) __attribute__((alias(#target)));
#define ALIAS_F77_S_GEMM(target, name) ALIAS_F77_GEMM(target, name, float)
#define ALIAS_F77_D_GEMM(target, name) ALIAS_F77_GEMM(target, name, double)
#define ALIAS_F77_C_GEMM(target, name) ALIAS_F77_GEMM(target, name, void)
#define ALIAS_F77_Z_GEMM(target, name) ALIAS_F77_GEMM(target, name, void)
TB_GEMM_ALIASES(ALIAS)
