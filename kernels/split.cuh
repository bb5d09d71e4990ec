// k split across blocks (split-K), for shapes with too few tiles of C to fill the GPU: block z of a split works
// on k in [z kchunk, (z + 1) kchunk) and writes its partial product to its own slice of a workspace; then one pass
// adds the slices up, in order (the same result every run), and applies alpha and beta to C.  Shared by the
// kernels that split (blocked, dmma), for any element type.
#ifndef TB_KERNELS_SPLIT_CUH
#define TB_KERNELS_SPLIT_CUH

#include "common.cuh"

// A kernel's view of a split: the depth of each slice, and how far the operands and C move from one to the next.
// Without a split: one slice, kchunk = k.
struct tb_split {
    int64_t kchunk, a_step, b_step, c_step;
};

static inline tb_split tb_no_split(int64_t k)
{
    return { k, 0, 0, 0 };
}

// The workspace's leading dimension: m rounded up to 16 bytes, so that its columns stay aligned for 16-byte access
template <class T>
static inline int64_t tb_split_ld(int64_t m)
{
    constexpr int64_t e = 16 / sizeof(T);
    return (m + e - 1) / e * e;
}

// The workspace of a split into `slices` pieces (none without a split)
template <class T>
static inline size_t tb_split_bytes(int64_t m, int64_t n, int64_t slices)
{
    return slices > 1 ? (size_t)(tb_split_ld<T>(m) * n * slices) * sizeof(T) : 0;
}

// C = alpha * (the sum of the slices, in order) + beta * C; ct: C holds p's result transposed, (i, j) at
// c[j + i*ldc] (a product computed as its transpose, C^T = op(B)^T op(A)^T)
template <class T>
__global__ void tb_sum_slices(tb_problem<T> p, const T *__restrict__ ws, int64_t ldw, int64_t c_step, int slices,
                              bool ct)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= p.m)
        return;
    for (int64_t j = blockIdx.y; j < p.n; j += gridDim.y) {
        T sum = 0;
        for (int z = 0; z < slices; z++)
            sum += ws[z * c_step + i + j * ldw];
        tb_update(p, ct ? p.c + j + i * p.ldc : p.c + i + j * p.ldc, sum);
    }
}

// p with k cut into `slices` pieces of whole bk-deep tiles: launch(q, split, n) queues the kernel for n slices of
// q (launch(p, tb_no_split(k), 1) without a split, or without a workspace: only then does it write C itself),
// then the slices are summed into C (transposed where ct, as tb_sum_slices says).
template <class T, class Launch>
static int tb_split_launch(const tb_problem<T> &p, int64_t slices, int bk, T *ws, void *stream, Launch launch,
                           bool ct = false)
{
    const int64_t kchunk = tb_slice_depth(p.k, bk, &slices);
    if (slices <= 1 || !ws)
        return launch(p, tb_no_split(p.k), 1u);
    const int64_t ldw = tb_split_ld<T>(p.m);
    tb_problem<T> q = p;
    q.c = ws, q.ldc = ldw, q.alpha = 1, q.beta = 0;
    const tb_split sp = { kchunk, p.transa ? kchunk : kchunk * p.lda, p.transb ? kchunk * p.ldb : kchunk, ldw * p.n };
    int e = launch(q, sp, (unsigned)slices);
    if (!e) {
        const dim3 grid((unsigned)((p.m + 127) / 128), tb_grid_y(p.n));
        tb_sum_slices<T><<<grid, 128, 0, (cudaStream_t)stream>>>(p, ws, ldw, sp.c_step, (int)slices, ct);
        e = (int)cudaGetLastError();
    }
    return e;
}

#endif
