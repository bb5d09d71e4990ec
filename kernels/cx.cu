// Complex products computed as complex numbers, for the small and thin products where the real form of
// kernels/complex.cu spends as much on its conversions, checks and launches as on the product: on the FP32 (CGEMM)
// or FP64 (ZGEMM) units (row cx-simt), or, ZGEMM, on the FP64 tensor cores (cx-dmma). A block computes a BM x BN
// tile of C; op(A) and op(B) are copied into shared memory from where they are stored, whatever their ops, a few
// tiles of k ahead (cp.async; cx-dmma's by TMA on Hopper, cx_tma.cuh), and the conjugate is taken in the products
// (compiled in for each op pair). On the units, each element's terms are the naive kernel's (tb_cx_dot: the same
// fused multiply-adds, in order along k); on the tensor cores, the same terms up to their signs (cx_math.cuh's
// dmma), summed in the MMA's order. C is updated as the naive kernel does (tb_cx_update), so Inf and NaN come out
// as there with no check and no fixup; where the tiles are too few to fill the GPU, k is cut into slices whose sums
// are added in order (split.cuh). The error bound is the complex one of doc/TESTING.md (each part a sum of 2k
// products of parts).
#include <limits.h>
#include <type_traits>
#include "cx_copy.cuh"
#include "cx_core.cuh"
#include "cx_math.cuh"
#include "cx_tma.cuh"
#include "split.cuh"

#ifndef TB_CX_SLICE
#define TB_CX_SLICE 128 // the shallowest slice of k
#endif
// configs that split by SPLIT: also slices at least this deep to fill every block that fits (0: not tried)
#ifndef TB_CX_DEEP_SLICE
#define TB_CX_DEEP_SLICE 256
#endif
// -DTB_CX_STATIC_OPS=1 (to time): a kernel for each op pair, which knows where its operands run along k when
// compiled (else one for each pair of conjugates, choosing that at run time)
#ifndef TB_CX_STATIC_OPS
#define TB_CX_STATIC_OPS 0
#endif
// -DTB_CX_COPY_LATE=1 (to time): the next tile's copies issued after this one's products rather than before
#ifndef TB_CX_COPY_LATE
#define TB_CX_COPY_LATE 0
#endif
// -DTB_CX_DIAG=1 or 2 (to time the loop's parts; wrong results): 1, no copies past the first stages (the products
// of what they hold); 2, no products (the copies alone)
#ifndef TB_CX_DIAG
#define TB_CX_DIAG 0
#endif
// -DTB_CXD_OCCUPANCY=1 (to time): cx-dmma also built at two blocks an SM with PIPE, and each call given the build
// whose rounds (C's tiles times the slices, over the blocks that run at once, each a slice deep:
// cx_kernel_of::rounds) take less time, a round of two blocks an SM taken to last TB_CXD_TWO_WAVE of one of three
#ifndef TB_CXD_OCCUPANCY
#define TB_CXD_OCCUPANCY 0
#endif
#ifndef TB_CXD_TWO_WAVE
#define TB_CXD_TWO_WAVE 0.74
#endif
// cx-dmma's stages filled by the copy engine (TMA: two copies a stage from one thread, k past the matrix zeros), a
// kernel for each op pair (cx_tma), where the device and operands allow it; -DTB_CXD_TMA=0: cp.async everywhere
#ifndef TB_CXD_TMA
#define TB_CXD_TMA 1
#endif
// Where the clusters sum the slices (cx_cluster.cuh), products of more tiles than a wave split too, where
// that fills the last wave (wave_slices); -DTB_CXD_WAVE_SLICES=0: not
#ifndef TB_CXD_WAVE_SLICES
#define TB_CXD_WAVE_SLICES 1
#endif
// The slices summed in clusters counted at the blocks that run at once in clusters of their count (cluster_wave),
// fewer than a plain launch's where the count does not divide a GPC's: the wave slices chosen by those, and the
// clusters kept only where they take no more rounds than the workspace's launch; -DTB_CX_CLUSTER_SLOTS=0: a plain
// launch's
#ifndef TB_CX_CLUSTER_SLOTS
#define TB_CX_CLUSTER_SLOTS 1
#endif
// Where the clusters of a product's slices take more rounds than its plain launch, up to a quarter fewer slices
// summed in clusters (cx_kernel_of::slices); -DTB_CX_CLUSTER_FEWER=0: the workspace sums them
#ifndef TB_CX_CLUSTER_FEWER
#define TB_CX_CLUSTER_FEWER 1
#endif
// -DTB_CX_TAIL=1 (to time): C's tiles past its last whole wave a launch of their own, k split (cx_kernel_of::tail_rows)
#ifndef TB_CX_TAIL
#define TB_CX_TAIL 0
#endif

