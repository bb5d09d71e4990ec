// The register-blocked kernels.  A block computes a BM x BN tile of C; each thread an 8 x TN piece of it (8 x 16 for
// the large and middle tiles, 8 x 8 for the small one), held in registers.  Per step along k a thread reads 8
// values of op(A) and TN of op(B) from shared memory as 16-byte loads and does 8*TN FMAs with them.  The next
// step's values are read into a second set of registers while this step's FMAs run.  Shared memory is
// double-buffered: the next tiles are fetched from global memory into registers while the current ones are used,
// and one barrier per tile separates the two.
//
// Both tiles are kept k-major in shared memory (a[k][i], b[k][j]), whatever the operands' transposes: an operand
// whose global layout runs along i (or j) is copied straight across with 16-byte stores; one that runs along k is
// loaded 16 bytes along k and stored transposed.  Rows are padded by 4 floats, which keeps 16-byte alignment and
// spreads those transposed stores over the banks.
//
// Edges: every load outside op(A) or op(B) gives zero and every store outside C is skipped, so any m, n, k
// works.  Tiles of C wholly inside C take a loop without bounds checks.  16-byte global accesses need 16-byte
// aligned columns (VEC); the launchers pick the element-wise variant otherwise.  Results are plain FP32 FMAs.
//
// What was tried and measured slower (cp.async pipelines, other depths and fragment schemes, PTX FMA orders):
// doc/NOTES.md.  The schedule ptxas makes decides the last per cent, and moving the same instructions between
// functions changes it: time any change of this file.
#include <stdint.h>
#include <type_traits>
#include "split.cuh"

namespace {

// A tile configuration: a block computes BM x BN of C, k advances BK at a time, each thread holds an 8 x TN
// piece of C.  A warp's 32 threads form 8 (along m) x 4 (along n), so a warp covers 64 x 4*TN and a block
// BM/64 x BN/(4*TN) warps.  MINB: blocks per SM that __launch_bounds__ must leave room for.
template <int BM_, int BN_, int TN_, int BK_, int MINB_>
struct config {
    static constexpr int BM = BM_, BN = BN_, TN = TN_, BK = BK_, MINB = MINB_;
    static constexpr int WARPS_M = BM / 64, WARPS_N = BN / (4 * TN), THREADS = 32 * WARPS_M * WARPS_N;
    static_assert(BM % 64 == 0 && BN % (4 * TN) == 0 && TN % 4 == 0 && BK % 8 == 0, "tile sizes");
};

// The tile configurations, config<BM, BN, TN, BK, MINB>, as kernels/recipe.h's rows; which one a shape gets: its
// recipe (lib/decide/recipes.c).  The large and middle tiles are 8 deep (the large one at 16 would need more than the
// 48 KiB of static shared memory).  The thin tile serves C with a side of at most 32, that side along its 32
// columns (the small tile would leave most of its 64 columns idle); at two blocks an SM, ptxas keeps all its values
// in registers.
template <int S> struct shape_config;
#define TB_SHAPE_CONFIG(id, bm, bn, tn, bk, minb)                                                                    \
    template <> struct shape_config<TB_BLOCKED_##id> {                                                               \
        typedef config<bm, bn, tn, bk, minb> type;                                                                   \
    };
TB_BLOCKED_SHAPES(TB_SHAPE_CONFIG)
#undef TB_SHAPE_CONFIG
typedef shape_config<TB_BLOCKED_LARGE_M>::type large_m_t; // tall: for all but TT
typedef shape_config<TB_BLOCKED_LARGE_N>::type large_n_t; // wide: for TT
typedef shape_config<TB_BLOCKED_MID>::type mid_t;
typedef shape_config<TB_BLOCKED_SMALL>::type small_t;
typedef shape_config<TB_BLOCKED_THIN>::type thin_t;

constexpr int PAD = 4; // floats after each row of a shared tile

template <int RS, int BK>
using tile_t = float[BK][RS + PAD]; // k-major: [l][r]

