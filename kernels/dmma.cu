// DGEMM on the FP64 tensor cores (DMMA): mma.sync m16n8k8 f64 on sm_90, four m8n8k4 on sm_80-89.
//
// A block computes a BM x BN tile of C; its warps each hold a WM x WN piece of C in registers (MMA tiles of 16 x 8;
// 64 x 32: 64 doubles per thread).  Tiles of op(A) and op(B), BK deep along k, come from global memory by cp.async
// into a ring of STAGES shared-memory buffers, so that the loads of the next tiles overlap the MMAs on the current
// one; one barrier per tile.
//
// Shared tiles keep each operand's global layout (the side that is contiguous in memory stays contiguous), so
// every copy is a straight 16-byte cp.async whatever the transposes, and the fragment loads read across that
// layout, 16 bytes at a time where they can (layout and fragments below say how, and how bank conflicts are
// avoided).
//
// Edges: chunks past op(A), op(B) or k are zero-filled by cp.async (src-size), and stores outside C are
// skipped, so any m, n, k works.  16-byte copies need 16-byte aligned columns; otherwise each double is copied
// on its own (VEC = false).  Results: FP64 products accumulated in FP64 by the tensor cores.
#include <stdint.h>
#include "common.cuh"

namespace {

// The block tile, its depth, the ring's depth and the warps' tiles are compile-time settings (bench/variants.sh
// times others).  MINB: blocks per SM that __launch_bounds__ must leave room for.
#ifndef TB_DMMA_BM
#define TB_DMMA_BM 128
#endif
#ifndef TB_DMMA_BN
#define TB_DMMA_BN 128
#endif
#ifndef TB_DMMA_BK
#define TB_DMMA_BK 16
#endif
#ifndef TB_DMMA_STAGES
#define TB_DMMA_STAGES 4
#endif
#ifndef TB_DMMA_WM
#define TB_DMMA_WM 64
#endif
#ifndef TB_DMMA_WN
#define TB_DMMA_WN 32
#endif
#ifndef TB_DMMA_MINB
#define TB_DMMA_MINB 1
#endif
#ifndef TB_DMMA_PREFETCH
#define TB_DMMA_PREFETCH 0 // 1: a warp reads the next k8 step's fragments while this one's MMAs run
#endif

constexpr int BM = TB_DMMA_BM, BN = TB_DMMA_BN, BK = TB_DMMA_BK, STAGES = TB_DMMA_STAGES;
constexpr bool PREFETCH = TB_DMMA_PREFETCH;
constexpr int WM = TB_DMMA_WM, WN = TB_DMMA_WN, MI = WM / 16, NJ = WN / 8; // a warp's tile, in MMA tiles
constexpr int WARPS_M = BM / WM, THREADS = 32 * WARPS_M * (BN / WN);
static_assert(BM % WM == 0 && BN % WN == 0 && WM % 16 == 0 && WN % 8 == 0 && BK % 8 == 0, "tile shapes");
static_assert(STAGES >= 3, "the ring keeps a tile in flight while the next is waited for (see the main loop)");

// An operand's tile of side RS (BM for op(A), BN for op(B)) is kept in the operand's own layout:
//   contiguous along its side (A not transposed, B transposed): [l][r], rows of RS + 2
//   contiguous along k (A transposed, B not transposed):        [r][l], rows of BK + 8
// The fragments are read 16 bytes at a time where two of a thread's values lie side by side (fragments below);
// rows of 2 (along) and 8 (along k) mod 16 doubles keep those reads, and the 8-byte ones of B along n, free of bank
// conflicts.
template <int RS, bool ALONG>
struct layout {
    static constexpr int ROW = ALONG ? RS + 2 : BK + 8;
    static_assert(ROW % 16 == (ALONG ? 2 : 8), "conflict-free padding");
    static __device__ __forceinline__ int at(int r, int l) { return ALONG ? l * ROW + r : r * ROW + l; }
};

// One stage: op(A)'s tile then op(B)'s, each sized for the larger of its two layouts
template <int RS>
constexpr int tile_doubles()
{
    return BK * layout<RS, true>::ROW > RS * layout<RS, false>::ROW ? BK * layout<RS, true>::ROW
                                                                     : RS * layout<RS, false>::ROW;
}
constexpr int A_DOUBLES = tile_doubles<BM>(), B_DOUBLES = tile_doubles<BN>();
constexpr int STAGE_DOUBLES = A_DOUBLES + B_DOUBLES;
constexpr size_t SMEM_BYTES = (size_t)STAGES * STAGE_DOUBLES * sizeof(double);

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

// cp.async of `bytes` (0, 8 or 16) valid bytes of a `size`-byte chunk, the rest zero-filled.
template <int SIZE>
__device__ __forceinline__ void copy_async(void *dst, const void *src, int bytes)
{
    if (SIZE == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_addr(dst)), "l"(src), "r"(bytes));
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(smem_addr(dst)), "l"(src), "r"(bytes));
}

