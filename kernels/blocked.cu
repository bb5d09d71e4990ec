// The register-blocked kernels.  A block of BM*BN/64 threads computes a BM x BN tile of C; each thread an 8 x 8
// piece of it, held in registers.  Per step along k a thread reads 8 values of op(A) and 8 of op(B) from shared
// memory as four 16-byte loads and does 64 FMAs with them (the tiled kernel: 1.25 loads per FMA).  Shared memory
// is double-buffered: the next tiles are fetched into registers while the current ones are used, and one barrier
// per tile separates the two.
//
// Both tiles are kept k-major in shared memory (a[k][i], b[k][j]), whatever the operands' transposes: an operand
// whose global layout runs along i (or j) is copied straight across with 16-byte stores; one that runs along k is
// loaded 16 bytes along k and stored transposed.  Rows are padded by 4 floats, which keeps 16-byte alignment and
// spreads those transposed stores over the banks.
//
// Edges: every load outside op(A) or op(B) gives zero and every store outside C is skipped, so any m, n, k
// works.  16-byte global accesses need 16-byte aligned columns (VEC); the launchers pick the element-wise variant
// otherwise.  Results are plain FP32 FMAs.
#include <stdint.h>
#include "common.cuh"

namespace {

// Tile depth and blocks per SM (the register budget: 2 blocks allow 128 registers a thread, 1 allows 255).
// Measured on the H200 with 128 x 128 tiles (bench/RESULTS.md, 2026-11-29, TFLOP/s NN at N = 2048 / 4096 / 8192;
// cuBLAS 49 / 51 / 51):
//   BK  8, 2 blocks: 38.8 / 39.6 / 41.3   spills 28-40 bytes (prologue and epilogue)
//   BK  8, 1 block:  39.0 / 39.5 / 40.4   no spills
//   BK 16, 1 block:  39.8 / 40.7 / 41.9   no spills (161-167 registers)   <- default
//   BK 16, 2 blocks: 40.7 / 41.6 / 41.8   spills 40-184 bytes
// -DTB_BLOCKED_BK=... -DTB_BLOCKED_MINB=... (bench/variants.sh "-DTB_BLOCKED_BK=8 -DTB_BLOCKED_MINB=2") to measure others.
#ifndef TB_BLOCKED_BK
#define TB_BLOCKED_BK 16
#endif
#ifndef TB_BLOCKED_MINB
#define TB_BLOCKED_MINB 1
#endif
constexpr int BK = TB_BLOCKED_BK, PAD = 4;
static_assert(BK % 8 == 0, "a tile's depth is a multiple of 8");

template <int RS>
using tile_t = float[BK][RS + PAD]; // k-major: [l][r]

// One operand's share of each RS x BK tile (RS: the operand's side of the block tile, BM for op(A), BN for op(B)),
// PASSES float4s per thread, fetched tile after tile along k.
//   DEEP = false: element (r, l) at x[r + l*ld] (contiguous along r): a pass covers all RS of r for
//                 THREADS/(RS/4) values of l
//   DEEP = true:  element (r, l) at x[l + r*ld] (contiguous along l): a pass covers all BK of l for
//                 THREADS/(BK/4) values of r
// Addresses and the bounds along r are worked out once; each tile only moves the pointer and compares l with k.
template <int RS, int THREADS, bool DEEP, bool VEC>
struct loader {
    static constexpr int PASSES = RS * BK / 4 / THREADS;
    static constexpr int RQ = RS / 4, LQ = BK / 4;            // float4s across a tile's r, along its l
    static constexpr int STEP = DEEP ? THREADS / LQ : THREADS / RQ; // r (DEEP) or l covered by one pass
    static_assert(PASSES >= 1 && (DEEP ? RS % STEP : BK % STEP) == 0, "threads must cover the tile evenly");
    const float *ptr;
    int64_t kleft; // k minus the k index of the thread's (first) element in the current tile
    int rvalid;    // DEEP: bit `pass` set when that pass's r is inside; otherwise how many of its 4 r's are

    __device__ __forceinline__ loader(const float *x, int64_t ld, int64_t r0, int64_t R, int64_t K)
    {
        const int t = threadIdx.x;
        const int64_t r = DEEP ? r0 + t / LQ : r0 + 4 * (t % RQ);
        const int l = DEEP ? 4 * (t % LQ) : t / RQ;
        ptr = DEEP ? x + l + r * ld : x + r + l * ld;
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
            const float *q = ptr + STEP * pass * ld;
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
        ptr += DEEP ? BK : BK * ld;
        kleft -= BK;
    }

