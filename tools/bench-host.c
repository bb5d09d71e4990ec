/*
 * tileblas-bench --host: whole SGEMM calls as a program makes them, on operands in host memory (malloc'd, pageable),
 * timed with the wall clock, side by side on the same data:
 *   - OpenBLAS (libopenblas.so.0), the yardstick: the ratios are to it;
 *   - bare-fwd: a function that only passes the call on to OpenBLAS through a pointer, as an interposed library
 *     that did nothing else would: the floor of any library in between, for the calls of a few hundred ns;
 *   - tileblas: the library's own cblas_sgemm (linked into this program), once as the environment routes it
 *     (TILEBLAS_MODE, auto by default; the row's name says where the call went: tb-auto/cpu or tb-auto/gpu) and
 *     once forced to the GPU (tb-gpu) when a device is usable;
 *   - NVBLAS (libnvblas.so, when it can be loaded): its sgemm_, configured by a file written here (OpenBLAS as its
 *     CPU BLAS, device 0, NVBLAS_AUTOPIN_MEM_ENABLED), unless NVBLAS_CONFIG_FILE names one.
 * Each: one warm-up call (CUDA start-up, staging buffers), then the median of R calls (3 for calls over 0.1
 * TFLOP, 1 over 2 TFLOP), then a quarter of a second idle (bench_settle).  Calls under 20 us are timed in
 * batches of back-to-back calls instead, all implementations' batches in turn, 41 rounds.  C is refilled before
 * each call or batch: NaN when beta = 0 (so that a result not written shows), the same random C otherwise.
 * Every result (of one call on that C) is compared with OpenBLAS's.
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

/* bare-fwd's target (OpenBLAS's cblas_sgemm) and bare-fwd itself: not inlined, its call is what it measures */
static cblas_fn bare_target;
static __attribute__((noinline)) void bare_forward(int order, int ta, int tb, int m, int n, int k, float alpha,
                                                   const float *a, int lda, const float *b, int ldb, float beta,
                                                   float *c, int ldc)
{
    bare_target(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

/* one call and nothing else (for tileblas's own, the thread's forced path is the caller's to set) */
static void call_once(const himpl *im, const call *x)
{
    if (im->fortran) {
        char ta = x->ta ? 'T' : 'N', tb = x->tb ? 'T' : 'N';
        im->fortran(&ta, &tb, &x->m, &x->n, &x->k, &x->alpha, x->a, &x->lda, x->b, &x->ldb, &x->beta, x->c, &x->ldc);
    } else if (im->cblas) {
        im->cblas(102, x->ta ? 112 : 111, x->tb ? 112 : 111, x->m, x->n, x->k, x->alpha, x->a, x->lda, x->b, x->ldb,
                  x->beta, x->c, x->ldc);
    } else {
        cblas_sgemm(CblasColMajor, x->ta ? CblasTrans : CblasNoTrans, x->tb ? CblasTrans : CblasNoTrans, x->m, x->n,
                    x->k, x->alpha, x->a, x->lda, x->b, x->ldb, x->beta, x->c, x->ldc);
    }
}

/* one call with im's path forced; returns the row's name, for tileblas's own with where the call went */
static const char *run(const himpl *im, const call *x)
{
    tileblas_set_path(im->path);
    call_once(im, x);
    tileblas_set_path(TILEBLAS_PATH_AUTO);
    if (im->fortran || im->cblas)
        return im->name;
    tileblas_call_info info;
    tileblas_last_call(&info);
    if (im->path == TILEBLAS_PATH_AUTO)
        return info.path == TILEBLAS_PATH_GPU ? "tb-auto/gpu" : "tb-auto/cpu";
    return info.path == TILEBLAS_PATH_GPU ? "tb-gpu" : "tb-gpu/cpu"; /* forced, yet on the CPU: the GPU failed */
}

/* How many back-to-back calls one timing takes: about 0.2 ms worth for calls that take under 20 us (the fastest
 * of five of im's, after a warm-up), since one is too short for the clock, and a program that makes such calls
 * makes many of them; else 1.  Chosen with the first implementation (OpenBLAS), the same for the others. */
static int choose_batch(const himpl *im, const call *x, const float *c0, size_t celems)
{
    memcpy(x->c, c0, celems * sizeof(float));
    double one = 1.0;
    for (int i = 0; i < 6; i++) {
        double t0 = bench_now();
        run(im, x);
        double t = bench_now() - t0;
        one = i && t < one ? t : one; /* the first is the warm-up */
        if (t >= (i ? 1e-3 : 0.1))
            break; /* a long call: no need of more */
    }
    return one < 20e-6 ? (int)(200e-6 / (one > 1e-7 ? one : 1e-7)) : 1;
}

/* Median milliseconds of one implementation's calls, one at a time; C is left with one call's result.  *name:
 * what the calls said. */
static double time_calls(const himpl *im, const call *x, const float *c0, size_t celems, int repeats,
                         const char **name)
{
    double flops = 2.0 * x->m * x->n * x->k;
    int runs = flops > 2e12 ? 1 : flops > 1e11 && repeats > 3 ? 3 : repeats;
    double *ms = bench_alloc((size_t)runs * sizeof *ms);
    memcpy(x->c, c0, celems * sizeof(float));
    *name = run(im, x); /* the warm-up (the first call loads, resolves and allocates what later ones reuse) */
    for (int r = 0; r < runs; r++) {
        memcpy(x->c, c0, celems * sizeof(float));
        double t0 = bench_now();
        run(im, x);
        ms[r] = 1e3 * (bench_now() - t0);
    }
    double med = bench_median(ms, runs);
    free(ms);
    bench_settle();
    return med;
}

/* Calls of a few microseconds: every implementation's batches taken in turn, round after round (41), so that
 * whatever drifts on the host (clock speed, other work) falls on all alike; the median ms a call of each into
 * ms[], and what its calls said into name[].  C is left with the last implementation's one call's result: each
 * is compared right after its own call, by the caller, through result[]. */
static void time_interleaved(const himpl *impls, int nimpls, const call *x, const float *c0, size_t celems, int batch,
                             double *ms, const char **name, float **result)
{
    enum { ROUNDS = 41 };
    double *t = bench_alloc((size_t)nimpls * ROUNDS * sizeof *t);
    for (int i = 0; i < nimpls; i++) { /* warm-up, and the result of one call from C as given */
        memcpy(x->c, c0, celems * sizeof(float));
        name[i] = run(&impls[i], x);
        memcpy(result[i], x->c, celems * sizeof(float));
    }
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < nimpls; i++) {
            memcpy(x->c, c0, celems * sizeof(float));
            tileblas_set_path(impls[i].path); /* once a batch, as a program would */
            double t0 = bench_now();
            for (int b = 0; b < batch; b++)
                call_once(&impls[i], x);
            t[i * ROUNDS + r] = 1e3 * (bench_now() - t0) / batch;
            tileblas_set_path(TILEBLAS_PATH_AUTO);
        }
    for (int i = 0; i < nimpls; i++)
        ms[i] = bench_median(&t[i * ROUNDS], ROUNDS);
    free(t);
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
    himpl impls[5];
    int nimpls = 0;
    impls[nimpls++] = (himpl){ "OpenBLAS", openblas, NULL, TILEBLAS_PATH_AUTO };
    bare_target = openblas;
    impls[nimpls++] = (himpl){ "bare-fwd", bare_forward, NULL, TILEBLAS_PATH_AUTO };
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
            /* the batch from OpenBLAS's calls; with more than one call a batch, every implementation in turn */
            int batch = choose_batch(&impls[0], &x, c0, celems);
            double ms[5];
            const char *name[5];
            float *result[5];
            for (int i = 0; i < nimpls; i++)
                result[i] = bench_alloc(celems * sizeof(float));
            if (batch > 1) {
                time_interleaved(impls, nimpls, &x, c0, celems, batch, ms, name, result);
            } else {
                for (int i = 0; i < nimpls; i++) {
                    ms[i] = time_calls(&impls[i], &x, c0, celems, repeats, &name[i]);
                    memcpy(result[i], x.c, celems * sizeof(float));
                }
            }
            memcpy(ref, result[0], celems * sizeof(float));
            for (int i = 0; i < nimpls; i++) {
                double diff = bench_max_diff(result[i], ref, x.m, x.n, x.ldc);
                bench_print_row(&rows[nrows++], x.m, x.n, x.k, trans[t], name[i], ms[i], ms[0], diff);
                if (diff > 1e-3 || isnan(diff))
                    status = 1;
                free(result[i]);
            }
            if (batch > 1)
                bench_settle();
            free(a), free(b), free(c0), free(ref), free(x.c);
        }
    if (csv)
        bench_write_csv(csv, "ratio_to_openblas", rows, nrows);
    free(rows);
    if (conf[0])
        unlink(conf);
    return status;
}
