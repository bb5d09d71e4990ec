// kernels/cx.cu's threads multiplying a stage of shared memory: on the FP32 or FP64 units (simt) or on the FP64
// tensor cores (dmma), each a math<R, C, CA, CB> for a config C of cx.cu.
#ifndef TB_KERNELS_CX_MATH_CUH
#define TB_KERNELS_CX_MATH_CUH

#include "common.cuh"
#include "mma_f64.cuh"

namespace {

// The complex numbers in 16 bytes (2 of float, 1 of double), read from shared memory at once
template <class R>
struct chunk {
    static constexpr int N = 16 / (2 * sizeof(R));

    // Which of a tile's `side` rows (or columns) is the u-th of thread t's `per`: chunks of N, the same chunk of
    // consecutive threads adjacent (so that a warp's 16-byte reads of it meet no bank twice), the chunks side N / per
    // apart
    static __device__ __forceinline__ int at(int t, int u, int side, int per)
    {
        return u / N * (side * N / per) + t * N + u % N;
    }

    // thread t's `per` (TM or TN) complex numbers of row l of a tile of `side` as 2 per parts, from s (the row)
    template <int per, int side>
    static __device__ __forceinline__ void read(R (&v)[2 * per], const R *s, int t)
    {
#pragma unroll
        for (int q = 0; q < per / N; q++) {
            const R *e = s + 2 * at(t, q * N, side, per);
            if constexpr (sizeof(R) == 4) {
                const float4 x = *reinterpret_cast<const float4 *>(e);
                v[4 * q] = x.x, v[4 * q + 1] = x.y, v[4 * q + 2] = x.z, v[4 * q + 3] = x.w;
            } else {
                const double2 x = *reinterpret_cast<const double2 *>(e);
                v[2 * q] = x.x, v[2 * q + 1] = x.y;
            }
        }
    }
};

// How the threads multiply a stage's tiles (op(A)'s BK shared rows, then op(B)'s: row l holds k = l).  Each
// math<R, C, CA, CB> holds a thread's sums; a stage is STEP k at a time: load() reads a step's parts from shared
// memory into a frag, mma() adds its products (CA, CB: op(A), op(B) conjugated; simt takes their imaginary parts
// negated, the same values as the naive kernel's negated loads, so the same terms), and each() hands every sum
// with its row and column in the block's tile to f.  GROUPS: the block's threads in that many groups, each the
// whole tile's, which take a stage's steps in turn (group() the first); their sums are added up in group 0's
// (put() and add(), cx_cluster.cuh's gather_groups), whose threads alone then have sums for each().

// One group (the default)
struct one_group {
    static constexpr int GROUPS = 1;
    static __device__ __forceinline__ int group()
    {
        return 0;
    }
};

// On the FP32 or FP64 units: each thread TM x TN elements, spread by chunk<R>::at
template <int TM, int TN>
struct simt {
    static constexpr int threads(int bm, int bn)
    {
        return bm / TM * (bn / TN);
    }

    template <class R, class C, bool CA, bool CB>
    struct math : one_group {
        static_assert(2 * TM * sizeof(R) % 16 == 0 && 2 * TN * sizeof(R) % 16 == 0, "16-byte chunks");
        static constexpr int TX = C::BM / TM;
        R re[TM][TN] = {}, im[TM][TN] = {};

        // this thread's column of threads along the tile's rows (tx) and row along its columns (ty)
        static __device__ __forceinline__ int tx()
        {
            return (int)threadIdx.x % TX;
        }
        static __device__ __forceinline__ int ty()
        {
            return (int)threadIdx.x / TX;
        }

