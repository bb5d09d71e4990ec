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

namespace {

// ---- Tuning constants for sm_90 (H100, H200): the tile configurations ----
// cx_config<R, BM, BN, units, BK, STAGES, MINB, PAD, SPLIT> (cx_core.cuh): BM x BN tiles of C multiplied by the
// units (cx_math.cuh), stages BK deep, registers capped for MINB blocks an SM, k split as SPLIT says.
// cx-simt: single, 4 x 4 a thread (64 threads, six blocks an SM), each element read from shared memory serving four
// products instead of two; double, 4 x 2 (4 x 4 was no faster).
typedef cx_config<float, 32, 32, simt<4, 4>, 8, 3, 6, 4> c_small;
typedef cx_config<double, 32, 32, simt<4, 2>, 8, 3, 4, 2> z_small;
// cx-dmma: four warps of 16 x 16 (2 x 2 tiles of 8 x 8 a warp), two stages of 16 deep (one barrier a stage; stages
// past 48 KiB would be dynamic shared memory), registers capped for three blocks an SM (two left the warps waiting;
// the TMA kernels, with no copies in their threads, fit four).  Larger tiles (16 x 32 a warp, 64 rows a block) are
// faster on squares, slower on the thin products this kernel is given (bench/RESULTS.md).
typedef cx_config<double, 32, 32, dmma<2, 2>, 16, 2, 3, 4, 2> z_dmma;
// 64 x 16, the same four warps stacked along C's rows, where 32-column tiles would compute more than an eighth more
// columns than C has in 16-column ones (narrow: n of at most 16, 33 to 48, 65 to 80 where the 32 x 80 tiles do not
// run, 97 to 112), products of nothing on the tensor cores.  More stages, depth or warps an SM cost the thin
// products they run as much as they gained (doc/NOTES.md).
typedef cx_config<double, 64, 16, dmma<2, 2>, 16, 2, 3, 4, 2> z_dmma_narrow;
// 32 x 80 (four warps of 16 x 40) where C has 65 to 80 columns and the TMA kernels run, so that op(A)'s panel is
// read once instead of by three 32-column tiles or five 16-column ones: the thin products are bound by L2's bytes
// about as much as by the tensor pipe (doc/NOTES.md).  TMA only: the cp.async copies (cx_loads) need the threads a
// multiple of the tile's columns.  Its slices sum through the workspace: in clusters they ran slower.
typedef cx_config<double, 32, 80, dmma<2, 5>, 16, 2, 3, 4, 2> z_dmma_span;
template <>
struct cx_cluster<z_dmma_span> {
    static constexpr bool on = false;
};
// 32 x 48 (four warps of 16 x 24) where C has 33 to 48 columns and op(A) is more bytes than a share of the L2 cache
// (past_l2): op(A) read from memory once instead of by each of three 64 x 16 tiles; where it stays in L2, the
// 64 x 16 tiles' more blocks were faster (bench/RESULTS.md).
typedef cx_config<double, 32, 48, dmma<2, 3>, 16, 2, 3, 4, 2> z_dmma_span48;

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
        copy(kt + C::STAGES - 1);
        const R *as = tiles[kt % C::STAGES];
        multiply(sums, as, as + C::BK * C::AROW, C::BK);
    }
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
        products<C>(sums, tiles, z.nk, copy);
        copies_wait<0>();
        __syncthreads(); // the stages are filled again for the next tile
        gather_groups<C::STAGES * C::TILE, false>(sums, tiles[0]);
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

template <class R, class C>
struct cx_kernel_of {
    // the dynamic shared memory a launch asks for
    static constexpr size_t dyn()
    {
        return C::DYNAMIC ? C::SMEM : 0;
    }
    // cx-dmma's configs have kernels whose stages TMA fills (cx_tma_kernel)
    static constexpr bool TMA = std::is_same<C, z_dmma>::value || std::is_same<C, z_dmma_narrow>::value ||
                                std::is_same<C, z_dmma_span>::value || std::is_same<C, z_dmma_span48>::value;
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