namespace {

// A column tile's products over its nk tiles of k: copy(kt) queues tile kt's copies into stage kt % STAGES (and
// commits a group, empty past nk); the stages are STAGES - 1 tiles ahead of the products
template <class C, class M, class R, class Copy>
__device__ __forceinline__ void products(M &sums, R (*tiles)[C::TILE], int nk, Copy &copy)
{
#pragma unroll
    for (int kt = 0; kt < C::STAGES - 1; kt++)
        copy(kt);
    for (int kt = 0; kt < nk; kt++) {
        copies_wait<C::STAGES - 2>();
        __syncthreads(); // tile kt is in, and every thread is done with tile kt - 1, whose stage is filled next
        if (!TB_CX_COPY_LATE && TB_CX_DIAG != 1)
            copy(kt + C::STAGES - 1);
        const R *as = tiles[kt % C::STAGES];
        if (TB_CX_DIAG != 2)
            multiply(sums, as, as + C::BK * C::AROW, C::BK);
        if (TB_CX_COPY_LATE && TB_CX_DIAG != 1)
            copy(kt + C::STAGES - 1);
    }
}

// The same with all STAGES tiles in flight and a step's reads from shared memory made while the step before is
// multiplied, across a tile's end too: the next tile's first step is read right after the barrier, and this
// tile's last products follow it (PIPE)
template <class C, class M, class R, class Copy>
__device__ __forceinline__ void products_pipelined(M &sums, R (*tiles)[C::TILE], int nk, Copy &copy)
{
#pragma unroll
    for (int kt = 0; kt < C::STAGES; kt++)
        copy(kt);
    copies_wait<C::STAGES - 1>();
    __syncthreads(); // tile 0 is in
    typename M::frag f[2];
    M::load(f[0], tiles[0], tiles[0] + C::BK * C::AROW, 0);
    for (int kt = 0; kt < nk; kt++)
        multiply_pipelined<C::BK>(sums, f, (const R *)tiles[kt % C::STAGES], C::BK * C::AROW, kt + 1 < nk, [&]() {
            copies_wait<C::STAGES - 2>();
            __syncthreads(); // tile kt + 1 is in, and every thread has read tile kt, whose stage is filled next
            copy(kt + C::STAGES);
            return (const R *)tiles[(kt + 1) % C::STAGES];
        });
}

// OA, OB: op(A)'s and op(B)'s op when compiled, 0 (N), 1 (T), 2 (C) or 3 (N or T, at run time); conjugated ones
// are multiplied as such (C::math); WIDE: an element in one copy (cx_loads)
template <class R, class C, int OA, int OB, bool WIDE>
__global__ void __launch_bounds__(C::THREADS, C::MINB) cx_kernel(cx_problem<R> p)
{
    constexpr bool CA = OA == 2, CB = OB == 2;
    // the stages: a static array, or dynamic shared memory where they exceed the 48 KiB a static array may have
    __shared__ __align__(16) R fixed[C::DYNAMIC ? 1 : C::STAGES][C::DYNAMIC ? 1 : C::TILE];
    extern __shared__ __align__(16) unsigned char cx_dynamic[];
    R(*const tiles)[C::TILE] =
        C::DYNAMIC ? reinterpret_cast<R(*)[C::TILE]>(cx_dynamic) : reinterpret_cast<R(*)[C::TILE]>(fixed);
    const cx_slice<C, R> z(p);
    auto tile = [&](int64_t i0, int64_t j0) { // C's tile from row i0 and column j0
        cx_loads<R, C::ALOADS, C::BM, C::BK, C::THREADS, WIDE, C::AROW, OA == 3 ? 2 : OA != 0> la;
        cx_loads<R, C::BLOADS, C::BN, C::BK, C::THREADS, WIDE, C::BROW, OB == 3 ? 2 : OB == 0> lb;
        la.init(p.a, p.lda, p.ta != 0, i0, z.kbeg, p.m - i0);
        lb.init(p.b, p.ldb, p.tb == 0, j0, z.kbeg, p.n - j0);
        auto copy = [&](int kt) { // tiles in order, each once
            if (kt < z.nk) {
                R *t = tiles[kt % C::STAGES];
                const int64_t left = z.kend - z.kbeg - (int64_t)kt * C::BK;
                la.copy(t, left, p.a);
                lb.copy(t + C::BK * C::AROW, left, p.b);
            }
            copies_commit(); // a group every time, empty or not, so that waits count tiles
        };
        typename C::template math<CA, CB> sums;
        if constexpr (cx_pipe<C>::on)
            products_pipelined<C>(sums, tiles, z.nk, copy);
        else
            products<C>(sums, tiles, z.nk, copy);
        copies_wait<0>();
        __syncthreads(); // the stages are filled again for the next tile
        gather_groups<C::STAGES * C::TILE, false>(sums, tiles[0]);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        if constexpr (cx_clustered<C, false>)
            if (p.cluster) {
                cluster_sum<C, C::STAGES * C::TILE, false>(sums, p, tiles[0], i0, j0);
                return;
            }
#endif
        store(sums, p, z.c, i0, j0);
    };
    for_tiles<C>(p, tile);
}

// C = alpha (the slices' sums, added in order) + beta C; slice z at ws + z step, leading dimension ldw (complex)
template <class R>
__global__ void cx_sum_slices(cx_problem<R> p, const R *__restrict__ ws, int64_t ldw, int64_t step, int slices)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (int64_t j = blockIdx.y; i < p.m && j < p.n; j += gridDim.y) {
        tb_cx<R> s = { 0, 0 };
        for (int z = 0; z < slices; z++) {
            const R *w = ws + z * step + 2 * (i + j * ldw);
            s.re += w[0], s.im += w[1];
        }
        tb_cx_update((R *)p.c + 2 * (i + j * p.ldc), s, p.ar, p.ai, p.br, p.bi);
    }
}

