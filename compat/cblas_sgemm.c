/* cblas_sgemm, and its ILP64 names (cblas_sgemm64_, scipy_cblas_sgemm64_): checked as the reference CBLAS checks
 * it, then handed to the core as a column-major problem. */
#include <config.h>
#include "blas_abi.h"
#include "gemm_check.h"

enum { ROW_MAJOR = 101, COL_MAJOR = 102, NO_TRANS = 111, TRANS = 112, CONJ_TRANS = 113 };

static int cblas_trans(int t)
{
    return t == NO_TRANS ? 0 : (t == TRANS || t == CONJ_TRANS) ? 1 : -1;
}

/* Reference CBLAS reports an error of the underlying Fortran SGEMM as its number + 1 (the order argument
 * comes first), and for a row-major call swaps back the numbers of the operands it had swapped. */
static int cblas_param(int fortran_info, int row_major)
{
    int p = fortran_info + 1;
    if (row_major) {
        switch (p) {
        case 4: return 5;
        case 5: return 4;
        case 9: return 11;
        case 11: return 9;
        }
    }
    return p;
}

/* Every name's body, with the integers widened (inline: the LP64 name's tiny calls pay for no extra call). */
static inline __attribute__((always_inline)) void checked(tb_iface iface, const char *rout, int order, int TransA,
                                                          int TransB, int64_t M, int64_t N, int64_t K, float alpha,
                                                          const float *A, int64_t lda, const float *B, int64_t ldb,
                                                          float beta, float *C, int64_t ldc)
{
    int ta = cblas_trans(TransA), tb = cblas_trans(TransB);

    if (order != ROW_MAJOR && order != COL_MAJOR) {
        cblas_xerbla(1, rout, "Illegal layout setting, %d\n", order);
        return;
    }
    if (ta < 0) {
        cblas_xerbla(2, rout, "Illegal TransA setting, %d\n", TransA);
        return;
    }
    if (tb < 0) {
        cblas_xerbla(3, rout, "Illegal TransB setting, %d\n", TransB);
        return;
    }

    tb_gemm g = { .p.alpha = alpha, .p.beta = beta, .p.c = C, .p.ldc = ldc, .p.k = K, .iface = iface };
    g.orig.cblas.order = order;
    g.orig.cblas.trans_a = TransA;
    g.orig.cblas.trans_b = TransB;
    if (order == COL_MAJOR) {
        g.p.transa = ta, g.p.transb = tb, g.p.m = M, g.p.n = N;
        g.p.a = A, g.p.lda = lda, g.p.b = B, g.p.ldb = ldb;
    } else {
        /* row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: swap the operands */
        g.p.transa = tb, g.p.transb = ta, g.p.m = N, g.p.n = M;
        g.p.a = B, g.p.lda = ldb, g.p.b = A, g.p.ldb = lda;
    }
    int info = tb_gemm_check_dims(&g);
    if (info) {
        cblas_xerbla(cblas_param(info, order == ROW_MAJOR), rout, "");
        return;
    }
    tb_sgemm(&g);
}

TB_EXPORT void cblas_sgemm(int order, int TransA, int TransB, int M, int N, int K, float alpha, const float *A,
                           int lda, const float *B, int ldb, float beta, float *C, int ldc)
{
    checked(TB_IFACE_CBLAS, "cblas_sgemm", order, TransA, TransB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

TB_EXPORT void cblas_sgemm64_(int order, int TransA, int TransB, int64_t M, int64_t N, int64_t K, float alpha,
                              const float *A, int64_t lda, const float *B, int64_t ldb, float beta, float *C,
                              int64_t ldc)
{
    checked(TB_IFACE_CBLAS64, "cblas_sgemm64_", order, TransA, TransB, M, N, K, alpha, A, lda, B, ldb, beta, C,
            ldc);
}

TB_EXPORT void scipy_cblas_sgemm64_(int order, int TransA, int TransB, int64_t M, int64_t N, int64_t K, float alpha,
                                    const float *A, int64_t lda, const float *B, int64_t ldb, float beta, float *C,
                                    int64_t ldc)
{
    checked(TB_IFACE_SCIPY_CBLAS64, "scipy_cblas_sgemm64_", order, TransA, TransB, M, N, K, alpha, A, lda, B, ldb,
            beta, C, ldc);
}