__device__ __forceinline__ void commit()
{
    asm volatile("cp.async.commit_group;\n" ::);
}

template <int N>
__device__ __forceinline__ void wait_groups()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

// One operand's tile loads: x is the operand, R its extent along the block tile's side RS (m for op(A), n for
// op(B)), r0 the block's first index along that side, ALONG: the operand is contiguous along that side.  Each
// thread copies CHUNKS chunks of 2 doubles per tile: along the contiguous side it always has the same 2 (so their
// bounds are worked out once), across it a fixed stride apart; each tile only moves the pointer along k.
template <int RS, bool ALONG, bool VEC>
struct tile_loader {
    typedef layout<RS, ALONG> L;
    static constexpr int CHUNKS = RS * BK / 2 / THREADS;
    static constexpr int PER_ROW = ALONG ? RS / 2 : BK / 2; // chunks along the contiguous side
    static constexpr int ACROSS = THREADS / PER_ROW;          // rows (ALONG: of l; else of r) one pass covers
    static_assert(CHUNKS >= 1 && THREADS % PER_ROW == 0 && (ALONG ? BK : RS) % ACROSS == 0,
                  "threads must cover the tile evenly");
    const double *src;  // the thread's first chunk in the current tile
    int64_t kleft;      // K less the k index of the thread's first element in the current tile
    int along;          // ALONG: valid doubles of the chunk along r (0..2)
    unsigned rvalid;    // !ALONG: bit q set when chunk q's r is inside
    int dst;            // the first chunk's offset in a tile's buffer

    __device__ __forceinline__ tile_loader(const double *x, int64_t ld, int64_t R, int64_t K, int64_t r0)
    {
        const int t = threadIdx.x;
        const int c = 2 * (t % PER_ROW), row = t / PER_ROW; // c along the contiguous side, row across it
        const int64_t r = ALONG ? r0 + c : r0 + row;
        const int l = ALONG ? row : c;
        src = ALONG ? x + r + l * ld : x + l + r * ld;
        kleft = K - l;
        dst = ALONG ? L::at(c, l) : L::at(row, c);
        const int64_t left = R - r;
        along = ALONG ? (int)(left <= 0 ? 0 : left >= 2 ? 2 : 1) : 0;
        rvalid = 0;
        if (!ALONG)
            for (int q = 0; q < CHUNKS; q++)
                rvalid |= (unsigned)(r + q * ACROSS < R) << q;
    }

    // the current tile into s (zeros outside the operand), then on to the next; ld is read from the kernel's
    // parameters each time rather than kept (with the strides made from it) in registers
    __device__ __forceinline__ void load(double *s, int64_t ld)
    {
#pragma unroll
        for (int q = 0; q < CHUNKS; q++) {
            // valid doubles: ALONG, those along r while this chunk's l is inside; else those along l while r is
            const int64_t kl = ALONG ? kleft - q * ACROSS : kleft;
            const int n = ALONG ? (kl > 0 ? along : 0)
                                : ((rvalid >> q) & 1 ? (int)(kl <= 0 ? 0 : kl >= 2 ? 2 : 1) : 0);
            double *d = s + dst + q * ACROSS * L::ROW;
            const double *g = src + q * ACROSS * ld;
            if (VEC) {
                copy_async<16>(d, n ? g : src, 8 * n);
            } else {
                copy_async<8>(d, n > 0 ? g : src, n > 0 ? 8 : 0);
                copy_async<8>(d + 1, n > 1 ? g + 1 : src, n > 1 ? 8 : 0);
            }
        }
        src += ALONG ? BK * ld : BK;
        kleft -= BK;
    }
};

// D = A * B + D for one 16 x 8 x 8 tile; the fragments are those of mma.m16n8k8 f64: with g = lane / 4 and
// t = lane % 4, a = A(g, t), A(g+8, t), A(g, t+4), A(g+8, t+4); b = B(t, g), B(t+4, g);
// d = D(g, 2t), D(g, 2t+1), D(g+8, 2t), D(g+8, 2t+1).  Rows and k are only names here: fragments() below maps them
// onto the tile's rows and k so that a thread's values lie side by side in shared memory.
__device__ __forceinline__ void mma16x8x8(double (&d)[4], const double (&a)[4], const double (&b)[2])
{
#if __CUDA_ARCH__ >= 900
    asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
        : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
#elif __CUDA_ARCH__ >= 800
    // m8n8k4: a = A(g, t), b = B(t, g), d = D(g, 2t), D(g, 2t+1): the top and bottom halves, k in two steps
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
        : "+d"(d[0]), "+d"(d[1]) : "d"(a[0]), "d"(b[0]));
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
        : "+d"(d[0]), "+d"(d[1]) : "d"(a[2]), "d"(b[1]));
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
        : "+d"(d[2]), "+d"(d[3]) : "d"(a[1]), "d"(b[0]));
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
        : "+d"(d[2]), "+d"(d[3]) : "d"(a[3]), "d"(b[1]));