// The tiles, 32 x 32; bench/variants.sh times others (TB_CX_* single precision, TB_CXZ_* double, TB_CXD_* double on
// the tensor cores; TB_CX_BM x TB_CX_BN tiles of TB_CX_TM x TB_CX_TN a thread, to time 64 x 32 or 64 x 64 of 8 x 4
// or 8 x 8).  Single: three stages of 8 deep, 4 x 4 a thread (64 threads, six blocks an SM), faster than
// 4 x 2 (128 threads) by 4-10 %, since each element read from shared memory serves four products instead of two;
// double: 4 x 2, 4 x 4 being no faster (bench/RESULTS.md, runs W2 and W3).  On the tensor cores: four warps of
// 16 x 16 (TB_CXD_MI x TB_CXD_NJ tiles of 8 x 8 a warp), two stages of 16 deep (one barrier a stage; 34 KiB; stages
// past 48 KiB, as three of 16 or two of 32 deep, are dynamic shared memory), registers capped for three blocks an SM
// (two left the warps waiting; the TMA kernels, with no copies in their threads, fit four).  k is split where C has
// fewer tiles than the blocks that fit (three an SM; four with TMA) into slices of at least 256 that fill those (the
// deep products of few tiles: 1022 x 153 x 13410), or, where it has fewer than two blocks an SM and that makes
// more, into slices of at least 128 that fill those (540 x 88 x 398 in three); shallower slices to fill the third
// cost more than they gained (449 x 497 x 659 in three of 224), and past a wave the slices' sums, written and read
// again, cost more than a fuller last wave gained (summed in clusters, they do not: wave_slices).  Larger tiles
// (16 x 32 a warp, 64 rows a block) are faster on squares, slower on thin products, which are what this kernel is
// given (bench/RESULTS.md).
#ifndef TB_CX_BM
#define TB_CX_BM 32
#endif
#ifndef TB_CX_BN
#define TB_CX_BN 32
#endif
#ifndef TB_CX_TM
#define TB_CX_TM 4
#endif
#ifndef TB_CX_TN
#define TB_CX_TN 4
#endif
#ifndef TB_CX_BK
#define TB_CX_BK 8
#endif
#ifndef TB_CX_STAGES
#define TB_CX_STAGES 3
#endif
#ifndef TB_CX_MINB
#define TB_CX_MINB 6
#endif
#ifndef TB_CXZ_TN
#define TB_CXZ_TN 2
#endif
#ifndef TB_CXZ_BK
#define TB_CXZ_BK 8
#endif
#ifndef TB_CXZ_STAGES
#define TB_CXZ_STAGES 3
#endif
#ifndef TB_CXZ_MINB
#define TB_CXZ_MINB 4
#endif
#ifndef TB_CXD_BM
#define TB_CXD_BM 32
#endif
#ifndef TB_CXD_BN
#define TB_CXD_BN 32
#endif
#ifndef TB_CXD_MI
#define TB_CXD_MI 2
#endif
#ifndef TB_CXD_NJ
#define TB_CXD_NJ 2
#endif
#ifndef TB_CXD_BK
#define TB_CXD_BK 16
#endif
#ifndef TB_CXD_STAGES
#define TB_CXD_STAGES 2
#endif
#ifndef TB_CXD_MINB
#define TB_CXD_MINB 3
#endif
#ifndef TB_CXD_SPLIT
#define TB_CXD_SPLIT 2
#endif
// -DTB_CXD_KG=G (to time): the 32 x 32 tiles' warps in G groups taking a stage's steps in turn (dmma's KG)
#ifndef TB_CXD_KG
#define TB_CXD_KG 1
#endif
typedef cx_config<float, TB_CX_BM, TB_CX_BN, simt<TB_CX_TM, TB_CX_TN>, TB_CX_BK, TB_CX_STAGES, TB_CX_MINB, 4> c_small;
typedef cx_config<double, 32, 32, simt<4, TB_CXZ_TN>, TB_CXZ_BK, TB_CXZ_STAGES, TB_CXZ_MINB, 2> z_small;
typedef cx_config<double, TB_CXD_BM, TB_CXD_BN, dmma<TB_CXD_MI, TB_CXD_NJ, TB_CXD_KG>, TB_CXD_BK, TB_CXD_STAGES,
                  TB_CXD_MINB, 4, TB_CXD_SPLIT>
    z_dmma;
