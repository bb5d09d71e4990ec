// DGEMM on the FP64 tensor cores (DMMA): mma.sync m16n8k8 f64 on sm_90, four m8n8k4 on sm_80-89.
//
// A block computes a BM x BN tile of C; its warps each hold a WM x WN piece of C in registers (MMA tiles of 16 x 8;
// 64 x 32: 64 doubles per thread).  Tiles of op(A) and op(B), BK deep along k, come from global memory by cp.async
// into a ring of STAGES shared-memory buffers, so that the loads of the next tiles overlap the MMAs on the current
// one; one barrier per tile.  Within a tile the loop is software-pipelined: each k8 step's fragments are read, and
// the next tiles' copies issued, among the previous step's MMAs, which keeps the tensor cores fed (reads all
// before the MMAs leave them idle at each step: doc/NOTES.md).  Three block tiles (a fourth, smaller, for
// tb_launch_dmma64x32), chosen by shape, and k split across blocks where the tiles are too few (split.cuh), as the
// recipe says (lib/decide/recipes.c), which also computes a last wave of tiles that would leave most SMs idle apart
// (a second part); where k is short, blocks go on from tile to tile (dmma_kernel).
//
// Shared tiles keep each operand's global layout (the side that is contiguous in memory stays contiguous), so
// every copy is a straight 16-byte cp.async whatever the transposes, and the fragment loads read across that
// layout, 16 bytes at a time where they can (layout and fragments below say how, and how bank conflicts are
// avoided).
//
// Edges: chunks past op(A), op(B) or k are zero-filled by cp.async (ignore-src), and stores outside C are
// skipped, so any m, n, k works.  16-byte copies need 16-byte aligned columns and an even length along the side
// each operand is contiguous along; otherwise each double is copied on its own (VEC = false).  Results: FP64
// products accumulated in FP64 by the tensor cores.
#include <stdint.h>
#include "cp_async.cuh"
#include "mma_f64.cuh"
#include "split.cuh"

namespace {

// Every tile is BK deep along k; a warp holds WM x WN of C (MMA tiles of 16 x 8) unless its configuration says
// otherwise.  The block tiles are kernels/recipe.h's rows (config below: BM x BN of C, a ring of STAGES buffers,
// MINB blocks an SM that __launch_bounds__ must leave room for): BIG, one block an SM for large products; TALL and
// WIDE, two blocks an SM of 128 x 64 or 64 x 128 where k is short, there are too few big tiles, or one side is
// thin; SMALL, three blocks an SM of 64 x 32 with warps of 32 x 16 (tb_launch_dmma64x32).  Which one a product
// gets, how k is split and when blocks persist: its recipe (lib/decide/recipes.c).
constexpr int BK = TB_DMMA_BK, WM = 64, WN = 32;

static_assert(BK % 16 == 0, "an even number of k8 steps a tile, so that the fragments' buffers alternate alike in each");

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

// One operand's tile of side RS, sized for the largest of its layouts
template <int RS>
constexpr int tile_doubles()
{
    return BK * (RS + 4) > RS * (BK + 8) ? BK * (RS + 4) : RS * (BK + 8);
}

// A block configuration: BM x BN of C, warps of WM x WN (MI x NJ MMA tiles), a ring of STAGES buffers, each op(A)'s
// tile then op(B)'s.  MINB: blocks per SM that __launch_bounds__ must leave room for.
template <int BM_, int BN_, int STAGES_, int MINB_, int WM_ = WM, int WN_ = WN>
struct config {
    static constexpr int BM = BM_, BN = BN_, STAGES = STAGES_, MINB = MINB_, WM = WM_, WN = WN_;
    static constexpr int MI = WM / 16, NJ = WN / 8;
    static_assert(WM % 16 == 0 && WN % 8 == 0, "whole MMA tiles");
    static constexpr int WARPS_M = BM / WM, THREADS = 32 * WARPS_M * (BN / WN);
    static constexpr int A_DOUBLES = tile_doubles<BM>(), STAGE_DOUBLES = A_DOUBLES + tile_doubles<BN>();
    static constexpr size_t SMEM_BYTES = (size_t)STAGES * STAGE_DOUBLES * sizeof(double);
    static_assert(BM % WM == 0 && BN % WN == 0, "whole warps");
    static_assert(STAGES >= 2, "the ring keeps a tile in flight while the current one is multiplied");
};
// The configurations of kernels/recipe.h's rows
template <int S> struct shape_config;
#define TB_SHAPE_CONFIG(id, bm, bn, stages, minb, wm, wn)                                                            \
    template <> struct shape_config<TB_DMMA_##id> {                                                                  \
        typedef config<bm, bn, stages, minb, wm, wn> type;                                                           \
    };
