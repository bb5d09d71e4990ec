/*
 * tileblas-bench --host: whole SGEMM calls as a program makes them, on operands in host memory (malloc'd, pageable),
 * timed with the wall clock, side by side on the same data:
 *   - OpenBLAS (libopenblas.so.0), the yardstick: the ratios are to it;
 *   - tileblas: the library's own cblas_sgemm (linked into this program), once as the environment routes it
 *     (TILEBLAS_MODE, auto by default; the row's name says where the call went: tb-auto/cpu or tb-auto/gpu) and
 *     once forced to the GPU (tb-gpu) when a device is usable;
 *   - NVBLAS (libnvblas.so, when it can be loaded): its sgemm_, configured by a file written here (OpenBLAS as its
 *     CPU BLAS, device 0, NVBLAS_AUTOPIN_MEM_ENABLED), unless NVBLAS_CONFIG_FILE names one.
 * Each: one warm-up call (CUDA start-up, staging buffers), then the median of R calls (3 for calls over 0.1
 * TFLOP, 1 over 2 TFLOP; calls under 20 us in batches, alike for all), then a quarter of a second idle
 * (bench_settle).  C is refilled before each call: NaN when beta = 0 (so that a result not written shows), the
 * same random C otherwise.  Every result is compared with OpenBLAS's.
 */
#include <config.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench.h"
#include "tileblas.h"

typedef void (*cblas_fn)(int, int, int, int, int, int, float, const float *, int, const float *, int, float, float *,
                         int);
typedef void (*fortran_fn)(const char *, const char *, const int *, const int *, const int *, const float *,
                           const float *, const int *, const float *, const int *, const float *, float *,
                           const int *);

/* one column-major call on host memory */
typedef struct call {
    int ta, tb, m, n, k, lda, ldb, ldc;
    float alpha, beta;
    const float *a, *b;
    float *c;
} call;

typedef struct himpl {
    const char *name;
    cblas_fn cblas;       /* OpenBLAS's */
    fortran_fn fortran;   /* or NVBLAS's; neither: tileblas's own cblas_sgemm (this program links the core) */
    tileblas_path path;   /* for tileblas's own: the path to force (AUTO: the environment's) */
} himpl;

static const char *run(const himpl *im, const call *x)
{
    if (im->fortran) {
        char ta = x->ta ? 'T' : 'N', tb = x->tb ? 'T' : 'N';
        im->fortran(&ta, &tb, &x->m, &x->n, &x->k, &x->alpha, x->a, &x->lda, x->b, &x->ldb, &x->beta, x->c, &x->ldc);
        return im->name;
    }
    if (im->cblas) {
        im->cblas(102, x->ta ? 112 : 111, x->tb ? 112 : 111, x->m, x->n, x->k, x->alpha, x->a, x->lda, x->b, x->ldb,
                  x->beta, x->c, x->ldc);
        return im->name;
    }
    tileblas_set_path(im->path);
    cblas_sgemm(CblasColMajor, x->ta ? CblasTrans : CblasNoTrans, x->tb ? CblasTrans : CblasNoTrans, x->m, x->n, x->k, x->alpha, x->a, x->lda, x->b, x->ldb,
                x->beta, x->c, x->ldc);
    tileblas_set_path(TILEBLAS_PATH_AUTO);
    tileblas_call_info info;
    tileblas_last_call(&info);
    if (im->path == TILEBLAS_PATH_AUTO)
        return info.path == TILEBLAS_PATH_GPU ? "tb-auto/gpu" : "tb-auto/cpu";
    return info.path == TILEBLAS_PATH_GPU ? "tb-gpu" : "tb-gpu/cpu"; /* forced, yet on the CPU: the GPU failed */
}

/* Median milliseconds of one implementation's calls; C is left with one call's result.  *name: what the calls
 * said.  Calls are timed in batches of *batch back-to-back calls; when *batch is 0 it is chosen here (and kept
 * for the other implementations of the shape, so that all are timed alike): about 0.2 ms a batch for calls that
 * take under 20 us (the fastest of five), since one is too short for the clock, and a program that makes such
 * calls makes many of them; else 1. */
static double time_calls(const himpl *im, const call *x, const float *c0, size_t celems, int repeats,
                         const char **name, int *batch)
{
    double flops = 2.0 * x->m * x->n * x->k;
    int runs = flops > 2e12 ? 1 : flops > 1e11 && repeats > 3 ? 3 : repeats;
    double *ms = bench_alloc((size_t)runs * sizeof *ms);
    memcpy(x->c, c0, celems * sizeof(float));
    double t0 = bench_now();
    *name = run(im, x); /* the warm-up (the first call loads, resolves and allocates what later ones reuse) */
    double one = bench_now() - t0;
    for (int i = 0; i < 5 && !*batch && one < 1e-3; i++) {
        t0 = bench_now();
        run(im, x);
        double t = bench_now() - t0;
        one = t < one ? t : one;
    }
    if (!*batch)
        *batch = one < 20e-6 ? (int)(200e-6 / (one > 1e-7 ? one : 1e-7)) : 1;
    for (int r = 0; r < runs; r++) {
        memcpy(x->c, c0, celems * sizeof(float));
        t0 = bench_now();
        for (int i = 0; i < *batch; i++)
            run(im, x);
        ms[r] = 1e3 * (bench_now() - t0) / *batch;
    }
    if (*batch > 1 && x->beta != 0.0f) { /* C has had many calls: one, for the comparison */
        memcpy(x->c, c0, celems * sizeof(float));
        run(im, x);
    }
    double med = bench_median(ms, runs);
    free(ms);
    bench_settle();
    return med;
}

