// The lessons' naive kernel: one thread per element of C, operands straight from global memory.  It runs every
// type (the reference that the fast kernels of a new type are first checked against; for the complex types also
// what their kernels fall back on where their workspace cannot be had).
#include "common.cuh"

template <class T>
__global__ void naive_kernel(tb_problem<T> p)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= p.m)
        return;
    for (int64_t j = (int64_t)blockIdx.y * blockDim.y + threadIdx.y; j < p.n; j += (int64_t)gridDim.y * blockDim.y) {
        T acc = 0;
        for (int64_t l = 0; l < p.k; l++)
            acc = tb_fma(tb_op_at(p.a, p.lda, p.transa, i, l), tb_op_at(p.b, p.ldb, p.transb, l, j), acc);
        tb_store(p, i, j, acc);
    }
}

template <class R>
__global__ void naive_complex(tb_kproblem p)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= p.m)
        return;
    for (int64_t j = (int64_t)blockIdx.y * blockDim.y + threadIdx.y; j < p.n; j += (int64_t)gridDim.y * blockDim.y) {
        const tb_cx<R> acc = tb_cx_dot<R>(p, i, j);
        tb_cx_update((R *)p.c + 2 * (i + j * p.ldc), acc, (R)p.alpha, (R)p.alpha_im, (R)p.beta, (R)p.beta_im);
    }
}

// rows along x: neighbouring threads touch neighbouring elements of C (and of A when not transposed)
static void grid_of(const tb_kproblem *kp, dim3 *grid, dim3 *block)
{
    *block = dim3(32, 8);
    *grid = dim3((unsigned)((kp->m + block->x - 1) / block->x), tb_grid_y((kp->n + block->y - 1) / block->y));
}

template <class T>
static int launch(const tb_kproblem *kp, void *stream)
{
    dim3 grid, block;
    grid_of(kp, &grid, &block);
    naive_kernel<T><<<grid, block, 0, (cudaStream_t)stream>>>(tb_problem_of<T>(kp));
    return (int)cudaGetLastError();
}

template <class R>
static int launch_complex(const tb_kproblem *kp, void *stream)
{
    dim3 grid, block;
    grid_of(kp, &grid, &block);
    naive_complex<R><<<grid, block, 0, (cudaStream_t)stream>>>(*kp);
    return (int)cudaGetLastError();
}

extern "C" int tb_launch_naive(const tb_kproblem *kp, const tb_recipe *, void *, void *stream)
{
    switch (kp->type) {
    case TB_TYPE_D: return launch<double>(kp, stream);
    case TB_TYPE_C: return launch_complex<float>(kp, stream);
    case TB_TYPE_Z: return launch_complex<double>(kp, stream);
    default: return launch<float>(kp, stream);
    }
}