TB_DMMA_SHAPES(TB_SHAPE_CONFIG)
#undef TB_SHAPE_CONFIG
typedef shape_config<TB_DMMA_BIG>::type big_t;
typedef shape_config<TB_DMMA_TALL>::type tall_t;
typedef shape_config<TB_DMMA_WIDE>::type wide_t;
typedef shape_config<TB_DMMA_SMALL>::type small_t;

// One operand's tile loads: x is the operand, R its extent along the block tile's side RS (m for op(A), n for
// op(B)), r0 the block's first index along that side, ALONG: the operand is contiguous along that side.  Each
// thread copies CHUNKS chunks of 2 doubles per tile: along the contiguous side it always has the same 2 (so their
// bounds are worked out once), across it a fixed stride apart; each tile only moves the pointer along k.  A tile
// is DEPTH deep along k: BK, or BK / 2 for complex blocks (fragments below), whose k is half the product's.  A
// chunk is wholly inside the operand or wholly outside it (launch picks 8-byte chunks where a 16-byte one could
// straddle an edge), so each copies all its bytes or none (copy_async_ignore), with no byte count to work out.
template <int RS, bool ALONG, bool PAIRED, bool VEC, int THREADS, int DEPTH = BK>
struct tile_loader {
    typedef layout<RS, ALONG, PAIRED> L;
    static constexpr int CHUNKS = RS * DEPTH / 2 / THREADS;
    static constexpr int PER_ROW = ALONG ? RS / 2 : DEPTH / 2; // chunks along the contiguous side
    static constexpr int ACROSS = THREADS / PER_ROW;             // rows (ALONG: of l; else of r) one pass covers
    static_assert(CHUNKS >= 1 && CHUNKS <= 32 && THREADS % PER_ROW == 0 && (ALONG ? DEPTH : RS) % ACROSS == 0,
                  "threads must cover the tile evenly");
    static_assert(DEPTH == BK || ALONG, "half-depth tiles run along their side");
    const double *src;  // the thread's first chunk in the next tile
    int64_t kleft;      // K less the k index of the thread's first element in the next tile
    unsigned bytes;     // ALONG: valid bytes of the chunk along r (0, 8, 16; 0 or 16 with VEC); else bit q set when
                        // chunk q's r is inside
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
    // so that the copies can be scheduled among the MMAs.  A chunk outside copies nothing, so its address, which
    // may lie outside the operand, is not read.  ld is read from the kernel's parameters each time rather than
    // kept in registers.
    __device__ __forceinline__ void load(double *s, int64_t ld)
    {
        // valid doubles along k: ALONG, rows l + q ACROSS < kl; else columns c, c + 1 < kl
        const int kl = (int)(kleft <= 0 ? 0 : kleft >= DEPTH ? DEPTH : kleft);
#pragma unroll
        for (int q = 0; q < CHUNKS; q++) {
            const int rb = ALONG ? (int)bytes : (int)((bytes >> q) & 1u) * 16; // bytes while k is inside
            const bool kin = ALONG ? q * ACROSS < kl : kl > 0;                  // the chunk's first k is inside
            double *d = s + dst + q * ACROSS * L::ROW;
            const double *g = src + q * ACROSS * ld;
            if (VEC) {
                copy_async_ignore<16>(d, g, kin && rb != 0);
            } else { // the second double: along r, inside R; along k, inside K
                copy_async_ignore<8>(d, g, kin && rb != 0);
                copy_async_ignore<8>(d + 1, g + 1, kin && (ALONG ? rb == 16 : rb != 0 && kl > 1));
            }
        }
        src += ALONG ? DEPTH * ld : DEPTH;
        kleft -= DEPTH;
    }
};

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
//
// CA (complex blocks): op(A) is interleaved complex, and the product's op(A) the matrix of its 2 x 2 blocks [re -im;
// im re] (kernels/complex.cu makes that matrix in memory otherwise).  The tile holds op(A) as stored, read as real.
// Not transposed (2m rows, half the product's k): the tile's rows 2g, 2g + 1 at the product's k 2t, 2t + 1 are one
// complex element's block, whose (re, im), one 16-byte read, give a[i] as (re, im, -im, re).  Transposed (m rows of
// 2k along k): the product's element (2i + p, c) is the stored (i, c xor p), negated where that is an imaginary
// part and p is 0, and once more for the conjugate transpose (transa 2): a thread's p and c's parity are fixed, so
// its reads only move to the neighbouring column, under one sign (asign).
//
// CB (complex pairs): op(B) is the transpose, or conjugate transpose (transb 2), of an interleaved complex matrix,
// and the product's op(B) its real view, whose rows 2l, 2l + 1 at column j are op(B)(l, j)'s parts: the stored
// matrix read as real holds them at rows 2j, 2j + 1 of column l.  The tile holds it as stored (2 BN rows, half the
// product's k).  Paired, the product's k 2t, 2t + 1 are one element's parts: one 16-byte read (the imaginary part
// negated for C); otherwise a thread's k t and t + 4 are one part (t's parity) of the elements at l t / 2 and
// t / 2 + 2, under one sign (bsign).
template <class C, bool TA, bool TB, bool CA = false, bool CB = false>
struct fragments {
    static_assert(!CB || TB, "complex pairs are op(B) transposed");
    static constexpr bool PAIRED = !TA;
    static constexpr int AROWS = CA && TA ? C::BM / 2 : C::BM; // op(A)'s rows in a tile as stored
    typedef layout<AROWS, !TA, PAIRED> LA;
    typedef layout<CB ? 2 * C::BN : C::BN, TB, PAIRED> LB;
    static constexpr int K1 = PAIRED ? 1 : 4;   // the tile's k of the MMA's k slot t + 4, less that of slot t
    static constexpr int HALF = PAIRED ? 1 : 8; // the tile's row of the MMA's row g + 8, less that of row g
    double a[C::MI][4], b[2][C::NJ][2];
    double asign; // CA, transposed: the sign of this thread's values of op(A) (1 otherwise)
    double bsign; // CB: the sign of this thread's imaginary parts of op(B) (paired), or of all its values (1 otherwise)
    static __device__ __forceinline__ int rowmap(int g, int half) { return (PAIRED ? 2 * g : g) + HALF * half; }
    static __device__ __forceinline__ int a_offset(int wm, int g, int t)
    {
        if (CA && TA)
            return LA::at(wm / 2 + g / 2, t ^ (g & 1));
        return LA::at(wm + rowmap(g, 0), CA ? t : PAIRED ? 2 * t : t);
    }
    static __device__ __forceinline__ double a_sign(int g, int t, bool conj)
    {
        const int p = g & 1;
        return CA && TA && ((t ^ p) & 1) ? (p != (int)conj ? 1.0 : -1.0) : 1.0;
    }
    static __device__ __forceinline__ int b_offset(int wn, int g, int t)
    {
        if (CB)
            return PAIRED ? LB::at(2 * (wn + g), t) : LB::at(2 * (wn + g) + (t & 1), t >> 1);
        return LB::at(wn + g, PAIRED ? 2 * t : t);
    }
    static __device__ __forceinline__ double b_sign(int t, bool conj)
    {
        return CB && conj && (PAIRED || (t & 1)) ? -1.0 : 1.0;
    }

