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

constexpr int BM = TB_DMMA_BM, BN = TB_DMMA_BN, BK = TB_DMMA_BK, STAGES = TB_DMMA_STAGES;
constexpr int WM = TB_DMMA_WM, WN = TB_DMMA_WN, MI = WM / 16, NJ = WN / 8; // a warp's tile, in MMA tiles
constexpr int WARPS_M = BM / WM, THREADS = 32 * WARPS_M * (BN / WN);
static_assert(BM % WM == 0 && BN % WN == 0 && WM % 16 == 0 && WN % 8 == 0 && BK % 16 == 0,
              "tile shapes (an even number of k8 steps a tile, so that the fragments' buffers alternate alike in each)");
static_assert(STAGES >= 2, "the ring keeps a tile in flight while the current one is multiplied");

// An operand's tile of side RS (BM for op(A), BN for op(B)) is kept in the operand's own layout:
//   contiguous along its side (A not transposed, B transposed): [l][r], rows of RS + PAD
//   contiguous along k (A transposed, B not transposed):        [r][l], rows of BK + PAD
// PAD (2, 4 or 8 doubles) keeps the fragment reads free of bank conflicts, for the way they are read (PAIRED:
// fragments below): paired, 16-byte reads of two rows (along) or two k (along k) need rows of 2 or 8 mod 16
// doubles, and 8-byte reads of B along n rows of 2; one by one, 8-byte reads need rows of 4 mod 16.
template <int RS, bool ALONG, bool PAIRED>
struct layout {
    static constexpr int PAD = PAIRED ? (ALONG ? 2 : 8) : 4;
    static constexpr int ROW = (ALONG ? RS : BK) + PAD;
    static_assert(ROW % 2 == 0, "rows start on 16 bytes");
    static __device__ __forceinline__ int at(int r, int l) { return ALONG ? l * ROW + r : r * ROW + l; }
};

// One stage: op(A)'s tile then op(B)'s, each sized for the largest of its layouts
template <int RS>
constexpr int tile_doubles()
{
    return BK * (RS + 4) > RS * (BK + 8) ? BK * (RS + 4) : RS * (BK + 8);
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
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_addr(dst)), "l"(src), "r"(bytes)
                     : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(smem_addr(dst)), "l"(src), "r"(bytes)
                     : "memory");
}

__device__ __forceinline__ void commit()
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}

