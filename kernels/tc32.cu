// FP32 GEMM on the tensor cores at FP32's accuracy (Hopper, sm_90a).  Each element x of op(A) and op(B), scaled by
// a power of two per row of op(A) and per column of op(B) (the largest of each into [0.5, 1)), is split into three
// BF16 parts, x = b0 + b1 + b2 exactly (8 significant bits each).  C is the sum of the six products bi * bj with
// i + j <= 2; those left out are below 2^-24 of the product.  Scaling first keeps the parts clear of BF16's
// underflow and the tensor cores' sums clear of overflow; the epilogue puts the scales back, exactly.
//
// The tensor cores sum with truncation, so they sum one 32-deep step of k at a time, the small products first and
// the largest last, and each step is added to the FP32 accumulator with one rounded add.  The errors are below
// cuBLAS's FP32 SGEMM's on uniform, normal, widely spread and near-limit data (bench/RESULTS.md).
//
// Rows of op(A) and columns of op(B) that hold Inf or NaN go through the tensor cores as zeros; a last kernel
// computes every element of C they touch with FP32 FMAs along k, so such inputs give what an FP32 loop gives.
//
// Passes: the scales, then the parts (K-major, in the workspace), both operands in each (or, for the host
// pipeline, once per row block or panel into buffers that serve several tiles: tb_kernel_prep, kernels.h); the
// product: tiles of 128 x 128 x 32 (tf32: 128 x 256 x 32) brought by TMA into four stages, one producer warpgroup
// and two consumer warpgroups of wgmma m64n128k16 (m64n256k8), with k split (split.cuh) where C has fewer tiles
// than the GPU has SMs; the fix-up.  GPUs other than compute capability 9.0 go to `blocked`, and so do the shapes
// where tc32 (not tc128) is asked for and would be slower: the recipe (lib/decide/recipes.c) says which.
#include <cuda_bf16.h>
#include <stdint.h>
#include "split.cuh"
#include "tma.cuh"