    // a[i] for the k8 step at kk; as: the stage's op(A) tile plus a_offset
    __device__ __forceinline__ void load_a(int i, const double *as, int kk)
    {
        if (CA && TA) { // rows g, g + 8 of the product: stored rows 4 apart
            a[i][0] = asign * as[LA::at(8 * i, kk)], a[i][1] = asign * as[LA::at(8 * i + 4, kk)];
            a[i][2] = asign * as[LA::at(8 * i, kk + K1)], a[i][3] = asign * as[LA::at(8 * i + 4, kk + K1)];
        } else if (CA) { // the block of complex element (2g, kk / 2 + t): kk is even
            const double2 v = *reinterpret_cast<const double2 *>(&as[LA::at(16 * i, kk / 2)]);
            a[i][0] = v.x, a[i][1] = v.y, a[i][2] = -v.y, a[i][3] = v.x;
        } else if (PAIRED) { // rows 2g, 2g + 1 side by side: (a0, a1) at k 2t, (a2, a3) at k 2t + 1
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
        for (int j = 0; j < C::NJ; j++) {
            if (CB && PAIRED) { // one element's parts: (re, im) at rows 2 (wn + 8 j + g), + 1 of column kk / 2 + t
                const double2 v = *reinterpret_cast<const double2 *>(&bs[LB::at(16 * j, kk / 2)]);
                b[buf][j][0] = v.x, b[buf][j][1] = bsign * v.y;
            } else if (CB) { // k kk + t and kk + t + 4: columns (kk + t) / 2 and 2 further, part t & 1
                b[buf][j][0] = bsign * bs[LB::at(16 * j, kk / 2)];
                b[buf][j][1] = bsign * bs[LB::at(16 * j, kk / 2 + 2)];
            } else if (PAIRED && !TB) { // along k: (b0, b1) side by side
                const double2 v = *reinterpret_cast<const double2 *>(&bs[LB::at(8 * j, kk)]);
                b[buf][j][0] = v.x, b[buf][j][1] = v.y;
            } else {
                b[buf][j][0] = bs[LB::at(8 * j, kk)], b[buf][j][1] = bs[LB::at(8 * j, kk + K1)];
            }
        }
    }
};

// C(i, j) and C(i + HALF, j) = alpha * (v0, v1) + beta * C, as tb_store would (C unread when beta == 0): one
// 16-byte access where both rows are inside C and the pair is aligned (PAIR, only with HALF = 1: C and ldc allow
// it, and i is even)
template <bool PAIR, int HALF>
__device__ __forceinline__ void store_rows(const tb_dproblem &p, int64_t i, int64_t j, double v0, double v1)
{
    static_assert(!PAIR || HALF == 1, "a 16-byte store holds neighbouring rows");
    if (i >= p.m || j >= p.n)
        return;
    if (PAIR && i + 1 < p.m) {
        double2 *c = reinterpret_cast<double2 *>(p.c + i + j * p.ldc);
        double2 r = make_double2(p.alpha * v0, p.alpha * v1);
        if (p.beta != 0.0) {
            const double2 old = *c;
            r.x = fma(p.beta, old.x, r.x), r.y = fma(p.beta, old.y, r.y);
        }
        *c = r;
        return;
    }
    tb_store(p, i, j, v0);
    if (i + HALF < p.m)
        tb_store(p, i + HALF, j, v1);
}

// A warp's values of C (acc, as dmma_kernel holds them; row0, col0: the thread's first row and column) stored
// where the whole block tile lies inside C and beta == 0: no bounds checks, C unread, alpha * v only if SCALE.
// F: the warp's fragments, whose HALF is how far apart a thread's two rows are; PAIR: the two in one 16-byte store.
template <class F, bool PAIR, bool SCALE, int MI_, int NJ_>
__device__ __forceinline__ void store_whole(const tb_dproblem &p, const double (&acc)[MI_][NJ_][4], int64_t row0,
                                            int64_t col0)
{
    double *c = p.c + row0 + col0 * p.ldc;
#pragma unroll
    for (int i = 0; i < MI_; i++)
#pragma unroll
        for (int j = 0; j < NJ_; j++)
#pragma unroll
            for (int q = 0; q < 2; q++) {
                double *x = c + 16 * i + (8 * j + q) * p.ldc;
                const double v0 = SCALE ? p.alpha * acc[i][j][q] : acc[i][j][q];
                const double v1 = SCALE ? p.alpha * acc[i][j][q + 2] : acc[i][j][q + 2];
                if (PAIR)
                    *reinterpret_cast<double2 *>(x) = make_double2(v0, v1);
                else
                    x[0] = v0, x[F::HALF] = v1;
            }
}

// Block (x, z) computes tiles x, x + gridDim.x, ... of C for slice z of k (split.cuh; one slice without a split).
// With fewer blocks than tiles (as many as fit on the GPU at once) each block goes on to its next tile without
// leaving the SM: the next tile's first loads are issued before this one's results are stored, so that the stores
// drain while they arrive; short products, whose blocks spend as long storing C as multiplying, gain most.
template <class C, bool TA, bool TB, bool VEC, bool PAIR, bool CA, bool CB>
__global__ void __launch_bounds__(C::THREADS, C::MINB)
    dmma_kernel(tb_dproblem p, int64_t tiles_m, int64_t tiles_n, tb_split sp)
{
    constexpr int BM = C::BM, BN = C::BN, STAGES = C::STAGES, A_DOUBLES = C::A_DOUBLES, MI = C::MI, NJ = C::NJ;
    constexpr int STAGE_DOUBLES = C::STAGE_DOUBLES;
    extern __shared__ __align__(16) double smem[];
    const int64_t z = blockIdx.y;
    const unsigned ntiles = (unsigned)(tiles_m * tiles_n);
    constexpr bool HALF_K = CA && !TA, HALF_M = CA && TA; // op(A) as stored: CA's k or m halved
    p.a += z * (HALF_K ? sp.a_step / 2 : sp.a_step), p.b += z * (CB ? sp.b_step / 2 : sp.b_step), p.c += z * sp.c_step;
    p.k = p.k - z * sp.kchunk < sp.kchunk ? p.k - z * sp.kchunk : sp.kchunk;
    const int64_t ka = HALF_K ? p.k / 2 : p.k, ma = HALF_M ? p.m / 2 : p.m;
    // op(A) is contiguous along m unless transposed; op(B) along n only when transposed
    typedef tile_loader<HALF_M ? BM / 2 : BM, !TA, !TA, VEC, C::THREADS, HALF_K ? BK / 2 : BK> loader_a;
    typedef tile_loader<CB ? 2 * BN : BN, TB, !TA, VEC, C::THREADS, CB ? BK / 2 : BK> loader_b;
    const int64_t nb = CB ? 2 * p.n : p.n, kb = CB ? p.k / 2 : p.k; // op(B) as stored: CB's n doubled, k halved
    unsigned tile = blockIdx.x, tm, tn;
    tb_group_tile(tile, (unsigned)tiles_m, (unsigned)tiles_n, &tm, &tn);
    int64_t m0 = (int64_t)tm * BM, n0 = (int64_t)tn * BN;
    loader_a la(p.a, p.lda, ma, ka, HALF_M ? m0 / 2 : m0);
    loader_b lb(p.b, p.ldb, nb, kb, CB ? 2 * n0 : n0);
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int g = lane / 4, t = lane % 4;
    const int wm = (warp % C::WARPS_M) * C::WM, wn = (warp / C::WARPS_M) * C::WN;
    typedef fragments<C, TA, TB, CA, CB> frags;
    const int aoff = frags::a_offset(wm, g, t), boff = A_DOUBLES + frags::b_offset(wn, g, t);
    const int64_t ktiles = (p.k + BK - 1) / BK;
    constexpr int STEPS = BK / 8;

    // The ring: tile kt in stage kt % STAGES, all STAGES in flight at the start.  Each k8 step's MMAs run on
    // fragments read during the step before; the last step of tile kt reads tile kt + 1's first fragments, after
    // a barrier that makes tile kt + 1 visible to all warps.  Every warp has read the whole of tile kt before that
    // barrier, so right after it tile kt's buffer is refilled with tile kt + STAGES.  The barrier comes after the
    // step's first MMAs, so that the tensor cores have work queued while the warps meet.
#pragma unroll
    for (int s = 0; s < STAGES; s++) { // past K: zeros, nothing read
        la.load(smem + s * STAGE_DOUBLES, p.lda);
        lb.load(smem + s * STAGE_DOUBLES + A_DOUBLES, p.ldb);
        copies_commit();
    }
    for (;;) {
        double acc[MI][NJ][4];
#pragma unroll
        for (int i = 0; i < MI; i++)
#pragma unroll
            for (int j = 0; j < NJ; j++)
#pragma unroll
                for (int q = 0; q < 4; q++)
                    acc[i][j][q] = 0.0;
        copies_wait<STAGES - 1>();
        __syncthreads();
        frags f;
        f.asign = frags::a_sign(g, t, p.transa == 2);
        f.bsign = frags::b_sign(t, p.transb == 2);
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
                            copies_wait<STAGES - 2>(); // tile kt + 1 is in
                            __syncthreads();           // ... for every warp, and no warp reads tile kt any more
                            la.load(cur, p.lda);       // past K: zeros, nothing read
                            lb.load(cur + A_DOUBLES, p.ldb);
                            copies_commit();
                        }
                        f.load_b((step + 1) % 2, from + boff, kk);
                    }
                    f.load_a(i, from + aoff, kk);
                }
            }
            stage = next_stage;
        }

        // The ring is free once every warp is done with it (and the zeros copied past K have landed): the next
        // tile's first loads go out before this tile's stores.  The ring starts again at stage 0.
        copies_wait<0>();
        __syncthreads();
        const int64_t cm0 = m0, cn0 = n0;
        const unsigned next_tile = tile + gridDim.x;
        if (next_tile < ntiles) {
            tb_group_tile(next_tile, (unsigned)tiles_m, (unsigned)tiles_n, &tm, &tn);
            m0 = (int64_t)tm * BM, n0 = (int64_t)tn * BN;
            la = loader_a(p.a, p.lda, ma, ka, HALF_M ? m0 / 2 : m0);
            lb = loader_b(p.b, p.ldb, nb, kb, CB ? 2 * n0 : n0);
#pragma unroll
            for (int s = 0; s < STAGES; s++) {
                la.load(smem + s * STAGE_DOUBLES, p.lda);
                lb.load(smem + s * STAGE_DOUBLES + A_DOUBLES, p.ldb);
                copies_commit();
            }
        }

        // C = alpha * acc + beta * C, C unread when beta == 0.  Rows rowmap(g, 0) and rowmap(g, 1) of a thread's
        // values are side by side in C where op(A) runs along m (PAIRED): one 16-byte store for the two.  The
        // common case, a tile wholly inside C with beta == 0, is stored without bounds checks, and without
        // multiplies where alpha == 1 (alpha * v is v then, bit for bit): the stores are all that is left.
        const int64_t row0 = cm0 + wm + frags::rowmap(g, 0), col0 = cn0 + wn + 2 * t;
        if (cm0 + BM <= p.m && cn0 + BN <= p.n && p.beta == 0.0) {
            if (p.alpha == 1.0)
                store_whole<frags, PAIR, false>(p, acc, row0, col0);
            else
                store_whole<frags, PAIR, true>(p, acc, row0, col0);
        } else {
#pragma unroll
            for (int i = 0; i < MI; i++)
#pragma unroll
                for (int j = 0; j < NJ; j++)
#pragma unroll
                    for (int q = 0; q < 2; q++)
                        store_rows<PAIR, frags::HALF>(p, row0 + 16 * i, col0 + 8 * j + q, acc[i][j][q],
                                                      acc[i][j][q + 2]);
        }
        if (next_tile >= ntiles)
            break;
        tile = next_tile;
    }
}

