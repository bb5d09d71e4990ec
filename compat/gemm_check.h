/* Argument checks shared by every SGEMM entry point, in the reference Fortran numbering. */
#ifndef TB_GEMM_CHECK_H
#define TB_GEMM_CHECK_H

#include "gemm.h"

/* Reference SGEMM's check of a column-major problem: 0 when valid, else the number of the first bad
 * parameter of SGEMM(TRANSA, TRANSB, M, N, K, ALPHA, A, LDA, B, LDB, BETA, C, LDC): 3, 4, 5, 8, 10 or 13.
 * The transpose arguments (1, 2) are checked by each entry point, which knows their encoding. */
TB_HIDDEN int tb_gemm_check_dims(const tb_gemm *g);

/* A Fortran transpose character: 0 for N, 1 for T or C (either case), -1 otherwise. */
TB_HIDDEN int tb_fortran_trans(char t);

#endif
