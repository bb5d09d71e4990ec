// Helpers shared by the kernels: element access of op(A), op(B) and the alpha/beta epilogue.
#ifndef TB_KERNELS_COMMON_CUH
#define TB_KERNELS_COMMON_CUH

#include <cuda_runtime.h>
#include "kernels.h"

// A problem as a kernel takes it: tb_kproblem with its pointers and scalars typed (T: float or double).
template <class T>
struct tb_problem {
    TB_PROBLEM_FIELDS(T, T)
};
typedef tb_problem<float> tb_sproblem;
typedef tb_problem<double> tb_dproblem;

template <class T>
static inline tb_problem<T> tb_problem_of(const tb_kproblem *p)
{
    return { p->transa, p->transb, p->m, p->n, p->k, (T)p->alpha, (T)p->beta, (const T *)p->a, p->lda,
             (const T *)p->b, p->ldb, (T *)p->c, p->ldc };
}

static inline tb_sproblem tb_sproblem_of(const tb_kproblem *p)
{
    return tb_problem_of<float>(p);
}

__device__ __forceinline__ float tb_fma(float a, float b, float c)
{
    return fmaf(a, b, c);
}

__device__ __forceinline__ double tb_fma(double a, double b, double c)
{
    return fma(a, b, c);
}

// op(X)(row, col) of a column-major matrix with leading dimension ld; 64-bit offsets throughout.
template <class T>
__device__ __forceinline__ T tb_op_at(const T *x, int64_t ld, int trans, int64_t row, int64_t col)
{
    return trans ? x[col + row * ld] : x[row + col * ld];
}

// C(i,j) = alpha*acc + beta*C(i,j); C is not read when beta == 0, so NaN there does not propagate.
template <class T>
__device__ __forceinline__ void tb_update(const tb_problem<T> &p, T *c, T acc)
{
    T ab = p.alpha * acc;
    *c = p.beta == (T)0 ? ab : tb_fma(p.beta, *c, ab);
}

template <class T>
__device__ __forceinline__ void tb_store(const tb_problem<T> &p, int64_t i, int64_t j, T acc)
{
    tb_update(p, p.c + i + j * p.ldc, acc);
}

// Complex numbers of the complex types, as two parts R (interleaved in memory, as BLAS stores them)
template <class R>
struct tb_cx {
    R re, im;
};

// (xr + i xi)(yr + i yi), as the reference BLAS multiplies
template <class R>
__host__ __device__ __forceinline__ tb_cx<R> tb_cx_mul(R xr, R xi, R yr, R yi)
{
    return { xr * yr - xi * yi, xr * yi + xi * yr };
}

// z = alpha v + beta z for the complex z at c (its two parts), z unread when beta is 0 (both parts) and added as
// it is when beta is 1 (as the BLAS does: an Inf part of z then keeps a finite one beside it, where multiplying by
// 1 + 0i would make that NaN)
template <class R>
__device__ __forceinline__ void tb_cx_update(R *c, tb_cx<R> v, R ar, R ai, R br, R bi)
{
    tb_cx<R> w = tb_cx_mul(ar, ai, v.re, v.im);
    if (br == (R)1 && bi == (R)0) {
        w.re += c[0], w.im += c[1];
    } else if (br != (R)0 || bi != (R)0) {
        const tb_cx<R> z = tb_cx_mul(br, bi, c[0], c[1]);
        w.re += z.re, w.im += z.im;
    }
    c[0] = w.re, c[1] = w.im;
}

// Element (row, col) of op(X) for complex X (interleaved parts), conjugated where the op is 2 (conjugate transpose)
template <class R>
__device__ __forceinline__ tb_cx<R> tb_cx_op_at(const R *x, int64_t ld, int op, int64_t row, int64_t col)
{
    const int64_t e = op ? col + row * ld : row + col * ld;
    return { x[2 * e], op == 2 ? -x[2 * e + 1] : x[2 * e + 1] };
}

// Element (i, j) of op(A) op(B) for the complex problem p, summed term by term along k; once both parts are NaN
// nothing can change them, and the sum stops there
template <class R>
__device__ tb_cx<R> tb_cx_dot(const tb_kproblem &p, int64_t i, int64_t j)
{
    const R *a = (const R *)p.a, *b = (const R *)p.b;
    tb_cx<R> acc = { 0, 0 };
    for (int64_t l = 0; l < p.k; l++) {
        const tb_cx<R> x = tb_cx_op_at(a, p.lda, p.transa, i, l), y = tb_cx_op_at(b, p.ldb, p.transb, l, j);
        acc.re = tb_fma(x.re, y.re, tb_fma(-x.im, y.im, acc.re));
        acc.im = tb_fma(x.re, y.im, tb_fma(x.im, y.re, acc.im));
        if (acc.re != acc.re && acc.im != acc.im)
            break;
    }
    return acc;
}