// One operand's share of each RS x BK tile (RS: the operand's side of the block tile, BM for op(A), BN for op(B)),
// PASSES float4s per thread, fetched tile after tile along k.
//   DEEP = false: element (r, l) at x[r + l*ld] (contiguous along r): a pass covers all RS of r for
//                 THREADS/(RS/4) values of l
//   DEEP = true:  element (r, l) at x[l + r*ld] (contiguous along l): a pass covers all BK of l for
//                 THREADS/(BK/4) values of r
// Addresses and the bounds along r are worked out once; each tile only moves the pointer and compares l with k.
template <int RS, int BK, int THREADS, bool DEEP, bool VEC>
struct loader {
    static constexpr int PASSES = RS * BK / 4 / THREADS;
    static constexpr int RQ = RS / 4, LQ = BK / 4;            // float4s across a tile's r, along its l
    static constexpr int STEP = DEEP ? THREADS / LQ : THREADS / RQ; // r (DEEP) or l covered by one pass
    static_assert(PASSES >= 1 && (DEEP ? RS % STEP : BK % STEP) == 0, "threads must cover the tile evenly");
    const float *ptr;
    int64_t stride; // between passes
    int64_t kleft;  // k minus the k index of the thread's (first) element in the current tile
    int rvalid;     // DEEP: bit `pass` set when that pass's r is inside; otherwise how many of its 4 r's are

    __device__ __forceinline__ loader(const float *x, int64_t ld, int64_t r0, int64_t R, int64_t K)
    {
        const int t = threadIdx.x;
        const int64_t r = DEEP ? r0 + t / LQ : r0 + 4 * (t % RQ);
        const int l = DEEP ? 4 * (t % LQ) : t / RQ;
        ptr = DEEP ? x + l + r * ld : x + r + l * ld;
        stride = STEP * ld;
        kleft = K - l;
        if (DEEP) {
            rvalid = 0;
            for (int pass = 0; pass < PASSES; pass++)
                rvalid |= (r + pass * STEP < R) << pass;
        } else {
            const int64_t left = R - r;
            rvalid = (int)(left < 0 ? 0 : left > 4 ? 4 : left);
        }
    }

    // the next tile's elements (zeros outside the operand); ld is re-read from the kernel parameters rather
    // than kept in registers
    __device__ __forceinline__ void next(int64_t ld, float4 (&v)[PASSES])
    {
#pragma unroll
        for (int pass = 0; pass < PASSES; pass++) {
            const int64_t kl = DEEP ? kleft : kleft - STEP * pass;
            const int n = DEEP ? ((rvalid >> pass) & 1 ? (int)(kl < 0 ? 0 : kl > 4 ? 4 : kl) : 0) : (kl > 0 ? rvalid : 0);
            const float *q = ptr + pass * stride;
            v[pass] = make_float4(0.f, 0.f, 0.f, 0.f);
            if (VEC && n == 4) {
                v[pass] = __ldg(reinterpret_cast<const float4 *>(q));
            } else {
                if (n > 0) v[pass].x = __ldg(q);
                if (n > 1) v[pass].y = __ldg(q + 1);
                if (n > 2) v[pass].z = __ldg(q + 2);
                if (n > 3) v[pass].w = __ldg(q + 3);
            }
        }
        advance(ld);
    }

    // on to the next tile along k
    __device__ __forceinline__ void advance(int64_t ld)
    {
        ptr += DEEP ? BK : BK * ld;
        kleft -= BK;
    }

    // where the thread's pass-th float4 of a tile copied straight (non-DEEP) goes in shared memory
    __device__ __forceinline__ static float *straight(tile_t<RS, BK> &s, int pass)
    {
        const int t = threadIdx.x;
        return &s[t / RQ + pass * STEP][4 * (t % RQ)];
    }

    // next() for a tile that lies wholly inside the operand (VEC only): no bounds to check
    __device__ __forceinline__ void next_inside(int64_t ld, float4 (&v)[PASSES])
    {
#pragma unroll
        for (int pass = 0; pass < PASSES; pass++)
            v[pass] = __ldg(reinterpret_cast<const float4 *>(ptr + pass * stride));
        advance(ld);
    }

    __device__ __forceinline__ static void stash(tile_t<RS, BK> &s, const float4 (&v)[PASSES])
    {
        const int t = threadIdx.x;
#pragma unroll
        for (int pass = 0; pass < PASSES; pass++) {
            if (DEEP) {
                const int r = t / LQ + pass * STEP, l = 4 * (t % LQ);
                s[l][r] = v[pass].x, s[l + 1][r] = v[pass].y, s[l + 2][r] = v[pass].z, s[l + 3][r] = v[pass].w;
            } else {
                *reinterpret_cast<float4 *>(straight(s, pass)) = v[pass];
            }
        }
    }
};

