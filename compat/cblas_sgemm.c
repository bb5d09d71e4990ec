/* cblas_sgemm, and its ILP64 names (cblas_sgemm64_, scipy_cblas_sgemm64_): a call the reference CBLAS accepts is
 * handed to the core as a column-major problem; any other goes to the BLAS beneath unchanged. */
#include <config.h>
#include <stdio.h>
#include "blas_abi.h"
#include "cpu_blas.h"
#include "gemm_check.h"
#include "entry_body.h"
#include "util.h"

enum { ROW_MAJOR = 101, COL_MAJOR = 102, NO_TRANS = 111, TRANS = 112, CONJ_TRANS = 113 };

/* the caller's arguments, integers in their slots */
typedef struct cblas_call {
    int order, trans_a, trans_b;
    tb_slot m, n, k;
    float alpha;
    const float *a;
    tb_slot lda;
    const float *b;
    tb_slot ldb;
    float beta;
    float *c;
    tb_slot ldc;
} cblas_call;

typedef void (*cblas_fn)(int, int, int, tb_slot, tb_slot, tb_slot, float, const float *, tb_slot, const float *,
                         tb_slot, float, float *, tb_slot);

static inline __attribute__((always_inline)) void call(const tb_blas_fn *f, const cblas_call *x)
{
    tb_in_cpu_blas++;
    ((cblas_fn)f->fn)(x->order, x->trans_a, x->trans_b, x->m, x->n, x->k, x->alpha, x->a, x->lda, x->b, x->ldb,
                      x->beta, x->c, x->ldc);
    tb_in_cpu_blas--;
}

static int whole(const tb_gemm *g)
{
    const tb_blas_fn *f = tb_cpu_blas(g->entry);
    if (!f->fn)
        return -1;
    call(f, g->raw);
    return 0;
}

/* a column-major piece, in slots that either width reads right (its numbers fit in the caller's integers) */
static int part(const tb_gemm *g, const tb_kproblem *p)
{
    const tb_blas_fn *f = tb_cpu_blas(g->entry);
    if (!f->fn)
        return -1;
    cblas_call x = { COL_MAJOR, p->transa ? TRANS : NO_TRANS, p->transb ? TRANS : NO_TRANS, p->m, p->n, p->k,
                     (float)p->alpha, p->a, p->lda, p->b, p->ldb, (float)p->beta, p->c, p->ldc };
    call(f, &x);
    return 0;
}

static void describe(const tb_gemm *g, char *buf, size_t size)
{
    const cblas_call *x = g->raw;
    const int row = x->order == ROW_MAJOR;
    snprintf(buf, size, "%s %c%c M=%lld N=%lld K=%lld", row ? "row-major" : "col-major",
             x->trans_a == NO_TRANS ? 'N' : x->trans_a == TRANS ? 'T' : 'C',
             x->trans_b == NO_TRANS ? 'N' : x->trans_b == TRANS ? 'T' : 'C', (long long)(row ? g->p.n : g->p.m),
             (long long)(row ? g->p.m : g->p.n), (long long)g->p.k);
}

static int cblas_trans(int t)
{
    return t == NO_TRANS ? 0 : (t == TRANS || t == CONJ_TRANS) ? 1 : -1;
}

/* The caller's integers as the column-major problem they describe (row-major C = op(A) op(B) is column-major
 * C^T = op(B)^T op(A)^T: the operands swap), read at the width of the BLAS beneath; 1 when reference CBLAS would
 * accept the call.  Inline on the arguments as they came: the tiny calls' test (lib/tiny.h) copies nothing. */
static inline __attribute__((always_inline)) int problem(int wide, int order, int TransA, int TransB, tb_slot M,
                                                         tb_slot N, tb_slot K, tb_slot lda, tb_slot ldb, tb_slot ldc,
                                                         tb_kproblem *p)
{
#define INT(v) (wide ? (int64_t)(v) : (int64_t)(int)(v))
    const int ta = cblas_trans(TransA), tb = cblas_trans(TransB), row = order == ROW_MAJOR;
    p->type = TB_TYPE_S;
    p->transa = row ? tb : ta, p->transb = row ? ta : tb;
    p->m = INT(row ? N : M), p->n = INT(row ? M : N), p->k = INT(K);
    p->lda = INT(row ? ldb : lda), p->ldb = INT(row ? lda : ldb), p->ldc = INT(ldc);
#undef INT
    return (row || order == COL_MAJOR) && ta >= 0 && tb >= 0 && tb_gemm_valid(p);
}

/* The whole problem of a record (tb_abi_ops) */
static int record_problem(const void *raw, int wide, tb_kproblem *p)
{
    const cblas_call *x = raw;
    const int row = x->order == ROW_MAJOR;
    if (!problem(wide, x->order, x->trans_a, x->trans_b, x->m, x->n, x->k, x->lda, x->ldb, x->ldc, p))
        return 0;
    p->alpha = x->alpha, p->beta = x->beta, p->c = x->c;
    p->a = row ? x->b : x->a, p->b = row ? x->a : x->b;
    return 1;
}

static const tb_abi_ops this_abi = { { whole, part, describe }, record_problem };

/* The CBLAS names of single-precision GEMM (lib/entries.h), defined */
#define TB_DEFINE_CBLAS_S_GEMM(id, name)                                                                           \
    TB_EXPORT void name(TB_CBLAS_GEMM_ARGS(float))                                                                 \
    {                                                                                                              \
        TB_ENTRY_BODY(TB_E_##id, (p.alpha = alpha, problem(f->wide, order, TransA, TransB, M, N, K, lda, ldb, ldc, &p)), \
                      cblas_fn, (order, TransA, TransB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc), cblas_call, order, \
                      TransA, TransB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);                             \
    }
#define TB_DEFINE_F77_S_GEMM(id, name) /* compat/fortran_sgemm.c */
TB_ENTRY_LIST(TB_DEFINE_ENTRY)
