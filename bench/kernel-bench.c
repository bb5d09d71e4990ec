/*
 * kernel-bench: device-resident speed of the kernels in the table, side by side with cuBLAS (no transfers timed).
 *   bench/kernel-bench [--trans XY] [--kernels a,b,...] [--repeats R] SHAPE...
 *   SHAPE: N (square) or MxNxK; default 1024 4096.  XY: transposes of A and B, N or T (default NN).
 * Column-major, alpha = 1, beta = 0; leading dimensions rounded up to 4 floats, as the library's device copies
 * are.  Fresh random data per shape, 2 warm-up launches, then the median of R launches timed with CUDA events.
 * C is poisoned (NaN) before each kernel; each result is compared with cuBLAS's (or the last kernel's when cuBLAS
 * is not there).  cuBLAS is loaded at run time: the library itself never depends on it.  Exit 77 without a GPU.
 */
#include <config.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernels.h"

static void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "kernel-bench: %s: %s\n", what, cudaGetErrorString(e));
        exit(1);
    }
}

static int cmp_float(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

static unsigned long long rng = 88172645463325252ull;
static float *random_device(size_t count)
{
    float *h = malloc(count * sizeof *h), *d;
    for (size_t i = 0; i < count; i++) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        h[i] = (float)((double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0);
    }
    check(cudaMalloc((void **)&d, count * sizeof *d), "cudaMalloc");
    check(cudaMemcpy(d, h, count * sizeof *d, cudaMemcpyHostToDevice), "copy");
    free(h);
    return d;
}

/* cuBLAS, if it can be loaded */
typedef cublasStatus_t (*create_fn)(cublasHandle_t *);
typedef cublasStatus_t (*sgemm_fn)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const float *,
                                   const float *, int, const float *, int, const float *, float *, int);
static cublasHandle_t cublas;
static sgemm_fn cublas_sgemm;