// Configuration C's tiles of p's C: rows of them, columns
template <class C>
int64_t tile_rows(const tb_dproblem &p)
{
    return (p.m + C::BM - 1) / C::BM;
}
template <class C>
int64_t tile_cols(const tb_dproblem &p)
{
    return (p.n + C::BN - 1) / C::BN;
}

template <class C, bool TA, bool TB, bool VEC, bool CA, bool CB>
int launch(const tb_dproblem &p, const tb_split &sp, unsigned slices, int64_t persist_depth, void *stream)
{
    const bool pair = !TA && (uintptr_t)p.c % 16 == 0 && p.ldc % 2 == 0;
    auto kernel = pair ? dmma_kernel<C, TA, TB, VEC, !TA, CA, CB> : dmma_kernel<C, TA, TB, VEC, false, CA, CB>;
    cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)C::SMEM_BYTES);
    if (e != cudaSuccess)
        return (int)e;
    const int64_t tiles_m = tile_rows<C>(p), tiles_n = tile_cols<C>(p);
    const int64_t all = tiles_m * tiles_n, resident = (int64_t)C::MINB * tb_sm_count();
    const bool persist = sp.kchunk <= persist_depth; // where storing a tile takes about as long as computing it
    const dim3 grid((unsigned)(persist && all > resident ? resident : all), slices);
    kernel<<<grid, C::THREADS, C::SMEM_BYTES, (cudaStream_t)stream>>>(p, tiles_m, tiles_n, sp);
    return (int)cudaGetLastError();
}