// Which tile (*tm, *tn) of C's tiles_m x tiles_n block b computes: groups of 8 tile rows, column by column within a
// group, so that the blocks running at once share op(A)'s row panels and op(B)'s column panels in L2 (where C is
// tall and thin, each row panel of op(A) is read from memory once, not once a column of tiles).
template <class I>
__device__ __forceinline__ void tb_group_tile(I b, I tiles_m, I tiles_n, I *tm, I *tn)
{
    constexpr I GROUP = 8;
    const I per = GROUP * tiles_n, first = b / per * GROUP, rows = min(tiles_m - first, GROUP);
    *tm = first + b % per % rows;
    *tn = b % per / rows;
}

// Column blocks beyond gridDim.y's limit (65535) are covered by striding over blockIdx.y.
static inline unsigned tb_grid_y(int64_t blocks)
{
    return (unsigned)(blocks < 65535 ? blocks : 65535);
}

// The device a kernel runs on: the calling thread's current one (the library makes each call's device current).
// Per-device facts are cached for the first TB_KERNEL_DEVICES ordinals and asked afresh beyond them.
#define TB_KERNEL_DEVICES 16
static inline int tb_kernel_device(void)
{
    int d = 0;
    if (cudaGetDevice(&d) != cudaSuccess || d < 0) {
        cudaGetLastError();
        d = 0;
    }
    return d;
}

// A fact of device d kept in cache[], one int a device (as the value + 1: 0 is not yet known): 1 with *v when
// known; tb_device_keep stores it.  Threads that race store the same value.
static inline int tb_device_known(const int cache[TB_KERNEL_DEVICES], int d, int *v)
{
    const int c = d < TB_KERNEL_DEVICES ? __atomic_load_n(&cache[d], __ATOMIC_RELAXED) : 0;
    *v = c - 1;
    return c != 0;
}

static inline void tb_device_keep(int cache[TB_KERNEL_DEVICES], int d, int v)
{
    if (d < TB_KERNEL_DEVICES)
        __atomic_store_n(&cache[d], v + 1, __ATOMIC_RELAXED);
}

// A fact of the current device kept in cache[]: ask(d) the first time (device d; the error it leaves cleared)
template <class Ask>
static inline int tb_device_fact(int cache[TB_KERNEL_DEVICES], Ask ask)
{
    const int d = tb_kernel_device();
    int v;
    if (!tb_device_known(cache, d, &v)) {
        v = ask(d);
        cudaGetLastError();
        tb_device_keep(cache, d, v);
    }
    return v;
}

// Attribute a of the current device, kept in cache[]; `fallback` where CUDA cannot say
static inline int tb_device_attr(int cache[TB_KERNEL_DEVICES], cudaDeviceAttr a, int fallback)
{
    return tb_device_fact(cache, [a, fallback](int d) {
        int v;
        return cudaDeviceGetAttribute(&v, a, d) == cudaSuccess ? v : fallback;
    });
}

// The PTX version (10 major + minor) that `kernel`'s code for the current device was built from, kept in cache[]
// (0 where CUDA cannot say): a build for older GPUs only runs on Hopper through its PTX, with the code that needs
// Hopper's instructions compiled out
template <class Kernel>
static inline int tb_ptx_version(int cache[TB_KERNEL_DEVICES], Kernel kernel)
{
    return tb_device_fact(cache, [kernel](int) {
        cudaFuncAttributes a;
        return cudaFuncGetAttributes(&a, kernel) == cudaSuccess ? a.ptxVersion : 0;
    });
}

// The SMs of the device kernels run on
static inline int tb_sm_count(void)
{
    static int sms[TB_KERNEL_DEVICES];
    return tb_device_attr(sms, cudaDevAttrMultiProcessorCount, 132);
}

// The blocks of `kernel` (launched with `threads` threads and `smem` bytes of dynamic shared memory) that fit on all
// SMs of the current device at once; the count an SM kept in cache[] (a race computes it twice)
template <class Kernel>
static inline int64_t tb_wave(int cache[TB_KERNEL_DEVICES], Kernel kernel, int threads, size_t smem = 0)
{
    const int n = tb_device_fact(cache, [kernel, threads, smem](int) {
        int per_sm;
        return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem) == cudaSuccess &&
                       per_sm > 0
                   ? per_sm
                   : 1;
    });
    return (int64_t)n * tb_sm_count();
}

#endif