// An operand of interleaved complex numbers in a complex form (kernels/complex.cu), read from the stored matrix
// read as real, x (ld: twice the complex leading dimension), a float4 at a time.  k is even (the real form's, cut
// into slices of whole tiles), and so are the rows of blocks, so a float4 is wholly inside or holds one complex
// number (its half) inside.  The same interface as loader's.
//   W = 2, op(B) as pairs: the real view of a transposed op(B), whose element (r, l) is part l & 1 of stored
//          element (r, l / 2): a float4 at x[2r + (l / 2) ld] is parts l, l + 1 of r and r + 1, the imaginary
//          parts negated for the conjugate transpose (sign, set by the caller);
//   W = 4, op(A) as blocks, op N: element (r, l) is that of the 2 x 2 block [re -im; im re] of stored element
//          (r / 2, l / 2), so x holds column l / 2 of the blocks' left halves as it is: a float4 at x[r + (l / 2)
//          ld] (r a multiple of 4) is rows r..r + 3 of column l, and, as (-v.y, v.x, -v.w, v.z), of column l + 1.
//   For both a float4 holds W rows of the tile at two values of l, and a pass covers all RS of r for 2
//   THREADS/(RS/W) values of l.
//   W = 1, op(A) as blocks, transposed (T, or C: sign): stored element (l / 2, r / 2) runs along l, so a float4
//          at x[l + (r / 2) ld] (l a multiple of 4) is the parts of two of them, the blocks' rows r and r + 1 at
//          l..l + 3; a pass covers all BK of l for 8 THREADS/BK values of r.
// Whether THREADS threads cover an RS x BK tile evenly that way
template <int RS, int BK, int THREADS, int W>
constexpr bool complex_covers = W == 1 ? RS * BK % (8 * THREADS) == 0 && THREADS % (BK / 4) == 0 &&
                                             RS % (8 * THREADS / BK) == 0
                                       : RS * BK % (2 * W * THREADS) == 0 && THREADS % (RS / W) == 0 &&
                                             BK % (2 * THREADS / (RS / W)) == 0;

template <int RS, int BK, int THREADS, bool VEC, int W>
struct complex_loader {
    static constexpr bool T = W == 1;                                  // threads along l
    static constexpr int PASSES = RS * BK / (T ? 8 : 2 * W) / THREADS; // a float4: 8 (or 2 W) values of the tile
    static constexpr int RQ = T ? BK / 4 : RS / W;                      // float4s across a tile's l (T) or r
    static constexpr int STEP = 2 * THREADS / RQ;                       // r (T) or l covered by one pass
    static_assert((W == 1 || W == 2 || W == 4) && complex_covers<RS, BK, THREADS, W>,
                  "threads must cover the tile evenly");
    const float *ptr;
    int64_t stride;    // between passes
    int64_t kleft;     // k minus the k index of the thread's first element in the current tile
    int rvalid;        // T: bit `pass` set when that pass's r is inside; otherwise how many of its W r's are
    float sign = 1.0f; // the imaginary parts' (-1: conjugate)

    __device__ __forceinline__ complex_loader(const float *x, int64_t ld, int64_t r0, int64_t R, int64_t K)
    {
        const int t = threadIdx.x;
        const int64_t r = r0 + (T ? 2 * (t / RQ) : W * (t % RQ));
        const int l = T ? 4 * (t % RQ) : 2 * (t / RQ);
        ptr = T ? x + l + (r / 2) * ld : x + (4 / W) * r + (l / 2) * ld;
        stride = STEP / 2 * ld;
        kleft = K - l;
        if (T) { // as loader's (one function for both changed the real kernels' PTX)
            rvalid = 0;
            for (int pass = 0; pass < PASSES; pass++)
                rvalid |= (r + pass * STEP < R) << pass;
        } else {
            const int64_t left = R - r;
            rvalid = (int)(left < 0 ? 0 : left > W ? W : left);
        }
    }

    // what of the pass's float4 is inside the operand: T, its halves (0, 1 or 2, of FULL); otherwise its r's (of
    // FULL = W), the second half inside past HALF
    static constexpr int FULL = T ? 2 : W, HALF = FULL / 2;
    __device__ __forceinline__ int inside(int pass) const
    {
        if (T)
            return (rvalid >> pass) & 1 ? (kleft >= 4 ? 2 : kleft > 0 ? 1 : 0) : 0;
        return kleft - STEP * pass > 0 ? rvalid : 0;
    }

