/*
 * The BLAS entry points tileblas exports, listed once.  From this list come the entry-point numbers and the table
 * that lib/ uses (statistics, the symbol to find in the BLAS beneath), the definitions and declarations in
 * compat/, and the library's export list (Makefile.am).  A row: the number's suffix, the symbol, its ABI (CBLAS:
 * integers by value, a layout argument; F77: everything by reference, hidden lengths of the character arguments),
 * its integer width (BLAS: that of the BLAS beneath, 32 or 64 bits; 64: always 64), element type, operation, and
 * the library opened when nothing loaded has the symbol (none for scipy's names: numpy brings its own).
 */
#ifndef TB_ENTRIES_H
#define TB_ENTRIES_H

#define TB_ENTRY_LIST(X)                                                                                            \
    X(CBLAS_SGEMM, cblas_sgemm, CBLAS, BLAS, S, GEMM, "libopenblas.so.0")                                           \
    X(SGEMM, sgemm_, F77, BLAS, S, GEMM, "libopenblas.so.0")                                                        \
    X(CBLAS_SGEMM64, cblas_sgemm64_, CBLAS, 64, S, GEMM, "libopenblas64_.so.0")                                     \
    X(SGEMM64, sgemm_64_, F77, 64, S, GEMM, "libopenblas64_.so.0")                                                  \
    X(SCIPY_CBLAS_SGEMM64, scipy_cblas_sgemm64_, CBLAS, 64, S, GEMM, NULL)                                          \
    X(SCIPY_SGEMM64, scipy_sgemm_64_, F77, 64, S, GEMM, NULL)                                                     \
    X(CBLAS_DGEMM, cblas_dgemm, CBLAS, BLAS, D, GEMM, "libopenblas.so.0")                                           \
    X(DGEMM, dgemm_, F77, BLAS, D, GEMM, "libopenblas.so.0")                                                        \
    X(CBLAS_DGEMM64, cblas_dgemm64_, CBLAS, 64, D, GEMM, "libopenblas64_.so.0")                                     \
    X(DGEMM64, dgemm_64_, F77, 64, D, GEMM, "libopenblas64_.so.0")                                                  \
    X(SCIPY_CBLAS_DGEMM64, scipy_cblas_dgemm64_, CBLAS, 64, D, GEMM, NULL)                                          \
    X(SCIPY_DGEMM64, scipy_dgemm_64_, F77, 64, D, GEMM, NULL)

/* Further names of an entry point (for Fortran compilers that add no underscore): the symbol they stand for, the
 * name, and the ABI, type and operation of that entry point. */
#define TB_ENTRY_ALIASES(X) X(sgemm_, sgemm, F77, S, GEMM) X(dgemm_, dgemm, F77, D, GEMM)

#ifndef TB_ENTRIES_NAMES_ONLY /* the export list reads the names alone */

#include "kernels.h" /* tb_type */

typedef enum tb_abi { TB_ABI_CBLAS, TB_ABI_F77 } tb_abi;
typedef enum tb_width { TB_WIDTH_BLAS, TB_WIDTH_64 } tb_width;
typedef enum tb_op { TB_OP_GEMM } tb_op;

typedef enum tb_entry_id {
#define TB_ENTRY_ID(id, name, abi, width, type, op, fallback) TB_E_##id,
    TB_ENTRY_LIST(TB_ENTRY_ID)
#undef TB_ENTRY_ID
    TB_ENTRY_COUNT
} tb_entry_id;

typedef struct tb_entry {
    const char *name;
    tb_abi abi;
    tb_width width;
    tb_type type;
    tb_op op;
    const char *fallback;
} tb_entry;

__attribute__((visibility("hidden"))) extern const tb_entry tb_entries[TB_ENTRY_COUNT];

#endif
#endif
