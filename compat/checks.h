/* Which calls tileblas may run itself: those the reference BLAS accepts (GEMM's checks here, other routines' in
 * their files), and the character arguments read.  Every other call goes, unchanged, to the
 * BLAS beneath, which reports it (or, where it is more lenient, computes it) as it always does. */
#ifndef TB_CHECKS_H
#define TB_CHECKS_H

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

/* CBLAS's values of the layout and character arguments */
enum { TB_CBLAS_ROW_MAJOR = 101, TB_CBLAS_COL_MAJOR = 102, TB_CBLAS_NO_TRANS = 111, TB_CBLAS_TRANS = 112,
       TB_CBLAS_CONJ_TRANS = 113, TB_CBLAS_UPPER = 121, TB_CBLAS_LOWER = 122, TB_CBLAS_LEFT = 141,
       TB_CBLAS_RIGHT = 142 };

/* The same for a CBLAS transpose */
static inline int tb_cblas_trans(int t, tb_type type)
{
    return t == TB_CBLAS_NO_TRANS ? 0 : t == TB_CBLAS_TRANS ? 1
           : t == TB_CBLAS_CONJ_TRANS ? (tb_type_complex(type) ? 2 : 1) : -1;
}

/* A triangle: tb_uplo, -1 when invalid (a Fortran character, either case, or a CBLAS value) */
static inline int tb_fortran_uplo(char u)
{
    const char lower = (char)(u | 0x20);
    return lower == 'u' ? TB_UPPER : lower == 'l' ? TB_LOWER : -1;
}
static inline int tb_cblas_uplo(int u)
{
    return u == TB_CBLAS_UPPER ? TB_UPPER : u == TB_CBLAS_LOWER ? TB_LOWER : -1;
}

/* A side: tb_side, -1 when invalid (likewise) */
static inline int tb_fortran_side(char s)
{
    const char lower = (char)(s | 0x20);
    return lower == 'l' ? TB_LEFT : lower == 'r' ? TB_RIGHT : -1;
}
static inline int tb_cblas_side(int s)
{
    return s == TB_CBLAS_LEFT ? TB_LEFT : s == TB_CBLAS_RIGHT ? TB_RIGHT : -1;
}

#endif