    __device__ __forceinline__ void next(int64_t ld, float4 (&v)[PASSES])
    {
#pragma unroll
        for (int pass = 0; pass < PASSES; pass++) {
            const int n = inside(pass);
            const float *q = ptr + pass * stride;
            v[pass] = make_float4(0.f, 0.f, 0.f, 0.f);
            if (VEC && n == FULL) {
                v[pass] = __ldg(reinterpret_cast<const float4 *>(q));
            } else {
                if (n > 0) v[pass].x = __ldg(q), v[pass].y = __ldg(q + 1);
                if (n > HALF) v[pass].z = __ldg(q + 2), v[pass].w = __ldg(q + 3);
            }
        }
        advance(ld);
    }

    __device__ __forceinline__ void advance(int64_t ld)
    {
        ptr += T ? BK : BK / 2 * ld;
        kleft -= BK;
    }

    __device__ __forceinline__ void next_inside(int64_t ld, float4 (&v)[PASSES])
    {
#pragma unroll
        for (int pass = 0; pass < PASSES; pass++)
            v[pass] = __ldg(reinterpret_cast<const float4 *>(ptr + pass * stride));
        advance(ld);
    }

    // pairs: (r, l) and (r + 1, l) as one 8-byte store, and the same for l + 1; blocks: columns l and l + 1;
    // transposed blocks: rows r and r + 1 of columns l..l + 3, 8 bytes a column
    __device__ __forceinline__ void stash(tile_t<RS, BK> &s, const float4 (&v)[PASSES]) const
    {
        const int t = threadIdx.x;
#pragma unroll
        for (int pass = 0; pass < PASSES; pass++) {
            const int r = T ? 2 * (t / RQ) + pass * STEP : W * (t % RQ), l = T ? 4 * (t % RQ) : 2 * (t / RQ) + pass * STEP;
            const float4 u = v[pass];
            if constexpr (T) {
                const float i0 = sign * u.y, i1 = sign * u.w;
                *reinterpret_cast<float2 *>(&s[l][r]) = make_float2(u.x, i0);
                *reinterpret_cast<float2 *>(&s[l + 1][r]) = make_float2(-i0, u.x);
                *reinterpret_cast<float2 *>(&s[l + 2][r]) = make_float2(u.z, i1);
                *reinterpret_cast<float2 *>(&s[l + 3][r]) = make_float2(-i1, u.z);
            } else if constexpr (W == 2) {
                *reinterpret_cast<float2 *>(&s[l][r]) = make_float2(u.x, u.z);
                *reinterpret_cast<float2 *>(&s[l + 1][r]) = make_float2(sign * u.y, sign * u.w);
            } else {
                *reinterpret_cast<float4 *>(&s[l][r]) = u;
                *reinterpret_cast<float4 *>(&s[l + 1][r]) = make_float4(-u.y, u.x, -u.w, u.z);
            }
        }
    }
};
template <int RS, int BK, int THREADS, bool VEC>
using pair_loader = complex_loader<RS, BK, THREADS, VEC, 2>;
template <int RS, int BK, int THREADS, bool VEC, bool TA>
using block_loader = complex_loader<RS, BK, THREADS, VEC, TA ? 1 : 4>;

// Whether op(A) of C's tile can be read as complex blocks, whatever its op
template <class C>
constexpr bool blocks_fit = complex_covers<C::BM, C::BK, C::THREADS, 4> && complex_covers<C::BM, C::BK, C::THREADS, 1>;

// C(i, j..) for a run of 4 rows starting at i: alpha*acc + beta*C, C unread when beta == 0.  ct: C holds p's
// result transposed, (i, j) at c[j + i*ldc] (written element by element).
__device__ __forceinline__ void store4(const tb_sproblem &p, float *cbase, bool vec_c, bool ct, int64_t i,
                                       int64_t j, const float *acc)
{
    if (j >= p.n || i >= p.m)
        return;
    if (ct) {
        for (int q = 0; q < 4 && i + q < p.m; q++)
            tb_update(p, cbase + j + (i + q) * p.ldc, acc[q]);
        return;
    }
    float *c = cbase + i + j * p.ldc;
    if (vec_c && i + 3 < p.m) {
        float4 r = make_float4(p.alpha * acc[0], p.alpha * acc[1], p.alpha * acc[2], p.alpha * acc[3]);
        if (p.beta != 0.0f) {
            float4 old = *reinterpret_cast<float4 *>(c);
            r.x = fmaf(p.beta, old.x, r.x), r.y = fmaf(p.beta, old.y, r.y);
            r.z = fmaf(p.beta, old.z, r.z), r.w = fmaf(p.beta, old.w, r.w);
        }
        *reinterpret_cast<float4 *>(c) = r;
        return;
    }
    for (int q = 0; q < 4 && i + q < p.m; q++)
        c[q] = p.beta == 0.0f ? p.alpha * acc[q] : fmaf(p.beta, c[q], p.alpha * acc[q]);
}

