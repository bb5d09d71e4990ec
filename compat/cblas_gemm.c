/* The CBLAS names of GEMM (cblas_sgemm, cblas_dgemm, cblas_cgemm, cblas_zgemm and their ILP64 names;
 * base/entries.h): a call the reference CBLAS accepts is handed to the core as a column-major problem; any other
 * goes to the BLAS beneath unchanged. */
#include <config.h>
#include <stdio.h>
#include "blas_abi.h"
#include "cpu_blas.h"
#include "checks.h"
#include "entry_body.h"
#include "util.h"

enum { ROW_MAJOR = TB_CBLAS_ROW_MAJOR, COL_MAJOR = TB_CBLAS_COL_MAJOR, NO_TRANS = TB_CBLAS_NO_TRANS,
       TRANS = TB_CBLAS_TRANS, CONJ_TRANS = TB_CBLAS_CONJ_TRANS };
typedef tb_cblas_scalar scalar;

/* the caller's arguments, integers in their slots */
typedef struct cblas_call {
    tb_type type;
    int order, trans_a, trans_b;
    tb_slot m, n, k;
    scalar alpha;
    const void *a;
    tb_slot lda;
    const void *b;
    tb_slot ldb;
    scalar beta;
    void *c;
    tb_slot ldc;
} cblas_call;

/* the BLAS beneath's function, by type: T the elements, S the scalars */
#define FN(T, S, name)                                                                                             \
    void (*name)(int, int, int, tb_slot, tb_slot, tb_slot, S, const T *, tb_slot, const T *, tb_slot, S, T *, tb_slot)
#define FN_TYPE(T, S) FN(T, S, )
typedef FN(float, float, cblas_s_fn);
typedef FN(double, double, cblas_d_fn);
typedef FN(void, const void *, cblas_z_fn); /* the complex types */

static inline __attribute__((always_inline)) void call_beneath(const tb_blas_fn *f, const cblas_call *x)
{
    if (x->type == TB_TYPE_D)
        ((cblas_d_fn)f->fn)(x->order, x->trans_a, x->trans_b, x->m, x->n, x->k, x->alpha.d, x->a, x->lda, x->b,
                            x->ldb, x->beta.d, x->c, x->ldc);
    else if (tb_type_complex(x->type))
        ((cblas_z_fn)f->fn)(x->order, x->trans_a, x->trans_b, x->m, x->n, x->k, x->alpha.z, x->a, x->lda, x->b,
                            x->ldb, x->beta.z, x->c, x->ldc);
    else
        ((cblas_s_fn)f->fn)(x->order, x->trans_a, x->trans_b, x->m, x->n, x->k, x->alpha.s, x->a, x->lda, x->b,
                            x->ldb, x->beta.s, x->c, x->ldc);
}

static void call(const tb_blas_fn *f, const cblas_call *x)
{
    TB_PASS(f, call_beneath(f, x));
}

static int cblas_op(int trans)
{
    return trans == 2 ? CONJ_TRANS : trans ? TRANS : NO_TRANS;
}

/* a column-major piece, in slots that either width reads right (its numbers fit in the caller's integers) */
static void piece(const tb_blas_fn *f, const tb_kproblem *p)
{
    cblas_call x = { .type = p->type, .order = COL_MAJOR, .trans_a = cblas_op(p->transa),
                     .trans_b = cblas_op(p->transb), .m = p->m, .n = p->n, .k = p->k, .a = p->a, .lda = p->lda,
                     .b = p->b, .ldb = p->ldb, .c = p->c, .ldc = p->ldc };
    double za[2], zb[2]; /* a complex type's scalars, written back as that type */
    if (p->type == TB_TYPE_D)
        x.alpha.d = p->alpha, x.beta.d = p->beta;
    else if (tb_type_complex(p->type))
        x.alpha.z = tb_write_scalar(p->type, p->alpha, p->alpha_im, za),
        x.beta.z = tb_write_scalar(p->type, p->beta, p->beta_im, zb);
    else
        x.alpha.s = (float)p->alpha, x.beta.s = (float)p->beta; /* exact: they came as float */
    call(f, &x);
}

static void describe(const tb_call *g, char *buf, size_t size)
{
    const cblas_call *x = g->raw;
    const int row = x->order == ROW_MAJOR;
    snprintf(buf, size, "%s %c%c M=%lld N=%lld K=%lld", row ? "row-major" : "col-major",
             x->trans_a == NO_TRANS ? 'N' : x->trans_a == TRANS ? 'T' : 'C',
             x->trans_b == NO_TRANS ? 'N' : x->trans_b == TRANS ? 'T' : 'C', (long long)(row ? g->p.n : g->p.m),
             (long long)(row ? g->p.m : g->p.n), (long long)g->p.k);
}

/* The caller's integers as the column-major problem they describe (row-major C = op(A) op(B) is column-major
 * C^T = op(B)^T op(A)^T: the operands swap), read at the width of the BLAS beneath; 1 when the order and both
 * transposes are CBLAS's.  Inline on the arguments as they came: the tiny calls' test (lib/decide/tiny.h) copies nothing. */
