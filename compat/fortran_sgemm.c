/* Fortran SGEMM (sgemm_, and sgemm for compilers without the trailing underscore), and its ILP64 names (sgemm_64_,
 * scipy_sgemm_64_): a call the reference accepts is handed to the core; any other goes to the BLAS beneath
 * unchanged. */
#include <config.h>
#include <stdio.h>
#include "blas_abi.h"
#include "cpu_blas.h"
#include "gemm_check.h"
#include "tiny.h"
#include "util.h"

/* the caller's arguments: every pointer as it came, and the hidden lengths */
typedef struct f77_call {
    const char *transa, *transb;
    const void *m, *n, *k;
    const float *alpha, *a;
    const void *lda;
    const float *b;
    const void *ldb;
    const float *beta;
    float *c;
    const void *ldc;
    size_t len_a, len_b;
} f77_call;

typedef void (*f77_fn)(TB_F77_ARGS(void));

static inline __attribute__((always_inline)) void call(const tb_blas_fn *f, const f77_call *x)
{
    tb_in_cpu_blas++;
    ((f77_fn)f->fn)(x->transa, x->transb, x->m, x->n, x->k, x->alpha, x->a, x->lda, x->b, x->ldb, x->beta, x->c,
                    x->ldc, x->len_a, x->len_b);
    tb_in_cpu_blas--;
}

static int whole(const tb_gemm *g)
{
    const tb_blas_fn *f = tb_cpu_blas(g->iface);
    if (!f->fn)
        return -1;
    call(f, g->raw);
    return 0;
}

/* a column-major piece, its integers at the width of the BLAS beneath */
static int part(const tb_gemm *g, const tb_kproblem *p)
{
    const tb_blas_fn *f = tb_cpu_blas(g->iface);
    if (!f->fn)
        return -1;
    const char ta = p->transa ? 'T' : 'N', tb = p->transb ? 'T' : 'N';
    int64_t w[6] = { p->m, p->n, p->k, p->lda, p->ldb, p->ldc };
    int n[6];
    for (int i = 0; i < 6; i++)
        n[i] = (int)w[i];
    const void *v[6];
    for (int i = 0; i < 6; i++)
        v[i] = f->wide ? (const void *)&w[i] : (const void *)&n[i];
    const f77_call x = { &ta, &tb, v[0], v[1], v[2], &p->alpha, p->a, v[3], p->b, v[4], &p->beta, p->c, v[5], 1, 1 };
    call(f, &x);
    return 0;
}

static void describe(const tb_gemm *g, char *buf, size_t size)
{
    const f77_call *x = g->raw;
    snprintf(buf, size, "%c%c M=%lld N=%lld K=%lld", *x->transa, *x->transb, (long long)g->p.m, (long long)g->p.n,
             (long long)g->p.k);
}

static const tb_reissue via = { whole, part, describe };

static inline int64_t read_int(const void *p, int wide)
{
    return wide ? *(const int64_t *)p : *(const int *)p;
}

/* The caller's integers as the problem they describe, read at the width of the BLAS beneath; 1 when reference
 * SGEMM would accept the call.  Inline on the arguments as they came: the tiny calls' test (lib/tiny.h) copies
 * nothing.  ALPHA and BETA are the caller's to read after the checks (reference SGEMM reads them after them). */
static inline __attribute__((always_inline)) int problem(int w, const char *transa, const char *transb,
                                                         const void *m, const void *n, const void *k,
                                                         const void *lda, const void *ldb, const void *ldc,
                                                         tb_kproblem *p)
{
    p->transa = tb_fortran_trans(*transa), p->transb = tb_fortran_trans(*transb);
    p->m = read_int(m, w), p->n = read_int(n, w), p->k = read_int(k, w);
    p->lda = read_int(lda, w), p->ldb = read_int(ldb, w), p->ldc = read_int(ldc, w);
    return p->transa >= 0 && p->transb >= 0 && tb_gemm_valid(p);
}

/* Every call that is not a tiny one: the core for a valid call, the BLAS beneath for any other. */
static __attribute__((noinline)) void checked(tb_iface iface, const tb_blas_fn *f, const f77_call *x)
{
    if (tb_in_cpu_blas && f->fn) {
        call(f, x);
        return;
    }
    tb_gemm g = { .iface = iface, .via = &via, .raw = x };
    if (problem(f->wide, x->transa, x->transb, x->m, x->n, x->k, x->lda, x->ldb, x->ldc, &g.p)) {
        g.p.a = x->a, g.p.b = x->b, g.p.c = x->c;
        g.p.alpha = *x->alpha;
        g.p.beta = *x->beta;
        tb_sgemm(&g);
    } else if (f->fn) {
        call(f, x); /* the BLAS beneath reports it, or computes what it accepts */
    } else {
        static _Atomic int warned;
        tb_warn_once(&warned, "an invalid call to SGEMM, and no CPU BLAS to report it: nothing done");
    }
}

/* Every name's body: a tiny call (lib/tiny.h) straight to the BLAS beneath, counted first so that the call to it
 * is the last thing done; any other through checked(). */
#define F77_BODY(iface)                                                                                            \
    const tb_blas_fn *f = tb_cpu_blas(iface);                                                                      \
    tb_kproblem p;                                                                                                 \
    double flops;                                                                                                  \
    if (f->fn && !tb_in_cpu_blas && problem(f->wide, transa, transb, m, n, k, lda, ldb, ldc, &p) &&              \
        (p.alpha = *alpha, (flops = tb_tiny_flops(&p)) > 0.0)) {                                                   \
        tb_tiny_done(iface, flops);                                                                                \
        tb_in_cpu_blas++;                                                                                          \
        ((f77_fn)f->fn)(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, len_a, len_b);              \
        tb_in_cpu_blas--;                                                                                          \
        return;                                                                                                    \
    }                                                                                                              \
    const f77_call x = { transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, len_a, len_b };             \
    checked(iface, f, &x)

TB_EXPORT void sgemm_(TB_F77_ARGS(void))
{
    F77_BODY(TB_IFACE_FORTRAN);
}

TB_EXPORT void sgemm(TB_F77_ARGS(void))
{
    F77_BODY(TB_IFACE_FORTRAN);
}

TB_EXPORT void sgemm_64_(TB_F77_ARGS(int64_t))
{
    F77_BODY(TB_IFACE_FORTRAN64);
}

TB_EXPORT void scipy_sgemm_64_(TB_F77_ARGS(int64_t))
{
    F77_BODY(TB_IFACE_SCIPY_FORTRAN64);
}