    __device__ __forceinline__ static void stash(tile_t<RS> &s, const float4 (&v)[PASSES])
    {
        const int t = threadIdx.x;
#pragma unroll
        for (int pass = 0; pass < PASSES; pass++) {
            if (DEEP) {
                const int r = t / LQ + pass * STEP, l = 4 * (t % LQ);
                s[l][r] = v[pass].x, s[l + 1][r] = v[pass].y, s[l + 2][r] = v[pass].z, s[l + 3][r] = v[pass].w;
            } else {
                *reinterpret_cast<float4 *>(&s[t / RQ + pass * STEP][4 * (t % RQ)]) = v[pass];
            }
        }
    }
};

// C(i, j..) for a run of 4 rows starting at i: alpha*acc + beta*C, C unread when beta == 0.
__device__ __forceinline__ void store4(const tb_kproblem &p, float *cbase, bool vec_c, int64_t i, int64_t j,
                                       const float *acc)
{
    if (j >= p.n || i >= p.m)
        return;
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

// Split-K: block z of the grid's third dimension works on k in [z*kchunk, (z+1)*kchunk) and writes its own
// slice of C (c_step floats apart).  Without a split: one slice, kchunk = k.
struct split_t {
    int64_t kchunk, a_step, b_step, c_step;
};

template <int BM, int BN, bool TA, bool TB, bool VEC>
__global__ void __launch_bounds__(BM *BN / 64, TB_BLOCKED_MINB) blocked_kernel(tb_kproblem p, bool vec_c, split_t sp)
{
    constexpr int THREADS = BM * BN / 64;
    // the threads form a (BM/8) x (BN/8) grid; a warp covers 8 of them along m and 4 along n, so that its 16-byte
    // shared loads of op(A) hit 128 contiguous bytes
    constexpr int WARPS_M = BM / 64;
    static_assert(BM % 64 == 0 && BN % 32 == 0, "tile sizes");
    // op(A) is DEEP when A is transposed (A[l + i*lda]); op(B) when B is not (B[l + j*ldb])
    typedef loader<BM, THREADS, TA, VEC> loader_a;
    typedef loader<BN, THREADS, !TB, VEC> loader_b;
    __shared__ __align__(16) tile_t<BM> as[2];
    __shared__ __align__(16) tile_t<BN> bs[2];

    // the thread's 8 x 8 piece: rows 4*tm..+3 and BM/2+4*tm..+3, columns 4*tn..+3 and BN/2+4*tn..+3 of the tile
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int tm = (lane & 7) + 8 * (warp % WARPS_M), tn = (lane >> 3) + 4 * (warp / WARPS_M);
    const int64_t m0 = (int64_t)blockIdx.x * BM;
    const int64_t nblocks = (p.n + BN - 1) / BN;
    const int64_t klen = min(p.k - blockIdx.z * sp.kchunk, sp.kchunk);
    const float *a = p.a + blockIdx.z * sp.a_step, *b = p.b + blockIdx.z * sp.b_step;
    float *c = p.c + blockIdx.z * sp.c_step;

    for (int64_t nb = blockIdx.y; nb < nblocks; nb += gridDim.y) {
        const int64_t n0 = nb * BN;
        float acc[8][8];
#pragma unroll
        for (int i = 0; i < 8; i++)
#pragma unroll
            for (int j = 0; j < 8; j++)
                acc[i][j] = 0.0f;

        loader_a la(a, p.lda, m0, p.m, klen);
        loader_b lb(b, p.ldb, n0, p.n, klen);
        float4 na[loader_a::PASSES], nb4[loader_b::PASSES];
        la.next(p.lda, na);
        lb.next(p.ldb, nb4);
        loader_a::stash(as[0], na);
        loader_b::stash(bs[0], nb4);
        __syncthreads();

        const int64_t ktiles = (klen + BK - 1) / BK;
        for (int64_t kt = 0; kt < ktiles; kt++) {
            const int cur = (int)(kt & 1);
            const bool more = kt + 1 < ktiles;
            if (more) { // in flight during the FMAs below
                la.next(p.lda, na);
                lb.next(p.ldb, nb4);
            }
#pragma unroll
            for (int k = 0; k < BK; k++) {
                const float4 a0 = *reinterpret_cast<const float4 *>(&as[cur][k][4 * tm]);
                const float4 a1 = *reinterpret_cast<const float4 *>(&as[cur][k][BM / 2 + 4 * tm]);
                const float4 b0 = *reinterpret_cast<const float4 *>(&bs[cur][k][4 * tn]);
                const float4 b1 = *reinterpret_cast<const float4 *>(&bs[cur][k][BN / 2 + 4 * tn]);
                const float a[8] = { a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w };
                const float b[8] = { b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w };
#pragma unroll
                for (int i = 0; i < 8; i++)
#pragma unroll
                    for (int j = 0; j < 8; j++)
                        acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
            }
            if (more) { // the other buffer was last read before the previous barrier
                loader_a::stash(as[cur ^ 1], na);
                loader_b::stash(bs[cur ^ 1], nb4);
            }
            __syncthreads();
        }

#pragma unroll
        for (int j = 0; j < 8; j++) {
            const int64_t col = n0 + (j < 4 ? 4 * tn + j : BN / 2 + 4 * tn + j - 4);
            float lo[4] = { acc[0][j], acc[1][j], acc[2][j], acc[3][j] };
            float hi[4] = { acc[4][j], acc[5][j], acc[6][j], acc[7][j] };
            store4(p, c, vec_c, m0 + 4 * tm, col, lo);
            store4(p, c, vec_c, m0 + BM / 2 + 4 * tm, col, hi);
        }
    }
}

// C = alpha * (sum of the slices, in order) + beta * C: the second half of a split-K product.
__global__ void sum_slices(tb_kproblem p, const float *__restrict__ ws, int64_t ldw, int64_t c_step, int slices)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= p.m)
        return;
    for (int64_t j = blockIdx.y; j < p.n; j += gridDim.y) {
        float sum = 0.0f;
        for (int z = 0; z < slices; z++)
            sum += ws[z * c_step + i + j * ldw];
        float *c = p.c + i + j * p.ldc;
        *c = p.beta == 0.0f ? p.alpha * sum : fmaf(p.beta, *c, p.alpha * sum);
    }
}