// One configuration, every transpose (CA: op(A) as complex blocks; CB: op(B), transposed, as complex pairs).
// 16-byte copies where every column of A and B starts on 16 bytes and no chunk of two doubles can straddle an edge:
// the side each operand is contiguous along (m or k for op(A), k or n for op(B); 2n, even, for pairs) has an even
// length.  Otherwise 8-byte copies.
template <class C, bool CA, bool CB = false>
int launch_one(const tb_dproblem &p, const tb_split &sp, unsigned slices, int64_t persist_depth, void *stream)
{
    const bool aligned = ((uintptr_t)p.a % 16 == 0) && ((uintptr_t)p.b % 16 == 0) && p.lda % 2 == 0 && p.ldb % 2 == 0;
    const bool vec = aligned && (p.transa ? p.k : p.m) % 2 == 0 && (CB || (p.transb ? p.n : p.k) % 2 == 0);
#define TB_DMMA_LAUNCH(TA, TB)                                                                                       \
    (vec ? launch<C, TA, TB, true, CA, CB>(p, sp, slices, persist_depth, stream)                                   \
         : launch<C, TA, TB, false, CA, CB>(p, sp, slices, persist_depth, stream))
    if constexpr (CB) { // pairs: op(B) transposed only
        return p.transa ? TB_DMMA_LAUNCH(true, true) : TB_DMMA_LAUNCH(false, true);
    } else {
        if (p.transa)
            return p.transb ? TB_DMMA_LAUNCH(true, true) : TB_DMMA_LAUNCH(true, false);
        return p.transb ? TB_DMMA_LAUNCH(false, true) : TB_DMMA_LAUNCH(false, false);
    }
#undef TB_DMMA_LAUNCH
}