namespace {

// The product's tiles (kernels/recipe.h): BM rows of C, BK of k a step; tf32's tiles TF32_BN columns wide (128 or
// 256; bf16x6's are 128, its three parts leave no room for more).  The stages: as many as fit (tiles).
constexpr int BM = TB_TC_BM, BK = TB_TC_BK, TF32_BN = TB_TC_TF32_BN;

// What the tensor cores are given.  bf16x6: FP32's accuracy, three BF16 parts (the scheme above), tiles of C 128
// wide; tf32: TF32 math (TILEBLAS_MATH=tf32), each element rounded to TF32 once, one product summed by the tensor
// cores along all of k, tiles 256 wide (one part leaves room for them: half the reads of op(A) per product).
// Tiles are 32 deep in k and K-major; a row of one part is a swizzle's width (64 or 128 bytes); a stage holds
// op(A)'s parts, then op(B)'s.
struct bf16x6 {
    static constexpr int PARTS = 3, ESIZE = 2, SWIZZLE = 2, BN = TB_TC_BN; // SWIZZLE: the descriptor's code for 64 bytes
};
struct tf32 {
    static constexpr int PARTS = 1, ESIZE = 4, SWIZZLE = 1, BN = TF32_BN; // 128-byte swizzle
};
template <class F> struct tiles {
    static constexpr int ROW_BYTES = BK * F::ESIZE, A_BYTES = BM * ROW_BYTES, B_BYTES = F::BN * ROW_BYTES;
    static constexpr int STAGE_BYTES = F::PARTS * (A_BYTES + B_BYTES), STAGES = 196608 / STAGE_BYTES;
    static constexpr int SMEM_BYTES = STAGES * STAGE_BYTES + 1024 + 2 * STAGES * 8;
};
constexpr int PARTS = bf16x6::PARTS; // the most any format has
// A row's scale as stored: 0 for a row of zeros, BAD for one that holds Inf or NaN, else its exponent plus BIAS
// (above 0 for every FP32 number), so that zeroed memory is the start of a running maximum.
constexpr int BAD = 0x7fffffff, BIAS = 256;
// The six products in the order the tensor cores sum them, smallest first: part of op(A) (PA) and of op(B) (PB),
// two bits each, the first in the lowest bits: (0,2) (2,0) (1,1) (0,1) (1,0) (0,0).
constexpr int PA = 0 | 2 << 2 | 1 << 4 | 0 << 6 | 1 << 8 | 0 << 10;
constexpr int PB = 2 | 0 << 2 | 1 << 4 | 1 << 6 | 0 << 8 | 0 << 10;

// op(X) as an R x K matrix: element (r, k) at x[k + r*ld] (kmajor) or x[r + k*ld].
struct operand {
    const float *x;
    int64_t ld, rows;
    int kmajor;
};

size_t up256(size_t x)
{
    return (x + 255) & ~(size_t)255;
}

// An operand of R rows (of op(A), or columns of op(B)) prepared for the product: its parts (part j of row r at
// element (j R + r) kp), each row's scale exponent, and for each block of rows prepared at once, from row r0, the
// list of its rows that hold Inf or NaN (at bad + r0, numbered from r0) and that list's length (at nbad + r0).
struct prepared {
    int64_t kp; // elements per part row: k rounded up to 64, so that rows start on 128-byte lines (TMA reads
                // a row's 64 or 128 bytes of a step in whole sectors)
    size_t e, bad, nbad, bytes; // offsets from the parts at 0
};

template <class F> prepared prepared_of(int64_t rows, int64_t k)
{
    prepared pr;
    pr.kp = (k + 63) / 64 * 64;
    pr.e = up256((size_t)F::PARTS * rows * pr.kp * F::ESIZE);
    pr.bad = up256(pr.e + (size_t)rows * 4);
    pr.nbad = up256(pr.bad + (size_t)rows * 4);
    pr.bytes = up256(pr.nbad + (size_t)rows * 4);
    return pr;
}

// A call's workspace: op(A) prepared (M rows) from 0, op(B) (N rows) from b_at, and split-K's slices.  Both parts
// come first, then both operands' scales and lists side by side (meta .. slices), which one memset zeroes.
struct layout {
    prepared a, b; // b's offsets from b_at
    size_t b_at, meta, slices, bytes;
};

// the tiles of p's C, 128 x F::BN
template <class F> int64_t tiles_of(const tb_sproblem &p)
{
    return ((p.m + BM - 1) / BM) * ((p.n + F::BN - 1) / F::BN);
}

// pr with its scales and lists from `at` on (at least where prepared_of put them)
prepared moved(prepared pr, size_t at)
{
    const size_t by = at - pr.e;
    pr.e += by, pr.bad += by, pr.nbad += by, pr.bytes += by;
    return pr;
}

// the workspace of p with k split into `slices` (the recipe's)
template <class F> layout layout_of(const tb_sproblem &p, int64_t slices)
{
    layout l;
    const prepared a = prepared_of<F>(p.m, p.k), b = prepared_of<F>(p.n, p.k);
    const size_t meta_a = a.bytes - a.e, meta_b = b.bytes - b.e; // whole multiples of 256 bytes
    l.b_at = a.e;                                                // B's parts right after A's
    l.meta = l.b_at + b.e;                                       // then A's scales and lists, then B's
    l.a = moved(a, l.meta), l.b = moved(b, l.meta + meta_a - l.b_at);
    l.slices = l.meta + meta_a + meta_b;
    l.bytes = l.slices + tb_split_bytes<float>(p.m, p.n, slices);
    return l;
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || !defined(__CUDA_ARCH__)
#define TB_TC32_DEVICE 1 // the tensor-core code is compiled (for sm_90a; elsewhere the kernels are empty)
#endif

// --- the split -------------------------------------------------------------------------------------------------

// One operand's rows as the passes and the product see them: op(X)'s rows, and where in its prepared form (struct
// prepared) they go: their scale exponents, the list of those with Inf or NaN (numbered from the first) and that
// list's length, their parts (part j of row r at parts[(j*part_rows + r)*kp + k], part_rows the prepared form's).
struct side {
    operand o;
    int *e, *bad, *nbad;
    void *parts;
    int64_t part_rows;
};

// sa or sb, field by field (a choice between two kernel parameters would copy both to local memory)
__device__ __forceinline__ side pick(const side &sa, const side &sb, bool a)
{
    return { { a ? sa.o.x : sb.o.x, a ? sa.o.ld : sb.o.ld, a ? sa.o.rows : sb.o.rows, a ? sa.o.kmajor : sb.o.kmajor },
             a ? sa.e : sb.e, a ? sa.bad : sb.bad, a ? sa.nbad : sb.nbad, a ? sa.parts : sb.parts,
             a ? sa.part_rows : sb.part_rows };
}

__host__ __device__ operand op_a(const tb_sproblem &p)
{
    return { p.a, p.lda, p.m, p.transa };
}

__host__ __device__ operand op_b(const tb_sproblem &p)
{
    return { p.b, p.ldb, p.n, !p.transb };
}

// Element (r, k) of op(X).  CB (complex blocks, op(A) only): op(A) is interleaved complex and the product's op(A)
// the matrix of its 2 x 2 blocks [re -im; im re] (kernels/complex.cu makes it in memory otherwise): x is the stored
// complex matrix read as real, and kmajor 0 for op N (rows 2i + p: parts of row i), 1 for T, 2 for C (row i holds
// 2k parts along k).  Element (2i + p, 2l + q) is then one part of element (i, l), the imaginary one negated
// where p is 0 and q 1 (and, conjugated, once more).
template <bool CB>
__device__ __forceinline__ float value(const operand &o, int64_t r, int64_t k)
{
    if (!CB)
        return o.kmajor ? o.x[k + r * o.ld] : o.x[r + k * o.ld];
    const int p = (int)(r & 1), q = (int)(k & 1);
    if (!o.kmajor) {
        const float v = o.x[(r ^ q) + (k >> 1) * o.ld];
        return p == 0 && q == 1 ? -v : v;
    }
    const int64_t c = k ^ p;
    const float v = o.x[c + (r >> 1) * o.ld];
    return (c & 1) && p == (o.kmajor == 2) ? -v : v;
}

// Element (r, k) of op(B) as complex pairs (CP, op(B) only): op(B) is the transpose, or conjugate transpose (kmajor
// 2; 1 for T), of an interleaved complex matrix and the product's op(B) its real view: x is the stored matrix read
// as real, and row r (column r of op(B)) holds at k = 2l + q part q of op(B)(l, r), stored at 2r + q of column l,
// the imaginary part negated where conjugated.  Read across rows, as an operand whose rows do not lie along k.
__device__ __forceinline__ float pair_value(const operand &o, int64_t r, int64_t k)
{
    const float v = o.x[2 * r + (k & 1) + (k >> 1) * o.ld];
    return (k & 1) && o.kmajor == 2 ? -v : v;
}

// op(B) as complex pairs, as pair_value reads it (p's b and ldb: the stored matrix read as real)
__host__ __device__ operand pairs_b(const tb_sproblem &p)
{
    return { p.b, p.ldb, p.n, p.transb };
}

// x's scale as stored (above): BIAS plus the frexp exponent of x (x / 2^e in [0.5, 1)), 0 for 0, BAD for Inf or NaN
__device__ __forceinline__ int exponent(float x)
{
    int e = 0;
    if (!isfinite(x))
        return BAD;
    if (x != 0.f)
        frexpf(x, &e), e += BIAS;
    return e;
}

// the power of two a finite row's elements were divided by
__device__ __forceinline__ int unbiased(int e)
{
    return e ? e - BIAS : 0;
}

// Each row's scale, a running maximum over blocks of k into memory zeroed first, and the rows with Inf or NaN on
// their side's list (once: by the block that first stores BAD).  A block takes 32 rows of one side (row blocks of
// op(A) first in blockIdx.y) and kc of k, read 128 bytes at a time: along k where rows lie along k, across the 32
// rows otherwise.
template <bool CB, bool CP = false>
__global__ void __launch_bounds__(256) scales(side sa, side sb, int64_t K, int64_t kc)
{
    const int64_t blocks_a = (sa.o.rows + 31) / 32;
    const bool is_a = blockIdx.y < blocks_a;
    const side sd = pick(sa, sb, is_a);
    const operand &o = sd.o;
    const int64_t r0 = (is_a ? blockIdx.y : blockIdx.y - blocks_a) * 32ll, k0 = blockIdx.x * kc, k1 = min(K, k0 + kc);
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const bool pairs = CP && !is_a, along_k = o.kmajor && !pairs;
    __shared__ int most[8][33];
    if (along_k) { // warp w: rows r0 + 4w .. r0 + 4w + 3, lanes along k
        for (int i = 0; i < 4; i++) {
            const int64_t r = r0 + 4 * warp + i;
            int e = 0;
            if (r < o.rows)
#pragma unroll 4
                for (int64_t k = k0 + lane; k < k1; k += 32)
                    e = max(e, exponent(CB && is_a ? value<true>(o, r, k) : o.x[k + r * o.ld]));
            for (int d = 16; d; d >>= 1)
                e = max(e, __shfl_xor_sync(0xffffffffu, e, d));
            if (lane == 0)
                most[0][4 * warp + i] = e;
        }
    } else { // lane: row r0 + lane; warp w: k = w, w + 8, ...
        const int64_t r = r0 + lane;
        int e = 0;
        if (r < o.rows)
#pragma unroll 8
            for (int64_t k = k0 + warp; k < k1; k += 8)
                e = max(e, exponent(CB && is_a ? value<true>(o, r, k)
                                    : pairs        ? pair_value(o, r, k)
                                                   : o.x[r + k * o.ld]));
        most[warp][lane] = e;
    }
    __syncthreads();
    if (warp == 0) {
        int e = most[0][lane];
        if (!along_k)
            for (int w = 1; w < 8; w++)
                e = max(e, most[w][lane]);
        const int64_t r = r0 + lane;
        if (r < o.rows && e) {
            const int before = atomicMax(&sd.e[r], e);
            if (e == BAD && before != BAD) // the first block to find Inf or NaN in row r lists it
                sd.bad[atomicAdd(sd.nbad, 1)] = (int)r;
        }
    }
}

// A tile of 32 rows and 64 of k of op(X) (from r0, k0) into t[row][k], zeros outside; each warp reads 128 bytes
// at a time, along k where rows lie along k, across the 32 rows otherwise (CP: op(B) as complex pairs).
template <bool CB, bool CP = false>
__device__ __forceinline__ void load_tile(const operand &o, int64_t K, int64_t r0, int64_t k0, float (&t)[32][65])
{
    if (o.kmajor && !CP)
        for (int i = threadIdx.y; i < 64; i += 8) {
            const int row = i % 32, kk = i / 32 * 32 + threadIdx.x;
            const int64_t r = r0 + row, k = k0 + kk;
            t[row][kk] = r < o.rows && k < K ? (CB ? value<true>(o, r, k) : o.x[k + r * o.ld]) : 0.f;
        }
    else
        for (int kk = threadIdx.y; kk < 64; kk += 8) {
            const int64_t k = k0 + kk, r = r0 + threadIdx.x;
            t[threadIdx.x][kk] = r < o.rows && k < K ? (CB ? value<true>(o, r, k) : CP ? pair_value(o, r, k)
                                                                                         : o.x[r + k * o.ld])
                                                     : 0.f;
        }
    __syncthreads();
}

// x rounded to BF16's 8 bits, nearest; truncated where rounding would give Inf
__device__ __forceinline__ float bf16_part(float x)
{
    const float h = __bfloat162float(__float2bfloat16_rn(x));
    return isinf(h) && !isinf(x) ? __uint_as_float(__float_as_uint(x) & 0xffff0000u) : h;
}

// x rounded to TF32's 11 bits, nearest (ties away, as cvt.rna does); truncated where rounding would give Inf
__device__ __forceinline__ float tf32_round(float x)
{
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    const float h = __uint_as_float(r);
    return isinf(h) && !isinf(x) ? __uint_as_float(__float_as_uint(x) & 0xffffe000u) : h;
}

// x's three BF16 parts (b2 fits 8 bits exactly)
__device__ __forceinline__ void bf16_parts(float x, float (&b)[3])
{
    b[0] = bf16_part(x), b[1] = bf16_part(x - b[0]), b[2] = x - b[0] - b[1];
}

// bf16x6: each row scaled by 2^-e and split into its three parts, rows with Inf or NaN as zeros; tf32: each element
// rounded to TF32.  Depths from K to kp are zeros.  A block takes 32 rows and 64 of k (row tiles of op(A) first in
// blockIdx.y); a thread two neighbours along k, stored together (kp is even).
template <class F, bool CB, bool CP = false>
__global__ void __launch_bounds__(256) split(side sa, side sb, int64_t K, int64_t kp)
{
    const unsigned tiles_a = (unsigned)((sa.o.rows + 31) / 32);
    const bool is_a = blockIdx.y < tiles_a;
    const side sd = pick(sa, sb, is_a);
    __shared__ float t[32][65];
    const int64_t r0 = (is_a ? blockIdx.y : blockIdx.y - tiles_a) * 32ll, k0 = blockIdx.x * 64ll;
    if (CB && is_a)
        load_tile<true>(sd.o, K, r0, k0, t);
    else if (CP && !is_a)
        load_tile<false, true>(sd.o, K, r0, k0, t);
    else
        load_tile<false>(sd.o, K, r0, k0, t);
    const int kk = 2 * threadIdx.x;
    for (int i = threadIdx.y; i < 32; i += 8) {
        const int64_t r = r0 + i, k = k0 + kk;
        if (r >= sd.o.rows || k >= kp)
            continue;
        const int64_t at = r * kp + k, part = sd.part_rows * kp;
        if (F::PARTS == 1) {
            *(float2 *)((float *)sd.parts + at) = make_float2(tf32_round(t[i][kk]), tf32_round(t[i][kk + 1]));
            continue;
        }
        const int ex = sd.e[r];
        float b[2][3];
        for (int h = 0; h < 2; h++)
            bf16_parts(ex == BAD ? 0.f : ldexpf(t[i][kk + h], -unbiased(ex)), b[h]);
        __nv_bfloat162 *parts = (__nv_bfloat162 *)((__nv_bfloat16 *)sd.parts + at);
#pragma unroll
        for (int j = 0; j < 3; j++)
            parts[j * part / 2] = __floats2bfloat162_rn(b[0][j], b[1][j]);
    }
}

// --- the product ------------------------------------------------------------------------------------------------

// wgmma's view of a K-major tile of format F at addr: rows a swizzle wide, 8-row groups 8 rows apart
template <class F> __device__ __forceinline__ uint64_t tile_desc(uint32_t addr)
{
    return (uint64_t)((addr & 0x3FFFF) >> 4) | 1ull << 16 | (uint64_t)(8 * tiles<F>::ROW_BYTES >> 4) << 32 |
           (uint64_t)F::SWIZZLE << 62;
}

#define TB_D8(i)                                                                                                   \
    "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]),      \
        "+f"(d[i + 7])

#define TB_D64(i) TB_D8(i), TB_D8(i + 8), TB_D8(i + 16), TB_D8(i + 24), TB_D8(i + 32), TB_D8(i + 40), TB_D8(i + 48), \
    TB_D8(i + 56)
#define TB_REGS_64                                                                                                   \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                                         \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "                               \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "                               \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define TB_REGS_64_127                                                                                               \
    "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "                               \
    "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "                               \
    "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "                   \
    "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"

// one wgmma: its n / 2 accumulators d are operands 0 .. n / 2 - 1, then come a, b and acc (operands ia, ib, iacc)
#define TB_WGMMA(kind, tail, regs, ia, ib, iacc, ...)                                                              \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" iacc ", 0;\n"                                             \
                 "wgmma.mma_async.sync.aligned." kind " {" regs "}, %" ia ", %" ib ", p, " tail ";\n}"           \
                 : __VA_ARGS__                                                                                     \
                 : "l"(a), "l"(b), "r"(acc))

// d (64 x F::BN, FP32, in the warpgroup's registers) = a * b (+ d when acc), a 64 x 32 bytes and b 32 bytes x
// F::BN of format F's parts in shared memory (16 BF16 or 8 TF32 deep)
template <class F> __device__ __forceinline__ void mma(float (&d)[F::BN / 2], uint64_t a, uint64_t b, int acc)
{
#ifdef TB_TC32_DEVICE
    if constexpr (F::PARTS == 3)
        TB_WGMMA("m64n128k16.f32.bf16.bf16", "1, 1, 0, 0", TB_REGS_64, "64", "65", "66", TB_D64(0));
    else if constexpr (F::BN == 128)
        TB_WGMMA("m64n128k8.f32.tf32.tf32", "1, 1", TB_REGS_64, "64", "65", "66", TB_D64(0));
    else
        TB_WGMMA("m64n256k8.f32.tf32.tf32", "1, 1", TB_REGS_64 ", " TB_REGS_64_127, "128", "129", "130", TB_D64(0),
                 TB_D64(64));
#endif
}

struct maps {
    CUtensorMap a[PARTS], b[PARTS];
};

// Block (tile, z) computes its tile of C over k in [z kchunk, (z + 1) kchunk), into C + z c_step (split-K: p's C is
// then the workspace's slices, alpha 1 and beta 0).  bf16x6: the scales ea and eb put back, elements of rows and
// columns with Inf or NaN left to the fix-up; tf32: ea and eb are NULL.
template <class F>
__global__ void __launch_bounds__(384, 1) product(const __grid_constant__ maps tm, tb_sproblem p, const int *ea,
                                                  const int *eb, int64_t kchunk, int64_t c_step)
{
#ifdef TB_TC32_DEVICE
    using T = tiles<F>;
    extern __shared__ unsigned char raw[];
    unsigned char *base = (unsigned char *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023);
    uint64_t *full = (uint64_t *)(base + T::STAGES * T::STAGE_BYTES), *empty = full + T::STAGES;
    const int wg = threadIdx.x / 128, t = threadIdx.x % 128;
    const int64_t tiles_m = (p.m + BM - 1) / BM, tiles_n = (p.n + F::BN - 1) / F::BN;
    int64_t tile_r, tile_c; // the tile of C this block computes, BM x F::BN
    tb_group_tile<int64_t>(blockIdx.x, tiles_m, tiles_n, &tile_r, &tile_c);
    const int64_t m0 = tile_r * BM, n0 = tile_c * F::BN;
    const int64_t k0 = blockIdx.y * kchunk, depth = min(p.k - k0, kchunk);
    const int steps = (int)((depth + BK - 1) / BK);
    p.c += blockIdx.y * c_step;
    if (threadIdx.x == 0) {
        for (int s = 0; s < T::STAGES; s++) {
            bar_init(smem_addr(&full[s]), 1);
            bar_init(smem_addr(&empty[s]), 8); // the consumers' eight warps
        }
        bar_init_fence();
    }
    __syncthreads();
    if (wg == 0) { // the producer: one thread issues every copy
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        if (t == 0)
            for (int i = 0; i < steps; i++) {
                const int s = i % T::STAGES;
                if (i >= T::STAGES)
                    bar_wait(smem_addr(&empty[s]), (i / T::STAGES - 1) & 1);
                const uint32_t st = smem_addr(base + s * T::STAGE_BYTES), f = smem_addr(&full[s]);
                bar_expect(f, T::STAGE_BYTES);
                for (int j = 0; j < F::PARTS; j++) {
                    tma_load(st + j * T::A_BYTES, &tm.a[j], (int)(k0 + i * BK), (int)m0, f);
                    tma_load(st + F::PARTS * T::A_BYTES + j * T::B_BYTES, &tm.b[j], (int)(k0 + i * BK), (int)n0, f);
                }
            }
        return;
    }
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    const int c = wg - 1; // rows m0 + 64c .. of the tile
    constexpr int BF16 = F::PARTS == 3, NACC = F::BN / 2;
    float acc[NACC], step[BF16 ? NACC : 1];
    // tf32: the first wgmma ignores acc (no zeros written: other writes to it would make wgmma wait for each)
#pragma unroll
    for (int i = 0; i < (BF16 ? NACC : 0); i++)
        acc[i] = 0.f;
#pragma unroll
    for (int i = 0; i < (BF16 ? NACC : 1); i++)
        step[i] = 0.f;
    for (int i = 0; i < steps; i++) {
        const int s = i % T::STAGES;
        bar_wait(smem_addr(&full[s]), (i / T::STAGES) & 1);
        const uint32_t st = smem_addr(base + s * T::STAGE_BYTES);
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        if constexpr (BF16) {
#pragma unroll
            for (int q = 0; q < 12; q++) { // six products, each over the step's two 16-deep halves
                const int pr = q / 2, kk = q % 2;
                const uint32_t a = st + ((PA >> 2 * pr) & 3) * T::A_BYTES + c * 64 * T::ROW_BYTES + kk * 32;
                const uint32_t b = st + F::PARTS * T::A_BYTES + ((PB >> 2 * pr) & 3) * T::B_BYTES + kk * 32;
                mma<F>(step, tile_desc<F>(a), tile_desc<F>(b), q > 0);
            }
            asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
            asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
            if (t % 32 == 0)
                bar_arrive(smem_addr(&empty[s]));
#pragma unroll
            for (int j = 0; j < NACC; j++)
                acc[j] += step[j];
        } else { // the tensor cores sum along all of k; one step's products stay in flight behind the next's
#pragma unroll
            for (int kk = 0; kk < 4; kk++) {
                const uint32_t a = st + c * 64 * T::ROW_BYTES + kk * 32, b = st + T::A_BYTES + kk * 32;
                mma<F>(acc, tile_desc<F>(a), tile_desc<F>(b), i > 0 || kk > 0);
            }
            asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
            asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
            if (i > 0 && t % 32 == 0) // the step before is done with its stage
                bar_arrive(smem_addr(&empty[(i - 1) % T::STAGES]));
        }
    }
    if (!BF16)
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    // acc[4j + q]: row 16w + l/4 (+8 for q >= 2), column 8j + 2(l%4) (+1 for odd q) of the warpgroup's 64 x F::BN
    const int w = t / 32, l = t % 32;
    const int64_t r0 = m0 + c * 64 + w * 16 + l / 4;
#pragma unroll
    for (int j = 0; j < F::BN / 8; j++)
#pragma unroll
        for (int q = 0; q < 4; q++) {
            const int64_t r = r0 + (q & 2 ? 8 : 0), col = n0 + 8 * j + 2 * (l % 4) + (q & 1);
            if (r >= p.m || col >= p.n)
                continue;
            if (!BF16)
                tb_store(p, r, col, acc[4 * j + q]);
            else if (ea[r] != BAD && eb[col] != BAD) // those with BAD: the fix-up's
                tb_store(p, r, col, ldexpf(acc[4 * j + q], unbiased(ea[r]) + unbiased(eb[col])));
        }
#endif
}

// Every element of C in a row of op(A) or a column of op(B) with Inf or NaN, as an FP32 loop along k computes it.
// Under a split, p's C is the slices (alpha 1, beta 0): the sum goes in the first and zeros in the others, which the
// product left unwritten there, so that summing the slices gives it unchanged.
template <bool CB, bool CP = false>
__global__ void fix_up(tb_sproblem p, const int *ea, const int *bad_a, const int *nbad_a, const int *bad_b,
                       const int *nbad_b, int slices, int64_t c_step)
{
    const int64_t na = *nbad_a, nb = *nbad_b, by_rows = na * p.n, all = by_rows + nb * p.m;
    for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < all; t += (int64_t)gridDim.x * blockDim.x) {
        int64_t i, j;
        if (t < by_rows)
            i = bad_a[t / p.n], j = t % p.n;
        else if (ea[i = (t - by_rows) % p.m] == BAD)
            continue; // done with its row
        else
            j = bad_b[(t - by_rows) / p.m];
        float acc = 0.f;
        for (int64_t k = 0; k < p.k; k++)
            acc = fmaf(CB ? value<true>(op_a(p), i, k) : tb_op_at(p.a, p.lda, p.transa, i, k),
                       CP ? pair_value(pairs_b(p), j, k) : tb_op_at(p.b, p.ldb, p.transb, k, j), acc);
        tb_store(p, i, j, acc);
        for (int z = 1; z < slices; z++)
            p.c[z * c_step + i + j * p.ldc] = 0.f;
    }
}