template <int N>
__device__ __forceinline__ void wait_groups()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// One operand's tile loads: x is the operand, R its extent along the block tile's side RS (m for op(A), n for
// op(B)), r0 the block's first index along that side, ALONG: the operand is contiguous along that side.  Each
// thread copies CHUNKS chunks of 2 doubles per tile: along the contiguous side it always has the same 2 (so their
// bounds are worked out once), across it a fixed stride apart; each tile only moves the pointer along k.
template <int RS, bool ALONG, bool PAIRED, bool VEC>
struct tile_loader {
    typedef layout<RS, ALONG, PAIRED> L;
    static constexpr int CHUNKS = RS * BK / 2 / THREADS;
    static constexpr int PER_ROW = ALONG ? RS / 2 : BK / 2; // chunks along the contiguous side
    static constexpr int ACROSS = THREADS / PER_ROW;          // rows (ALONG: of l; else of r) one pass covers
    static_assert(CHUNKS >= 1 && CHUNKS <= 32 && THREADS % PER_ROW == 0 && (ALONG ? BK : RS) % ACROSS == 0,
                  "threads must cover the tile evenly");
    const double *src;  // the thread's first chunk in the next tile
    int64_t kleft;      // K less the k index of the thread's first element in the next tile
    unsigned bytes;     // ALONG: valid bytes of the chunk along r (0, 8, 16); else bit q set when chunk q's r is inside
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
        bytes = 0;
        if (ALONG)
            bytes = left <= 0 ? 0 : left >= 2 ? 16 : 8;
        else
            for (int q = 0; q < CHUNKS; q++)
                bytes |= (unsigned)(r + q * ACROSS < R) << q;
    }

    // the next tile into s (zeros outside the operand; all zeros past K), then on to the one after.  No branches,
    // so that the copies can be scheduled among the MMAs.  A chunk outside copies nothing (src-size 0), so its
    // address, which may lie outside the operand, is not read.  ld is read from the kernel's parameters each time
    // rather than kept in registers.
    __device__ __forceinline__ void load(double *s, int64_t ld)
    {
        // valid doubles along k: ALONG, rows l + q ACROSS < kl; else columns c, c + 1 < kl
        const int kl = (int)(kleft <= 0 ? 0 : kleft >= BK ? BK : kleft);
        const int n2 = kl < 2 ? kl : 2;
#pragma unroll
        for (int q = 0; q < CHUNKS; q++) {
            const int rb = ALONG ? (int)bytes : (int)((bytes >> q) & 1u) * 16; // bytes while k is inside
            const int n = ALONG ? (q * ACROSS < kl ? rb / 8 : 0) : (rb ? n2 : 0);
            double *d = s + dst + q * ACROSS * L::ROW;
            const double *g = src + q * ACROSS * ld;
            if (VEC) {
                copy_async<16>(d, g, 8 * n);
            } else {
                copy_async<8>(d, g, n > 0 ? 8 : 0);
                copy_async<8>(d + 1, g + 1, n > 1 ? 8 : 0);
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

// A warp's fragments: a[i] for each of its 16-row MMA tiles i (rows wm + 16 i ..), b[buf][j] for each 8-column
// tile j, in two buffers so that a k8 step's b can be read while the step before still multiplies with the other
// (a[i] is read again as soon as the step's last MMA with it has been issued).
//
// The MMA's rows and k slots are only names: which of the tile's rows and k they stand for is chosen so that the
// reads are few (the same k for A and B, so the product is the same sum).  Where op(A) runs along m (PAIRED), the
// MMA's k slots t and t + 4 are the tile's k 2t and 2t + 1 and its rows g and g + 8 the tile's rows 2g and 2g + 1:
// a[i] is then two 16-byte reads, and b[j] one where op(B) runs along k.  Where op(A) runs along k, a thread's four
// values of A lie in two rows, in the wrong order for the MMA's registers; they are read one by one straight into
// place (k slots t and t + 4 as they are, rows g and g + 8).  Offsets are to the thread's first element, so that
// each read is a base and a constant.
template <bool TA, bool TB>
struct fragments {
    static constexpr bool PAIRED = !TA;
    typedef layout<BM, !TA, PAIRED> LA;
    typedef layout<BN, TB, PAIRED> LB;
    static constexpr int K1 = PAIRED ? 1 : 4; // the tile's k of the MMA's k slot t + 4, less that of slot t
    double a[MI][4], b[2][NJ][2];
    static __device__ __forceinline__ int rowmap(int g, int half) { return PAIRED ? 2 * g + half : g + 8 * half; }
    static __device__ __forceinline__ int a_offset(int wm, int g, int t)
    {
        return LA::at(wm + rowmap(g, 0), PAIRED ? 2 * t : t);
    }
    static __device__ __forceinline__ int b_offset(int wn, int g, int t) { return LB::at(wn + g, PAIRED ? 2 * t : t); }

    // a[i] for the k8 step at kk; as: the stage's op(A) tile plus a_offset
    __device__ __forceinline__ void load_a(int i, const double *as, int kk)
    {
        if (PAIRED) { // rows 2g, 2g + 1 side by side: (a0, a1) at k 2t, (a2, a3) at k 2t + 1
            const double2 lo = *reinterpret_cast<const double2 *>(&as[LA::at(16 * i, kk)]);
            const double2 hi = *reinterpret_cast<const double2 *>(&as[LA::at(16 * i, kk + 1)]);
            a[i][0] = lo.x, a[i][1] = lo.y, a[i][2] = hi.x, a[i][3] = hi.y;
        } else {
            a[i][0] = as[LA::at(16 * i, kk)], a[i][1] = as[LA::at(16 * i + 8, kk)];
            a[i][2] = as[LA::at(16 * i, kk + K1)], a[i][3] = as[LA::at(16 * i + 8, kk + K1)];
        }
    }

    // b[buf] for the k8 step at kk; bs: the stage's op(B) tile plus b_offset
    __device__ __forceinline__ void load_b(int buf, const double *bs, int kk)
    {
#pragma unroll
        for (int j = 0; j < NJ; j++) {
            if (PAIRED && !TB) { // along k: (b0, b1) side by side
                const double2 v = *reinterpret_cast<const double2 *>(&bs[LB::at(8 * j, kk)]);
                b[buf][j][0] = v.x, b[buf][j][1] = v.y;
            } else {
                b[buf][j][0] = bs[LB::at(8 * j, kk)], b[buf][j][1] = bs[LB::at(8 * j, kk + K1)];
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
    tile_loader<BM, !TA, !TA, VEC> la(p.a, p.lda, p.m, p.k, m0);
    tile_loader<BN, TB, !TA, VEC> lb(p.b, p.ldb, p.n, p.k, n0);
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int g = lane / 4, t = lane % 4;
    const int wm = (warp % WARPS_M) * WM, wn = (warp / WARPS_M) * WN;
    typedef fragments<TA, TB> frags;
    const int aoff = frags::a_offset(wm, g, t), boff = A_DOUBLES + frags::b_offset(wn, g, t);

    double acc[MI][NJ][4];
#pragma unroll
    for (int i = 0; i < MI; i++)
#pragma unroll
        for (int j = 0; j < NJ; j++)
#pragma unroll
            for (int q = 0; q < 4; q++)
                acc[i][j][q] = 0.0;

    // The ring: tile kt in stage kt % STAGES, all STAGES in flight at the start.  Each k8 step's MMAs run on
    // fragments read during the step before; the last step of tile kt reads tile kt + 1's first fragments, after
    // a barrier that makes tile kt + 1 visible to all warps.  Every warp has read the whole of tile kt before that
    // barrier, so right after it tile kt's buffer is refilled with tile kt + STAGES.  The barrier comes after the
    // step's first MMAs, so that the tensor cores have work queued while the warps meet.
    const int64_t ktiles = (p.k + BK - 1) / BK;
#pragma unroll
    for (int s = 0; s < STAGES; s++) { // past K: zeros, nothing read
        la.load(smem + s * STAGE_DOUBLES, p.lda);
        lb.load(smem + s * STAGE_DOUBLES + A_DOUBLES, p.ldb);
        commit();
    }
    wait_groups<STAGES - 1>();
    __syncthreads();
    constexpr int STEPS = BK / 8;
    frags f;
#pragma unroll
    for (int i = 0; i < MI; i++)
        f.load_a(i, smem + aoff, 0);
    f.load_b(0, smem + boff, 0);
    int stage = 0;
    for (int64_t kt = 0; kt < ktiles; kt++) {
        double *cur = smem + stage * STAGE_DOUBLES;
        const int next_stage = stage + 1 == STAGES ? 0 : stage + 1;
        const double *next = smem + next_stage * STAGE_DOUBLES;
#pragma unroll
        for (int step = 0; step < STEPS; step++) {
            const bool last = step == STEPS - 1;
            const double *from = last ? next : cur; // the next step's stage and k
            const int kk = last ? 0 : 8 * (step + 1);
#pragma unroll
            for (int i = 0; i < MI; i++) {
#pragma unroll
                for (int j = 0; j < NJ; j++)
                    mma16x8x8(acc[i][j], f.a[i], f.b[step % 2][j]);
                if (i == 0) {
                    if (last) {
                        wait_groups<STAGES - 2>(); // tile kt + 1 is in
                        __syncthreads();           // ... for every warp, and no warp reads tile kt any more
                        la.load(cur, p.lda); // past K: zeros, nothing read
                        lb.load(cur + A_DOUBLES, p.ldb);
                        commit();
                    }
                    f.load_b((step + 1) % 2, from + boff, kk);
                }
                f.load_a(i, from + aoff, kk);
            }
        }
        stage = next_stage;
    }
    wait_groups<0>();

    // C = alpha * acc + beta * C, C unread when beta == 0
#pragma unroll
    for (int i = 0; i < MI; i++)
#pragma unroll
        for (int j = 0; j < NJ; j++)
#pragma unroll
            for (int q = 0; q < 4; q++) {
                const int64_t row = m0 + wm + 16 * i + frags::rowmap(g, q / 2);
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
