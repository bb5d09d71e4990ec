/*
 * The BLAS symbols the library exports, as their ABI is (plain ints for the CBLAS enums).  The error handlers
 * are called through the dynamic linker, so a program's own xerbla_ / cblas_xerbla wins over ours.
 */
#ifndef TB_BLAS_ABI_H
#define TB_BLAS_ABI_H

#include <stddef.h>
#include <stdint.h>
#include "gemm.h"

TB_EXPORT void cblas_sgemm(int order, int TransA, int TransB, int M, int N, int K, float alpha, const float *A,
                           int lda, const float *B, int ldb, float beta, float *C, int ldc);
TB_EXPORT void sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
                      const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
                      const float *beta, float *c, const int *ldc);
/* ILP64: OpenBLAS's 64-bit-integer names, and those of the scipy-openblas64 library in numpy and scipy wheels */
TB_EXPORT void cblas_sgemm64_(int order, int TransA, int TransB, int64_t M, int64_t N, int64_t K, float alpha,
                              const float *A, int64_t lda, const float *B, int64_t ldb, float beta, float *C,
                              int64_t ldc);
TB_EXPORT void scipy_cblas_sgemm64_(int order, int TransA, int TransB, int64_t M, int64_t N, int64_t K, float alpha,
                                    const float *A, int64_t lda, const float *B, int64_t ldb, float beta, float *C,
                                    int64_t ldc);
TB_EXPORT void sgemm_64_(const char *transa, const char *transb, const int64_t *m, const int64_t *n,
                         const int64_t *k, const float *alpha, const float *a, const int64_t *lda, const float *b,
                         const int64_t *ldb, const float *beta, float *c, const int64_t *ldc);
TB_EXPORT void scipy_sgemm_64_(const char *transa, const char *transb, const int64_t *m, const int64_t *n,
                               const int64_t *k, const float *alpha, const float *a, const int64_t *lda,
                               const float *b, const int64_t *ldb, const float *beta, float *c, const int64_t *ldc);
TB_EXPORT void sgemm(const char *transa, const char *transb, const int *m, const int *n, const int *k,
                     const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
                     const float *beta, float *c, const int *ldc);

/* len: Fortran's hidden length of the routine name */
TB_EXPORT void xerbla_(const char *srname, const int *info, size_t len);
TB_EXPORT void cblas_xerbla(int p, const char *rout, const char *form, ...);

#endif
