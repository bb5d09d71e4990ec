/*
 * The BLAS entry points tileblas exports, listed once.  From this list come the entry-point numbers and the table
 * that lib/ uses (statistics, the symbol to find in the BLAS beneath), the definitions and declarations in
 * compat/, and the library's export list (Makefile.am).  A row: the number's suffix, the symbol, its ABI (CBLAS:
 * integers by value, a layout argument; F77: everything by reference, hidden lengths of the character arguments),
 * its integer width (BLAS: that of the BLAS beneath, 32 or 64 bits; 64: always 64), element type, routine (base/base.h), and
 * the library opened when nothing loaded has the symbol (none for scipy's names: numpy brings its own).
 */
#ifndef TB_ENTRIES_H
#define TB_ENTRIES_H

/* One type's eight names (T: S, D, C or Z; t: its prefix, s, d, c or z): CBLAS and Fortran, plain, 64_, and the
 * scipy_ names of the scipy-openblas libraries of numpy's and scipy's wheels, with 64-bit integers (scipy_..64_) and
 * with 32-bit ones (scipy_cblas_dgemm, scipy_dgemm_: the BLAS beneath's width, which is 32 bits there) */
#define TB_TYPE_ENTRIES(X, T, t)                                                                                    \
    X(CBLAS_##T##GEMM, cblas_##t##gemm, CBLAS, BLAS, T, GEMM, "libopenblas.so.0")                                   \
    X(T##GEMM, t##gemm_, F77, BLAS, T, GEMM, "libopenblas.so.0")                                                    \
    X(CBLAS_##T##GEMM64, cblas_##t##gemm64_, CBLAS, 64, T, GEMM, "libopenblas64_.so.0")                             \
    X(T##GEMM64, t##gemm_64_, F77, 64, T, GEMM, "libopenblas64_.so.0")                                              \
    X(SCIPY_CBLAS_##T##GEMM64, scipy_cblas_##t##gemm64_, CBLAS, 64, T, GEMM, NULL)                                  \
    X(SCIPY_##T##GEMM64, scipy_##t##gemm_64_, F77, 64, T, GEMM, NULL)                                               \
    X(SCIPY_CBLAS_##T##GEMM, scipy_cblas_##t##gemm, CBLAS, BLAS, T, GEMM, NULL)                                     \
    X(SCIPY_##T##GEMM, scipy_##t##gemm_, F77, BLAS, T, GEMM, NULL)

#define TB_ENTRY_LIST(X)                                                                                            \
    TB_TYPE_ENTRIES(X, S, s) TB_TYPE_ENTRIES(X, D, d) TB_TYPE_ENTRIES(X, C, c) TB_TYPE_ENTRIES(X, Z, z)

/* Further names of an entry point (for Fortran compilers that add no underscore): the symbol they stand for, the
 * name, and the ABI, type and operation of that entry point. */
#define TB_ENTRY_ALIASES(X)                                                                                         \
    X(sgemm_, sgemm, F77, S, GEMM) X(dgemm_, dgemm, F77, D, GEMM) X(cgemm_, cgemm, F77, C, GEMM)                   \
        X(zgemm_, zgemm, F77, Z, GEMM)

#ifndef TB_ENTRIES_NAMES_ONLY /* the export list reads the names alone */

#include "base.h" /* tb_type, tb_routine */

typedef enum tb_abi { TB_ABI_CBLAS, TB_ABI_F77 } tb_abi;
typedef enum tb_width { TB_WIDTH_BLAS, TB_WIDTH_64 } tb_width;

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
    tb_routine routine;
    const char *fallback;
} tb_entry;

TB_HIDDEN extern const tb_entry tb_entries[TB_ENTRY_COUNT];

#endif
#endif