// A thread's operands for one step along k: 8 of op(A) (two float4, 32 rows apart) and TN of op(B) (TN/4 float4,
// 16 columns apart), each float4 shared by the lanes that need it (8 distinct per warp for op(A), 4 for op(B):
// one shared-memory wavefront each).
template <class C>
struct frag {
    float4 a[2], b[C::TN / 4];
    __device__ __forceinline__ void load(const tile_t<C::BM, C::BK> &as, const tile_t<C::BN, C::BK> &bs, int k,
                                         int im, int jn)
    {
        a[0] = *reinterpret_cast<const float4 *>(&as[k][im]);
        a[1] = *reinterpret_cast<const float4 *>(&as[k][im + 32]);
#pragma unroll
        for (int q = 0; q < C::TN / 4; q++)
            b[q] = *reinterpret_cast<const float4 *>(&bs[k][jn + 16 * q]);
    }
};

// One step's 8*TN FMAs, column by column of the thread's piece of C, the rows of every other column in reverse.
// The order decides how often an FFMA must read all three operands from the register file instead of reusing
// one from the operand cache, and each such read risks a register-bank conflict (a dispatch stall).  In the
// 128 x 128 kernel's main loop (bench/sass-reuse.sh) this order reads three registers least often of the orders
// tried, and was the fastest (bench/RESULTS.md).
template <class C>
__device__ __forceinline__ void fma_step(float (&acc)[8][C::TN], const frag<C> &f)
{
    const float a[8] = { f.a[0].x, f.a[0].y, f.a[0].z, f.a[0].w, f.a[1].x, f.a[1].y, f.a[1].z, f.a[1].w };
    float b[C::TN];
#pragma unroll
    for (int q = 0; q < C::TN / 4; q++)
        b[4 * q] = f.b[q].x, b[4 * q + 1] = f.b[q].y, b[4 * q + 2] = f.b[q].z, b[4 * q + 3] = f.b[q].w;
#pragma unroll
    for (int j = 0; j < C::TN; j++)
#pragma unroll
        for (int ii = 0; ii < 8; ii++) {
            const int i = j % 2 ? 7 - ii : ii;
            acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
}

// The loop along k for one BM x BN tile of C, adding into acc.  INSIDE: the tile lies wholly inside C and the
// operands are 16-byte aligned (VEC), so that every tile of op(A) and op(B) but a partial last one along k is
// loaded without bounds checks.  PB: op(B) as complex pairs (pair_loader; TB set); PA: op(A) as complex blocks
// (block_loader, op N or transposed as TA says).
template <class C, bool TA, bool TB, bool VEC, bool INSIDE, bool PB, bool PA>
__device__ __forceinline__ void tile_loop(const tb_sproblem &p, const float *a, const float *b, int64_t m0, int64_t n0,
                                          int64_t klen, tile_t<C::BM, C::BK> (&as)[2], tile_t<C::BN, C::BK> (&bs)[2],
                                          int im, int jn, float (&acc)[8][C::TN])
{
    constexpr int BK = C::BK;
    // op(A) is DEEP when A is transposed (A[l + i*lda]); op(B) when B is not (B[l + j*ldb])
    typedef std::conditional_t<PA, block_loader<C::BM, BK, C::THREADS, VEC, TA>,
                               loader<C::BM, BK, C::THREADS, TA, VEC>>
        loader_a;
    loader_a la(a, p.lda, m0, p.m, klen);
    if constexpr (PA)
        la.sign = p.transa == 2 ? -1.0f : 1.0f;
    typedef std::conditional_t<PB, pair_loader<C::BN, BK, C::THREADS, VEC>, loader<C::BN, BK, C::THREADS, !TB, VEC>>
        loader_b;
    loader_b lb(b, p.ldb, n0, p.n, klen);
    if constexpr (PB)
        lb.sign = p.transb == 2 ? -1.0f : 1.0f;
    float4 na[loader_a::PASSES], nb4[loader_b::PASSES];
    const int64_t ktiles = (klen + BK - 1) / BK;
    const bool kexact = klen % BK == 0;
    if (INSIDE && (ktiles > 1 || kexact)) {
        la.next_inside(p.lda, na);
        lb.next_inside(p.ldb, nb4);
    } else {
        la.next(p.lda, na);
        lb.next(p.ldb, nb4);
    }
    la.stash(as[0], na);
    lb.stash(bs[0], nb4);
    __syncthreads();

    // The next step's operands are read from shared memory while this step's FMAs run (two sets of registers,
    // f[k & 1]); the next tile is fetched from global memory across the whole tile and stored to the other shared
    // buffer before the last step, behind the tile's one barrier.
    frag<C> f[2];
    f[0].load(as[0], bs[0], 0, im, jn);
    for (int64_t kt = 0; kt < ktiles; kt++) {
        const int cur = (int)(kt & 1);
        const bool more = kt + 1 < ktiles;
        const bool inside = INSIDE && (kt + 2 < ktiles || (more && kexact));
        if (inside) {
            la.next_inside(p.lda, na);
            lb.next_inside(p.ldb, nb4);
        } else if (more) {
            la.next(p.lda, na);
            lb.next(p.ldb, nb4);
        }
#pragma unroll
        for (int k = 0; k < BK; k++) {
            if (k + 1 < BK) {
                f[(k + 1) & 1].load(as[cur], bs[cur], k + 1, im, jn);
            } else if (more) {
                // the other buffer was last read before the previous tile's barrier
                la.stash(as[cur ^ 1], na);
                lb.stash(bs[cur ^ 1], nb4);
                __syncthreads();
                f[(k + 1) & 1].load(as[cur ^ 1], bs[cur ^ 1], 0, im, jn);
            }
            fma_step<C>(acc, f[k & 1]);
        }
    }
    __syncthreads(); // the shared tiles are reused by the next column block, if any
}

template <class C, bool TA, bool TB, bool VEC, bool PB = false, bool PA = false>
__global__ void __launch_bounds__(C::THREADS, C::MINB) blocked_kernel(tb_sproblem p, bool vec_c, bool ct, tb_split sp)
{
    constexpr int BM = C::BM, BN = C::BN, TN = C::TN;
    __shared__ __align__(16) tile_t<BM, C::BK> as[2];
    __shared__ __align__(16) tile_t<BN, C::BK> bs[2];

    // the thread's piece: rows im..im+3 and im+32..im+35, columns jn + 16q .. +3 (q < TN/4) of the block tile
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int im = 64 * (warp % C::WARPS_M) + 4 * (lane & 7);
    const int jn = 4 * TN * (warp / C::WARPS_M) + 4 * (lane >> 3);
    const int64_t m0 = (int64_t)blockIdx.x * BM;
    const int64_t nblocks = (p.n + BN - 1) / BN;
    const int64_t klen = min(p.k - blockIdx.z * sp.kchunk, sp.kchunk);
    const float *a = p.a + blockIdx.z * (PA && !TA ? sp.a_step / 2 : sp.a_step); // op N blocks: k / 2 columns
    const float *b = p.b + blockIdx.z * (PB ? sp.b_step / 2 : sp.b_step);
    float *c = p.c + blockIdx.z * sp.c_step;

    for (int64_t nb = blockIdx.y; nb < nblocks; nb += gridDim.y) {
        const int64_t n0 = nb * BN;
        float acc[8][TN];
#pragma unroll
        for (int i = 0; i < 8; i++)
#pragma unroll
            for (int j = 0; j < TN; j++)
                acc[i][j] = 0.0f;

        if (VEC && m0 + BM <= p.m && n0 + BN <= p.n)
            tile_loop<C, TA, TB, VEC, true, PB, PA>(p, a, b, m0, n0, klen, as, bs, im, jn, acc);
        else
            tile_loop<C, TA, TB, VEC, false, PB, PA>(p, a, b, m0, n0, klen, as, bs, im, jn, acc);

#pragma unroll
        for (int j = 0; j < TN; j++) {
            const int64_t col = n0 + jn + 16 * (j / 4) + j % 4;
            float lo[4] = { acc[0][j], acc[1][j], acc[2][j], acc[3][j] };
            float hi[4] = { acc[4][j], acc[5][j], acc[6][j], acc[7][j] };
            store4(p, c, vec_c, ct, m0 + im, col, lo);
            store4(p, c, vec_c, ct, m0 + im + 32, col, hi);
        }
    }
}

template <class C, bool TA, bool TB, bool VEC, bool PB = false, bool PA = false>
int launch(const tb_sproblem *p, const tb_split *sp, unsigned slices, bool ct, void *stream)
{
    dim3 grid((unsigned)((p->m + C::BM - 1) / C::BM), tb_grid_y((p->n + C::BN - 1) / C::BN), slices);
    bool vec_c = !ct && p->ldc % 4 == 0 && (uintptr_t)p->c % 16 == 0;
    blocked_kernel<C, TA, TB, VEC, PB, PA><<<grid, C::THREADS, 0, (cudaStream_t)stream>>>(*p, vec_c, ct, *sp);
    return (int)cudaGetLastError();
}

// the 16-byte variant when every column of A and B starts on a 16-byte boundary
template <class C, bool TA, bool TB, bool PB = false, bool PA = false>
int launch_vec(const tb_sproblem *p, const tb_split *sp, unsigned slices, bool ct, void *stream)
{
    bool vec = p->lda % 4 == 0 && p->ldb % 4 == 0 && (uintptr_t)p->a % 16 == 0 && (uintptr_t)p->b % 16 == 0;
    return vec ? launch<C, TA, TB, true, PB, PA>(p, sp, slices, ct, stream)
               : launch<C, TA, TB, false, PB, PA>(p, sp, slices, ct, stream);
}

// The complex forms an operand can be read in (kernels/complex.cu): op(B), transposed, as pairs; op(A) as blocks
enum { FORM_PAIRS = TB_FORM_PAIRS, FORM_BLOCKS = TB_FORM_BLOCKS };

template <class C>
int launch_one(const tb_sproblem *p, const tb_split *sp, unsigned slices, bool ct, void *stream, int form)
{
    if (form & FORM_BLOCKS) {
        if constexpr (blocks_fit<C>) {
            if (p->transa)
                return p->transb ? launch_vec<C, true, true, true, true>(p, sp, slices, ct, stream)
                                 : launch_vec<C, true, false, false, true>(p, sp, slices, ct, stream);
            return p->transb ? launch_vec<C, false, true, true, true>(p, sp, slices, ct, stream)
                             : launch_vec<C, false, false, false, true>(p, sp, slices, ct, stream);
        }
        return (int)cudaErrorInvalidValue; // large_n_t, which no recipe gives blocks
    }
    if (form & FORM_PAIRS)
        return p->transa ? launch_vec<C, true, true, true>(p, sp, slices, ct, stream)
                         : launch_vec<C, false, true, true>(p, sp, slices, ct, stream);
    if (p->transa)
        return p->transb ? launch_vec<C, true, true>(p, sp, slices, ct, stream)
                         : launch_vec<C, true, false>(p, sp, slices, ct, stream);
    return p->transb ? launch_vec<C, false, true>(p, sp, slices, ct, stream)
                     : launch_vec<C, false, false>(p, sp, slices, ct, stream);
}

// One tile configuration, with k cut into `slices` pieces when that is more than one and there is a workspace
// (split.cuh); ct: C takes p's result transposed (the slices themselves are summed into it that way); form: the
// complex forms of the operands (0: both real)
template <class C>
int launch_config(const tb_sproblem *p, int64_t slices, float *ws, void *stream, bool ct = false, int form = 0)
{
    return tb_split_launch(
        *p, slices, C::BK, ws, stream,
        [=](const tb_sproblem &q, const tb_split &sp, unsigned n) {
            return launch_one<C>(&q, &sp, n, ct && n == 1, stream, form);
        },
        ct);
}

// The blocks of configuration C that an SM of the current device holds at once (a device fact for the recipes)
template <class C>
int per_sm(void)
{
    int n = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, blocked_kernel<C, false, false, true>, C::THREADS, 0) !=
            cudaSuccess ||
        n < 1)
        n = 1;
    cudaGetLastError();
    return n;
}

} // namespace