// --- host side ----------------------------------------------------------------------------------------------------

// The map for TMA of part j of the rows of side sd: boxes of 32 of k by box_rows of a K-major matrix of format F,
// rows a swizzle wide
template <class F> int part_map(CUtensorMap *map, const side &sd, int box_rows, int64_t k, int64_t kp, int j)
{
    const cuuint64_t dims[2] = { (cuuint64_t)k, (cuuint64_t)sd.o.rows }, strides[1] = { (cuuint64_t)kp * F::ESIZE };
    const cuuint32_t box[2] = { BK, (cuuint32_t)box_rows }, elem[2] = { 1, 1 };
    const bool bf16 = F::PARTS == 3;
    return encoder()(map, bf16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2,
                     (void *)((char *)sd.parts + (size_t)j * sd.part_rows * kp * F::ESIZE), dims, strides, box, elem,
                     CU_TENSOR_MAP_INTERLEAVE_NONE, bf16 ? CU_TENSOR_MAP_SWIZZLE_64B : CU_TENSOR_MAP_SWIZZLE_128B,
                     CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS
               ? 0
               : (int)cudaErrorInvalidValue;
}

// The depth of k a block of `scales` reads for `row_blocks` blocks of 32 rows: the deepest of 1024, 512, 256 and
// 128 that still gives 8 blocks a SM, so that small and few-row operands are read by the whole GPU
int64_t scales_depth(int64_t row_blocks, int64_t k)
{
    int64_t kc = 1024;
    while (kc > 128 && row_blocks * ((k + kc - 1) / kc) < 8 * tb_sm_count())
        kc /= 2;
    return kc;
}

// Rows [r0, r0 + o.rows) of an operand prepared in pr at base (R rows in all), as a side
template <class F> side side_of(const operand &o, char *base, const prepared &pr, int64_t R, int64_t r0)
{
    return { o, (int *)(base + pr.e) + r0, (int *)(base + pr.bad) + r0, (int *)(base + pr.nbad) + r0,
             base + (size_t)r0 * pr.kp * F::ESIZE, R };
}

// The passes that prepare the rows of sa and sb (either may have none) for the product, k deep: bf16x6, their
// scales and lists (whose scales and list lengths must be zeros first) and parts; tf32, the elements rounded
template <class F, bool CB = false, bool CP = false>
void prepare(const side &sa, const side &sb, int64_t k, int64_t kp, cudaStream_t s)
{
    const int64_t ta = (sa.o.rows + 31) / 32, tb = (sb.o.rows + 31) / 32;
    if (F::PARTS == 3) {
        const int64_t kc = scales_depth(ta + tb, k);
        scales<CB, CP><<<dim3((unsigned)((k + kc - 1) / kc), (unsigned)(ta + tb)), 256, 0, s>>>(sa, sb, k, kc);
    }
    split<F, CB, CP><<<dim3((unsigned)((kp + 63) / 64), (unsigned)(ta + tb)), dim3(32, 8), 0, s>>>(sa, sb, k, kp);
}

// The product of p from the prepared rows of sa and sb (with k split into slices in ws where p has few tiles),
// and the fix-up of the elements of rows and columns with Inf or NaN
template <class F, bool CB = false, bool CP = false>
int multiply(const tb_sproblem &p, const side &sa, const side &sb, int64_t kp, int64_t slices, float *ws, cudaStream_t s)
{
    constexpr bool bf16 = F::PARTS == 3;
    maps tm;
    for (int j = 0; j < F::PARTS; j++)
        if (part_map<F>(&tm.a[j], sa, BM, p.k, kp, j) || part_map<F>(&tm.b[j], sb, F::BN, p.k, kp, j))
            return (int)cudaErrorInvalidValue;
    static int sized[TB_KERNEL_DEVICES]; // a device's attribute is the same for every call; a race sets it twice
    const int dev = tb_kernel_device();
    int done;
    if (!tb_device_known(sized, dev, &done) &&
        cudaFuncSetAttribute(product<F>, cudaFuncAttributeMaxDynamicSharedMemorySize, tiles<F>::SMEM_BYTES) !=
            cudaSuccess)
        return (int)cudaGetLastError();
    tb_device_keep(sized, dev, 1);
    const int *ea = bf16 ? sa.e : NULL, *eb = bf16 ? sb.e : NULL;
    auto queue = [&](const tb_sproblem &q, const tb_split &sp, unsigned n) {
        product<F><<<dim3((unsigned)tiles_of<F>(p), n), 384, tiles<F>::SMEM_BYTES, s>>>(tm, q, ea, eb, sp.kchunk,
                                                                                        sp.c_step);
        if (bf16)
            fix_up<CB, CP><<<2 * tb_sm_count(), 256, 0, s>>>(q, ea, sa.bad, sa.nbad, sb.bad, sb.nbad, (int)n,
                                                             sp.c_step);
        return (int)cudaGetLastError();
    };
    return tb_split_launch<float>(p, slices, BK, ws, s, queue);
}

template <class F, bool CB = false, bool CP = false>
int launch(const tb_sproblem &p, int64_t slices, char *ws, cudaStream_t s)
{
    const layout l = layout_of<F>(p, slices);
    const side sa = side_of<F>(op_a(p), ws, l.a, p.m, 0);
    const side sb = side_of<F>(CP ? pairs_b(p) : op_b(p), ws + l.b_at, l.b, p.n, 0);
    if (F::PARTS == 3) // the scales and the lists' lengths (and the lists) start at 0
        cudaMemsetAsync(ws + l.meta, 0, l.slices - l.meta, s);
    prepare<F, CB, CP>(sa, sb, p.k, l.a.kp, s);
    const int e = multiply<F, CB, CP>(p, sa, sb, l.a.kp, slices, (float *)(ws + l.slices), s);
    return e ? e : (int)cudaGetLastError();
}

} // namespace