/* NVBLAS's sgemm_, or NULL; *conf: the configuration file written for it ("" if none) */
static fortran_fn load_nvblas(char *conf, size_t size)
{
    conf[0] = 0;
    if (!getenv("NVBLAS_CONFIG_FILE")) {
        snprintf(conf, size, "/tmp/tileblas-bench-nvblas.XXXXXX");
        int fd = mkstemp(conf);
        FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!f) {
            conf[0] = 0;
            return NULL;
        }
        fprintf(f, "NVBLAS_LOGFILE /dev/null\nNVBLAS_CPU_BLAS_LIB libopenblas.so.0\nNVBLAS_GPU_LIST 0\n"
                   "NVBLAS_AUTOPIN_MEM_ENABLED\n");
        fclose(f);
        setenv("NVBLAS_CONFIG_FILE", conf, 1);
    }
    void *h = dlopen("libnvblas.so.13", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        h = dlopen("libnvblas.so", RTLD_NOW | RTLD_LOCAL);
    return h ? (fortran_fn)dlsym(h, "sgemm_") : NULL;
}

int bench_host(const long long (*shapes)[3], int nshapes, const char (*trans)[3], int ntrans, int repeats,
               float beta, const char *csv)
{
    void *ob = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    cblas_fn openblas = ob ? (cblas_fn)dlsym(ob, "cblas_sgemm") : NULL;
    if (!openblas) {
        printf("SKIP: OpenBLAS (libopenblas.so.0), the yardstick, is not available\n");
        return 77;
    }
    himpl impls[4];
    int nimpls = 0;
    impls[nimpls++] = (himpl){ "OpenBLAS", openblas, NULL, TILEBLAS_PATH_AUTO };
    impls[nimpls++] = (himpl){ "tb-auto", NULL, NULL, TILEBLAS_PATH_AUTO };
    const char *why;
    int gpu = tileblas_gpu_available(&why);
    if (gpu)
        impls[nimpls++] = (himpl){ "tb-gpu", NULL, NULL, TILEBLAS_PATH_GPU };
    char conf[64];
    fortran_fn nvblas = gpu ? load_nvblas(conf, sizeof conf) : NULL;
    if (nvblas)
        impls[nimpls++] = (himpl){ "NVBLAS", NULL, nvblas, TILEBLAS_PATH_AUTO };

    printf("tileblas-bench --host: column-major, alpha = 1, beta = %g; operands in malloc'd host memory; wall clock, "
           "median of %d calls after a warm-up; GPU: %s; NVBLAS: %s\n",
           beta, repeats, gpu ? "yes" : why, nvblas ? "yes" : "not loaded");
    printf("%-18s %-5s %-11s %10s %9s %10s %12s\n", "MxNxK", "trans", "impl", "ms", "TFLOP/s", "x OpenBLAS",
           "max rel diff");
    row *rows = bench_alloc((size_t)nshapes * ntrans * nimpls * sizeof *rows);
    int nrows = 0, status = 0;
    for (int s = 0; s < nshapes; s++)
        for (int t = 0; t < ntrans; t++) {
            call x = { trans[t][0] == 'T', trans[t][1] == 'T', (int)shapes[s][0], (int)shapes[s][1],
                       (int)shapes[s][2], 0, 0, 0, 1.0f, beta, NULL, NULL, NULL };
            x.lda = x.ta ? x.k : x.m, x.ldb = x.tb ? x.n : x.k, x.ldc = x.m;
            size_t aelems = (size_t)x.lda * (x.ta ? x.m : x.k), belems = (size_t)x.ldb * (x.tb ? x.k : x.n);
            size_t celems = (size_t)x.m * x.n;
            float *a = bench_alloc(aelems * sizeof(float)), *b = bench_alloc(belems * sizeof(float));
            float *c0 = bench_alloc(celems * sizeof(float)), *ref = bench_alloc(celems * sizeof(float));
            x.c = bench_alloc(celems * sizeof(float)), x.a = a, x.b = b;
            bench_fill(a, aelems), bench_fill(b, belems);
            if (beta == 0.0f)
                memset(c0, 0xff, celems * sizeof(float));
            else
                bench_fill(c0, celems);
            double ref_ms = 0;
            int batch = 0; /* chosen with the first (OpenBLAS), the same for the others */
            for (int i = 0; i < nimpls; i++) {
                const char *name = impls[i].name;
                double ms = time_calls(&impls[i], &x, c0, celems, repeats, &name, &batch);
                if (i == 0) {
                    ref_ms = ms;
                    memcpy(ref, x.c, celems * sizeof(float));
                }
                double diff = bench_max_diff(x.c, ref, x.m, x.n, x.ldc);
                bench_print_row(&rows[nrows++], x.m, x.n, x.k, trans[t], name, ms, ref_ms, diff);
                if (diff > 1e-3 || isnan(diff))
                    status = 1;
            }
            free(a), free(b), free(c0), free(ref), free(x.c);
        }
    if (csv)
        bench_write_csv(csv, "ratio_to_openblas", rows, nrows);
    free(rows);
    if (conf[0])
        unlink(conf);
    return status;
}