// The large tile of the fixed launcher block256, oriented by the operands' transposes (TT: the same product
// mirrored, which the wide tile suits)
extern "C" int tb_launch_block256(const tb_kproblem *kp, const tb_recipe *, void *, void *stream)
{
    const tb_sproblem p = tb_sproblem_of(kp);
    return p.transa && p.transb ? launch_config<large_n_t>(&p, 1, NULL, stream)
                                : launch_config<large_m_t>(&p, 1, NULL, stream);
}
extern "C" int tb_launch_block128(const tb_kproblem *kp, const tb_recipe *, void *, void *stream)
{
    const tb_sproblem p = tb_sproblem_of(kp);
    return launch_config<mid_t>(&p, 1, NULL, stream);
}
extern "C" int tb_launch_block64(const tb_kproblem *kp, const tb_recipe *, void *, void *stream)
{
    const tb_sproblem p = tb_sproblem_of(kp);
    return launch_config<small_t>(&p, 1, NULL, stream);
}

extern "C" int tb_blocked_per_sm(int shape)
{
    switch (shape) {
    case TB_BLOCKED_LARGE_M: return per_sm<large_m_t>();
    case TB_BLOCKED_LARGE_N: return per_sm<large_n_t>();
    case TB_BLOCKED_MID: return per_sm<mid_t>();
    case TB_BLOCKED_SMALL: return per_sm<small_t>();
    default: return per_sm<thin_t>();
    }
}

