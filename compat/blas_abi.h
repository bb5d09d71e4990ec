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
#include "core.h"

_Static_assert(sizeof(long) == 8, "an integer argument slot of 64 bits");

/* an integer as the caller passed it, in its 64-bit slot */
typedef long tb_slot;

/* The argument lists, by ABI and type.  Integers in 64-bit slots (CBLAS) or by reference (F77, void: the plain
 * names' width is decided at run time); every name of an ABI and type takes the same list.  CBLAS passes real
 * scalars by value (S: T) and complex ones by pointer (S: const void *, T: void). */
#define TB_CBLAS_GEMM_ARGS(T, S)                                                                                    \
    int order, int TransA, int TransB, tb_slot M, tb_slot N, tb_slot K, S alpha, const T *A, tb_slot lda,           \
        const T *B, tb_slot ldb, S beta, T *C, tb_slot ldc
#define TB_CBLAS_S_GEMM_ARGS TB_CBLAS_GEMM_ARGS(float, float)
#define TB_CBLAS_D_GEMM_ARGS TB_CBLAS_GEMM_ARGS(double, double)
#define TB_CBLAS_C_GEMM_ARGS TB_CBLAS_GEMM_ARGS(void, const void *)
#define TB_CBLAS_Z_GEMM_ARGS TB_CBLAS_GEMM_ARGS(void, const void *)
#define TB_F77_GEMM_ARGS(T)                                                                                         \
    const char *transa, const char *transb, const void *m, const void *n, const void *k, const T *alpha,            \
        const T *a, const void *lda, const T *b, const void *ldb, const T *beta, T *c, const void *ldc,             \
        size_t len_a, size_t len_b

#define TB_F77_S_GEMM_ARGS TB_F77_GEMM_ARGS(float)
#define TB_F77_D_GEMM_ARGS TB_F77_GEMM_ARGS(double)
#define TB_F77_C_GEMM_ARGS TB_F77_GEMM_ARGS(void) /* interleaved (real, imaginary) pairs of float */
#define TB_F77_Z_GEMM_ARGS TB_F77_GEMM_ARGS(void) /* of double */

/* SYRK and HERK: C = alpha op(A) op(A)^T + beta C (HERK: ^H, alpha and beta real) on one triangle of C.  CBLAS
 * passes HERK's scalars, and real types' SYRK's, by value (R: float or double), complex SYRK's by pointer. */
#define TB_CBLAS_RANKK_ARGS(T, S)                                                                                   \
    int order, int Uplo, int Trans, tb_slot N, tb_slot K, S alpha, const T *A, tb_slot lda, S beta, T *C, tb_slot ldc
#define TB_CBLAS_S_SYRK_ARGS TB_CBLAS_RANKK_ARGS(float, float)
#define TB_CBLAS_D_SYRK_ARGS TB_CBLAS_RANKK_ARGS(double, double)
#define TB_CBLAS_C_SYRK_ARGS TB_CBLAS_RANKK_ARGS(void, const void *)
#define TB_CBLAS_Z_SYRK_ARGS TB_CBLAS_RANKK_ARGS(void, const void *)
#define TB_CBLAS_C_HERK_ARGS TB_CBLAS_RANKK_ARGS(void, float)
#define TB_CBLAS_Z_HERK_ARGS TB_CBLAS_RANKK_ARGS(void, double)
#define TB_F77_RANKK_ARGS(T, S)                                                                                     \
    const char *uplo, const char *trans, const void *n, const void *k, const S *alpha, const T *a, const void *lda, \
        const S *beta, T *c, const void *ldc, size_t len_uplo, size_t len_trans
#define TB_F77_S_SYRK_ARGS TB_F77_RANKK_ARGS(float, float)
#define TB_F77_D_SYRK_ARGS TB_F77_RANKK_ARGS(double, double)
#define TB_F77_C_SYRK_ARGS TB_F77_RANKK_ARGS(void, void)
#define TB_F77_Z_SYRK_ARGS TB_F77_RANKK_ARGS(void, void)
#define TB_F77_C_HERK_ARGS TB_F77_RANKK_ARGS(void, float)
#define TB_F77_Z_HERK_ARGS TB_F77_RANKK_ARGS(void, double)

/* SYR2K and HER2K: C = alpha op(A) op(B)^T + alpha op(B) op(A)^T + beta C (HER2K: ^H, the second alpha conjugated,
 * beta real) on one triangle of C.  CBLAS passes HER2K's beta, and real types' scalars, by value. */
#define TB_CBLAS_RANK2K_ARGS(T, S, R)                                                                               \
    int order, int Uplo, int Trans, tb_slot N, tb_slot K, S alpha, const T *A, tb_slot lda, const T *B, tb_slot ldb, \
        R beta, T *C, tb_slot ldc
