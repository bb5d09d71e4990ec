/*
 * kernel-bench: device-resident speed of every kernel in the table (no transfers timed).
 *   bench/kernel-bench [N ...]       square N x N x N, column-major NN (default: 1024 4096)
 * Fresh random data per size, warm-up launches first, then the median of repeated launches timed with CUDA
 * events.  Each kernel's C is checked against the last (default) kernel's.  Prints a table; exit 77 without GPU.
 * (issue 3 grows this into the installed tileblas-bench with cuBLAS and OpenBLAS columns)
 */
#include <config.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernels.h"

#define REPEATS 9

static int check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "kernel-bench: %s: %s\n", what, cudaGetErrorString(e));
        exit(1);
    }
    return 0;
}

static int cmp_float(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

static unsigned long long rng = 88172645463325252ull;
static void fill_random(float *h, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        h[i] = (float)((double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0);
    }
}

int main(int argc, char **argv)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
        printf("SKIP: no CUDA device\n");
        return 77;
    }
    struct cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, 0), "device properties");
    printf("device: %s, %d SMs; column-major NN, alpha = 1, beta = 0; median of %d launches\n", prop.name,
           prop.multiProcessorCount, REPEATS);
    printf("%6s  %-8s %10s %9s %9s %12s\n", "N", "kernel", "ms", "TFLOP/s", "x naive", "max rel diff");
    int nsizes = argc > 1 ? argc - 1 : 2;
    for (int s = 0; s < nsizes; s++) {
        int64_t n = argc > 1 ? atoll(argv[s + 1]) : (s == 0 ? 1024 : 4096);
        size_t elems = (size_t)n * n, bytes = elems * sizeof(float);
        float *h = malloc(bytes), *ref = malloc(bytes), *out = malloc(bytes);
        float *a, *b, *c;
        check(cudaMalloc((void **)&a, bytes), "cudaMalloc");
        check(cudaMalloc((void **)&b, bytes), "cudaMalloc");
        check(cudaMalloc((void **)&c, bytes), "cudaMalloc");
        fill_random(h, elems);
        check(cudaMemcpy(a, h, bytes, cudaMemcpyHostToDevice), "copy A");
        fill_random(h, elems);
        check(cudaMemcpy(b, h, bytes, cudaMemcpyHostToDevice), "copy B");
        tb_kproblem p = { 0, 0, n, n, n, 1.0f, 0.0f, a, n, b, n, c, n };
        cudaEvent_t e0, e1;
        check(cudaEventCreate(&e0), "event");
        check(cudaEventCreate(&e1), "event");
        double med[16] = { 0 }, diff[16] = { 0 };
        int naive = tb_kernel_find("naive");
        /* the default (last) kernel first: its C is the yardstick of the others */
        for (int kk = tb_kernel_count - 1; kk >= 0 && kk < 16; kk--) {
            const tb_kernel *k = &tb_kernel_table[kk];
            int first = kk == tb_kernel_count - 1;
            float ms[REPEATS];
            check(cudaMemset(c, 0xff, bytes), "poison C"); /* NaN: every element must be written */
            for (int w = 0; w < 2; w++)
                check((cudaError_t)k->launch(&p, NULL), "warm-up launch");
            for (int r = 0; r < REPEATS; r++) {
                check(cudaEventRecord(e0, NULL), "record");
                check((cudaError_t)k->launch(&p, NULL), "launch");
                check(cudaEventRecord(e1, NULL), "record");
                check(cudaEventSynchronize(e1), "kernel");
                check(cudaEventElapsedTime(&ms[r], e0, e1), "elapsed");
            }
            qsort(ms, REPEATS, sizeof ms[0], cmp_float);
            med[kk] = ms[REPEATS / 2];
            check(cudaMemcpy(first ? ref : out, c, bytes, cudaMemcpyDeviceToHost), "copy C");
            for (size_t i = 0; i < elems; i++) {
                double d = fabs((double)(first ? ref : out)[i] - ref[i]) / (fabs((double)ref[i]) + 1.0);
                diff[kk] = d > diff[kk] || isnan(d) ? d : diff[kk];
            }
        }
        for (int kk = 0; kk < tb_kernel_count && kk < 16; kk++)
            printf("%6lld  %-8s %10.3f %9.2f %9.2f %12.2e\n", (long long)n, tb_kernel_table[kk].name, med[kk],
                   2e-9 * n * n * (double)n / med[kk], naive >= 0 ? med[naive] / med[kk] : 0.0, diff[kk]);
        cudaEventDestroy(e0), cudaEventDestroy(e1);
        cudaFree(a), cudaFree(b), cudaFree(c);
        free(h), free(ref), free(out);
    }
    return 0;
}
