/*
 * tileblas-bench --accuracy: how close single-precision products come to the exact one, for the kernels chosen
 * (default tc32 and blocked) and cuBLAS's FP32 SGEMM (its default math) and TF32 paths, on device-resident operands.
 * The reference is cuBLAS's DGEMM of the same FP32 inputs (products exact in FP64, sums 2^29 times finer than
 * FP32's).  For each shape, transpose pair and input set: the median and largest |C - C64| / |C64| over the
 * elements whose C64 is a non-zero FP32-range number, the largest of those over the elements that cuBLAS FP32 also
 * gives finite (max-cb: where cuBLAS's sums overflow, it leaves out elements that the others must count), the
 * largest |C - C64| / (K u (|A||B|)) (u = 2^-24: the test suites' bound is a small multiple of it), and the
 * elements that are Inf or NaN though C64 is in range (spurious) or finite though it is not (missed).
 *
 * Input sets (A and B drawn alike unless said): uniform (-0.5, 0.5); standard normal; exp-spread: uniform times
 * e^(4 x), x standard normal (GEMMul8's phi = 4); 2^+-60: uniform times 2^e, e uniform in [-60, 60]; tiny*huge: A
 * uniform times 2^-(120..127) (denormals among them), B uniform times 2^100; near-max: A uniform times 2^124, B
 * uniform times 4 (sums near FLT_MAX).
 */
#include <config.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "cuda_ops.h"
#include "kernels.h"

enum { SETS = 6 };
static const char *const set_names[SETS] = { "uniform", "normal", "exp-spread", "2^+-60", "tiny*huge", "near-max" };

static uint64_t rng;
static double uniform01(void) /* [0, 1) */
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-53;
}
static double normal(void)
{
    double u = uniform01(), v = uniform01();
    return sqrt(-2.0 * log(u > 0 ? u : 0x1p-60)) * cos(6.283185307179586 * v);
}

/* one element of input set s for operand A (a) or B */
static float draw(int s, int a)
{
    const double u = uniform01() - 0.5;
    switch (s) {
    case 0: return (float)u;
    case 1: return (float)normal();
    case 2: return (float)(u * exp(4.0 * normal()));
    case 3: return (float)ldexp(u, (int)(uniform01() * 121) - 60);
    case 4: return (float)ldexp(u, a ? -120 - (int)(uniform01() * 8) : 100);
    default: return (float)ldexp(u, a ? 124 : 2);
    }
}

/* the k-th smallest of x[0..n) (x reordered): quickselect, linear on average, where sorting 16M errors per
 * implementation and input set would take most of the run */
static double kth(double *x, size_t n, size_t k)
{
    ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1;
    const ptrdiff_t want = (ptrdiff_t)k;
    while (lo < hi) {
        const double pivot = x[lo + (hi - lo) / 2];
        ptrdiff_t i = lo, j = hi;
        while (i <= j) {
            while (x[i] < pivot)
                i++;
            while (x[j] > pivot)
                j--;
            if (i <= j) {
                const double t = x[i];
                x[i++] = x[j], x[j--] = t;
            }
        }
        if (want <= j) /* [lo, j] holds the smallest, [i, hi] the largest, and pivot's equals lie between */
            hi = j;
        else if (want >= i)
            lo = i;
        else
            return x[want];
    }
    return x[want];
}

typedef struct stats {
    double median, max, max_cb, bound;
    long spurious, missed;
} stats;

/* c (FP32, ld ldc) against the reference r and the bound's |A||B| (FP64, ld m); cb: 1 where cuBLAS FP32's
 * element is finite */
static stats measure(const float *c, int64_t ldc, const double *r, const double *mag, const unsigned char *cb,
                     int64_t m, int64_t n, int64_t k, double *rel)
{
    stats st = { 0, 0, 0, 0, 0, 0 };
    size_t nrel = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            const double x = c[i + j * ldc], want = r[i + j * m];
            const int inrange = fabs(want) <= 0x1.fffffep127;
            st.spurious += !isfinite(x) && inrange;
            st.missed += isfinite(x) && !inrange;
            if (!isfinite(x) || !inrange)
                continue;
            const double d = fabs(x - want);
            if (want != 0) {
                rel[nrel++] = d / fabs(want);
                st.max = fmax(st.max, d / fabs(want));
                if (cb[i + j * m])
                    st.max_cb = fmax(st.max_cb, d / fabs(want));
            }
            if (mag[i + j * m] > 0 && d / (k * 0x1p-24 * mag[i + j * m]) > st.bound)
                st.bound = d / (k * 0x1p-24 * mag[i + j * m]);
        }
    if (nrel)
        st.median = kth(rel, nrel, nrel / 2);
    return st;
}

