/* One SGEMM call as lib/ sees it: a column-major problem, plus what is needed to re-issue it on the CPU. */
#ifndef TB_GEMM_H
#define TB_GEMM_H

#include <stdint.h>

#define TB_HIDDEN __attribute__((visibility("hidden")))
#define TB_EXPORT __attribute__((visibility("default")))

/* The interface a call came in on: the CPU path re-issues it there, so CPU results are the CPU BLAS's own. */
typedef enum tb_iface { TB_IFACE_CBLAS = 0, TB_IFACE_FORTRAN = 1, TB_IFACE_COUNT } tb_iface;

typedef struct tb_gemm {
    /* column-major: C = alpha * op(A) * op(B) + beta * C, op(A) m x k, op(B) k x n, C m x n */
    int transa, transb; /* 0: no transpose, 1: transpose (conjugate transpose is the same for real data) */
    int64_t m, n, k;
    float alpha, beta;
    const float *a;
    int64_t lda;
    const float *b;
    int64_t ldb;
    float *c;
    int64_t ldc;

    /* how it came in, to re-issue it unchanged */
    tb_iface iface;
    union {
        struct { int order, trans_a, trans_b; } cblas; /* the caller's enum values, before the row-major swap */
        struct { char transa, transb; } fortran;       /* the caller's characters */
    } orig;
} tb_gemm;

/* The core: BLAS semantics, routing, statistics.  Arguments are valid (compat/ has checked them). */
TB_HIDDEN void tb_sgemm(const tb_gemm *g);

#endif
