// What kernels/cx.cu's kernels share, whatever fills their stages (cp.async there, TMA in cx_tma.cuh): a tile's
// config, a problem as a kernel takes it, a stage's products, which of C's tiles a block computes, and how their
// sums reach C.
#ifndef TB_KERNELS_CX_CORE_CUH
#define TB_KERNELS_CX_CORE_CUH

#include <stdint.h>
#include <type_traits>
#include "common.cuh"

namespace {

// U: how the threads multiply (simt or dmma of cx_math.cuh), which gives THREADS for a BM x BN tile; STAGES:
// tiles of k in shared memory (being filled, or multiplied); MINB: the blocks an SM should hold at least
// (registers are capped to allow it); PAD: parts after each shared row; SPLIT: k is split only where C has fewer
// tiles than SPLIT blocks an SM, into slices that fill those (0: whatever the tiles, slices that fill as many
// blocks as fit)
template <class R, int BM_, int BN_, class U, int BK_, int STAGES_, int MINB_, int PAD_, int SPLIT_ = 0>
struct cx_config {
    static constexpr int BM = BM_, BN = BN_, BK = BK_, STAGES = STAGES_, MINB = MINB_, PAD = PAD_, SPLIT = SPLIT_;
    static constexpr int THREADS = U::threads(BM, BN);
    static constexpr int AROW = 2 * BM + PAD, BROW = 2 * BN + PAD;               // shared rows, in parts
    static constexpr int TILE = BK * (AROW + BROW); // one stage: op(A)'s tile, then op(B)'s
    static constexpr int ALOADS = BM * BK / THREADS, BLOADS = BN * BK / THREADS; // elements a thread loads a tile
    static_assert(BM * BK % THREADS == 0 && BN * BK % THREADS == 0, "whole loads");
    // the stages' bytes; past 48 KiB they are dynamic shared memory, which the launch asks for (cx_kernel_of)
    static constexpr size_t SMEM = STAGES * BK * (AROW + BROW) * sizeof(R);
    static constexpr bool DYNAMIC = SMEM > 48 * 1024;
    static_assert(SMEM <= 227 * 1024, "shared memory of one block (Hopper)");
    static_assert(PAD * sizeof(R) % 16 == 0, "16-byte rows");
    // where op(A)'s (a) or op(B)'s element (row or column r, complex k) is in a stage's tile, in parts: row k
    static __host__ __device__ constexpr int at(bool a, int k, int r)
    {
        return k * (a ? AROW : BROW) + 2 * r;
    }
    using units = U;
    template <bool CA, bool CB>
    using math = typename U::template math<R, cx_config, CA, CB>;
};

// A problem as the kernel takes it: C (or a slice of the workspace, raw: the sums alone) and the scalars typed;
// cluster: the slices of k (blockIdx.z) are one cluster's blocks, which sum them into C (cx_cluster.cuh)
template <class R>
struct cx_problem {
    const R *a, *b;
    R *c;
    int64_t lda, ldb, ldc, m, n, k, kchunk, c_step;
    int ta, tb;
    R ar, ai, br, bi;
    bool raw, cluster;
};

// This block's slice of k (blockIdx.z): from kbeg to kend, nk tiles of BK; and where its sums go
template <class C, class R>
struct cx_slice {
    int64_t kbeg, kend;
    int nk;
    R *c;
    __device__ __forceinline__ explicit cx_slice(const cx_problem<R> &p)
        : kbeg((int64_t)blockIdx.z * p.kchunk), kend(kbeg + p.kchunk < p.k ? kbeg + p.kchunk : p.k),
          nk((int)((kend - kbeg + C::BK - 1) / C::BK)), c(p.c + blockIdx.z * p.c_step)
    {
    }
};

// f(oa, ob) with the op pair (ta, tb) (0 N, 1 T, 2 C) as compile-time constants (std::integral_constant): the
// kernel of each op pair chosen in one place
template <class F>
static auto by_ops(int ta, int tb, const F &f)
{
    auto with_a = [&](auto oa) {
        return tb == 0   ? f(oa, std::integral_constant<int, 0>())
               : tb == 1 ? f(oa, std::integral_constant<int, 1>())
                         : f(oa, std::integral_constant<int, 2>());
    };
    return ta == 0   ? with_a(std::integral_constant<int, 0>())
           : ta == 1 ? with_a(std::integral_constant<int, 1>())
                     : with_a(std::integral_constant<int, 2>());
}

// A stage's products, a step at a time (M::GROUPS: each group of threads every GROUPS-th step from its own)
template <class M, class R>
__device__ __forceinline__ void multiply(M &sums, const R *as, const R *bs, int bk)
{
    const int first = M::group() * M::STEP;
#pragma unroll
    for (int kk = 0; kk < bk; kk += M::GROUPS * M::STEP) {
        typename M::frag f;
        M::load(f, as, bs, kk + first);
        sums.mma(f);
    }
}

// C's tiles that this block computes, each as f(i0, j0) (its first row and column): blockIdx.x runs over the
// tiles in groups of 8 tile rows (tb_group_tile), so that where C is tall and thin the blocks running at once share
// op(A)'s row panels
template <class C, class R, class F>
__device__ __forceinline__ void for_tiles(const cx_problem<R> &p, const F &f)
{
    const int64_t tiles_m = (p.m + C::BM - 1) / C::BM, tiles_n = (p.n + C::BN - 1) / C::BN;
    for (int64_t b = blockIdx.x; b < tiles_m * tiles_n; b += gridDim.x) {
        int64_t r, col;
        tb_group_tile(b, tiles_m, tiles_n, &r, &col);
        f(r * C::BM, col * C::BN);
    }
}

// A tile's sums into C (at c: C, or the block's slice of the workspace, raw) from row i0 and column j0, but its
// first skip_r rows and skip_c columns (another tile's) where SKIP
template <bool SKIP = false, class M, class R>
__device__ __forceinline__ void store(const M &sums, const cx_problem<R> &p, R *c, int64_t i0, int64_t j0,
                                      int skip_r = 0, int skip_c = 0)
{
    sums.each([&](int r, int col, R re, R im) {
        const int64_t i = i0 + r, j = j0 + col;
        if (i >= p.m || j >= p.n)
            return;
        if constexpr (SKIP)
            if (r < skip_r || col < skip_c)
                return;
        R *z = c + 2 * (i + j * p.ldc);
        if (p.raw)
            z[0] = re, z[1] = im;
        else
            tb_cx_update(z, tb_cx<R>{ re, im }, p.ar, p.ai, p.br, p.bi);
    });
}

} // namespace

#endif