static int cuda_ok(cudaError_t e, const char *what)
{
    if (e != cudaSuccess)
        fprintf(stderr, "tileblas-bench: %s: %s\n", what, cudaGetErrorString(e));
    return e == cudaSuccess;
}

/* the kernels of the comma-separated list that run single precision, into ks (at most max); their count */
static int kernels_of(const char *list, int *ks, int max)
{
    int n = 0;
    for (int i = 0; i < tb_kernel_count && n < max; i++) {
        const size_t len = strlen(tb_kernel_names[i]);
        for (const char *at = list; (at = strstr(at, tb_kernel_names[i])); at += len)
            if ((at == list || at[-1] == ',') && (at[len] == ',' || at[len] == 0) &&
                (tb_kernel_types[i] & TB_TYPE_BIT(TB_TYPE_S))) {
                ks[n++] = i;
                break;
            }
    }
    return n;
}

int bench_accuracy(const long long (*shapes)[3], int nshapes, const char (*trans)[3], int ntrans, const char *kernels,
                   unsigned long long seed)
{
    int ks[16];
    const int nk = kernels_of(kernels, ks, 16);
    rng = seed ? seed : 0x9e3779b97f4a7c15ull;
    int major = 0, minor = 0, device = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
    printf("tileblas-bench --accuracy: seed %llu; compute capability %d.%d; relative errors against cuBLAS DGEMM of "
           "the same inputs; bound: |C - C64| / (K u |A||B|)\n",
           (unsigned long long)rng, major, minor);
    printf("%-22s %-2s %-10s %-12s %10s %10s %10s %9s %8s %8s\n", "MxNxK", "op", "inputs", "impl", "median", "max",
           "max-cb", "bound", "spurious", "missed");
    int status = 0;
    for (int s = 0; s < nshapes; s++)
        for (int t = 0; t < ntrans; t++) {
            const int64_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
            const int ta = trans[t][0] == 'T', tb = trans[t][1] == 'T';
            const int64_t lda = ta ? k : m, ldb = tb ? n : k, na = lda * (ta ? m : k), nb = ldb * (tb ? k : n);
            float *ha = bench_alloc((size_t)na * 4), *hb = bench_alloc((size_t)nb * 4);
            float *hc = bench_alloc((size_t)(m * n) * 4);
            double *xa = bench_alloc((size_t)na * 8), *xb = bench_alloc((size_t)nb * 8);
            double *ref = bench_alloc((size_t)(m * n) * 8), *mag = bench_alloc((size_t)(m * n) * 8);
            double *rel = bench_alloc((size_t)(m * n) * 8);
            unsigned char *cb = bench_alloc((size_t)(m * n));
            float *da = NULL, *db = NULL, *dc = NULL;
            double *dxa = NULL, *dxb = NULL, *dxc = NULL;
            int ok = cuda_ok(cudaMalloc((void **)&da, (size_t)na * 4), "cudaMalloc") &&
                     cuda_ok(cudaMalloc((void **)&db, (size_t)nb * 4), "cudaMalloc") &&
                     cuda_ok(cudaMalloc((void **)&dc, (size_t)(m * n) * 4), "cudaMalloc") &&
                     cuda_ok(cudaMalloc((void **)&dxa, (size_t)na * 8), "cudaMalloc") &&
                     cuda_ok(cudaMalloc((void **)&dxb, (size_t)nb * 8), "cudaMalloc") &&
                     cuda_ok(cudaMalloc((void **)&dxc, (size_t)(m * n) * 8), "cudaMalloc");
            for (int set = 0; ok && set < SETS; set++) {
                for (int64_t i = 0; i < na; i++)
                    ha[i] = draw(set, 1);
                for (int64_t i = 0; i < nb; i++)
                    hb[i] = draw(set, 0);
                /* the exact products' sums, and the sums of their magnitudes */
                for (int pass = 0; ok && pass < 2; pass++) {
                    for (int64_t i = 0; i < na; i++)
                        xa[i] = pass ? fabs((double)ha[i]) : ha[i];
                    for (int64_t i = 0; i < nb; i++)
                        xb[i] = pass ? fabs((double)hb[i]) : hb[i];
                    const tb_kproblem p = { .type = TB_TYPE_D, .transa = ta, .transb = tb, .m = m, .n = n, .k = k,
                                            .alpha = 1.0, .beta = 0.0, .a = dxa, .lda = lda, .b = dxb, .ldb = ldb,
                                            .c = dxc, .ldc = m };
                    ok = cuda_ok(cudaMemcpy(dxa, xa, (size_t)na * 8, cudaMemcpyHostToDevice), "copy") &&
                         cuda_ok(cudaMemcpy(dxb, xb, (size_t)nb * 8, cudaMemcpyHostToDevice), "copy") &&
                         !bench_cublas_gemm(&p, 0) &&
                         cuda_ok(cudaMemcpy(pass ? mag : ref, dxc, (size_t)(m * n) * 8, cudaMemcpyDeviceToHost),
                                 "copy back");
                }
                ok = ok && cuda_ok(cudaMemcpy(da, ha, (size_t)na * 4, cudaMemcpyHostToDevice), "copy") &&
                     cuda_ok(cudaMemcpy(db, hb, (size_t)nb * 4, cudaMemcpyHostToDevice), "copy");
                const tb_kproblem p = { .type = TB_TYPE_S, .transa = ta, .transb = tb, .m = m, .n = n, .k = k,
                                        .alpha = 1.0, .beta = 0.0, .a = da, .lda = lda, .b = db, .ldb = ldb,
                                        .c = dc, .ldc = m };
                /* where cuBLAS FP32 is finite, for max-cb */
                ok = ok && !bench_cublas_gemm(&p, 0) &&
                     cuda_ok(cudaMemcpy(hc, dc, (size_t)(m * n) * 4, cudaMemcpyDeviceToHost), "copy back");
                for (int64_t i = 0; ok && i < m * n; i++)
                    cb[i] = isfinite(hc[i]) != 0;
                for (int im = 0; ok && im < nk + 2; im++) {
                    const char *name = im < nk ? tb_kernel_names[ks[im]] : im == nk ? "cuBLAS-fp32" : "cuBLAS-tf32";
                    int e = !cuda_ok(cudaMemset(dc, 0xff, (size_t)(m * n) * 4), "poison C"); /* NaN */
                    if (!e)
                        e = im < nk ? tb_cuda_launch(ks[im], &p, NULL) : bench_cublas_gemm(&p, im == nk ? 0 : 1);
                    if (e || !cuda_ok(cudaMemcpy(hc, dc, (size_t)(m * n) * 4, cudaMemcpyDeviceToHost), name)) {
                        printf("%-22s %c%c %-10s %-12s failed\n", "", trans[t][0], trans[t][1], set_names[set], name);
                        status = 1;
                        continue;
                    }
                    const stats st = measure(hc, m, ref, mag, cb, m, n, k, rel);
                    char shape[32];
                    snprintf(shape, sizeof shape, "%lldx%lldx%lld", (long long)m, (long long)n, (long long)k);
                    printf("%-22s %c%c %-10s %-12s %10.3e %10.3e %10.3e %9.4f %8ld %8ld\n", shape, trans[t][0],
                           trans[t][1], set_names[set], name, st.median, st.max, st.max_cb, st.bound, st.spurious,
                           st.missed);
                }
            }
            status |= !ok;
            cudaFree(da), cudaFree(db), cudaFree(dc), cudaFree(dxa), cudaFree(dxb), cudaFree(dxc);
            free(ha), free(hb), free(hc), free(xa), free(xb), free(ref), free(mag), free(rel), free(cb);
        }
    return status;
}