// cx-dmma's tiles where 32-column tiles would compute more than an eighth more columns than C has in 16-column
// ones (n of at most 16, 33 to 48, 65 to 80 where the 32 x 80 tiles do not run, 97 to 112), products of nothing on
// the tensor cores: 64 x 16, the same four warps of 16 x 16 stacked along C's rows. -DTB_CXD_NARROW=0: 32 x 32
// always
#ifndef TB_CXD_NARROW
#define TB_CXD_NARROW 1
#endif
// TB_CXD_NARROW_STAGES, TB_CXD_SPAN48_STAGES, TB_CXD_NARROW_BK, TB_CXD_SPAN48_BK (to time): the 64 x 16 and 32 x 48
// tiles' stages and depth, TB_CXD_STAGES and TB_CXD_BK unless set (more stages cost the thin products they run more
// in blocks an SM than they gained in depth: doc/NOTES.md)
#ifndef TB_CXD_NARROW_STAGES
#define TB_CXD_NARROW_STAGES TB_CXD_STAGES
#endif
#ifndef TB_CXD_SPAN48_STAGES
#define TB_CXD_SPAN48_STAGES TB_CXD_STAGES
#endif
#ifndef TB_CXD_NARROW_BK
#define TB_CXD_NARROW_BK TB_CXD_BK
#endif
#ifndef TB_CXD_SPAN48_BK
#define TB_CXD_SPAN48_BK TB_CXD_BK
#endif
// TB_CXD_NARROW_KG, TB_CXD_SPAN48_KG (to time): the 64 x 16 and 32 x 48 tiles' warps in that many groups, each the
// whole tile's, taking the stages' steps in turn (dmma's KG), at TB_CXD_NARROW_MINB, TB_CXD_SPAN48_MINB blocks an SM
// (more warps an SM gained a little on some thin products and lost as much on others: doc/NOTES.md)
#ifndef TB_CXD_NARROW_KG
#define TB_CXD_NARROW_KG 1
#endif
#ifndef TB_CXD_SPAN48_KG
#define TB_CXD_SPAN48_KG 1
#endif
#ifndef TB_CXD_NARROW_MINB
#define TB_CXD_NARROW_MINB TB_CXD_MINB
#endif
#ifndef TB_CXD_SPAN48_MINB
#define TB_CXD_SPAN48_MINB TB_CXD_MINB
#endif
typedef cx_config<double, 64, 16, dmma<2, 2, TB_CXD_NARROW_KG>, TB_CXD_NARROW_BK, TB_CXD_NARROW_STAGES,
                  TB_CXD_NARROW_MINB, 4, TB_CXD_SPLIT>
    z_dmma_narrow;
// Where C has 65 to 80 columns and the TMA kernels run, one tile across them, 32 x 80 (four warps of 16 x 40), so
// that op(A)'s panel is read once instead of by three 32-column tiles or five 16-column ones: the thin products are
// bound by L2's bytes about as much as by the tensor pipe (doc/NOTES.md, bench/RESULTS.md). TMA only: the
// cp.async copies (cx_loads) need the threads a multiple of the tile's columns, so a build without TMA kernels
// (-DTB_CXD_TMA=0) has none either. -DTB_CXD_SPAN=0: none
#ifndef TB_CXD_SPAN
#define TB_CXD_SPAN 1
#endif
typedef cx_config<double, 32, 80, dmma<2, 5>, TB_CXD_BK, TB_CXD_STAGES, TB_CXD_MINB, 4, TB_CXD_SPLIT> z_dmma_span;
// its slices sum through the workspace: in clusters they ran slower (bench/RESULTS.md)
template <>
struct cx_cluster<z_dmma_span> {
    static constexpr bool on = false;
};
// The same where C has 33 to 48 columns and op(A) is more bytes than a share of the L2 cache, 32 x 48 (four warps of
// 16 x 24): op(A) read from memory once instead of by each of three 64 x 16 tiles; where it stays in L2, the 64 x 16
// tiles' more blocks were faster (bench/RESULTS.md). -DTB_CXD_SPAN48=0: none; =2 (to time): whatever op(A)'s size.
// TB_CXD_L2_SHARE: op(A) past L2 / share (the L2 is two partitions, each caching for the SMs beside it, so what
// every SM reads can be held twice)
#ifndef TB_CXD_SPAN48
#define TB_CXD_SPAN48 1
#endif
#ifndef TB_CXD_L2_SHARE
#define TB_CXD_L2_SHARE 2
#endif
typedef cx_config<double, 32, 48, dmma<2, 3, TB_CXD_SPAN48_KG>, TB_CXD_SPAN48_BK, TB_CXD_SPAN48_STAGES,
                  TB_CXD_SPAN48_MINB, 4, TB_CXD_SPLIT>
    z_dmma_span48;

template <class R, class C>
struct cx_kernel_of {
    // the dynamic shared memory a launch asks for
    static constexpr size_t dyn()
    {
        return C::DYNAMIC ? C::SMEM : 0;
    }
    // TB_CXD_TMA: cx-dmma's configs have kernels whose stages TMA fills (cx_tma_kernel)
    static constexpr bool TMA = TB_CXD_TMA && (std::is_same<C, z_dmma>::value || std::is_same<C, z_dmma_narrow>::value ||
                                               std::is_same<C, z_dmma_span>::value ||
                                               std::is_same<C, z_dmma_span48>::value);
    // configs whose tiles the cp.async copies cannot load (cx_loads: the threads a multiple of the tile's depth,
    // rows and columns): no cp.async kernels, launched only where tma_runs
    static constexpr bool TMA_ONLY = C::THREADS % C::BK || C::THREADS % C::BM || C::THREADS % C::BN;