static inline __attribute__((always_inline)) int problem(tb_type type, int wide, int order, int TransA, int TransB,
                                                         tb_slot M, tb_slot N, tb_slot K, tb_slot lda, tb_slot ldb,
                                                         tb_slot ldc, tb_kproblem *p)
{
#define INT(v) (wide ? (int64_t)(v) : (int64_t)(int)(v))
    const int ta = tb_cblas_trans(TransA, type), tb = tb_cblas_trans(TransB, type), row = order == ROW_MAJOR;
    p->type = type;
    p->part = TB_PART_ALL, p->diag = 0, p->herm = 0, p->k1 = 0; /* all of C, one product */
    p->transa = row ? tb : ta, p->transb = row ? ta : tb;
    p->m = INT(row ? N : M), p->n = INT(row ? M : N), p->k = INT(K);
    p->lda = INT(row ? ldb : lda), p->ldb = INT(row ? lda : ldb), p->ldc = INT(ldc);
#undef INT
    return (row || order == COL_MAJOR) && ta >= 0 && tb >= 0;
}

/* The whole problem of a record (tb_abi_ops) */
static int record_problem(const void *raw, int wide, tb_kproblem *p)
{
    const cblas_call *x = raw;
    const int row = x->order == ROW_MAJOR;
    if (!problem(x->type, wide, x->order, x->trans_a, x->trans_b, x->m, x->n, x->k, x->lda, x->ldb, x->ldc, p) ||
        !tb_gemm_valid(p))
        return 0;
    if (tb_type_complex(x->type)) {
        tb_read_scalars(p, x->alpha.z, x->beta.z);
    } else {
        p->alpha = x->type == TB_TYPE_D ? x->alpha.d : x->alpha.s;
        p->beta = x->type == TB_TYPE_D ? x->beta.d : x->beta.s;
        p->alpha_im = p->beta_im = 0.0;
    }
    p->c = x->c;
    p->a = row ? x->b : x->a, p->b = row ? x->a : x->b;
    return 1;
}

static int record_info(const void *raw, int wide)
{
    const cblas_call *x = raw;
    tb_kproblem p;
    if (x->order != ROW_MAJOR && x->order != COL_MAJOR)
        return 0; /* OpenBLAS's number for the order */
    problem(x->type, wide, x->order, x->trans_a, x->trans_b, x->m, x->n, x->k, x->lda, x->ldb, x->ldc, &p);
    return tb_gemm_info(&p);
}

static void reissue(const tb_blas_fn *f, const void *raw)
{
    call(f, raw);
}

const tb_abi_ops tb_cblas_gemm_ops = { { tb_entry_whole, tb_entry_part, describe }, record_problem, record_info,
                                        reissue, piece };

/* The CBLAS names of GEMM (base/entries.h), defined: T the elements' C type and S the scalars', U the scalar's
 * member, t the type; ALPHA the real part of alpha, read once the call is known valid (for the tiny calls' test) */
#define DEFINE_CBLAS_GEMM(id, name, T, S, U, t, ALPHA)                                                             \
    TB_EXPORT void name(TB_CBLAS_GEMM_ARGS(T, S))                                                                  \
    {                                                                                                              \
        TB_ENTRY_BODY(TB_E_##id,                                                                                   \
                      (problem(t, f->wide, order, TransA, TransB, M, N, K, lda, ldb, ldc, &p) && tb_tiny_valid(&p) && \
                       (p.alpha = (ALPHA), 1)),                                                                    \
                      FN_TYPE(T, S), (order, TransA, TransB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc),        \
                      cblas_call, &tb_cblas_gemm_ops, .type = t, .order = order, .trans_a = TransA, .trans_b = TransB, .m = M, .n = N, \
                      .k = K, .alpha.U = alpha, .a = A, .lda = lda, .b = B, .ldb = ldb, .beta.U = beta, .c = C,    \
                      .ldc = ldc);                                                                                 \
    }
#define TB_DEFINE_CBLAS_S_GEMM(id, name) DEFINE_CBLAS_GEMM(id, name, float, float, s, TB_TYPE_S, alpha)
#define TB_DEFINE_CBLAS_D_GEMM(id, name) DEFINE_CBLAS_GEMM(id, name, double, double, d, TB_TYPE_D, alpha)
#define TB_DEFINE_CBLAS_C_GEMM(id, name)                                                                           \
    DEFINE_CBLAS_GEMM(id, name, void, const void *, z, TB_TYPE_C, *(const float *)alpha)
#define TB_DEFINE_CBLAS_Z_GEMM(id, name)                                                                           \
    DEFINE_CBLAS_GEMM(id, name, void, const void *, z, TB_TYPE_Z, *(const double *)alpha)
#define TB_DEFINE_F77_S_GEMM(id, name) /* compat/fortran_gemm.c */
#define TB_DEFINE_F77_D_GEMM(id, name)
#define TB_DEFINE_F77_C_GEMM(id, name)
#define TB_DEFINE_F77_Z_GEMM(id, name)
TB_GEMM_ENTRIES(TB_DEFINE_ENTRY)
