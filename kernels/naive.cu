// The lessons' naive kernel: one thread per element of C, operands straight from global memory.  It runs every
// type (the reference that the fast kernels of a new type are first checked against).
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

template <class T>
static int launch(const tb_kproblem *kp, void *stream)
{
    const tb_problem<T> p = tb_problem_of<T>(kp);
    // rows along x: neighbouring threads touch neighbouring elements of C (and of A when not transposed)
    dim3 block(32, 8);
    dim3 grid((unsigned)((p.m + block.x - 1) / block.x), tb_grid_y((p.n + block.y - 1) / block.y));
    naive_kernel<T><<<grid, block, 0, (cudaStream_t)stream>>>(p);
    return (int)cudaGetLastError();
}

extern "C" int tb_launch_naive(const tb_kproblem *kp, void *, void *stream)
{
    return kp->type == TB_TYPE_D ? launch<double>(kp, stream) : launch<float>(kp, stream);
}
