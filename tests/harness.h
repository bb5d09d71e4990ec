/* Shared test machinery: one GEMM case (SGEMM, DGEMM, CGEMM or ZGEMM) run through tileblas and through OpenBLAS,
 * and compared. */
#ifndef TB_TEST_HARNESS_H
#define TB_TEST_HARNESS_H

#include <stddef.h>
#include "tileblas.h"

typedef enum tt_api { TT_CBLAS_COL, TT_CBLAS_ROW, TT_FORTRAN } tt_api;

typedef struct tt_case {
    int dp;             /* DGEMM's entry points (doubles) instead of SGEMM's */
    int cplx;           /* the complex type of that precision instead (CGEMM, ZGEMM); bit for bit only */
    tt_api api;
    int ta, tb;         /* transposes as the caller gives them: 0 N, 1 T, 2 C (conjugate transpose; complex only) */
    int m, n, k;        /* as the caller gives them (row-major: C is m x n in row-major) */
    int pad;            /* extra leading dimension on A, B, C (A gets pad, B 2*pad, C 3*pad) */
    double alpha, beta; /* rounded to float for SGEMM and CGEMM */
    double alpha_im, beta_im; /* their imaginary parts (complex types) */
    int nan_c;          /* C starts as NaN (only meaningful with beta = 0) */
    int nan_ab;         /* A and B are NaN (only meaningful with alpha = 0 or k = 0) */
    int specials;       /* some elements of A and B (and of C when beta != 0) are +Inf, -Inf or NaN: 1, one in
                           every 97 (three of them); 2, one in every 4000037 (a few rows and columns of large
                           operands) */
    int misalign;       /* A, B and C start one element past an aligned address */
    int alias;          /* B is A (same pointer and leading dimension; needs m = n = k and the same layout) */
} tt_case;

/* How the result must match OpenBLAS: bit for bit (the CPU path) or within the bound of doc/TESTING.md (the GPU), with
 * the unit roundoff of the case's type, or TF32's (2^-11) for single precision (TILEBLAS_MATH=tf32). */
typedef enum tt_match { TT_BITWISE, TT_TOLERANCE, TT_TOLERANCE_TF32 } tt_match;

/* The seed of this process's random data: TILEBLAS_TEST_SEED if set, else from the clock; printed once. */
unsigned long long tt_seed(void);

/* Run c through tileblas (with whatever path the thread has forced) and through OpenBLAS on the same inputs.
 * Returns 1 when they match; else 0 with why in msg.  Padding of C is poisoned and must come back untouched. */
int tt_run(const tt_case *c, tt_match match, char *msg, size_t len);

/* Two column-major NN calls (alpha 0.75, beta 0.5) whose A, then C (100 x 3), has a leading dimension of INT_MAX,
 * so that its elements lie past 2^31 elements from its start, in address space reserved but not committed; each
 * through tileblas (the thread's forced path) and OpenBLAS.  1 when they match, 0 with why in msg, -1 (said on
 * stdout) when the system refuses to reserve the address space (26 GB a matrix). */
int tt_run_far(int dp, tt_match match, char *msg, size_t len);

/* A human-readable description of c, for failure messages. */
void tt_describe(const tt_case *c, char *buf, size_t len);

/* The 12 entry-point/transpose combinations: index 0..11 -> api and transposes. */
#define TT_COMBOS 12
void tt_combo(int i, tt_case *c);
/* The 27 of the complex types (N, T and C for each operand): index 0..26 -> api and transposes, cplx set */
#define TT_COMPLEX_COMBOS 27
void tt_combo_complex(int i, tt_case *c);

/* Shapes (m, n, k) worth testing against tiles of 16, 32, 64 and 128 (and depths 8, 16): 0, 1, 2,
 * tile -1/0/+1, non-square, skinny. */
extern const int tt_shapes[][3];
extern const size_t tt_shape_count;
/* (alpha, beta, nan_c, nan_ab) combinations: 0, 1 and other values; NaN that must not propagate. */
typedef struct tt_scalars { double alpha, beta; int nan_c, nan_ab, specials; double alpha_im, beta_im; } tt_scalars;
extern const tt_scalars tt_scalar_sets[];
extern const size_t tt_scalar_set_count;
/* The complex types' further sets: imaginary and complex alpha and beta, an alpha of real part 0 (not a quick
 * return), Inf and NaN parts. */
extern const tt_scalars tt_complex_scalar_sets[];
extern const size_t tt_complex_scalar_set_count;

/* Pointers that BLAS permits but a fast path may trip on, for one combination: A, B and C one element off
 * alignment, and B the same matrix as A, on a square product of side n (beta 0 and 0.5).  Returns the number of
 * failures and puts the first one's description in msg. */
int tt_run_odd_pointers(int dp, int combo, int n, tt_match match, char *msg, size_t len);

/* Run every shape x scalar set x pad {0, 3} for one combination of a type (0 SGEMM, 1 DGEMM, 2 CGEMM, 3 ZGEMM;
 * combo < TT_COMBOS, or TT_COMPLEX_COMBOS for the complex types, which also take their own scalar sets); returns
 * the number of failures and puts the first failure's description in msg. */
int tt_run_grid(int type, int combo, tt_match match, char *msg, size_t len);

#endif