// Where the recipe has the tensor cores run kp (tc128 and tf32: wherever they can; tc32: where they are also faster
// than blocked, lib/decide/recipes.c), F's workspace and launch; elsewhere, and without a workspace, blocked's (or its
// form that reads complex operands: blocked_ws, blocked)
template <class F>
static size_t workspace(const tb_kproblem *kp, const tb_recipe *r, tb_kernel_workspace blocked_ws = tb_workspace_blocked)
{
    return r->tensor ? layout_of<F>(tb_sproblem_of(kp), r->tc_slices).bytes : blocked_ws(kp, r);
}

template <class F> static int run(const tb_kproblem *kp, const tb_recipe *r, void *workspace, void *stream)
{
    if (!workspace || !r->tensor)
        return tb_launch_blocked(kp, r, workspace, stream);
    return launch<F>(tb_sproblem_of(kp), r->tc_slices, (char *)workspace, (cudaStream_t)stream);
}

extern "C" size_t tb_workspace_tc128(const tb_kproblem *kp, const tb_recipe *r)
{
    return workspace<bf16x6>(kp, r);
}

extern "C" int tb_launch_tc128(const tb_kproblem *kp, const tb_recipe *r, void *ws, void *stream)
{
    return run<bf16x6>(kp, r, ws, stream);
}

