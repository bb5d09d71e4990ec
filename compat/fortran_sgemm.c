/* Fortran SGEMM (sgemm_, and sgemm for compilers without the trailing underscore), and its ILP64 names (sgemm_64_,
 * scipy_sgemm_64_), checked as reference BLAS. */
#include <config.h>
#include <stddef.h>
#include "blas_abi.h"
#include "gemm_check.h"

/* Every name's body, with the integers widened (inline: the LP64 name's tiny calls pay for no extra call). */
static inline __attribute__((always_inline)) void checked(tb_iface iface, const char *transa, const char *transb,
                                                          int64_t m, int64_t n, int64_t k, const float *alpha,
                                                          const float *a, int64_t lda, const float *b, int64_t ldb,
                                                          const float *beta, float *c, int64_t ldc)
{
    int ta = tb_fortran_trans(*transa), tb = tb_fortran_trans(*transb);
    int info = ta < 0 ? 1 : tb < 0 ? 2 : 0;
    tb_gemm g = { .p.transa = ta, .p.transb = tb, .p.m = m, .p.n = n, .p.k = k, .p.a = a, .p.lda = lda,
                  .p.b = b, .p.ldb = ldb, .p.c = c, .p.ldc = ldc, .iface = iface };
    if (!info)
        info = tb_gemm_check_dims(&g);
    if (info) {
        xerbla_("SGEMM ", &info, 6);
        return;
    }
    /* ALPHA and BETA are read only now: reference SGEMM reads them after the checks too */
    g.p.alpha = *alpha;
    g.p.beta = *beta;
    g.orig.fortran.transa = *transa;
    g.orig.fortran.transb = *transb;
    tb_sgemm(&g);
}

/* Fortran callers also pass the hidden lengths of TRANSA and TRANSB; SGEMM reads one character of each,
 * so they are not declared (and C callers that omit them are fine). */
TB_EXPORT void sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
                      const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
                      const float *beta, float *c, const int *ldc)
{
    checked(TB_IFACE_FORTRAN, transa, transb, *m, *n, *k, alpha, a, *lda, b, *ldb, beta, c, *ldc);
}

TB_EXPORT void sgemm(const char *transa, const char *transb, const int *m, const int *n, const int *k,
                     const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
                     const float *beta, float *c, const int *ldc)
{
    checked(TB_IFACE_FORTRAN, transa, transb, *m, *n, *k, alpha, a, *lda, b, *ldb, beta, c, *ldc);
}

TB_EXPORT void sgemm_64_(const char *transa, const char *transb, const int64_t *m, const int64_t *n,
                         const int64_t *k, const float *alpha, const float *a, const int64_t *lda, const float *b,
                         const int64_t *ldb, const float *beta, float *c, const int64_t *ldc)
{
    checked(TB_IFACE_FORTRAN64, transa, transb, *m, *n, *k, alpha, a, *lda, b, *ldb, beta, c, *ldc);
}

TB_EXPORT void scipy_sgemm_64_(const char *transa, const char *transb, const int64_t *m, const int64_t *n,
                               const int64_t *k, const float *alpha, const float *a, const int64_t *lda,
                               const float *b, const int64_t *ldb, const float *beta, float *c, const int64_t *ldc)
{
    checked(TB_IFACE_SCIPY_FORTRAN64, transa, transb, *m, *n, *k, alpha, a, *lda, b, *ldb, beta, c, *ldc);
}