template <int BM, int BN, bool TA, bool TB, bool VEC>
int launch(const tb_kproblem *p, const split_t *sp, unsigned slices, void *stream)
{
    dim3 grid((unsigned)((p->m + BM - 1) / BM), tb_grid_y((p->n + BN - 1) / BN), slices);
    bool vec_c = p->ldc % 4 == 0 && (uintptr_t)p->c % 16 == 0;
    blocked_kernel<BM, BN, TA, TB, VEC><<<grid, BM * BN / 64, 0, (cudaStream_t)stream>>>(*p, vec_c, *sp);
    return (int)cudaGetLastError();
}

template <int BM, int BN, bool VEC>
int launch_trans(const tb_kproblem *p, const split_t *sp, unsigned slices, void *stream)
{
    if (p->transa)
        return p->transb ? launch<BM, BN, true, true, VEC>(p, sp, slices, stream)
                         : launch<BM, BN, true, false, VEC>(p, sp, slices, stream);
    return p->transb ? launch<BM, BN, false, true, VEC>(p, sp, slices, stream)
                     : launch<BM, BN, false, false, VEC>(p, sp, slices, stream);
}

template <int BM, int BN>
int launch_one(const tb_kproblem *p, const split_t *sp, unsigned slices, void *stream)
{
    // 16-byte loads need every column of A and B to start on a 16-byte boundary
    bool vec = p->lda % 4 == 0 && p->ldb % 4 == 0 && (uintptr_t)p->a % 16 == 0 && (uintptr_t)p->b % 16 == 0;
    return vec ? launch_trans<BM, BN, true>(p, sp, slices, stream) : launch_trans<BM, BN, false>(p, sp, slices, stream);
}

// The default memory pool gives its memory back at every synchronisation (release threshold 0), so that each
// workspace would be mapped afresh, which costs more than a small product.  Keep up to 1 GiB of it cached.
void keep_pool_memory(void)
{
    static bool done; // a race repeats the same harmless setting
    cudaMemPool_t pool;
    if (!done && cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess) {
        uint64_t keep = (uint64_t)1 << 30;
        cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
        done = true;
    }
    cudaGetLastError();
}

