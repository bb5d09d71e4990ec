/* One SGEMM call as lib/ sees it: a column-major problem, plus what is needed to re-issue it on the CPU. */
#ifndef TB_GEMM_H
#define TB_GEMM_H

#include <stdint.h>
#include "kernels.h"

#define TB_HIDDEN __attribute__((visibility("hidden")))
#define TB_EXPORT __attribute__((visibility("default")))

/* The interface a call came in on: the CPU path re-issues it there, so CPU results are the CPU BLAS's own. */
typedef enum tb_iface { TB_IFACE_CBLAS = 0, TB_IFACE_FORTRAN = 1, TB_IFACE_COUNT } tb_iface;

typedef struct tb_gemm {
    /* column-major: C = alpha * op(A) * op(B) + beta * C, the kernels' problem with host pointers */
    tb_kproblem p;

    /* how it came in, to re-issue it unchanged */
    tb_iface iface;
    union {
        struct { int order, trans_a, trans_b; } cblas; /* the caller's enum values, before the row-major swap */
        struct { char transa, transb; } fortran;       /* the caller's characters */
    } orig;
} tb_gemm;

/* The core: BLAS semantics, routing, statistics.  Arguments are valid (compat/ has checked them). */
TB_HIDDEN void tb_sgemm(const tb_gemm *g);

/* C = beta*C (C = 0 when beta = 0, so that NaN in C does not propagate), as reference SGEMM does it. */
TB_HIDDEN void tb_scale_c(const tb_gemm *g);

#endif