#else
    __trap(); // no FP64 tensor cores before sm_80
#endif
}

// Which block tile of C block b computes: groups of 8 tile rows, column by column within a group, so that blocks
// running at once share panels of op(A) and op(B) in L2.
__device__ __forceinline__ void block_tile(int64_t b, int64_t tiles_m, int64_t tiles_n, int64_t *tm, int64_t *tn)
{
    constexpr int64_t GROUP = 8;
    const int64_t per_group = GROUP * tiles_n, first = b / per_group * GROUP;
    const int64_t rows = tiles_m - first < GROUP ? tiles_m - first : GROUP, within = b % per_group;
    *tm = first + within % rows;
    *tn = within / rows;
}

// A warp's fragments for the k8 step at kk of a stage (as, bs): for each 16-row MMA tile i (rows wm + 16 i ..) and
// 8-column tile j.  The MMA's k slots t and t + 4 are the tile's k 2t and 2t + 1 (the same for A and B, so the
// product is the same sum); along k (A transposed, B not) that makes a thread's two k values adjacent.  Where
// op(A) is contiguous along m, its MMA rows g and g + 8 are the tile's rows 2g and 2g + 1, adjacent too (rowmap).
template <bool TA, bool TB>
struct fragments {
    double a[MI][4], b[NJ][2];
    static __device__ __forceinline__ int rowmap(int g, int half) { return TA ? g + 8 * half : 2 * g + half; }

    __device__ __forceinline__ void load(const double *as, const double *bs, int kk, int wm, int wn, int g, int t)
    {
        typedef layout<BM, !TA> LA;
        typedef layout<BN, TB> LB;
        const int k0 = kk + 2 * t;
#pragma unroll
        for (int i = 0; i < MI; i++) {
            const int r = wm + 16 * i + rowmap(g, 0);
            if (!TA) { // rows 2g, 2g + 1 side by side: (a0, a1) at k0, (a2, a3) at k0 + 1
                const double2 lo = *reinterpret_cast<const double2 *>(&as[LA::at(r, k0)]);
                const double2 hi = *reinterpret_cast<const double2 *>(&as[LA::at(r, k0 + 1)]);
                a[i][0] = lo.x, a[i][1] = lo.y, a[i][2] = hi.x, a[i][3] = hi.y;
            } else { // k0, k0 + 1 side by side: (a0, a2) in row g, (a1, a3) in row g + 8
                const double2 top = *reinterpret_cast<const double2 *>(&as[LA::at(r, k0)]);
                const double2 bot = *reinterpret_cast<const double2 *>(&as[LA::at(r + 8, k0)]);
                a[i][0] = top.x, a[i][1] = bot.x, a[i][2] = top.y, a[i][3] = bot.y;
            }
        }
#pragma unroll
        for (int j = 0; j < NJ; j++) {
            const int c = wn + 8 * j + g;
            if (!TB) { // along k: (b0, b1) side by side
                const double2 v = *reinterpret_cast<const double2 *>(&bs[LB::at(c, k0)]);
                b[j][0] = v.x, b[j][1] = v.y;
            } else {
                b[j][0] = bs[LB::at(c, k0)], b[j][1] = bs[LB::at(c, k0 + 1)];
            }
        }
    }
};