    // kernel k allowed the dynamic shared memory of C's stages, where they need it (at each launch, as dmma.cu
    // does: only builds with deeper stages ask); 0 or an error
    static int allow(void (*k)(cx_problem<R>))
    {
        if (!C::DYNAMIC)
            return 0;
        return (int)cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)C::SMEM);
    }

    // the blocks that fit on all SMs of the current device at once (with TMA, of its NN kernel: calls on aligned
    // operands run the TMA kernels)
    static int64_t wave()
    {
        static int per_sm[TB_KERNEL_DEVICES];
        if constexpr (TMA) {
            allow_tma<0, 0>(cx_tma<C, 0, 0>::SMEM);
            return tb_wave(per_sm, cx_tma_kernel<C, 0, 0>, C::THREADS, cx_tma<C, 0, 0>::SMEM);
        } else {
            allow(cx_kernel<R, C, 3, 3, true>);
            return tb_wave(per_sm, cx_kernel<R, C, 3, 3, true>, C::THREADS, dyn());
        }
    }

    // C's tiles where it is m x n
    static int64_t tiles(int64_t m, int64_t n)
    {
        return ((m + C::BM - 1) / C::BM) * ((n + C::BN - 1) / C::BN);
    }

    // the slices of k, and their depth, for w blocks at once: without SPLIT, slices that fill them all; with it,
    // the more of deep slices (TB_CX_DEEP_SLICE) that fill those where C has fewer tiles, and, where C has fewer
    // tiles than SPLIT blocks an SM, slices that fill those. *clustered: whether the clusters sum them (the wave
    // slices, and slices at most TB_CX_CLUSTER_DEPTH deep: deeper ones ran faster summed in the workspace), else
    // the workspace does
    static int64_t slices(const tb_kproblem *p, int64_t w, int64_t *kchunk, bool *clustered = nullptr)
    {
        const int64_t t = tiles(p->m, p->n);
        int64_t s = 1;
        if (!C::SPLIT) {
            s = tb_fill_slices(t, w, p->k, C::BK, TB_CX_SLICE);
        } else {
            const int64_t most = C::SPLIT * (int64_t)tb_sm_count(), slots = w < most ? w : most;
            if (TB_CX_DEEP_SLICE && t < w)
                s = tb_fill_slices(t, w, p->k, C::BK, TB_CX_DEEP_SLICE);
            if (t < slots) {
                const int64_t near = tb_fill_slices(t, slots, p->k, C::BK, TB_CX_SLICE);
                s = near > s ? near : s;
            }
        }
        bool wave = false;
        if (s == 1 && TB_CXD_WAVE_SLICES && cluster_sums(p, 2))
            s = wave_slices(t, w, p->k), wave = s > 1;
        *kchunk = tb_slice_depth(p->k, C::BK, &s);
        const auto in_clusters = [&](int64_t n, int64_t depth) {
            return cluster_sums(p, n) && (!TB_CX_CLUSTER_DEPTH || depth <= TB_CX_CLUSTER_DEPTH) &&
                   tb_waves(t * n, cluster_wave(n, w)) <= tb_waves(t * s, w);
        };
        bool summed = wave ? cluster_sums(p, s) : in_clusters(s, *kchunk);
        // FEWER: slices that no longer fit the rounds in clusters, a quarter fewer at most where those do: slices
        // up to a third deeper, which cost less than the workspace's second launch where timed (bench/RESULTS.md)
        for (int64_t n = s - 1; TB_CX_CLUSTER_FEWER && !summed && 4 * n >= 3 * s; n--) {
            int64_t got = n;
            const int64_t depth = tb_slice_depth(p->k, C::BK, &got);
            if (got == n && in_clusters(n, depth))
                s = n, *kchunk = depth, summed = true;
        }
        if (clustered)
            *clustered = summed;
        return s;
    }

    // CLUSTER_SLOTS: the blocks that run at once in clusters of s (1 x 1 x s) blocks, of the kernel wave() counts;
    // else w, wave()'s
    static int64_t cluster_wave(int64_t s, int64_t w)
    {
        if (!TB_CX_CLUSTER_SLOTS || s < 2 || s > 8)
            return w;
        static int clusters[9][TB_KERNEL_DEVICES];
        if constexpr (TMA)
            return tb_cluster_wave(clusters[s], cx_tma_kernel<C, 0, 0>, C::THREADS, cx_tma<C, 0, 0>::SMEM, (unsigned)s,
                                   w);
        else
            return tb_cluster_wave(clusters[s], cx_kernel<R, C, 3, 3, true>, C::THREADS, dyn(), (unsigned)s, w);
    }

    // WAVE_SLICES: where C's tiles are more than a wave (w) and its last wave runs partly empty, the slices (up to a
    // cluster's 8, each at least TB_CX_DEEP_SLICE deep) whose rounds (of cluster_wave's blocks) take the least
    // time, where that is at least an eighth less than unsplit (777 x 777 x 4096: 625 tiles of 528 slots, two rounds
    // of all of k; in 3 slices, 4 rounds of 489 blocks, each a third deep); the clusters sum them at little cost
    static int64_t wave_slices(int64_t t, int64_t w, int64_t k)
    {
        const int64_t kt = (k + C::BK - 1) / C::BK;
        int64_t best = 1, least = tb_waves(t, w) * kt;
        const int64_t most = least * 7 / 8;
        for (int64_t s = 2; s <= 8 && k / s >= TB_CX_DEEP_SLICE; s++) {
            const int64_t cost = tb_waves(t * s, cluster_wave(s, w)) * ((kt + s - 1) / s);
            if (cost < least && cost <= most)
                best = s, least = cost;
        }
        return best;
    }

    // how long the product's blocks take, w at once: the rounds times the depth of k each block computes
    static double rounds(const tb_kproblem *p, int64_t w)
    {
        int64_t kchunk;
        const int64_t b = tiles(p->m, p->n) * slices(p, w, &kchunk);
        return (double)tb_waves(b, w) * (double)kchunk;
    }

    // the kernel for the op pair (with STATIC_OPS) or for the ops' conjugates (3: N or T, chosen at run time)
    template <bool WIDE>
    static void (*pick(int ta, int tb))(cx_problem<R>)
    {
        return by_ops(ta, tb, [](auto oa, auto ob) {
            constexpr int A = decltype(oa)::value, B = decltype(ob)::value;
            return cx_kernel<R, C, TB_CX_STATIC_OPS || A == 2 ? A : 3, TB_CX_STATIC_OPS || B == 2 ? B : 3, WIDE>;
        });
    }

    // TAIL: where C's tiles are more than a wave and k is not split, the tiles past the last whole wave (whole
    // row tiles) as a launch of their own with k split to fill the GPU, after the whole waves unsplit (w blocks at
    // once): the rows of the first launch, and the second's slices in *tail; 0 where one launch is better
    static int64_t tail_rows(const tb_kproblem *p, int64_t w, int64_t *tail)
    {
        if (!TB_CX_TAIL)
            return 0;
        int64_t kchunk;
        const int64_t t = tiles(p->m, p->n), cols = (p->n + C::BN - 1) / C::BN;
        if (t <= w || t % w == 0 || slices(p, w, &kchunk) > 1)
            return 0;
        const int64_t rows = t / w * w / cols * C::BM;
        if (rows <= 0 || rows >= p->m)
            return 0;
        *tail = tb_fill_slices(tiles(p->m - rows, p->n), w, p->k, C::BK, TB_CX_SLICE);
        tb_slice_depth(p->k, C::BK, tail);
        return *tail > 1 ? rows : 0;
    }

    // kp as the kernels take it
    static cx_problem<R> problem(const tb_kproblem *kp)
    {
        return { (const R *)kp->a, (const R *)kp->b, (R *)kp->c, kp->lda, kp->ldb, kp->ldc, kp->m, kp->n, kp->k, kp->k,
                 0, kp->transa, kp->transb, (R)kp->alpha, (R)kp->alpha_im, (R)kp->beta, (R)kp->beta_im, false,
                 false };
    }

    // whether both operands' elements are aligned to their whole size (an element in one copy)
    static bool aligned(const cx_problem<R> &p)
    {
        return !((uintptr_t)p.a % (2 * sizeof(R))) && !((uintptr_t)p.b % (2 * sizeof(R)));
    }

    // whether kp's product runs on the TMA kernels
    static bool tma_runs(const tb_kproblem *kp)
    {
        const cx_problem<R> p = problem(kp);
        return tma_ok(p, aligned(p));
    }

    // TB_CXD_TMA: cx_tma_kernel, for cx-dmma's config, where it can run p: compute capability 9.0 or later and
    // the kernel built for it (tma_built), both operands at 16 bytes (wide: TMA's addresses), some k, and sizes
    // that its 32-bit coordinates (in parts) reach
    static bool tma_ok(const cx_problem<R> &p, bool wide)
    {
        const int64_t most = (int64_t)1 << 30;
        return TMA && wide && p.k > 0 && p.m < most && p.n < most && p.k < most && p.lda < most && p.ldb < most &&
               encoder() && tma_built();
    }

    // whether the TMA kernels run on the current device as built for it (hopper_code)
    static bool tma_built()
    {
        if constexpr (TMA) {
            static int ptx[TB_KERNEL_DEVICES];
            return hopper_code(ptx, cx_tma_kernel<C, 0, 0>);
        }
        return false;
    }

    // whether kernel k runs on the current device as built for compute capability 9.0 or later, ptx[] its cache:
    // the device is, and k's code is not from the PTX of a build for older GPUs only (--with-cuda-arch=80), which
    // has what needs Hopper compiled out
    template <class K>
    static bool hopper_code(int ptx[TB_KERNEL_DEVICES], K k)
    {
        static int major[TB_KERNEL_DEVICES];
        return tb_device_attr(major, cudaDevAttrComputeCapabilityMajor, 0) >= 9 && tb_ptx_version(ptx, k) >= 90;
    }

    // The map of a stored matrix x (leading dimension ld) of `across` rows of `along` complex numbers, read as
    // real, in boxes of box_along parts by box_across rows; 0 or an error
    static int map(CUtensorMap *m, const R *x, int64_t ld, int64_t along, int64_t across, int box_along,
                   int box_across)
    {
        const cuuint64_t dims[2] = { (cuuint64_t)(2 * along), (cuuint64_t)across };
        const cuuint64_t strides[1] = { (cuuint64_t)(2 * ld) * sizeof(R) };
        const cuuint32_t box[2] = { (cuuint32_t)box_along, (cuuint32_t)box_across }, elem[2] = { 1, 1 };
        return encoder()(m, CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 2, (void *)x, dims, strides, box, elem,
                         CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS
                   ? 0
                   : (int)cudaErrorInvalidValue;
    }

    // q on cx_tma_kernel for op(A)'s op OA and op(B)'s OB: op(A) is stored m x k (N) or k x m, op(B) k x n (N)
    // or n x k
    template <int OA, int OB>
    static int tma(const cx_problem<R> &q, dim3 grid, cudaStream_t st)
    {
        if constexpr (TMA) {
            using T = cx_tma<C, OA, OB>;
            cx_maps maps;
            // CLAMP: boxes across C's rows or columns no more than the matrix has
            const int a_rows = T::A_SIDE || !TB_CXD_TMA_CLAMP || q.m > T::A_ROWS ? T::A_ROWS : (int)q.m;
            const int b_rows = T::B_SIDE || !TB_CXD_TMA_CLAMP || q.n > T::B_ROWS ? T::B_ROWS : (int)q.n;
            maps.bytes = (uint32_t)((T::AROW * a_rows + T::BROW * b_rows) * sizeof(R));
            if (map(&maps.a, q.a, q.lda, T::A_SIDE ? q.m : q.k, T::A_SIDE ? q.k : q.m, T::AROW, a_rows) ||
                map(&maps.b, q.b, q.ldb, T::B_SIDE ? q.n : q.k, T::B_SIDE ? q.k : q.n, T::BROW, b_rows))
                return (int)cudaErrorInvalidValue;
            if (const int e = allow_tma<OA, OB>(T::SMEM))
                return e;
            if (q.cluster)
                return launch_in_clusters(cx_tma_kernel<C, OA, OB>, grid, C::THREADS, T::SMEM, st, grid.z, maps, q);
            cx_tma_kernel<C, OA, OB><<<grid, C::THREADS, T::SMEM, st>>>(maps, q);
            return (int)cudaGetLastError();
        }
        return (int)cudaErrorNotSupported;
    }

    // the TMA kernel allowed smem bytes of shared memory where that is past 48 KiB; 0 or an error
    template <int OA, int OB>
    static int allow_tma(size_t smem)
    {
        if constexpr (TMA)
            if (smem > 48 * 1024)
                return (int)cudaFuncSetAttribute(cx_tma_kernel<C, OA, OB>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                 (int)smem);
        return 0;
    }

    // cx_cluster.cuh's CLUSTER_SUM: where s slices of k, at most a portable cluster's blocks, run on kernels that
    // sum them in clusters, the slices of each tile are one cluster, which sums them into C (cluster_sum): no
    // workspace, no second launch
    static bool cluster_sums(const tb_kproblem *p, int64_t s)
    {
        if (s < 2 || s > 8)
            return false;
        if (tma_runs(p))
            return cx_clustered<C, true>;
        if constexpr (cx_clustered<C, false> && !TMA_ONLY) {
            static int ptx[TB_KERNEL_DEVICES];
            return hopper_code(ptx, cx_kernel<R, C, 3, 3, true>);
        }
        return false;
    }

    static size_t workspace(const tb_kproblem *p)
    {
        const int64_t w = wave();
        int64_t kchunk, tail;
        bool clustered;
        const int64_t s = slices(p, w, &kchunk, &clustered);
        if (const int64_t rows = tail_rows(p, w, &tail))
            return tb_split_bytes<R>(2 * (p->m - rows), p->n, tail);
        return clustered ? 0 : tb_split_bytes<R>(2 * p->m, p->n, s);
    }

    static int launch(const tb_kproblem *kp, void *ws, void *stream)
    {
        const int64_t w = wave();
        int64_t kchunk, tail;
        if (ws)
            if (const int64_t rows = tail_rows(kp, w, &tail)) {
                const tb_kproblem head = tb_kproblem_block(kp, 0, rows, 0, kp->n);
                const tb_kproblem rest = tb_kproblem_block(kp, rows, kp->m - rows, 0, kp->n);
                const int e = launch_slices(&head, 1, kp->k, NULL, stream, false);
                return e ? e : launch_slices(&rest, tail, tb_slice_depth(kp->k, C::BK, &tail), ws, stream, false);
            }
        bool clustered;
        const int64_t s = slices(kp, w, &kchunk, &clustered);
        return ws || clustered ? launch_slices(kp, s, kchunk, ws, stream, clustered)
                               : launch_slices(kp, 1, kp->k, ws, stream, false);
    }

    // the kernel over s slices of kchunk, and their sum: in clusters (cluster), else in ws
    static int launch_slices(const tb_kproblem *kp, int64_t s, int64_t kchunk, void *ws, void *stream, bool cluster)
    {
        const cudaStream_t st = (cudaStream_t)stream;
        const cx_problem<R> p = problem(kp);
        cx_problem<R> q = p;
        const int64_t ldw = tb_split_ld<R>(2 * p.m) / 2; // in complex elements
        const int64_t rows = (p.m + C::BM - 1) / C::BM, cols = (p.n + C::BN - 1) / C::BN;
        if (cluster)
            q.kchunk = kchunk, q.cluster = true;
        else if (s > 1)
            q.kchunk = kchunk, q.c = (R *)ws, q.ldc = ldw, q.c_step = 2 * ldw * p.n, q.raw = true;
        const dim3 grid = TB_CX_GROUP ? dim3((unsigned)(rows * cols < INT_MAX ? rows * cols : INT_MAX), 1, (unsigned)s)
                                      : dim3((unsigned)rows, tb_grid_y(cols), (unsigned)s);
        const bool wide = aligned(p);
        int e;
        if (tma_ok(p, wide)) {
            e = by_ops(p.ta, p.tb,
                       [&](auto oa, auto ob) {
                           return tma<decltype(oa)::value, decltype(ob)::value>(q, grid, st);
                       });
        } else if constexpr (TMA_ONLY) {
            return (int)cudaErrorNotSupported;
        } else {
            void (*k)(cx_problem<R>) = wide ? pick<true>(p.ta, p.tb) : pick<false>(p.ta, p.tb);
            if ((e = allow(k)))
                return e;
            if (cluster) {
                e = launch_in_clusters(k, grid, C::THREADS, dyn(), st, grid.z, q);
            } else {
                k<<<grid, C::THREADS, dyn(), st>>>(q);
                e = (int)cudaGetLastError();
            }
        }
        if (!e && s > 1 && !cluster) {
            cx_sum_slices<R><<<dim3((unsigned)((p.m + 127) / 128), tb_grid_y(p.n)), 128, 0, st>>>(
                p, (const R *)ws, ldw, q.c_step, (int)s);
            e = (int)cudaGetLastError();
        }
        return e;
    }
};

