/* Which calls tileblas may run itself: those the reference BLAS accepts.  Every other call goes, unchanged, to the
 * BLAS beneath, which reports it (or, where it is more lenient, computes it) as it always does. */
#ifndef TB_GEMM_CHECK_H
#define TB_GEMM_CHECK_H

#include "gemm.h"

/* 1 when the column-major problem passes reference SGEMM's checks of M, N, K, LDA, LDB and LDC. */
TB_HIDDEN int tb_gemm_valid(const tb_kproblem *p);

/* A Fortran transpose character: 0 for N, 1 for T or C (either case), -1 for anything else. */
TB_HIDDEN int tb_fortran_trans(char t);

#endif
