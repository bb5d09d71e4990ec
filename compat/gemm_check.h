/* Which calls tileblas may run itself: those the reference BLAS accepts.  Every other call goes, unchanged, to the
 * BLAS beneath, which reports it (or, where it is more lenient, computes it) as it always does. */
#ifndef TB_GEMM_CHECK_H
#define TB_GEMM_CHECK_H

#include "call.h"

static inline int64_t tb_max1(int64_t x)
{
    return x > 1 ? x : 1;
}

/* 0 when the column-major problem passes reference GEMM's checks of TRANSA, TRANSB, M, N, K, LDA, LDB and LDC
 * (a transpose is -1 when invalid), else the number of the argument the reference reports (the first of its checks
 * that fails), as OpenBLAS reports it for CBLAS calls too, on the column-major problem.  Inline: every call, however
 * tiny, asks. */
static inline int tb_gemm_info(const tb_kproblem *p)
{
    const int64_t nrowa = p->transa ? p->k : p->m, nrowb = p->transb ? p->n : p->k;
    return p->transa < 0 ? 1 : p->transb < 0 ? 2 : p->m < 0 ? 3 : p->n < 0 ? 4 : p->k < 0 ? 5
           : p->lda < tb_max1(nrowa) ? 8 : p->ldb < tb_max1(nrowb) ? 10 : p->ldc < tb_max1(p->m) ? 13 : 0;
}

static inline int tb_gemm_valid(const tb_kproblem *p)
{
    return tb_gemm_info(p) == 0;
}

/* A Fortran transpose character: 0 for N, 1 for T, for C 2 (the conjugate transpose) in a complex type and 1 in
 * a real one (either case), -1 for anything else (inline, as above). */
static inline int tb_fortran_trans(char t, tb_type type)
{
    const char lower = (char)(t | 0x20); /* 'N' -> 'n', ...; no other character maps onto n, t or c */
    return lower == 'n' ? 0 : lower == 't' ? 1 : lower == 'c' ? (tb_type_complex(type) ? 2 : 1) : -1;
}

#endif