// One configuration, with k cut into `slices` pieces when that is more than one and there is a workspace; blocks
// persist where a slice is at most persist_depth deep
template <class C, bool CA = false, bool CB = false>
int launch_config(const tb_dproblem &p, int64_t slices, double *ws, int64_t persist_depth, void *stream)
{
    return tb_split_launch(p, slices, BK, ws, stream, [=](const tb_dproblem &q, const tb_split &sp, unsigned n) {
        return launch_one<C, CA, CB>(q, sp, n, persist_depth, stream);
    });
}

template <bool CA, bool CB>
int launch_shape(int shape, const tb_dproblem &p, int64_t slices, double *ws, int64_t persist_depth, void *stream)
{
    switch (shape) {
    case TB_DMMA_BIG: return launch_config<big_t, CA, CB>(p, 1, NULL, persist_depth, stream);
    case TB_DMMA_TALL: return launch_config<tall_t, CA, CB>(p, slices, ws, persist_depth, stream);
    case TB_DMMA_SMALL: return launch_config<small_t, CA, CB>(p, slices, ws, persist_depth, stream);
    default: return launch_config<wide_t, CA, CB>(p, slices, ws, persist_depth, stream);
    }
}

} // namespace

// The recipe's parts, run in turn (one workspace for both): the first is p's C up to row or column r->at where
// there are two.  halved_m: op(A), transposed, as complex blocks (its rows as stored are half the product's);
// doubled_n: op(B) as complex pairs (its columns as stored run along twice the product's n).
extern "C" size_t tb_workspace_dmma(const tb_kproblem *kp, const tb_recipe *r)
{
    const int64_t m2 = r->parts > 1 && r->by_rows ? kp->m - r->at : kp->m;
    const int64_t n2 = r->parts > 1 && !r->by_rows ? kp->n - r->at : kp->n;
    const size_t first = tb_split_bytes<double>(r->parts > 1 && r->by_rows ? r->at : kp->m,
                                                r->parts > 1 && !r->by_rows ? r->at : kp->n, r->slices);
    const size_t second = r->parts > 1 ? tb_split_bytes<double>(m2, n2, r->slices2) : 0;
    return first > second ? first : second;
}