static void load_cublas(void)
{
    void *h = dlopen("libcublas.so.13", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        h = dlopen("libcublas.so", RTLD_NOW | RTLD_LOCAL);
    create_fn create = h ? (create_fn)dlsym(h, "cublasCreate_v2") : NULL;
    cublas_sgemm = h ? (sgemm_fn)dlsym(h, "cublasSgemm_v2") : NULL;
    if (!create || !cublas_sgemm || create(&cublas) != CUBLAS_STATUS_SUCCESS) {
        cublas_sgemm = NULL;
        printf("cuBLAS: not available (%s)\n", h ? "no cublasCreate_v2/cublasSgemm_v2" : dlerror());
    }
}

/* one "kernel": a table entry, or cuBLAS (kernel == NULL) */
static int run_one(const tb_kernel *kernel, const tb_kproblem *p)
{
    if (kernel)
        return kernel->launch(p, NULL);
    float alpha = p->alpha, beta = p->beta;
    cublasStatus_t s = cublas_sgemm(cublas, p->transa ? CUBLAS_OP_T : CUBLAS_OP_N, p->transb ? CUBLAS_OP_T : CUBLAS_OP_N,
                                    (int)p->m, (int)p->n, (int)p->k, &alpha, p->a, (int)p->lda, p->b, (int)p->ldb, &beta,
                                    p->c, (int)p->ldc);
    return s == CUBLAS_STATUS_SUCCESS ? 0 : (int)cudaErrorUnknown;
}

static int repeats = 9;

/* median milliseconds of one kernel on p; C copied back into out */
static double time_one(const tb_kernel *kernel, const tb_kproblem *p, float *out, size_t celems)
{
    cudaEvent_t e0, e1;
    float *ms = malloc((size_t)repeats * sizeof *ms);
    check(cudaEventCreate(&e0), "event");
    check(cudaEventCreate(&e1), "event");
    check(cudaMemset(p->c, 0xff, celems * sizeof(float)), "poison C");
    for (int w = 0; w < 2; w++)
        check((cudaError_t)run_one(kernel, p), "warm-up launch");
    for (int r = 0; r < repeats; r++) {
        check(cudaEventRecord(e0, NULL), "record");
        check((cudaError_t)run_one(kernel, p), "launch");
        check(cudaEventRecord(e1, NULL), "record");
        check(cudaEventSynchronize(e1), "kernel");
        check(cudaEventElapsedTime(&ms[r], e0, e1), "elapsed");
    }
    qsort(ms, (size_t)repeats, sizeof ms[0], cmp_float);
    double med = ms[repeats / 2];
    check(cudaMemcpy(out, p->c, celems * sizeof(float), cudaMemcpyDeviceToHost), "copy C");
    cudaEventDestroy(e0), cudaEventDestroy(e1), free(ms);
    return med;
}

static int64_t round4(int64_t x) { return (x + 3) & ~(int64_t)3; }

int main(int argc, char **argv)
{
    int count = 0, ta = 0, tb = 0;
    const char *only = NULL;
    char *defaults[] = { "1024", "4096" };
    char **shapes = defaults;
    int nshapes = 2;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--trans") && i + 1 < argc) {
            ta = argv[++i][0] == 'T', tb = argv[i][1] == 'T';
        } else if (!strcmp(argv[i], "--kernels") && i + 1 < argc) {
            only = argv[++i];
        } else if (!strcmp(argv[i], "--repeats") && i + 1 < argc) {
            repeats = atoi(argv[++i]);
            repeats = repeats < 1 ? 1 : repeats;
        } else {
            shapes = argv + i, nshapes = argc - i;
            break;
        }
    }
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
        printf("SKIP: no CUDA device\n");
        return 77;
    }
    struct cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, 0), "device properties");
    load_cublas();
    printf("device: %s, %d SMs; column-major %c%c, alpha = 1, beta = 0; median of %d launches\n", prop.name,
           prop.multiProcessorCount, ta ? 'T' : 'N', tb ? 'T' : 'N', repeats);
    printf("%-17s %-9s %10s %9s %9s %12s\n", "MxNxK", "kernel", "ms", "TFLOP/s", "x cuBLAS", "max rel diff");
    for (int s = 0; s < nshapes; s++) {
        long long m, n, k;
        if (sscanf(shapes[s], "%lldx%lldx%lld", &m, &n, &k) != 3)
            m = n = k = atoll(shapes[s]);
        if (m < 1 || n < 1 || k < 1) {
            fprintf(stderr, "kernel-bench: bad shape '%s'\n", shapes[s]);
            return 2;
        }
        int64_t arows = ta ? k : m, acols = ta ? m : k, brows = tb ? n : k, bcols = tb ? k : n;
        tb_kproblem p = { ta, tb, m, n, k, 1.0f, 0.0f, NULL, round4(arows), NULL, round4(brows), NULL, round4(m) };
        p.a = random_device((size_t)p.lda * acols);
        p.b = random_device((size_t)p.ldb * bcols);
        size_t celems = (size_t)p.ldc * n;
        check(cudaMalloc((void **)&p.c, celems * sizeof(float)), "cudaMalloc");
        float *ref = malloc(celems * sizeof *ref), *out = malloc(celems * sizeof *out);
        double ref_ms = 0;
        /* the yardstick first: cuBLAS, else the last (default) kernel */
        const tb_kernel *first = cublas_sgemm ? NULL : &tb_kernel_table[tb_kernel_count - 1];
        ref_ms = time_one(first, &p, ref, celems);
        for (int kk = -1; kk < tb_kernel_count; kk++) {
            const tb_kernel *kernel = kk < 0 ? NULL : &tb_kernel_table[kk];
            if ((kk < 0 && !cublas_sgemm) || (kernel && only && !strstr(only, kernel->name)))
                continue;
            double ms = kernel == first ? ref_ms : time_one(kernel, &p, out, celems);
            const float *got = kernel == first ? ref : out;
            double diff = 0;
            for (int64_t j = 0; j < n; j++)
                for (int64_t i = 0; i < m; i++) {
                    size_t at = (size_t)i + (size_t)j * p.ldc;
                    double d = fabs((double)got[at] - ref[at]) / (fabs((double)ref[at]) + 1.0);
                    diff = d > diff || isnan(d) ? d : diff;
                }
            char shape[48];
            snprintf(shape, sizeof shape, "%lldx%lldx%lld", m, n, k);
            printf("%-17s %-9s %10.3f %9.2f %9.2f %12.2e\n", shape, kernel ? kernel->name : "cuBLAS", ms,
                   2e-9 * (double)m * n * k / ms, cublas_sgemm ? ref_ms / ms : 0.0, diff);
            fflush(stdout);
        }
        cudaFree((void *)p.a), cudaFree((void *)p.b), cudaFree(p.c);
        free(ref), free(out);
    }
    return 0;
}