template <bool TA, bool TB, bool VEC>
__global__ void __launch_bounds__(THREADS, TB_DMMA_MINB) dmma_kernel(tb_dproblem p, int64_t tiles_m, int64_t tiles_n)
{
    extern __shared__ __align__(16) double smem[];
    int64_t tm, tn;
    block_tile(blockIdx.x, tiles_m, tiles_n, &tm, &tn);
    const int64_t m0 = tm * BM, n0 = tn * BN;
    // op(A) is contiguous along m unless transposed; op(B) along n only when transposed
    tile_loader<BM, !TA, VEC> la(p.a, p.lda, p.m, p.k, m0);
    tile_loader<BN, TB, VEC> lb(p.b, p.ldb, p.n, p.k, n0);
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int g = lane / 4, t = lane % 4;
    const int wm = (warp % WARPS_M) * WM, wn = (warp / WARPS_M) * WN;

    double acc[MI][NJ][4];
#pragma unroll
    for (int i = 0; i < MI; i++)
#pragma unroll
        for (int j = 0; j < NJ; j++)
#pragma unroll
            for (int q = 0; q < 4; q++)
                acc[i][j][q] = 0.0;

    // The ring: tile kt in stage kt % STAGES.  The barrier that makes tile kt + 1 visible comes before the last
    // step of tile kt; after it the buffer of tile kt - 1 is refilled (every warp read it before this barrier: its
    // last step ran, or with PREFETCH its fragments were read, before the warp got here).  With PREFETCH each warp
    // reads the next step's fragments, across tiles too, while this step's MMAs run.
    const int64_t ktiles = (p.k + BK - 1) / BK;
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < ktiles) {
            la.load(smem + s * STAGE_DOUBLES, p.lda);
            lb.load(smem + s * STAGE_DOUBLES + A_DOUBLES, p.ldb);
        }
        commit();
    }
    wait_groups<STAGES - 2>();
    __syncthreads();
    constexpr int STEPS = BK / 8;
    fragments<TA, TB> f[PREFETCH ? 2 : 1];
    if (PREFETCH)
        f[0].load(smem, smem + A_DOUBLES, 0, wm, wn, g, t);
    for (int64_t kt = 0; kt < ktiles; kt++) {
        const double *as = smem + (kt % STAGES) * STAGE_DOUBLES;
#pragma unroll
        for (int step = 0; step < STEPS; step++) {
            if (step == STEPS - 1) {
                wait_groups<STAGES - 3>(); // tile kt + 1 is in (the last STAGES - 3 tiles issued may not be)
                __syncthreads();           // ... for every warp, and every warp is done with tile kt - 1
                if (kt + STAGES - 1 < ktiles) {
                    double *s = smem + ((kt + STAGES - 1) % STAGES) * STAGE_DOUBLES; // tile kt - 1's buffer
                    la.load(s, p.lda);
                    lb.load(s + A_DOUBLES, p.ldb);
                }
                commit();
            }
            const double *next = step == STEPS - 1 ? smem + ((kt + 1) % STAGES) * STAGE_DOUBLES : as;
            if (!PREFETCH)
                f[0].load(as, as + A_DOUBLES, step * 8, wm, wn, g, t);
            else if (step < STEPS - 1 || kt + 1 < ktiles)
                f[(step + 1) % 2].load(next, next + A_DOUBLES, ((step + 1) % STEPS) * 8, wm, wn, g, t);
            const fragments<TA, TB> &cur = f[PREFETCH ? step % 2 : 0];
#pragma unroll
            for (int i = 0; i < MI; i++)
#pragma unroll
                for (int j = 0; j < NJ; j++)
                    mma16x8x8(acc[i][j], cur.a[i], cur.b[j]);
        }
    }
    wait_groups<0>();

    // C = alpha * acc + beta * C, C unread when beta == 0
#pragma unroll
    for (int i = 0; i < MI; i++)
#pragma unroll
        for (int j = 0; j < NJ; j++)
#pragma unroll
            for (int q = 0; q < 4; q++) {
                const int64_t row = m0 + wm + 16 * i + fragments<TA, TB>::rowmap(g, q / 2);
                const int64_t col = n0 + wn + 8 * j + 2 * t + q % 2;
                if (row < p.m && col < p.n)
                    tb_store(p, row, col, acc[i][j][q]);
            }
}

template <bool TA, bool TB, bool VEC>
int launch(const tb_dproblem &p, void *stream)
{
    auto kernel = dmma_kernel<TA, TB, VEC>;
    cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)SMEM_BYTES);
    if (e != cudaSuccess)
        return (int)e;
    const int64_t tiles_m = (p.m + BM - 1) / BM, tiles_n = (p.n + BN - 1) / BN;
    kernel<<<(unsigned)(tiles_m * tiles_n), THREADS, SMEM_BYTES, (cudaStream_t)stream>>>(p, tiles_m, tiles_n);
    return (int)cudaGetLastError();
}

template <bool TA, bool TB>
int launch_aligned(const tb_dproblem &p, void *stream)
{
    // 16-byte copies: every column of A and B starts on 16 bytes
    const bool vec = ((uintptr_t)p.a % 16 == 0) && ((uintptr_t)p.b % 16 == 0) && p.lda % 2 == 0 && p.ldb % 2 == 0;
    return vec ? launch<TA, TB, true>(p, stream) : launch<TA, TB, false>(p, stream);
}

} // namespace

extern "C" int tb_launch_dmma(const tb_kproblem *kp, void *, void *stream)
{
    const tb_dproblem p = tb_problem_of<double>(kp);
    if (p.transa)
        return p.transb ? launch_aligned<true, true>(p, stream) : launch_aligned<true, false>(p, stream);
    return p.transb ? launch_aligned<false, true>(p, stream) : launch_aligned<false, false>(p, stream);
}