template <bool CA, bool CB = false>
static int run(const tb_kproblem *kp, const tb_recipe *r, void *workspace, void *stream)
{
    const tb_dproblem p = tb_problem_of<double>(kp);
    double *ws = (double *)workspace;
    if (r->parts < 2)
        return launch_shape<CA, CB>(r->shape, p, r->slices, ws, r->persist_depth, stream);
    const bool halved_m = CA && kp->transa, doubled_n = CB;
    tb_dproblem first = p, second = p;
    const int64_t at = r->at;
    if (r->by_rows) {
        first.m = at, second.m = p.m - at;
        second.a += p.transa ? (halved_m ? at / 2 : at) * p.lda : at, second.c += at;
    } else {
        first.n = at, second.n = p.n - at;
        second.b += p.transb ? (doubled_n ? 2 * at : at) : at * p.ldb, second.c += at * p.ldc;
    }
    const int e = launch_shape<CA, CB>(r->shape, first, r->slices, ws, r->persist_depth, stream);
    return e ? e : launch_shape<CA, CB>(r->shape2, second, r->slices2, ws, r->persist_depth, stream);
}

extern "C" int tb_launch_dmma(const tb_kproblem *kp, const tb_recipe *r, void *workspace, void *stream)
{
    return run<false>(kp, r, workspace, stream);
}