extern "C" size_t tb_workspace_tc32(const tb_kproblem *kp, const tb_recipe *r)
{
    return workspace<bf16x6>(kp, r);
}

extern "C" int tb_launch_tc32(const tb_kproblem *kp, const tb_recipe *r, void *ws, void *stream)
{
    return run<bf16x6>(kp, r, ws, stream);
}

// kp's op(A) read as complex blocks, and op(B), where transposed, as complex pairs (kernels.h), where the recipe has
// the tensor cores run kp; elsewhere blocked reads them
extern "C" size_t tb_workspace_tc32_blocks(const tb_kproblem *kp, const tb_recipe *r)
{
    return workspace<bf16x6>(kp, r, tb_workspace_blocked_blocks);
}

extern "C" int tb_launch_tc32_blocks(const tb_kproblem *kp, const tb_recipe *r, void *ws, void *stream)
{
    const tb_sproblem p = tb_sproblem_of(kp);
    if (p.m % 2 || p.k % 2)
        return (int)cudaErrorInvalidValue;
    if (!ws || !r->tensor)
        return tb_launch_blocked_blocks(kp, r, ws, stream);
    return p.transb ? launch<bf16x6, true, true>(p, r->tc_slices, (char *)ws, (cudaStream_t)stream)
                    : launch<bf16x6, true>(p, r->tc_slices, (char *)ws, (cudaStream_t)stream);
}