    // the blocks an SM of the current device holds at once (with TMA, of its NN kernel: calls on aligned operands
    // run the TMA kernels), a device fact for the recipes
    static int per_sm()
    {
        int n = 0;
        cudaError_t e;
        if constexpr (TMA) {
            allow_tma<0, 0>(cx_tma<C, 0, 0>::SMEM);
            e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, cx_tma_kernel<C, 0, 0>, C::THREADS,
                                                              cx_tma<C, 0, 0>::SMEM);
        } else {
            allow(cx_kernel<R, C, 3, 3, true>);
            e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, cx_kernel<R, C, 3, 3, true>, C::THREADS, dyn());
        }
        cudaGetLastError();
        return e == cudaSuccess && n > 0 ? n : 1;
    }

    // the clusters of s blocks (1 x 1 x s) of the TMA kernel that run at once on the current device (0: unknown, or
    // no TMA kernel), a device fact for the recipes
    static int clusters(unsigned s)
    {
        if constexpr (TMA) {
            cudaLaunchAttribute a;
            const cudaLaunchConfig_t config = cluster_config(dim3(1, 1, s), C::THREADS, cx_tma<C, 0, 0>::SMEM, 0, s, &a);
            int n = 0;
            const cudaError_t e = cudaOccupancyMaxActiveClusters(&n, (const void *)cx_tma_kernel<C, 0, 0>, &config);
            cudaGetLastError();
            return e == cudaSuccess && n > 0 ? n : 0;
        }
        return 0;
    }

    // the kernel for the ops' conjugates (C compiled in; 3: N or T, chosen at run time)
    template <bool WIDE>
    static void (*pick(int ta, int tb))(cx_problem<R>)
    {
        return by_ops(ta, tb, [](auto oa, auto ob) {
            constexpr int A = decltype(oa)::value, B = decltype(ob)::value;
            return cx_kernel<R, C, A == 2 ? A : 3, B == 2 ? B : 3, WIDE>;
        });
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

    // cx_tma_kernel, for cx-dmma's config, where it can run p: compute capability 9.0 or later and
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
            // boxes across C's rows or columns no more than the matrix has (cx_tma.cuh)
            const int a_rows = T::A_SIDE || q.m > T::A_ROWS ? T::A_ROWS : (int)q.m;
            const int b_rows = T::B_SIDE || q.n > T::B_ROWS ? T::B_ROWS : (int)q.n;
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

    // the recipe's slices of k (lib/decide/recipes.c), summed in clusters or in the workspace
    static size_t workspace(const tb_kproblem *p, const tb_recipe *r)
    {
        return r->clustered ? 0 : tb_split_bytes<R>(2 * p->m, p->n, r->slices);
    }

    static int launch(const tb_kproblem *kp, const tb_recipe *r, void *ws, void *stream)
    {
        int64_t s = r->slices;
        const int64_t kchunk = tb_slice_depth(kp->k, C::BK, &s);
        return ws || r->clustered ? launch_slices(kp, s, kchunk, ws, stream, r->clustered)
                                  : launch_slices(kp, 1, kp->k, ws, stream, false);
    }

    // the kernel over s slices of kchunk, and their sum: in clusters (cluster: the TMA kernels only), else in ws
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
        const dim3 grid((unsigned)(rows * cols < INT_MAX ? rows * cols : INT_MAX), 1, (unsigned)s); // for_tiles
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
            k<<<grid, C::THREADS, dyn(), st>>>(q);
            e = (int)cudaGetLastError();
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
typedef cx_kernel_of<double, z_dmma_span> z_tensor_span;
typedef cx_kernel_of<double, z_dmma_span48> z_tensor_span48;
// Each of the recipes' cx tiles (kernels/recipe.h): its kernels K and configuration C, which its row describes
template <int S>
struct tile_of;
template <>
struct tile_of<TB_CX_C_SIMT> {
    typedef c_simt K;
    typedef c_small C;
};
template <>
struct tile_of<TB_CX_Z_SIMT> {
    typedef z_simt K;
    typedef z_small C;
};
template <>
struct tile_of<TB_CX_Z_DMMA> {
    typedef z_tensor K;
    typedef z_dmma C;
};
template <>
struct tile_of<TB_CX_Z_NARROW> {
    typedef z_tensor_narrow K;
    typedef z_dmma_narrow C;
};
template <>
struct tile_of<TB_CX_Z_SPAN> {
    typedef z_tensor_span K;
    typedef z_dmma_span C;
};
template <>
struct tile_of<TB_CX_Z_SPAN48> {
    typedef z_tensor_span48 K;
    typedef z_dmma_span48 C;
};
#define TB_CX_ROW_IS(id, bm, bn, bk, split, tma, clusters)                                                           \
    static_assert(tile_of<TB_CX_##id>::C::BM == bm && tile_of<TB_CX_##id>::C::BN == bn &&                          \
                      tile_of<TB_CX_##id>::C::BK == bk && tile_of<TB_CX_##id>::C::SPLIT == split &&                \
                      tile_of<TB_CX_##id>::K::TMA == (tma) &&                                                     \
                      (tma && cx_cluster<tile_of<TB_CX_##id>::C>::on) == (clusters),                               \
                  "kernels/recipe.h's row of the cx tile " #id);
TB_CX_SHAPES(TB_CX_ROW_IS)
#undef TB_CX_ROW_IS

// f(kernels) for the recipe's cx tile
template <class F>
static auto on_shape(const tb_recipe *r, F f)
{
    switch (r->shape) {
    case TB_CX_C_SIMT: return f(c_simt());
    case TB_CX_Z_SIMT: return f(z_simt());
    case TB_CX_Z_SPAN: return f(z_tensor_span());
    case TB_CX_Z_SPAN48: return f(z_tensor_span48());
    case TB_CX_Z_NARROW: return f(z_tensor_narrow());
    default: return f(z_tensor());
    }
}

// the facts of tile S's kernels on the current device
template <int S>
static void facts_of(tb_device_facts *f)
{
    typedef typename tile_of<S>::K K;
    f->cx_per_sm[S] = K::per_sm();
    for (unsigned s = 2; s <= 8; s++)
        f->cx_clusters[S][s] = cx_cluster<typename tile_of<S>::C>::on ? K::clusters(s) : 0;
}

} // namespace

// The recipe's tile and slices (lib/decide/recipes.c): cx-simt's tile is its type's, cx-dmma's one of four
extern "C" size_t tb_workspace_cx(const tb_kproblem *p, const tb_recipe *r)
{
    return on_shape(r, [=](auto k) { return decltype(k)::workspace(p, r); });
}

extern "C" int tb_launch_cx(const tb_kproblem *p, const tb_recipe *r, void *ws, void *stream)
{
    return on_shape(r, [=](auto k) { return decltype(k)::launch(p, r, ws, stream); });
}

extern "C" void tb_cx_facts(tb_device_facts *f)
{
    facts_of<TB_CX_C_SIMT>(f), facts_of<TB_CX_Z_SIMT>(f), facts_of<TB_CX_Z_DMMA>(f);
    facts_of<TB_CX_Z_NARROW>(f), facts_of<TB_CX_Z_SPAN>(f), facts_of<TB_CX_Z_SPAN48>(f);
    f->cx_tma = z_tensor::tma_built() && encoder() != NULL;
}