// C^T = op(B)^T op(A)^T: p with the roles of its operands swapped, whose result is C transposed
static tb_sproblem transposed(const tb_sproblem *p)
{
    tb_sproblem q = *p;
    q.transa = !p->transb, q.transb = !p->transa, q.m = p->n, q.n = p->m;
    q.a = p->b, q.lda = p->ldb, q.b = p->a, q.ldb = p->lda;
    return q;
}

// The workspace and the launch of the recipe's tile and split, with the operands in the complex forms of `form`
// (kernels.h: tb_launch_blocked_pairs, tb_launch_blocked_blocks)
static size_t workspace(const tb_kproblem *kp, const tb_recipe *r)
{
    return r->transposed ? tb_split_bytes<float>(kp->n, kp->m, r->slices) : tb_split_bytes<float>(kp->m, kp->n, r->slices);
}

static int run(const tb_kproblem *kp, const tb_recipe *r, void *workspace, void *stream, int form)
{
    const tb_sproblem p = tb_sproblem_of(kp);
    float *ws = (float *)workspace;
    switch (r->shape) {
    case TB_BLOCKED_THIN: {
        const tb_sproblem q = r->transposed ? transposed(&p) : p;
        return launch_config<thin_t>(&q, r->slices, ws, stream, r->transposed, form);
    }
    case TB_BLOCKED_LARGE_M: return launch_config<large_m_t>(&p, r->slices, ws, stream, false, form);
    case TB_BLOCKED_LARGE_N: return launch_config<large_n_t>(&p, r->slices, ws, stream, false, form);
    case TB_BLOCKED_MID: return launch_config<mid_t>(&p, r->slices, ws, stream, false, form);
    default: return launch_config<small_t>(&p, r->slices, ws, stream, false, form);
    }
}