typedef cx_kernel_of<float, c_small> c_simt;
typedef cx_kernel_of<double, z_small> z_simt;
typedef cx_kernel_of<double, z_dmma> z_tensor;
typedef cx_kernel_of<double, z_dmma_narrow> z_tensor_narrow;
#if TB_CXD_SPAN && TB_CXD_TMA
typedef cx_kernel_of<double, z_dmma_span> z_tensor_span;
#endif
#if TB_CXD_SPAN48 && TB_CXD_TMA
typedef cx_kernel_of<double, z_dmma_span48> z_tensor_span48;
#endif
#if TB_CXD_OCCUPANCY
typedef cx_kernel_of<double, cx_piped<cx_config<double, TB_CXD_BM, TB_CXD_BN, dmma<TB_CXD_MI, TB_CXD_NJ>, TB_CXD_BK,
                                                TB_CXD_STAGES, 2, 4, TB_CXD_SPLIT>>>
    z_tensor_two;

// the build of two blocks an SM where its rounds take less time
static bool two_an_sm(const tb_kproblem *p)
{
    return TB_CXD_TWO_WAVE * z_tensor_two::rounds(p, z_tensor_two::wave()) < z_tensor::rounds(p, z_tensor::wave());
}
#endif

// whether p runs on z_dmma_narrow's tiles
static bool narrow(const tb_kproblem *p)
{
    const int64_t wide = (p->n + z_dmma::BN - 1) / z_dmma::BN * z_dmma::BN;
    const int64_t slim = (p->n + z_dmma_narrow::BN - 1) / z_dmma_narrow::BN * z_dmma_narrow::BN;
    return TB_CXD_NARROW && 8 * wide > 9 * slim;
}

