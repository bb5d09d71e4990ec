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

/* One routine's eight names in one type (T, t: S, D, C or Z and its prefix; R, r: the routine, upper and lower
 * case): CBLAS and Fortran, plain, 64_, and the scipy_ names of the scipy-openblas libraries of numpy's and scipy's
 * wheels, with 64-bit integers (scipy_..64_) and with 32-bit ones (scipy_cblas_dgemm, scipy_dgemm_: the BLAS
 * beneath's width, which is 32 bits there) */
#define TB_NAMES(X, T, t, R, r)                                                                                     \
    X(CBLAS_##T##R, cblas_##t##r, CBLAS, BLAS, T, R, "libopenblas.so.0")                                            \
    X(T##R, t##r##_, F77, BLAS, T, R, "libopenblas.so.0")                                                           \
    X(CBLAS_##T##R##64, cblas_##t##r##64_, CBLAS, 64, T, R, "libopenblas64_.so.0")                                  \
    X(T##R##64, t##r##_64_, F77, 64, T, R, "libopenblas64_.so.0")                                                   \
    X(SCIPY_CBLAS_##T##R##64, scipy_cblas_##t##r##64_, CBLAS, 64, T, R, NULL)                                       \
    X(SCIPY_##T##R##64, scipy_##t##r##_64_, F77, 64, T, R, NULL)                                                    \
    X(SCIPY_CBLAS_##T##R, scipy_cblas_##t##r, CBLAS, BLAS, T, R, NULL)                                              \
    X(SCIPY_##T##R, scipy_##t##r##_, F77, BLAS, T, R, NULL)

/* Each routine's entry points, in the types it has; then all of them */
#define TB_GEMM_ENTRIES(X)                                                                                          \
    TB_NAMES(X, S, s, GEMM, gemm) TB_NAMES(X, D, d, GEMM, gemm) TB_NAMES(X, C, c, GEMM, gemm)                      \
        TB_NAMES(X, Z, z, GEMM, gemm)
#define TB_RANKK_ENTRIES(X)                                                                                         \
    TB_NAMES(X, S, s, SYRK, syrk) TB_NAMES(X, D, d, SYRK, syrk) TB_NAMES(X, C, c, SYRK, syrk)                      \
        TB_NAMES(X, Z, z, SYRK, syrk) TB_NAMES(X, C, c, HERK, herk) TB_NAMES(X, Z, z, HERK, herk)                  \
            TB_NAMES(X, S, s, SYR2K, syr2k) TB_NAMES(X, D, d, SYR2K, syr2k) TB_NAMES(X, C, c, SYR2K, syr2k)        \
                TB_NAMES(X, Z, z, SYR2K, syr2k) TB_NAMES(X, C, c, HER2K, her2k) TB_NAMES(X, Z, z, HER2K, her2k)
#define TB_SYMM_ENTRIES(X)                                                                                          \
    TB_NAMES(X, S, s, SYMM, symm) TB_NAMES(X, D, d, SYMM, symm) TB_NAMES(X, C, c, SYMM, symm)                      \
        TB_NAMES(X, Z, z, SYMM, symm) TB_NAMES(X, C, c, HEMM, hemm) TB_NAMES(X, Z, z, HEMM, hemm)
#define TB_ENTRY_LIST(X) TB_GEMM_ENTRIES(X) TB_RANKK_ENTRIES(X) TB_SYMM_ENTRIES(X)

/* Further names of an entry point (for Fortran compilers that add no underscore): the symbol they stand for, the
 * name, and the ABI, type and routine of that entry point. */
#define TB_ALIAS(X, T, t, R, r) X(t##r##_, t##r, F77, T, R)
#define TB_GEMM_ALIASES(X)                                                                                          \
    TB_ALIAS(X, S, s, GEMM, gemm) TB_ALIAS(X, D, d, GEMM, gemm) TB_ALIAS(X, C, c, GEMM, gemm)                      \
        TB_ALIAS(X, Z, z, GEMM, gemm)
#define TB_RANKK_ALIASES(X)                                                                                         \
    TB_ALIAS(X, S, s, SYRK, syrk) TB_ALIAS(X, D, d, SYRK, syrk) TB_ALIAS(X, C, c, SYRK, syrk)                      \
        TB_ALIAS(X, Z, z, SYRK, syrk) TB_ALIAS(X, C, c, HERK, herk) TB_ALIAS(X, Z, z, HERK, herk)                  \
            TB_ALIAS(X, S, s, SYR2K, syr2k) TB_ALIAS(X, D, d, SYR2K, syr2k) TB_ALIAS(X, C, c, SYR2K, syr2k)        \
                TB_ALIAS(X, Z, z, SYR2K, syr2k) TB_ALIAS(X, C, c, HER2K, her2k) TB_ALIAS(X, Z, z, HER2K, her2k)
#define TB_SYMM_ALIASES(X)                                                                                          \
    TB_ALIAS(X, S, s, SYMM, symm) TB_ALIAS(X, D, d, SYMM, symm) TB_ALIAS(X, C, c, SYMM, symm)                      \
        TB_ALIAS(X, Z, z, SYMM, symm) TB_ALIAS(X, C, c, HEMM, hemm) TB_ALIAS(X, Z, z, HEMM, hemm)
#define TB_ENTRY_ALIASES(X) TB_GEMM_ALIASES(X) TB_RANKK_ALIASES(X) TB_SYMM_ALIASES(X)

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

/* The entry point of another routine under the same kind of name as entry (ABI, width, scipy_ or not) and type,
 * else -1 (the GEMM of a SYRK call, for the pieces of it that are products) */
TB_HIDDEN int tb_entry_sibling(tb_entry_id entry, tb_routine routine);

#endif
#endif