#define TB_CBLAS_S_SYR2K_ARGS TB_CBLAS_RANK2K_ARGS(float, float, float)
#define TB_CBLAS_D_SYR2K_ARGS TB_CBLAS_RANK2K_ARGS(double, double, double)
#define TB_CBLAS_C_SYR2K_ARGS TB_CBLAS_RANK2K_ARGS(void, const void *, const void *)
#define TB_CBLAS_Z_SYR2K_ARGS TB_CBLAS_RANK2K_ARGS(void, const void *, const void *)
#define TB_CBLAS_C_HER2K_ARGS TB_CBLAS_RANK2K_ARGS(void, const void *, float)
#define TB_CBLAS_Z_HER2K_ARGS TB_CBLAS_RANK2K_ARGS(void, const void *, double)
#define TB_F77_RANK2K_ARGS(T, R)                                                                                    \
    const char *uplo, const char *trans, const void *n, const void *k, const T *alpha, const T *a, const void *lda, \
        const T *b, const void *ldb, const R *beta, T *c, const void *ldc, size_t len_uplo, size_t len_trans
#define TB_F77_S_SYR2K_ARGS TB_F77_RANK2K_ARGS(float, float)
#define TB_F77_D_SYR2K_ARGS TB_F77_RANK2K_ARGS(double, double)
#define TB_F77_C_SYR2K_ARGS TB_F77_RANK2K_ARGS(void, void)
#define TB_F77_Z_SYR2K_ARGS TB_F77_RANK2K_ARGS(void, void)
#define TB_F77_C_HER2K_ARGS TB_F77_RANK2K_ARGS(void, float)
#define TB_F77_Z_HER2K_ARGS TB_F77_RANK2K_ARGS(void, double)

/* SYMM and HEMM: C = alpha A B + beta C (SIDE L) or alpha B A + beta C (R), A symmetric (Hermitian) and stored in
 * its UPLO triangle.  CBLAS passes the real types' scalars by value, the complex ones' by pointer. */
#define TB_CBLAS_SYMM_ARGS(T, S)                                                                                    \
    int order, int Side, int Uplo, tb_slot M, tb_slot N, S alpha, const T *A, tb_slot lda, const T *B, tb_slot ldb, \
        S beta, T *C, tb_slot ldc
#define TB_CBLAS_S_SYMM_ARGS TB_CBLAS_SYMM_ARGS(float, float)
#define TB_CBLAS_D_SYMM_ARGS TB_CBLAS_SYMM_ARGS(double, double)
#define TB_CBLAS_C_SYMM_ARGS TB_CBLAS_SYMM_ARGS(void, const void *)
#define TB_CBLAS_Z_SYMM_ARGS TB_CBLAS_SYMM_ARGS(void, const void *)
#define TB_CBLAS_C_HEMM_ARGS TB_CBLAS_SYMM_ARGS(void, const void *)
#define TB_CBLAS_Z_HEMM_ARGS TB_CBLAS_SYMM_ARGS(void, const void *)
#define TB_F77_SYMM_ARGS(T)                                                                                         \
    const char *side, const char *uplo, const void *m, const void *n, const T *alpha, const T *a, const void *lda,  \
        const T *b, const void *ldb, const T *beta, T *c, const void *ldc, size_t len_side, size_t len_uplo
#define TB_F77_S_SYMM_ARGS TB_F77_SYMM_ARGS(float)
#define TB_F77_D_SYMM_ARGS TB_F77_SYMM_ARGS(double)
#define TB_F77_C_SYMM_ARGS TB_F77_SYMM_ARGS(void)
#define TB_F77_Z_SYMM_ARGS TB_F77_SYMM_ARGS(void)
#define TB_F77_C_HEMM_ARGS TB_F77_SYMM_ARGS(void)
#define TB_F77_Z_HEMM_ARGS TB_F77_SYMM_ARGS(void)

/* Every entry point and alias of base/entries.h, declared. */
#define TB_DECLARE_GEMM(abi, type, name) TB_EXPORT void name(TB_##abi##_##type##_GEMM_ARGS);
#define TB_DECLARE_SYRK(abi, type, name) TB_EXPORT void name(TB_##abi##_##type##_SYRK_ARGS);
#define TB_DECLARE_HERK(abi, type, name) TB_EXPORT void name(TB_##abi##_##type##_HERK_ARGS);
#define TB_DECLARE_SYR2K(abi, type, name) TB_EXPORT void name(TB_##abi##_##type##_SYR2K_ARGS);
#define TB_DECLARE_HER2K(abi, type, name) TB_EXPORT void name(TB_##abi##_##type##_HER2K_ARGS);
#define TB_DECLARE_SYMM(abi, type, name) TB_EXPORT void name(TB_##abi##_##type##_SYMM_ARGS);
#define TB_DECLARE_HEMM(abi, type, name) TB_EXPORT void name(TB_##abi##_##type##_HEMM_ARGS);
#define TB_DECLARE_ENTRY(id, name, abi, width, type, op, fallback) TB_DECLARE_##op(abi, type, name)
#define TB_DECLARE_ALIAS(target, name, abi, type, op) TB_DECLARE_##op(abi, type, name)
TB_ENTRY_LIST(TB_DECLARE_ENTRY)
TB_ENTRY_ALIASES(TB_DECLARE_ALIAS)

#endif