#if TB_CXD_SPAN48 && TB_CXD_TMA
// whether op(A) is more bytes than TB_CXD_L2_SHARE's share of the current device's L2 cache
static bool past_l2(const tb_kproblem *p)
{
    static int l2[TB_KERNEL_DEVICES];
    const double bytes = (double)p->m * (double)p->k * (double)(2 * sizeof(double));
    return bytes * TB_CXD_L2_SHARE > (double)tb_device_attr(l2, cudaDevAttrL2CacheSize, 50 << 20);
}
#endif

// f(kernels) for cx-dmma's kernels for p
template <class F>
static auto on_dmma(const tb_kproblem *p, F f)
{
#if TB_CXD_OCCUPANCY
    if (two_an_sm(p))
        return f(z_tensor_two());
#endif
#if TB_CXD_SPAN && TB_CXD_TMA
    if (p->n > 64 && p->n <= z_dmma_span::BN && z_tensor_span::tma_runs(p))
        return f(z_tensor_span());
#endif
#if TB_CXD_SPAN48 && TB_CXD_TMA
    if (p->n > 32 && p->n <= z_dmma_span48::BN && (TB_CXD_SPAN48 == 2 || past_l2(p)) && z_tensor_span48::tma_runs(p))
        return f(z_tensor_span48());
#endif
    return narrow(p) ? f(z_tensor_narrow()) : f(z_tensor());
}

} // namespace

extern "C" size_t tb_workspace_cx_simt(const tb_kproblem *p)
{
    return p->type == TB_TYPE_Z ? z_simt::workspace(p) : c_simt::workspace(p);
}

extern "C" int tb_launch_cx_simt(const tb_kproblem *p, void *ws, void *stream)
{
    return p->type == TB_TYPE_Z ? z_simt::launch(p, ws, stream) : c_simt::launch(p, ws, stream);
}

extern "C" size_t tb_workspace_cx_dmma(const tb_kproblem *p)
{
    return on_dmma(p, [p](auto k) { return decltype(k)::workspace(p); });
}

extern "C" int tb_launch_cx_dmma(const tb_kproblem *p, void *ws, void *stream)
{
    return on_dmma(p, [=](auto k) { return decltype(k)::launch(p, ws, stream); });
}
