/* One SGEMM call as lib/ sees it: a column-major problem, plus what is needed to re-issue it on the CPU. */
#ifndef TB_GEMM_H
#define TB_GEMM_H

#include <stdint.h>
#include "kernels.h"

#define TB_HIDDEN __attribute__((visibility("hidden")))
#define TB_EXPORT __attribute__((visibility("default")))

/* The interface a call came in on: the CPU path re-issues it there, so CPU results are the CPU BLAS's own.  The
 * LP64 names; OpenBLAS's ILP64 ones (64-bit integers, suffix 64_); those of the scipy-openblas64 library that numpy
 * and scipy wheels carry (prefix scipy_, ILP64). */
typedef enum tb_iface {
    TB_IFACE_CBLAS = 0,         /* cblas_sgemm */
    TB_IFACE_FORTRAN,           /* sgemm_ (and sgemm) */
    TB_IFACE_CBLAS64,           /* cblas_sgemm64_ */
    TB_IFACE_FORTRAN64,         /* sgemm_64_ */
    TB_IFACE_SCIPY_CBLAS64,     /* scipy_cblas_sgemm64_ */
    TB_IFACE_SCIPY_FORTRAN64,   /* scipy_sgemm_64_ */
    TB_IFACE_COUNT
} tb_iface;

static inline int tb_iface_is_cblas(tb_iface i)
{
    return i == TB_IFACE_CBLAS || i == TB_IFACE_CBLAS64 || i == TB_IFACE_SCIPY_CBLAS64;
}

/* 64-bit integers (ILP64) */
static inline int tb_iface_is_64(tb_iface i)
{
    return i >= TB_IFACE_CBLAS64;
}

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