extern "C" size_t tb_workspace_blocked(const tb_kproblem *kp, const tb_recipe *r)
{
    return workspace(kp, r);
}

extern "C" int tb_launch_blocked(const tb_kproblem *kp, const tb_recipe *r, void *workspace, void *stream)
{
    return run(kp, r, workspace, stream, 0);
}

extern "C" size_t tb_workspace_blocked_pairs(const tb_kproblem *kp, const tb_recipe *r)
{
    return workspace(kp, r);
}

extern "C" int tb_launch_blocked_pairs(const tb_kproblem *kp, const tb_recipe *r, void *workspace, void *stream)
{
    if (!kp->transb || kp->k % 2)
        return (int)cudaErrorInvalidValue;
    return run(kp, r, workspace, stream, FORM_PAIRS);
}

extern "C" size_t tb_workspace_blocked_blocks(const tb_kproblem *kp, const tb_recipe *r)
{
    return workspace(kp, r);
}

// op(A) as blocks, with a transposed op(B) as pairs too (the recipe's form: the same)
extern "C" int tb_launch_blocked_blocks(const tb_kproblem *kp, const tb_recipe *r, void *workspace, void *stream)
{
    if (kp->k % 2 || kp->m % 2)
        return (int)cudaErrorInvalidValue;
    return run(kp, r, workspace, stream, FORM_BLOCKS | (kp->transb ? FORM_PAIRS : 0));
}
