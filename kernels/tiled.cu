// The lessons' tiled kernel, generalised: TILE x TILE tiles of op(A) and op(B) staged in shared memory, a loop
// over phases along k with two barriers per phase, zeros loaded past the edges.  One thread per element of C.
#include "common.cuh"

// op(A)'s tile is stored [l][i], so that the inner product reads consecutive i across a warp; op(B)'s tile is
// stored [j][l], so that each thread's column is contiguous and read 16 bytes (4 values of l) at a time while
// the warp shares it (broadcast): 1.25 shared loads per FMA instead of 2, which is what bounds this kernel.
// Loads map the warp's fast index (threadIdx.x) onto whichever index is contiguous in global memory, so reads
// coalesce for either transpose.  as's +1 column keeps its transposed stores conflict-free; bs's +4 keeps rows
// 16-byte aligned (a transposed B then stores with 8-way conflicts, once per phase, against 32 FMAs).
template <int TILE>
__global__ void __launch_bounds__(TILE *TILE) tiled_kernel(tb_sproblem p)
{
    __shared__ float as[TILE][TILE + 1];                // as[l][i] = op(A)(row0 + i, l0 + l)
    __shared__ __align__(16) float bs[TILE][TILE + 4];  // bs[j][l] = op(B)(l0 + l, col0 + j)
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t row0 = (int64_t)blockIdx.x * TILE;
    const int64_t ncolblocks = (p.n + TILE - 1) / TILE;
    const int ai = p.transa ? ty : tx, al = p.transa ? tx : ty;
    const int bl = p.transb ? ty : tx, bj = p.transb ? tx : ty;
    const float4 *bcol = reinterpret_cast<const float4 *>(bs[ty]);
    // Each thread loads the same row of op(A) in every phase, stepping along k by a constant: the index
    // arithmetic and the row's bounds check are done once, not per phase.
    const bool arow_ok = row0 + ai < p.m;
    const int64_t astep = p.transa ? TILE : TILE * p.lda;

    for (int64_t cb = blockIdx.y; cb < ncolblocks; cb += gridDim.y) {
        const int64_t col0 = cb * TILE;
        const bool bcol_ok = col0 + bj < p.n;
        const int64_t bstep = p.transb ? TILE * p.ldb : TILE;
        // (never dereferenced when the row or column is out of range)
        const float *pa = p.transa ? p.a + al + (row0 + ai) * p.lda : p.a + (row0 + ai) + al * p.lda;
        const float *pb = p.transb ? p.b + (col0 + bj) + bl * p.ldb : p.b + bl + (col0 + bj) * p.ldb;
        float acc = 0.0f;
        for (int64_t l0 = 0; l0 < p.k; l0 += TILE, pa += astep, pb += bstep) {
            as[al][ai] = (arow_ok && l0 + al < p.k) ? __ldg(pa) : 0.0f;
            bs[bj][bl] = (bcol_ok && l0 + bl < p.k) ? __ldg(pb) : 0.0f;
            __syncthreads();
#pragma unroll
            for (int l4 = 0; l4 < TILE / 4; l4++) {
                float4 b = bcol[l4];
                acc += as[4 * l4][tx] * b.x;
                acc += as[4 * l4 + 1][tx] * b.y;
                acc += as[4 * l4 + 2][tx] * b.z;
                acc += as[4 * l4 + 3][tx] * b.w;
            }
            __syncthreads();
        }
        int64_t i = row0 + tx, j = col0 + ty;
        if (i < p.m && j < p.n)
            tb_store(p, i, j, acc);
    }
}

template <int TILE>
static int launch_tiled(const tb_sproblem *p, void *stream)
{
    dim3 block(TILE, TILE);
    dim3 grid((unsigned)((p->m + TILE - 1) / TILE), tb_grid_y((p->n + TILE - 1) / TILE));
    tiled_kernel<TILE><<<grid, block, 0, (cudaStream_t)stream>>>(*p);
    return (int)cudaGetLastError();
}

extern "C" int tb_launch_tiled16(const tb_kproblem *kp, const tb_recipe *, void *, void *stream)
{
    const tb_sproblem p = tb_sproblem_of(kp);
    return launch_tiled<16>(&p, stream);
}
extern "C" int tb_launch_tiled32(const tb_kproblem *kp, const tb_recipe *, void *, void *stream)
{
    const tb_sproblem p = tb_sproblem_of(kp);
    return launch_tiled<32>(&p, stream);
}