// kp's op(B), transposed, read as complex pairs, op(A) real (kernels.h); where the recipe keeps kp off the tensor
// cores, blocked reads the pairs
extern "C" size_t tb_workspace_tc32_pairs(const tb_kproblem *kp, const tb_recipe *r)
{
    return workspace<bf16x6>(kp, r, tb_workspace_blocked_pairs);
}

extern "C" int tb_launch_tc32_pairs(const tb_kproblem *kp, const tb_recipe *r, void *ws, void *stream)
{
    const tb_sproblem p = tb_sproblem_of(kp);
    if (p.k % 2 || !p.transb)
        return (int)cudaErrorInvalidValue;
    if (!ws || !r->tensor)
        return tb_launch_blocked_pairs(kp, r, ws, stream);
    return launch<bf16x6, false, true>(p, r->tc_slices, (char *)ws, (cudaStream_t)stream);
}

extern "C" size_t tb_workspace_tf32(const tb_kproblem *kp, const tb_recipe *r)
{
    return workspace<tf32>(kp, r);
}

extern "C" int tb_launch_tf32(const tb_kproblem *kp, const tb_recipe *r, void *ws, void *stream)
{
    return run<tf32>(kp, r, ws, stream);
}

// whether the TMA's tensor maps can be made (a device fact for the recipes)
extern "C" int tb_tc32_ready(void)
{
    return encoder() != NULL;
}