// One tile configuration, with k cut into `slices` pieces when that is more than one.  The slices go to a
// workspace from the stream's memory pool, then sum_slices adds them up; without the memory, no split.
template <int BM, int BN>
int launch_config(const tb_kproblem *p, int64_t slices, void *stream)
{
    split_t none = { p->k, 0, 0, 0 };
    const int64_t kchunk = ((p->k + slices - 1) / slices + BK - 1) / BK * BK; // whole tiles in every slice
    slices = slices > 1 ? (p->k + kchunk - 1) / kchunk : 1;
    if (slices <= 1)
        return launch_one<BM, BN>(p, &none, 1, stream);
    const int64_t ldw = (p->m + 3) & ~(int64_t)3;
    float *ws = NULL;
    cudaStream_t st = (cudaStream_t)stream;
    keep_pool_memory();
    if (cudaMallocAsync((void **)&ws, (size_t)(ldw * p->n * slices) * sizeof(float), st) != cudaSuccess) {
        cudaGetLastError();
        return launch_one<BM, BN>(p, &none, 1, stream);
    }
    tb_kproblem q = *p;
    q.c = ws, q.ldc = ldw, q.alpha = 1.0f, q.beta = 0.0f;
    split_t sp = { kchunk, p->transa ? kchunk : kchunk * p->lda, p->transb ? kchunk * p->ldb : kchunk, ldw * p->n };
    int e = launch_one<BM, BN>(&q, &sp, (unsigned)slices, stream);
    if (!e) {
        dim3 grid((unsigned)((p->m + 127) / 128), tb_grid_y(p->n));
        sum_slices<<<grid, 128, 0, st>>>(*p, ws, ldw, sp.c_step, (int)slices);
        e = (int)cudaGetLastError();
    }
    cudaFreeAsync(ws, st);
    return e;
}

int sm_count(void)
{
    static int sms; // the library uses device 0 only
    if (!sms && cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess)
        sms = 132;
    return sms;
}

} // namespace

extern "C" int tb_launch_block128(const tb_kproblem *p, void *stream) { return launch_config<128, 128>(p, 1, stream); }
extern "C" int tb_launch_block64(const tb_kproblem *p, void *stream) { return launch_config<64, 64>(p, 1, stream); }

// The tile configuration by shape.  128 x 128 tiles make too few blocks to fill the GPU's 132 SMs on smaller
// problems; 64 x 64 tiles make four times as many.  Measured on the H200 (bench/RESULTS.md, 2026-11-29), NN,
// ratio to cuBLAS, block64 / block128:
//   N = 512: 0.58 / 0.41   768: 0.75 / 0.52   1024: 0.86 / 0.60   1536: 0.59 / 0.63   2048: 0.76 / 0.82
//   4096: 0.75 / 0.81   8192: 0.76 / 0.83   64x8192x8192: 0.40 / 0.25   8192x8192x64: 0.88 / 0.94
// so 64 x 64 while 128 x 128 tiles would not give every SM one (fewer than 132 tiles), 128 x 128 beyond.
// When 64 x 64 tiles are too few to fill one wave (the blocks that fit on all SMs at once), k is split so that
// tiles x slices fills it without starting a second, mostly idle wave; each slice at least 128 deep.  Measured
// with targets of 1, 2, 4 and 8 blocks per SM instead (bench/RESULTS.md): 1024^3 0.90 / 0.88 / 0.71 / 0.73 of
// cuBLAS, 1024x1024x8192 0.70 / 0.83 / 0.64 / 0.69, 64x8192x8192 0.73 / 0.68 / 0.57 / 0.68: a count of blocks just
// past a whole wave is what costs.
template <int BM, int BN>
static int64_t wave(void)
{
    static int64_t blocks; // device 0 only; a race computes the same number twice
    if (!blocks) {
        int per_sm = 0;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, blocked_kernel<BM, BN, false, false, true>,
                                                          BM * BN / 64, 0) != cudaSuccess || per_sm < 1)
            per_sm = 1;
        cudaGetLastError();
        blocks = (int64_t)per_sm * sm_count();
    }
    return blocks;
}

extern "C" int tb_launch_blocked(const tb_kproblem *p, void *stream)
{
    const int64_t big_tiles = ((p->m + 127) / 128) * ((p->n + 127) / 128);
    if (big_tiles >= sm_count())
        return launch_config<128, 128>(p, 1, stream);
    const int64_t tiles = ((p->m + 63) / 64) * ((p->n + 63) / 64), full = wave<64, 64>();
    int64_t slices = tiles >= full ? 1 : full / tiles;
    slices = slices > p->k / 128 ? p->k / 128 : slices;
    return launch_config<64, 64>(p, slices > 64 ? 64 : slices, stream);
}