        // one step along k: this thread's parts of op(A)'s row l and op(B)'s
        static constexpr int STEP = 1;
        struct frag {
            R x[2 * TM], y[2 * TN];
        };
        static __device__ __forceinline__ void load(frag &f, const R *as, const R *bs, int l)
        {
            chunk<R>::template read<TM, C::BM>(f.x, as + l * C::AROW, tx());
            chunk<R>::template read<TN, C::BN>(f.y, bs + l * C::BROW, ty());
        }
        __device__ __forceinline__ void mma(const frag &f)
        {
            constexpr R sa = CA ? -1 : 1, sb = CB ? -1 : 1;
#pragma unroll
            for (int u = 0; u < TM; u++)
#pragma unroll
                for (int v = 0; v < TN; v++) { // as tb_cx_dot
                    const R xi = sa * f.x[2 * u + 1], yi = sb * f.y[2 * v + 1];
                    re[u][v] = tb_fma(f.x[2 * u], f.y[2 * v], tb_fma(-xi, yi, re[u][v]));
                    im[u][v] = tb_fma(f.x[2 * u], yi, tb_fma(xi, f.y[2 * v], im[u][v]));
                }
        }

        template <class F>
        __device__ __forceinline__ void each(F f) const
        {
#pragma unroll
            for (int v = 0; v < TN; v++)
#pragma unroll
                for (int u = 0; u < TM; u++)
                    f(chunk<R>::at(tx(), u, C::BM, TM), chunk<R>::at(ty(), v, C::BN, TN), re[u][v], im[u][v]);
        }
    };
};

// On the FP64 tensor cores (ZGEMM): each warp 8 MI x 8 NJ of C, MI x NJ tiles of 8 x 8 complex numbers, each one real
// m16n8k16 per eight complex k.  Its 16 rows are the tile's rows' real parts, then their imaginary parts, and its k
// takes each complex k twice: op(A) as [re -im; im re] times op(B) as [re; im].  Then a 16-byte read of op(A) or
// op(B) fills two adjacent registers of a fragment as they stand, op(A)'s second column is the same parts swapped
// and one negated (the only moves), and one MMA does what four m16n8k8 would (that form needed a register move for
// every part of its fragments, and was the slower; bench/RESULTS.md).  A quarter warp reads four k of two rows, so
// rows 32 bytes past a multiple of 128 apart (PAD) meet no bank twice.  Conjugates cost no more: with op(B)
// conjugated, op(A) is taken as [re im; im -re] (the same terms as op(B)'s imaginary parts negated), and with
// op(A) conjugated the product is computed as its conjugate, conj(op(A)) op(B) = conj(op(A) conj(op(B))): the
// other operand's conjugate taken instead, the sums' imaginary parts negated at the end (each term negated, so each
// sum exactly, but for the sign of a zero).  KG: groups of warps, each the whole tile's, taking a stage's steps in
// turn, so that a thin product has more warps an SM without more blocks.
template <int MI, int NJ, int KG = 1>
struct dmma {
    static constexpr int threads(int bm, int bn)
    {
        return bm / (8 * MI) * (bn / (8 * NJ)) * 32 * KG;
    }

    template <class R, class C, bool CA, bool CB>
    struct math {
        static_assert(sizeof(R) == 8 && C::BK % (8 * KG) == 0, "FP64, whole steps of 8 for every group");
        // a quarter warp's 16-byte reads (g 0 and 1, t 0 to 3) meet no bank twice: at offsets (in 16 bytes) apart
        // modulo 8, where C::at(a, k, r) places op(A)'s (a) or op(B)'s element (row or column r, complex k)
        static constexpr bool apart(bool a)
        {
            unsigned seen = 0;
            for (int g = 0; g < 2; g++)
                for (int t = 0; t < 4; t++)
                    seen |= 1u << C::at(a, t, g) / 2 % 8;
            return seen == 0xff;
        }
        static_assert(apart(true) && apart(false), "rows apart by the banks' pattern of the reads");
        static constexpr int WX = C::BM / (8 * MI); // warps along the tile's rows
        static constexpr int GROUPS = KG, GROUP = C::THREADS / KG; // the groups, and a group's threads
        double d[MI][NJ][4] = {}; // tile (i, j): row g's real parts at 2 t, 2 t + 1, then its imaginary parts