// kp's op(A) read as complex blocks, and op(B), where transposed, as complex pairs (kernels.h)
extern "C" int tb_launch_dmma_blocks(const tb_kproblem *kp, const tb_recipe *r, void *workspace, void *stream)
{
    if (kp->k % 2 || kp->m % 2)
        return (int)cudaErrorInvalidValue;
    return kp->transb ? run<true, true>(kp, r, workspace, stream) : run<true>(kp, r, workspace, stream);
}

// kp's op(B), transposed, read as complex pairs, op(A) real (kernels.h)
extern "C" int tb_launch_dmma_pairs(const tb_kproblem *kp, const tb_recipe *r, void *workspace, void *stream)
{
    if (kp->k % 2 || !kp->transb)
        return (int)cudaErrorInvalidValue;
    return run<false, true>(kp, r, workspace, stream);
}

// Each configuration on its own, without a split (for measuring and testing them)
extern "C" int tb_launch_dmma128(const tb_kproblem *kp, const tb_recipe *r, void *, void *stream)
{
    return launch_config<big_t>(tb_problem_of<double>(kp), 1, NULL, r->persist_depth, stream);
}
extern "C" int tb_launch_dmma128x64(const tb_kproblem *kp, const tb_recipe *r, void *, void *stream)
{
    return launch_config<tall_t>(tb_problem_of<double>(kp), 1, NULL, r->persist_depth, stream);
}
extern "C" int tb_launch_dmma64x128(const tb_kproblem *kp, const tb_recipe *r, void *, void *stream)
{
    return launch_config<wide_t>(tb_problem_of<double>(kp), 1, NULL, r->persist_depth, stream);
}
extern "C" int tb_launch_dmma64x32(const tb_kproblem *kp, const tb_recipe *r, void *, void *stream)
{
    return launch_config<small_t>(tb_problem_of<double>(kp), 1, NULL, r->persist_depth, stream);
}