// Prepared operands (kernels.h): the passes once for each block of rows, the product for each tile from them, where
// the recipe has the tensor cores run the tile (elsewhere blocked runs it from the FP32 operands)
namespace {
template <class F> struct with_prepared {
    static size_t bytes(const tb_kproblem *tile, const tb_recipe *r, int, int64_t rows)
    {
        return r->tensor ? prepared_of<F>(rows, tile->k).bytes : 0;
    }

    static int prepare_rows(const tb_kproblem *kp, const tb_recipe *, int which, void *prep, int64_t prep_rows,
                            int64_t r0, void *stream)
    {
        const tb_sproblem p = tb_sproblem_of(kp);
        const cudaStream_t s = (cudaStream_t)stream;
        const prepared pr = prepared_of<F>(prep_rows, p.k);
        const side sd = side_of<F>(which ? op_b(p) : op_a(p), (char *)prep, pr, prep_rows, r0);
        side none = sd;
        none.o.rows = 0;
        if (F::PARTS == 3) // this block's scales and list length start at 0
            cudaMemsetAsync(sd.e, 0, (size_t)sd.o.rows * 4, s), cudaMemsetAsync(sd.nbad, 0, 4, s);
        prepare<F>(sd, none, p.k, pr.kp, s);
        return (int)cudaGetLastError();
    }

    static size_t workspace(const tb_kproblem *kp, const tb_recipe *r)
    {
        return r->tensor ? tb_split_bytes<float>(kp->m, kp->n, r->tc_slices) : tb_workspace_blocked(kp, r);
    }

    static int launch(const tb_kproblem *kp, const tb_recipe *r, const void *prep_a, int64_t a_rows, int64_t i0,
                      const void *prep_b, int64_t b_rows, int64_t j0, void *ws, void *stream)
    {
        const tb_sproblem p = tb_sproblem_of(kp);
        if (!r->tensor)
            return tb_launch_blocked(kp, r, ws, stream);
        const prepared pa = prepared_of<F>(a_rows, p.k), pb = prepared_of<F>(b_rows, p.k);
        const side sa = side_of<F>(op_a(p), (char *)prep_a, pa, a_rows, i0);
        const side sb = side_of<F>(op_b(p), (char *)prep_b, pb, b_rows, j0);
        const int e = multiply<F>(p, sa, sb, pa.kp, r->tc_slices, (float *)ws, (cudaStream_t)stream);
        return e ? e : (int)cudaGetLastError();
    }

    static constexpr tb_kernel_prep fns = { bytes, prepare_rows, workspace, launch };
};
} // namespace

// tc128 and tc32 prepare alike; their recipes differ in where the tensor cores run a tile
extern "C" const tb_kernel_prep tb_prep_tc128 = with_prepared<bf16x6>::fns;
extern "C" const tb_kernel_prep tb_prep_tc32 = with_prepared<bf16x6>::fns;
extern "C" const tb_kernel_prep tb_prep_tf32 = with_prepared<tf32>::fns;
