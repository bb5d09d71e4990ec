// The lessons' tiled kernel, generalised: TILE x TILE tiles of op(A) and op(B) staged in shared memory, a loop
// over phases along k with two barriers per phase, zeros loaded past the edges.  One thread per element of C.
#include "common.cuh"

// Tiles are stored [l][i] (k index first) so that the inner product reads consecutive i across a warp.
// Loads map the warp's fast index (threadIdx.x) onto whichever index is contiguous in memory, so that
// global reads coalesce for either transpose; the +1 column keeps the transposed shared stores conflict-free.
template <int TILE>
__global__ void __launch_bounds__(TILE *TILE) tiled_kernel(tb_kproblem p)
{
    __shared__ float as[TILE][TILE + 1]; // as[l][i] = op(A)(row0 + i, l0 + l)
    __shared__ float bs[TILE][TILE + 1]; // bs[l][j] = op(B)(l0 + l, col0 + j)
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t row0 = (int64_t)blockIdx.x * TILE;
    const int64_t ncolblocks = (p.n + TILE - 1) / TILE;

    for (int64_t cb = blockIdx.y; cb < ncolblocks; cb += gridDim.y) {
        const int64_t col0 = cb * TILE;
        float acc = 0.0f;
        for (int64_t l0 = 0; l0 < p.k; l0 += TILE) {
            // op(A) tile: contiguous along i when A is not transposed, along l when it is
            int ai = p.transa ? ty : tx, al = p.transa ? tx : ty;
            int64_t gi = row0 + ai, gl = l0 + al;
            as[al][ai] = (gi < p.m && gl < p.k) ? tb_op_at(p.a, p.lda, p.transa, gi, gl) : 0.0f;
            // op(B) tile: contiguous along l when B is not transposed, along j when it is
            int bl = p.transb ? ty : tx, bj = p.transb ? tx : ty;
            int64_t gl2 = l0 + bl, gj = col0 + bj;
            bs[bl][bj] = (gl2 < p.k && gj < p.n) ? tb_op_at(p.b, p.ldb, p.transb, gl2, gj) : 0.0f;
            __syncthreads();
#pragma unroll
            for (int l = 0; l < TILE; l++)
                acc += as[l][tx] * bs[l][ty];
            __syncthreads();
        }
        int64_t i = row0 + tx, j = col0 + ty;
        if (i < p.m && j < p.n)
            tb_store(p, i, j, acc);
    }
}

template <int TILE>
static int launch_tiled(const tb_kproblem *p, void *stream)
{
    dim3 block(TILE, TILE);
    dim3 grid((unsigned)((p->m + TILE - 1) / TILE), tb_grid_y((p->n + TILE - 1) / TILE));
    tiled_kernel<TILE><<<grid, block, 0, (cudaStream_t)stream>>>(*p);
    return (int)cudaGetLastError();
}

extern "C" int tb_launch_tiled16(const tb_kproblem *p, void *stream) { return launch_tiled<16>(p, stream); }
extern "C" int tb_launch_tiled32(const tb_kproblem *p, void *stream) { return launch_tiled<32>(p, stream); }
