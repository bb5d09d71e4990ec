// Helpers shared by the kernels: element access of op(A), op(B) and the alpha/beta epilogue.
#ifndef TB_KERNELS_COMMON_CUH
#define TB_KERNELS_COMMON_CUH

#include <cuda_runtime.h>
#include "kernels.h"

// A single-precision problem as the FP32 kernels take it (tb_kproblem with its pointers and scalars typed).
struct tb_sproblem {
    TB_PROBLEM_FIELDS(float, float)
};

static inline tb_sproblem tb_sproblem_of(const tb_kproblem *p)
{
    return { p->transa, p->transb, p->m, p->n, p->k, (float)p->alpha, (float)p->beta, (const float *)p->a, p->lda,
             (const float *)p->b, p->ldb, (float *)p->c, p->ldc };
}

// op(X)(row, col) of a column-major matrix with leading dimension ld; 64-bit offsets throughout.
__device__ __forceinline__ float tb_op_at(const float *x, int64_t ld, int trans, int64_t row, int64_t col)
{
    return trans ? x[col + row * ld] : x[row + col * ld];
}

// C(i,j) = alpha*acc + beta*C(i,j); C is not read when beta == 0, so NaN there does not propagate.
__device__ __forceinline__ void tb_store(const tb_sproblem &p, int64_t i, int64_t j, float acc)
{
    float *c = p.c + i + j * p.ldc;
    float ab = p.alpha * acc;
    *c = p.beta == 0.0f ? ab : fmaf(p.beta, *c, ab);
}

// Column blocks beyond gridDim.y's limit (65535) are covered by striding over blockIdx.y.
static inline unsigned tb_grid_y(int64_t blocks)
{
    return (unsigned)(blocks < 65535 ? blocks : 65535);
}

#endif
