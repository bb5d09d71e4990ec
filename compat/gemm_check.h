/* Which calls tileblas may run itself: those the reference BLAS accepts.  Every other call goes, unchanged, to the
 * BLAS beneath, which reports it (or, where it is more lenient, computes it) as it always does. */
#ifndef TB_GEMM_CHECK_H
#define TB_GEMM_CHECK_H

#include "gemm.h"

static inline int64_t tb_max1(int64_t x)
{
    return x > 1 ? x : 1;
}

/* 1 when the column-major problem passes reference SGEMM's checks of M, N, K, LDA, LDB and LDC (inline: every
 * call, however tiny, asks). */
static inline int tb_gemm_valid(const tb_kproblem *p)
{
    const int64_t nrowa = p->transa ? p->k : p->m, nrowb = p->transb ? p->n : p->k;
    return p->m >= 0 && p->n >= 0 && p->k >= 0 && p->lda >= tb_max1(nrowa) && p->ldb >= tb_max1(nrowb) &&
           p->ldc >= tb_max1(p->m);
}

/* A Fortran transpose character: 0 for N, 1 for T, for C 2 (the conjugate transpose) in a complex type and 1 in
 * a real one (either case), -1 for anything else (inline, as above). */
static inline int tb_fortran_trans(char t, tb_type type)
{
    const char lower = (char)(t | 0x20); /* 'N' -> 'n', ...; no other character maps onto n, t or c */
    return lower == 'n' ? 0 : lower == 't' ? 1 : lower == 'c' ? (tb_type_complex(type) ? 2 : 1) : -1;
}

#endif
