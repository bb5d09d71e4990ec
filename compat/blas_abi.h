/*
 * The BLAS symbols the library exports, declared as the library reads them.  The integers of the plain names are
 * as wide as those of the BLAS beneath (32 bits for an LP64 build, 64 for an ILP64 one), so they are taken here as
 * the whole register or stack slot they arrive in (x86-64 passes every integer argument in a 64-bit slot), read at
 * that width, and passed on in the same slot unchanged.  Fortran callers also pass the hidden lengths of TRANSA and
 * TRANSB; they are passed on as they came.
 */
#ifndef TB_BLAS_ABI_H
#define TB_BLAS_ABI_H

/* these declarations, not tileblas.h's (which are a program's view, with int) */
#define TILEBLAS_NO_BLAS_DECLS

#include <stddef.h>
#include <stdint.h>
#include "gemm.h"

_Static_assert(sizeof(long) == 8, "an integer argument slot of 64 bits");

/* an integer as the caller passed it, in its 64-bit slot */
typedef long tb_slot;

TB_EXPORT void cblas_sgemm(int order, int TransA, int TransB, tb_slot M, tb_slot N, tb_slot K, float alpha,
                           const float *A, tb_slot lda, const float *B, tb_slot ldb, float beta, float *C,
                           tb_slot ldc);
TB_EXPORT void cblas_sgemm64_(int order, int TransA, int TransB, int64_t M, int64_t N, int64_t K, float alpha,
                              const float *A, int64_t lda, const float *B, int64_t ldb, float beta, float *C,
                              int64_t ldc);
TB_EXPORT void scipy_cblas_sgemm64_(int order, int TransA, int TransB, int64_t M, int64_t N, int64_t K, float alpha,
                                    const float *A, int64_t lda, const float *B, int64_t ldb, float beta, float *C,
                                    int64_t ldc);

/* Fortran: every integer by reference, at the width of the name (void: the plain names' width is decided later) */
#define TB_F77_ARGS(I)                                                                                              \
    const char *transa, const char *transb, const I *m, const I *n, const I *k, const float *alpha, const float *a, \
        const I *lda, const float *b, const I *ldb, const float *beta, float *c, const I *ldc, size_t len_a,        \
        size_t len_b
TB_EXPORT void sgemm_(TB_F77_ARGS(void));
TB_EXPORT void sgemm(TB_F77_ARGS(void));
TB_EXPORT void sgemm_64_(TB_F77_ARGS(int64_t));
TB_EXPORT void scipy_sgemm_64_(TB_F77_ARGS(int64_t));

#endif