        static __device__ __forceinline__ int group()
        {
            return KG > 1 ? (int)threadIdx.x / GROUP : 0;
        }
        // the lane's g and t (mma16x8x16), and its warp's first row (wm) and column (wn) in the block's tile
        struct place {
            int g, t, wm, wn;
        };
        static __device__ __forceinline__ place here()
        {
            const int lane = (int)threadIdx.x % 32, w = (int)(KG > 1 ? threadIdx.x % GROUP : threadIdx.x) / 32;
            return { lane / 4, lane % 4, w % WX * 8 * MI, w / WX * 8 * NJ };
        }
        // GROUPS: the sums of this thread's group (past 0) into room, or group h's from room added to this thread's
        // (group 0's); E numbers a thread, consecutive threads adjacent (slot: this thread's first of group h's)
        static constexpr int E = MI * NJ * 4;
        static __device__ __forceinline__ int slot(int h)
        {
            return (h - 1) * E * GROUP + (int)threadIdx.x % GROUP;
        }
        __device__ __forceinline__ double &sum(int e)
        {
            return d[e / (4 * NJ)][e / 4 % NJ][e % 4];
        }
        __device__ __forceinline__ void put(double *room)
        {
#pragma unroll
            for (int e = 0; e < E; e++)
                room[slot(group()) + e * GROUP] = sum(e);
        }
        __device__ __forceinline__ void add(const double *room, int h)
        {
#pragma unroll
            for (int e = 0; e < E; e++)
                sum(e) += room[slot(h) + e * GROUP];
        }

        // one step along k, eight complex k: the fragments of op(A) (rows wm + 8 i + g) and op(B) (columns
        // wn + 8 j + g).  Slots 2P, 2P + 1 (rows g, g + 8 at the real k t + 4 P): complex k kk + t + 4 (P >> 1), its
        // real column (P even) or its imaginary one
        static constexpr int STEP = 8;
        // -v, its sign bit flipped by the integer units, so that no FP64 instruction stands between the DMMAs (ptxas
        // puts NOPs before one that follows a DMMA, and need not keep integer ones apart from them)
        static __device__ __forceinline__ double neg(double v)
        {
            return __hiloint2double(__double2hiint(v) ^ (int)0x80000000, __double2loint(v));
        }
        struct frag {
            double a[MI][8], b[NJ][4];
        };
        static __device__ __forceinline__ void load(frag &f, const R *as, const R *bs, int kk)
        {
            const place h = here();
            const int g = h.g, t = h.t;
            // the lane's 16-byte read p of row (or column) u + g of op(A)'s tile (a) or op(B)'s at s
            auto read = [=](const R *s, bool a, int u, int p) {
                return *reinterpret_cast<const double2 *>(s + C::at(a, kk + t + 4 * p, u + g));
            };
#pragma unroll
            for (int i = 0; i < MI; i++)
#pragma unroll
                for (int p = 0; p < 2; p++) {
                    const double2 x = read(as, true, h.wm + 8 * i, p);
                    double *a = f.a[i] + 4 * p;
                    if (CA != CB) // op(A) times op(B)'s conjugate
                        a[0] = x.x, a[1] = x.y, a[2] = x.y, a[3] = neg(x.x);
                    else
                        a[0] = x.x, a[1] = x.y, a[2] = neg(x.y), a[3] = x.x;
                }
#pragma unroll
            for (int j = 0; j < NJ; j++)
#pragma unroll
                for (int p = 0; p < 2; p++) {
                    const double2 y = read(bs, false, h.wn + 8 * j, p);
                    f.b[j][2 * p] = y.x, f.b[j][2 * p + 1] = y.y;
                }
        }
        __device__ __forceinline__ void mma(const frag &f)
        {
#pragma unroll
            for (int i = 0; i < MI; i++)
#pragma unroll
                for (int j = 0; j < NJ; j++)
                    mma16x8x16(d[i][j], f.a[i], f.b[j]);
        }

        template <class F>
        __device__ __forceinline__ void each(F f) const
        {
            if (group() != 0)
                return;
            const place h = here();
            const int g = h.g, t = h.t, wm = h.wm, wn = h.wn;
#pragma unroll
            for (int i = 0; i < MI; i++)
#pragma unroll
                for (int j = 0; j < NJ; j++)
#pragma unroll
                    for (int e = 0; e < 2; e++) // op(A) conjugated: the conjugate of what was computed
                        f(wm + 8 * i + g, wn + 8 * j + 2 * t + e, d[i][j][e], CA ? -d[i][j][2 + e] : d[i][j][2 + e]);
        }
    };
};

} // namespace

#endif
