// cx-dmma with its stages filled by the copy engine (TMA), the default (kernels/cx.cu chooses it
// where the device and the operands allow it).
#ifndef TB_KERNELS_CX_TMA_CUH
#define TB_KERNELS_CX_TMA_CUH

#include "cx_cluster.cuh"

namespace {

// op(A)'s and op(B)'s maps for TMA, the stored matrices read as real, and the bytes of a stage (cx_tma_kernel)
struct cx_maps {
    CUtensorMap a, b;
    uint32_t bytes;
};

// Where op(A)'s boxes run across C's rows (op T or C) or op(B)'s across its columns (op N), boxes inside the matrix
// (boxes past it are slow to fill): the last tile read from a whole tile back (its first rows or columns,
// another tile's, not stored), and a box of the matrix's rows or columns where it has fewer than a tile (the rest
// of the stage stale, in sums never stored; cx_kernel_of::tma).  Here: where a tile of `tile` from x0 runs past
// `size` and the matrix holds a whole tile, the tile from a whole tile back, inside it; else from x0
__device__ __forceinline__ int tile_inside(int64_t x0, int64_t size, int tile)
{
    return (int)(x0 + tile > size && size >= tile ? size - tile : x0);
}

// Config C's stages as TMA fills them, for op(A)'s op OA and op(B)'s OB (0 N, 1 T, 2 C).  A box of the stored
// matrix, read as real, lands row after row with no gap, so a tile's shared rows run along whichever side the
// matrix is stored along: op(A)'s along C's rows where its op is N (as cx_kernel's), else along k; op(B)'s along
// C's columns where its op is T or C, else along k.  Each row is read 2 (along C) or 4 complex numbers (along k)
// longer than the tile, which keeps the rows' banks apart as PAD does; those are the next tile's elements, or
// TMA's zeros past the matrix, and are never read.
template <class C, int OA, int OB>
struct cx_tma : C {
    static constexpr bool A_SIDE = OA == 0, B_SIDE = OB != 0; // the shared rows run along C's side, else along k
    static constexpr int AROW = A_SIDE ? 2 * C::BM + 4 : 2 * C::BK + 8;
    static constexpr int BROW = B_SIDE ? 2 * C::BN + 4 : 2 * C::BK + 8;
    static constexpr int A_ROWS = A_SIDE ? C::BK : C::BM, B_ROWS = B_SIDE ? C::BK : C::BN;
    static constexpr int A_TILE = A_ROWS * AROW, TILE = A_TILE + B_ROWS * BROW; // in parts
    static_assert(A_TILE * sizeof(double) % 128 == 0 && TILE * sizeof(double) % 128 == 0, "boxes at 128 bytes");
    // the stages, their barriers, and room to start them at 128 bytes
    static constexpr size_t SMEM = 128 + C::STAGES * (TILE * sizeof(double) + sizeof(uint64_t));
    static __host__ __device__ constexpr int at(bool a, int k, int r)
    {
        return (a ? A_SIDE : B_SIDE) ? k * (a ? AROW : BROW) + 2 * r : r * (a ? AROW : BROW) + 2 * k;
    }
    template <bool CA, bool CB>
    using math = typename C::units::template math<double, cx_tma, CA, CB>;
};

// cx_kernel's product with the stages filled by TMA: all STAGES tiles of k in flight, each stage's two copies
// issued by thread 0 once every thread is done with it, the threads waiting on its barrier for the bytes
template <class C, int OA, int OB>
__global__ void __launch_bounds__(C::THREADS, C::MINB)
    cx_tma_kernel(const __grid_constant__ cx_maps maps, cx_problem<double> p)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    using T = cx_tma<C, OA, OB>;
    constexpr int S = C::STAGES;
    extern __shared__ __align__(16) unsigned char cx_tma_smem[];
    double *const base = reinterpret_cast<double *>(cx_tma_smem + (-smem_addr(cx_tma_smem) & 127)); // at 128 bytes
    uint64_t *const full = reinterpret_cast<uint64_t *>(base + S * T::TILE);
    if (threadIdx.x == 0) {
        for (int s = 0; s < S; s++)
            bar_init(smem_addr(&full[s]), 1);
        bar_init_fence();
    }
    __syncthreads();
    const cx_slice<C, double> z(p);
    unsigned filled = 0; // the stages filled before this tile's, over the block's tiles: fill u is stage u % S,
                         // and the phase u / S of its barrier
    for_tiles<C>(p, [&](int64_t i0, int64_t j0) {
        // the tile read and computed from row r and column col (i0, j0 or a tile back: boxes inside the matrix)
        const int r = !T::A_SIDE ? tile_inside(i0, p.m, C::BM) : (int)i0;
        const int col = !T::B_SIDE ? tile_inside(j0, p.n, C::BN) : (int)j0;
        // tile kt of k into the stage of fill u (thread 0); k and the rows are below 2^30 (tma_ok)
        auto fill = [&](int kt, unsigned u) {
            const uint32_t st = smem_addr(base + u % S * T::TILE), bar = smem_addr(&full[u % S]);
            const int k0 = (int)(z.kbeg + (int64_t)kt * C::BK);
            bar_expect(bar, maps.bytes);
            tma_load(st, &maps.a, T::A_SIDE ? 2 * r : 2 * k0, T::A_SIDE ? k0 : r, bar);
            tma_load(st + T::A_TILE * sizeof(double), &maps.b, T::B_SIDE ? 2 * col : 2 * k0, T::B_SIDE ? k0 : col,
                     bar);
        };
        if (threadIdx.x == 0)
            for (int kt = 0; kt < S && kt < z.nk; kt++)
                fill(kt, filled + kt);
        using M = typename T::template math<OA == 2, OB == 2>;
        M sums;
        // the stage of fill u, once its bytes are in
        auto ready = [&](unsigned u) {
            bar_wait(smem_addr(&full[u % S]), (int)(u / S & 1));
            return (const double *)base + u % S * T::TILE;
        };
        for (int kt = 0; kt < z.nk; kt++) {
            const unsigned u = filled + kt;
            const double *as = ready(u);
            multiply(sums, as, as + T::A_TILE, C::BK);
            __syncthreads(); // every thread is done with this stage, which is filled next
            if (threadIdx.x == 0 && kt + S < z.nk)
                fill(kt + S, u + S);
        }
        filled += z.nk;
        gather_groups<S * T::TILE, true>(sums, base);
        if constexpr (cx_cluster<C>::on)
            if (p.cluster) {
                cluster_sum<C, C::STAGES * T::TILE>(sums, p, base, r, col, (int)(i0 - r), (int)(j0 - col));
                return;
            }
        store<true>(sums, p, z.c, r, col, (int)(i0 - r), (int)(j0 - col));
    });
#endif
}

} // namespace

#endif
