/*
 * tileblas-bench: how fast tileblas's GPU kernels are, side by side with cuBLAS and OpenBLAS, on the same data.
 *
 *   tileblas-bench [--shape MxNxK | --shape N]... [--trans XY]... [--kernels LIST] [--repeats R] [--no-cpu]
 *                  [--device D] [--csv FILE] [--plot FILE.png]
 *   tileblas-bench --plot-csv FILE.csv FILE.png      draw a chart from an earlier run's CSV (no GPU needed)
 *
 * For each shape and transpose pair, column-major, alpha = 1, beta = 0:
 *   - each chosen kernel of the table (default: naive, tiled32 and blocked, the lessons' two and the fast one;
 *     --kernels all for every one) and cuBLAS when libcublas can be loaded at run time, all device-resident
 *     (operands already on the GPU, leading dimensions rounded up to 4 floats as the library's copies are):
 *     2 warm-up launches, then the median of R samples timed with CUDA events, each one launch or, for launches
 *     under 0.2 ms, as many back to back as make about 0.2 ms (at most 50), divided by their number: the host's
 *     jitter around a single short launch would otherwise decide its time (--repeats 1: one launch, as under
 *     compute-sanitizer, where each launch costs the host much more); where any of them takes under 0.2 ms, all
 *     are timed so five times in turn, and the median of the five is printed;
 *   - with `call` in --kernels (or all): tileblas's cblas_sgemm on the same device pointers (tb-call: the library
 *     finds them in device memory and runs the default kernel in place), timed the same way;
 *   - all of it on CUDA device D (--device; 0 by default), the library's calls too (on the device that holds
 *     their operands: another than the first only in builds with TB_MULTI_GPU);
 *   - OpenBLAS (libopenblas.so.0, loaded at run time) on the host: the median of a few calls, wall clock.
 * Fresh random data per shape; C is poisoned (NaN) before each run; every result is compared with cuBLAS's (or
 * the default kernel's), and the largest relative difference is printed.  A table goes to stdout (TFLOP/s and
 * the ratio to cuBLAS), CSV to --csv, and --plot draws the TFLOP/s with gnuplot (an optional dependency).
 *
 * --host: whole calls from the program's side instead (tools/bench-host.c): tileblas's cblas_sgemm on host memory,
 * as a program would call it, against OpenBLAS and NVBLAS; --routine syrk|herk|syr2k|her2k|symm|hemm: the same
 * of an update or of a product with a symmetric operand.
 * --contend [--big N]: a second thread's calls while a background thread keeps the GPU busy with N x N x N calls
 * from host memory (default 8192; tools/bench-contend.c).
 * --accuracy: errors against an FP64 product instead of times (tools/bench-accuracy.c).
 * --sweep N [--seed S]: N random shapes (each dimension log-uniform in [16, 16384], M N K <= 2^36, random
 * transposes, conjugate ones too where --type has a complex type; single precision unless --type says), then each
 * implementation's geometric mean of its ratios.
 * Exit status: 0; 1 when a result differs from the yardstick's by more than 1e-3 (0.1 for a TF32 product; relative
 * to |C| + 1); 2 for bad arguments; 3 when --plot could not draw; 77 without a usable GPU.
 */
#include <config.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench.h"
#include "cuda_ops.h"
#include "devptr.h"
#include "gpu.h"
#include "gpu_module.h"
#include "kernels.h"
#include "tileblas.h"

#define MAX_SHAPES BENCH_MAX_SHAPES
#define MAX_IMPLS 16
/* Where some implementation takes under SHORT_MS ms, all are timed ROUNDS times in turn and each one's median kept:
 * calls of tens of microseconds drift with the GPU's clocks and the host's launches between one implementation's
 * samples and the next one's (bench/RESULTS.md) */
#define SHORT_MS 0.2
#define ROUNDS 5

static void die_cuda(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "tileblas-bench: %s: %s\n", what, cudaGetErrorString(e));
        exit(1);
    }
}

/* ---- what is timed: a kernel of the table, cuBLAS, or OpenBLAS on the host */

typedef enum { IMPL_KERNEL, IMPL_CUBLAS, IMPL_OPENBLAS, IMPL_CALL } impl_kind;
/* cuBLAS's modes: FP32 math, TF32 allowed, or waiting for each product before the next (as a BLAS call must) */
enum { CUBLAS_PLAIN, CUBLAS_TF32, CUBLAS_SYNC };
typedef struct impl {
    impl_kind kind;
    const char *name;
    int kernel; /* IMPL_KERNEL: its number in the table; IMPL_CUBLAS: its mode (CUBLAS_*) */
} impl;

/* A result's largest difference from the yardstick's allowed for an implementation: TF32's inputs keep 11 bits */
static double tolerance_of(const impl *im)
{
    const int tf32 = im->kind == IMPL_KERNEL ? tb_kernel_maths[im->kernel] == TB_MATH_BIT(TB_MATH_TF32)
                                             : im->kind == IMPL_CUBLAS && im->kernel == CUBLAS_TF32;
    return tf32 ? BENCH_TOLERANCE_TF32 : BENCH_TOLERANCE;
}

/* cuBLAS and OpenBLAS, declared here and loaded at run time: nothing links them.  Scalars go by pointer (cuBLAS)
 * or by value of the call's type (OpenBLAS), so one pointer type per precision. */
typedef int (*cublas_create_fn)(void **);
typedef int (*cublas_gemm_fn)(void *, int, int, int, int, int, const void *, const void *, int, const void *, int,
                              const void *, void *, int);
typedef int (*cublas_math_fn)(void *, int);
static void *cublas;
static cublas_gemm_fn cublas_gemm[TB_TYPE_COUNT]; /* by type: cublasSgemm, cublasDgemm, cublasCgemm, cublasZgemm */
static cublas_math_fn cublas_math;    /* cublasSetMathMode */
static int openblas;                  /* OpenBLAS is timed (bench_openblas_gemm) */

static void load_libraries(int want_cpu)
{
    void *h = dlopen("libcublas.so.13", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        h = dlopen("libcublas.so", RTLD_NOW | RTLD_LOCAL);
    cublas_create_fn create = h ? (cublas_create_fn)dlsym(h, "cublasCreate_v2") : NULL;
    cublas_gemm[TB_TYPE_S] = h ? (cublas_gemm_fn)dlsym(h, "cublasSgemm_v2") : NULL;
    cublas_gemm[TB_TYPE_D] = h ? (cublas_gemm_fn)dlsym(h, "cublasDgemm_v2") : NULL;
    cublas_gemm[TB_TYPE_C] = h ? (cublas_gemm_fn)dlsym(h, "cublasCgemm_v2") : NULL;
    cublas_gemm[TB_TYPE_Z] = h ? (cublas_gemm_fn)dlsym(h, "cublasZgemm_v2") : NULL;
    cublas_math = h ? (cublas_math_fn)dlsym(h, "cublasSetMathMode") : NULL;
    if (!create || !cublas_gemm[TB_TYPE_S] || !cublas_gemm[TB_TYPE_D] || !cublas_math || create(&cublas) != 0) {
        memset(cublas_gemm, 0, sizeof cublas_gemm);
        fprintf(stderr, "tileblas-bench: cuBLAS not available: ratios are to the default kernel\n");
    }
    if (want_cpu) {
        openblas = bench_openblas_load();
        if (!openblas) {
            fprintf(stderr, "tileblas-bench: OpenBLAS (libopenblas.so.0) not available: no CPU column\n");
        }
    }
}

/* ---- one shape: operands on the device and the host */

typedef struct problem {
    tb_kproblem p;          /* device pointers */
    void *ha, *hb, *hc;     /* the same operands on the host (for OpenBLAS), and C's result */
    size_t aelems, belems, celems, es;
} problem;

static void setup(problem *pr, tb_type type, int64_t m, int64_t n, int64_t k, int ta, int tb)
{
    int64_t arows = ta ? k : m, acols = ta ? m : k, brows = tb ? n : k, bcols = tb ? k : n;
    tb_kproblem p = { .type = type, .transa = ta, .transb = tb, .m = m, .n = n, .k = k, .alpha = 1.0, .beta = 0.0,
                      .lda = (arows + 3) & ~3ll, .ldb = (brows + 3) & ~3ll, .ldc = (m + 3) & ~3ll };
    const size_t es = tb_type_size(type), parts = tb_type_complex(type) ? 2 : 1;
    pr->es = es;
    pr->aelems = (size_t)(p.lda * acols), pr->belems = (size_t)(p.ldb * bcols), pr->celems = (size_t)(p.ldc * n);
    pr->ha = bench_alloc(pr->aelems * es);
    pr->hb = bench_alloc(pr->belems * es);
    pr->hc = bench_alloc(pr->celems * es);
    bench_fill(pr->ha, pr->aelems * parts, es / parts);
    bench_fill(pr->hb, pr->belems * parts, es / parts);
    die_cuda(cudaMalloc((void **)&p.a, pr->aelems * es), "cudaMalloc A");
    die_cuda(cudaMalloc((void **)&p.b, pr->belems * es), "cudaMalloc B");
    die_cuda(cudaMalloc((void **)&p.c, pr->celems * es), "cudaMalloc C");
    die_cuda(cudaMemcpy((void *)p.a, pr->ha, pr->aelems * es, cudaMemcpyHostToDevice), "copy A");
    die_cuda(cudaMemcpy((void *)p.b, pr->hb, pr->belems * es, cudaMemcpyHostToDevice), "copy B");
    pr->p = p;
}

static void teardown(problem *pr)
{
    cudaFree((void *)pr->p.a), cudaFree((void *)pr->p.b), cudaFree(pr->p.c);
    free(pr->ha), free(pr->hb), free(pr->hc);
}

static int launch(const impl *im, const tb_kproblem *p)
{
    if (im->kind == IMPL_KERNEL)
        return tb_cuda_launch(im->kernel, p, NULL); /* with the workspace the library gives it */
    const int ta = CblasNoTrans + p->transa, tb = CblasNoTrans + p->transb;
    /* complex scalars by pointer, of the call's type (alpha and beta are real here) */
    const double za[2] = { p->alpha, 0 }, zb[2] = { p->beta, 0 };
    const float ca[2] = { (float)p->alpha, 0 }, cb[2] = { (float)p->beta, 0 };
    if (im->kind == IMPL_CALL) { /* the library's entry point on the same device pointers: found and used in place */
        if (p->type == TB_TYPE_Z)
            cblas_zgemm(CblasColMajor, ta, tb, (int)p->m, (int)p->n, (int)p->k, za, p->a, (int)p->lda, p->b,
                        (int)p->ldb, zb, p->c, (int)p->ldc);
        else if (p->type == TB_TYPE_C)
            cblas_cgemm(CblasColMajor, ta, tb, (int)p->m, (int)p->n, (int)p->k, ca, p->a, (int)p->lda, p->b,
                        (int)p->ldb, cb, p->c, (int)p->ldc);
        else if (p->type == TB_TYPE_D)
            cblas_dgemm(CblasColMajor, ta, tb, (int)p->m, (int)p->n, (int)p->k, p->alpha, p->a, (int)p->lda, p->b,
                        (int)p->ldb, p->beta, p->c, (int)p->ldc);
        else
            cblas_sgemm(CblasColMajor, ta, tb, (int)p->m, (int)p->n, (int)p->k, (float)p->alpha, p->a, (int)p->lda,
                        p->b, (int)p->ldb, (float)p->beta, p->c, (int)p->ldc);
        tileblas_call_info info;
        tileblas_last_call(&info);
        return info.path == TILEBLAS_PATH_GPU ? 0 : (int)cudaErrorUnknown;
    }
    /* cuBLAS: scalars of the call's type, by pointer (the real types' the first part of the complex ones');
     * cublasOperation_t: 0 = N, 1 = T, 2 = C, as p has them */
    const int single = p->type == TB_TYPE_S || p->type == TB_TYPE_C;
    const void *alpha = single ? (const void *)ca : za, *beta = single ? (const void *)cb : zb;
    enum { DEFAULT_MATH = 0, TF32_MATH = 3 }; /* cublasMath_t: FP32 products are FP32 by default */
    if (im->kernel == CUBLAS_TF32 && cublas_math(cublas, TF32_MATH))
        return (int)cudaErrorUnknown;
    const int e = cublas_gemm[p->type](cublas, p->transa, p->transb, (int)p->m, (int)p->n, (int)p->k, alpha, p->a,
                                       (int)p->lda, p->b, (int)p->ldb, beta, p->c, (int)p->ldc);
    if (im->kernel == CUBLAS_TF32)
        cublas_math(cublas, DEFAULT_MATH);
    if (e)
        return (int)cudaErrorUnknown;
    /* cuBLAS-sync: returning with C computed, as a BLAS call (tb-call) must */
    return im->kernel == CUBLAS_SYNC ? (int)cudaStreamSynchronize(NULL) : 0;
}

int bench_cublas_gemm(const tb_kproblem *p, int tf32)
{
    if (!cublas_gemm[p->type])
        return 1;
    const impl cu = { IMPL_CUBLAS, tf32 ? "cuBLAS-tf32" : "cuBLAS", tf32 ? CUBLAS_TF32 : CUBLAS_PLAIN };
    return launch(&cu, p) || cudaDeviceSynchronize() != cudaSuccess;
}

/* OpenBLAS on the host operands, C = op(A) op(B) */
static void openblas_call(const problem *pr)
{
    const tb_kproblem *p = &pr->p;
    bench_openblas_gemm(p->type, p->transa, p->transb, (int)p->m, (int)p->n, (int)p->k, 1.0, pr->ha,
                        (int)p->lda, pr->hb, (int)p->ldb, 0.0, pr->hc, (int)p->ldc);
}

/* Median milliseconds of one implementation; its C ends up in pr->hc. */
static double time_impl(const impl *im, problem *pr, int repeats)
{
    double *ms = bench_alloc((size_t)repeats * sizeof *ms);
    const tb_kproblem *p = &pr->p;
    if (im->kind == IMPL_OPENBLAS) {
        /* fewer calls for long ones: the host is slow, and its median is steadier than its first call */
        double flops = 2.0 * p->m * p->n * p->k;
        int runs = flops > 2e11 ? 1 : repeats < 3 ? repeats : 3;
        for (int r = 0; r < runs; r++) {
            memset(pr->hc, 0xff, pr->celems * pr->es);
            double t0 = bench_now();
            openblas_call(pr);
            ms[r] = 1e3 * (bench_now() - t0);
        }
        double med = bench_median(ms, runs);
        free(ms);
        return med;
    }
    cudaEvent_t e0, e1;
    die_cuda(cudaEventCreate(&e0), "event");
    die_cuda(cudaEventCreate(&e1), "event");
    die_cuda(cudaMemset(p->c, 0xff, pr->celems * pr->es), "poison C");
    for (int w = 0; w < 2; w++)
        die_cuda((cudaError_t)launch(im, p), "warm-up launch");
    int batch = 1; /* launches a sample: the first sample's time says how many make 0.2 ms (--repeats 1: one) */
    for (int r = 0; r < repeats; r++) {
        float t;
        die_cuda(cudaEventRecord(e0, NULL), "record");
        for (int l = 0; l < batch; l++)
            die_cuda((cudaError_t)launch(im, p), "launch");
        die_cuda(cudaEventRecord(e1, NULL), "record");
        die_cuda(cudaEventSynchronize(e1), im->name);
        die_cuda(cudaEventElapsedTime(&t, e0, e1), "elapsed");
        if (r == 0 && batch == 1 && t < 0.2f && repeats > 1) {
            batch = t > 0.004f ? (int)(0.2f / t) + 1 : 50;
            batch = batch > 50 ? 50 : batch;
            r--; /* this sample was the estimate */
            continue;
        }
        ms[r] = t / batch;
    }
    double med = bench_median(ms, repeats);
    die_cuda(cudaMemcpy(pr->hc, p->c, pr->celems * pr->es, cudaMemcpyDeviceToHost), "copy C");
    cudaEventDestroy(e0), cudaEventDestroy(e1), free(ms);
    return med;
}

/* ---- output */

int bench_print_row(row *rw, char type, long long m, long long n, long long k, const char *trans, const char *name,
                    double ms, double ref_ms, double diff, double tolerance, double flops)
{
    const int differs = !(diff <= tolerance);
    rw->type = type;
    snprintf(rw->shape, sizeof rw->shape, "%lldx%lldx%lld", m, n, k);
    memcpy(rw->trans, trans, 3);
    rw->impl = name, rw->ms = ms, rw->tflops = 1e-9 * flops / ms;
    rw->ratio = ref_ms / ms, rw->diff = diff;
    printf("%-4c %-18s %-5s %-11s %10.*f %9.2f %9.2f %12.2e%s\n", type, rw->shape, rw->trans, rw->impl,
           ms < 0.1 ? 5 : 3, ms, rw->tflops, rw->ratio, diff, differs ? "  DIFFERS" : "");
    fflush(stdout);
    return differs;
}

void bench_write_csv(const char *path, const char *ratio_name, const row *rows, int nrows)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    /* the type last: CSVs from before it had one read as single precision */
    fprintf(f, "shape,trans,implementation,ms,tflops,%s,max_rel_diff,type\n", ratio_name);
    for (int i = 0; i < nrows; i++)
        /* %g: a tiny call's rate (1e-5 TFLOP/s) must not print as 0 */
        fprintf(f, "%s,%s,%s,%.6f,%.6g,%.6g,%.3e,%c\n", rows[i].shape, rows[i].trans, rows[i].impl, rows[i].ms,
                rows[i].tflops, rows[i].ratio, rows[i].diff, rows[i].type);
    fclose(f);
}

static int same_case(const row *x, const row *y)
{
    return x->type == y->type && !strcmp(x->shape, y->shape) && !strcmp(x->trans, y->trans);
}

/* A grouped bar chart of TFLOP/s: one group per type, shape and transpose pair, one bar per implementation. */
static int plot(const char *png, const row *rows, int nrows, const impl *impls, int nimpls)
{
    char data[] = "/tmp/tileblas-bench-XXXXXX";
    int fd = mkstemp(data);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f)
        return -1;
    fprintf(f, "case");
    for (int j = 0; j < nimpls; j++)
        fprintf(f, " %s", impls[j].name);
    for (int i = 0; i < nrows; i++) {
        if (i == 0 || !same_case(&rows[i], &rows[i - 1])) {
            fprintf(f, "\n%c_%s_%s", rows[i].type, rows[i].shape, rows[i].trans);
            /* one column per implementation, in the order of impls; missing ones as "-" */
            for (int j = 0; j < nimpls; j++) {
                double v = -1;
                for (int r = i; r < nrows && same_case(&rows[r], &rows[i]); r++)
                    if (!strcmp(rows[r].impl, impls[j].name))
                        v = rows[r].tflops;
                v < 0 ? fprintf(f, " -") : fprintf(f, " %.4f", v);
            }
        }
    }
    fprintf(f, "\n");
    fclose(f);
    /* the script in a file and gnuplot run on it without a shell: the PNG's name is data, never a command */
    char script[] = "/tmp/tileblas-bench-XXXXXX";
    int sfd = mkstemp(script);
    FILE *sf = sfd >= 0 ? fdopen(sfd, "w") : NULL;
    int status = -1;
    if (sf) {
        fprintf(sf, "set terminal pngcairo size 1200,600\nset output '");
        for (const char *c = png; *c; c++) /* in a single-quoted gnuplot string, '' is one quote */
            fputs(*c == '\'' ? "''" : (char[]){ *c, 0 }, sf);
        fprintf(sf, "'\nset datafile missing '-'\nset style data histograms\nset style fill solid border -1\n"
                    "set key top left\nset ylabel 'TFLOP/s'\nset xtics rotate by -30 noenhanced\n"
                    "set title 'tileblas-bench'\nplot for [i=2:%d] '%s' using i:xtic(1) title columnheader(i)\n",
                nimpls + 1, data);
        if (fclose(sf) == 0) {
            pid_t pid;
            char *const args[] = { "gnuplot", script, NULL };
            if (posix_spawnp(&pid, "gnuplot", NULL, NULL, args, environ) == 0 && waitpid(pid, &status, 0) == pid &&
                WIFEXITED(status))
                status = WEXITSTATUS(status);
            else
                status = -1;
        }
        unlink(script);
    }
    unlink(data);
    return status == 0 ? 0 : -1;
}

/* The implementations timed for a type, the yardstick first (cuBLAS if present, else the type's default kernel):
 * the kernels named in `kernels` (or all) that compute the type, tb-call when named, OpenBLAS. */
static int choose_impls(tb_type type, const char *kernels, impl *impls)
{
    int nimpls = 0;
    if (cublas_gemm[type])
        impls[nimpls++] = (impl){ IMPL_CUBLAS, "cuBLAS", CUBLAS_PLAIN };
    if (cublas_gemm[type] && type == TB_TYPE_S && (strstr(kernels, "cublas-tf32") || !strcmp(kernels, "all")))
        impls[nimpls++] = (impl){ IMPL_CUBLAS, "cuBLAS-tf32", CUBLAS_TF32 };
    if (cublas_gemm[type] && (strstr(kernels, "cublas-sync") || !strcmp(kernels, "all")))
        impls[nimpls++] = (impl){ IMPL_CUBLAS, "cuBLAS-sync", CUBLAS_SYNC };
    for (int i = 0; i < tb_kernel_count && nimpls < MAX_IMPLS - 3; i++) {
        const char *name = tb_kernel_names[i];
        size_t len = strlen(name);
        const char *at = kernels;
        int chosen = !strcmp(kernels, "all");
        while (!chosen && (at = strstr(at, name))) {
            chosen = (at == kernels || at[-1] == ',') && (at[len] == ',' || at[len] == 0);
            at += len;
        }
        if (chosen && (tb_kernel_types[i] & TB_TYPE_BIT(type)))
            impls[nimpls++] = (impl){ IMPL_KERNEL, name, i };
    }
    if (!cublas_gemm[type]) { /* the default kernel as the yardstick */
        const int d = tb_kernel_default(type, tb_config_get()->math);
        if (d < 0)
            return 0; /* no yardstick: the type is not timed */
        impl dflt = { IMPL_KERNEL, tb_kernel_names[d], d };
        memmove(impls + 1, impls, (size_t)nimpls * sizeof *impls);
        impls[0] = dflt, nimpls++;
        for (int i = 1; i < nimpls; i++) /* not twice */
            if (impls[i].kernel == dflt.kernel)
                memmove(impls + i, impls + i + 1, (size_t)(--nimpls - i) * sizeof *impls);
    }
    if (strstr(kernels, "call") || !strcmp(kernels, "all"))
        impls[nimpls++] = (impl){ IMPL_CALL, "tb-call", -1 };
    if (openblas)
        impls[nimpls++] = (impl){ IMPL_OPENBLAS, "OpenBLAS", -1 };
    return nimpls;
}

static const char usage_text[] =
    "usage: tileblas-bench [--type s|d|c|z|sd...] [--shape MxNxK|N]... [--trans XY]... [--kernels LIST|all]\n"
    "                      [--repeats R] [--no-cpu] [--device D] [--csv FILE] [--plot FILE.png]\n"
    "       tileblas-bench --host [--type s|d|c|z|sd...] [--shape MxNxK|N]... [--trans XY]... [--beta B]\n"
    "                      [--routine gemm|syrk|herk|syr2k|her2k|symm|hemm] [--repeats R] [--no-cpu] [--csv FILE]\n"
    "       tileblas-bench --contend [--big N] [--shape MxNxK|N]... [--repeats R]\n"
    "       tileblas-bench --accuracy [--shape MxNxK|N]... [--trans XY]... [--kernels LIST] [--seed S]\n"
    "       tileblas-bench --sweep N [--seed S] [--type s|d|c|z...] [--kernels LIST] [--repeats R] [--no-cpu]\n"
    "       tileblas-bench --plot-csv FILE.csv FILE.png\n";

static void usage(void)
{
    fputs(usage_text, stderr);
    exit(2);
}

/* "MxNxK" or "N" (an N x N x N product), each a whole number from 1 to 2^31 - 1; 0 when s is not such a shape */
static int parse_shape(const char *s, long long d[3])
{
    char part[3][24];
    int n = 0;
    for (const char *at = s;; n++) {
        const size_t len = strcspn(at, "x");
        if (n == 3 || len >= sizeof part[0])
            return 0;
        memcpy(part[n], at, len), part[n][len] = 0;
        if ((d[n] = tb_parse_whole(part[n], 2147483647)) < 1)
            return 0;
        if (!at[len])
            break;
        at += len + 1;
    }
    if (n == 1)
        return 0;
    if (n == 0)
        d[1] = d[2] = d[0];
    return 1;
}

/* A PNG's name goes into gnuplot's script as a quoted string: one with a control character (a newline would end
 * the string and start a command) is refused. */
static int plot_name_ok(const char *png)
{
    for (const unsigned char *c = (const unsigned char *)png; *c; c++)
        if (*c < 0x20 || *c == 0x7f)
            return 0;
    return *png != 0;
}

/* --plot-csv: the rows of a CSV written by --csv, and the implementations in the order they first appear. */
static int plot_csv(const char *csv, const char *png)
{
    if (!plot_name_ok(png)) {
        fprintf(stderr, "tileblas-bench: a PNG name with control characters is refused\n");
        return 2;
    }
    FILE *f = fopen(csv, "r");
    if (!f) {
        perror(csv);
        return 2;
    }
    static row rows[MAX_SHAPES * 4 * MAX_IMPLS];
    static char names[MAX_IMPLS][32];
    impl impls[MAX_IMPLS];
    int nrows = 0, nimpls = 0;
    char line[512], name[32];
    while (fgets(line, sizeof line, f) && nrows < (int)(sizeof rows / sizeof rows[0])) {
        row *r = &rows[nrows];
        r->type = 's';
        if (sscanf(line, "%47[^,],%2[^,],%31[^,],%lf,%lf,%lf,%lf,%c", r->shape, r->trans, name, &r->ms, &r->tflops,
                   &r->ratio, &r->diff, &r->type) < 7 || !r->type || !strchr("sdcz", r->type))
            continue; /* the header, or not ours */
        int j = 0;
        while (j < nimpls && strcmp(names[j], name))
            j++;
        if (j == nimpls && nimpls < MAX_IMPLS) {
            snprintf(names[nimpls], sizeof names[0], "%s", name);
            impls[nimpls] = (impl){ IMPL_KERNEL, names[nimpls], -1 };
            nimpls++;
        }
        if (j < nimpls)
            r->impl = names[j], nrows++;
    }
    fclose(f);
    if (!nrows) {
        fprintf(stderr, "tileblas-bench: no rows in %s\n", csv);
        return 2;
    }
    if (plot(png, rows, nrows, impls, nimpls)) {
        fprintf(stderr, "tileblas-bench: --plot-csv needs gnuplot with the pngcairo terminal "
                        "(Debian: apt-get install gnuplot-nox)\n");
        return 3;
    }
    return 0;
}

/* --sweep: n shapes, each dimension log-uniform in [16, 16384] with M N K <= 2^36, ops at random (N or T; N, T or
 * C where conj, for the complex types), from *seed (0: a fixed one, written back) */
static int draw_sweep(int n, unsigned long long *seed, int conj, long long (*shapes)[3], char (*trans)[3])
{
    uint64_t x = *seed ? *seed : 20261201;
    *seed = x;
    for (int i = 0; i < n;) {
        for (int d = 0; d < 3; d++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            shapes[i][d] = llround(exp(log(16.0) + (double)(x >> 11) * 0x1p-53 * (log(16384.0) - log(16.0))));
        }
        if ((double)shapes[i][0] * shapes[i][1] * shapes[i][2] > 0x1p36)
            continue;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        if (conj)
            trans[i][0] = "NTC"[(x >> 32) % 3], trans[i][1] = "NTC"[(x >> 16) % 3];
        else
            trans[i][0] = x >> 62 & 1 ? 'T' : 'N', trans[i][1] = x >> 61 & 1 ? 'T' : 'N';
        trans[i][2] = 0;
        i++;
    }
    return n;
}

/* --sweep: each implementation's geometric mean of its ratios to the yardstick, and its lowest, with the shape;
 * then the same mean over the shapes the yardstick computes in under SWEEP_SHORT_MS (calls bound by latency, where
 * no kernel gains much: doc/NOTES.md, on tc32) and over the others */
#define SWEEP_SHORT_MS 0.03
static void sweep_summary(const row *rows, int nrows, const impl *impls, int nimpls)
{
    for (int i = 0; i < nimpls; i++) {
        double logs[2] = { 0 }, low = INFINITY; /* short, long */
        int n[2] = { 0 };
        const row *worst = NULL;
        for (int r = 0; r < nrows; r++) {
            if (strcmp(rows[r].impl, impls[i].name) || !(rows[r].ratio > 0))
                continue;
            const int cls = rows[r].ms * rows[r].ratio >= SWEEP_SHORT_MS; /* by the yardstick's time */
            logs[cls] += log(rows[r].ratio), n[cls]++;
            if (rows[r].ratio < low)
                low = rows[r].ratio, worst = &rows[r];
        }
        const int all = n[0] + n[1];
        if (!all)
            continue;
        printf("sweep: %-11s geometric mean %.3f over %d shapes; lowest %.3f (%s %s)", impls[i].name,
               exp((logs[0] + logs[1]) / all), all, low, worst->shape, worst->trans);
        if (n[0] && n[1])
            printf("; %.3f over the %d under %g ms on the yardstick, %.3f over the other %d",
                   exp(logs[0] / n[0]), n[0], SWEEP_SHORT_MS, exp(logs[1] / n[1]), n[1]);
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    long long shapes[MAX_SHAPES][3];
    int nshapes = 0, ntrans = 0, repeats = 9, want_cpu = 1, host = 0, contend = 0, big = 8192, accuracy = 0;
    int sweep = 0, typed = 0, device = 0;
    char sweep_trans[MAX_SHAPES][3]; /* --sweep: each shape's own transposes */
    unsigned long long seed = 0;
    double beta = 0.0;
    tb_routine routine = TB_ROUTINE_GEMM;
    char trans[9][3]; /* up to all nine op pairs */
    const char *kernels = NULL, *csv = NULL, *png = NULL, *types = "sd";
    tb_gpu_link(&tb_cuda_gpu); /* the GPU side is linked in: no module to load */
    if (argc == 4 && !strcmp(argv[1], "--plot-csv"))
        return plot_csv(argv[2], argv[3]);
    if (argc == 2 && !strcmp(argv[1], "--help")) {
        fputs(usage_text, stdout);
        puts("Times tileblas's kernels and whole calls against cuBLAS, OpenBLAS and NVBLAS (tileblas-bench(1)).");
        return 0;
    }
    if (argc == 2 && !strcmp(argv[1], "--version")) {
        printf("tileblas-bench %s\n", PACKAGE_VERSION);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(arg, "--shape") && val && nshapes < MAX_SHAPES) {
            if (!parse_shape(val, shapes[nshapes++]))
                usage();
            i++;
        } else if (!strcmp(arg, "--trans") && val && ntrans < 9 && strlen(val) == 2 && strchr("NTC", val[0]) &&
                   strchr("NTC", val[1])) {
            memcpy(trans[ntrans++], val, 3);
            i++;
        } else if (!strcmp(arg, "--type") && val && *val && strspn(val, "sdcz") == strlen(val)) {
            types = val, typed = 1, i++;
        } else if (!strcmp(arg, "--kernels") && val) {
            kernels = val, i++;
        } else if (!strcmp(arg, "--repeats") && val && tb_parse_whole(val, 1000000) > 0) {
            repeats = (int)tb_parse_whole(val, 1000000), i++;
        } else if (!strcmp(arg, "--csv") && val) {
            csv = val, i++;
        } else if (!strcmp(arg, "--plot") && val && plot_name_ok(val)) {
            png = val, i++;
        } else if (!strcmp(arg, "--no-cpu")) {
            want_cpu = 0;
        } else if (!strcmp(arg, "--host")) {
            host = 1;
        } else if (!strcmp(arg, "--routine") && val) {
            int r = 0;
            while (r < TB_ROUTINE_COUNT && strcasecmp(val, tb_routine_names[r]))
                r++;
            if (r == TB_ROUTINE_COUNT)
                usage();
            routine = (tb_routine)r, i++;
        } else if (!strcmp(arg, "--accuracy")) {
            accuracy = 1;
        } else if (!strcmp(arg, "--sweep") && val) {
            sweep = (int)tb_parse_whole(val, MAX_SHAPES), i++;
            if (sweep < 1)
                usage();
        } else if (!strcmp(arg, "--seed") && val) {
            seed = (unsigned long long)tb_parse_whole(val, 999999999999999999L), i++;
            if (seed == 0 || seed == (unsigned long long)-1)
                usage();
        } else if (!strcmp(arg, "--contend")) {
            contend = 1;
        } else if (!strcmp(arg, "--big") && val) {
            big = (int)tb_parse_whole(val, 46340), i++; /* N * N fits an int */
            if (big < 1)
                usage();
        } else if (!strcmp(arg, "--device") && val) {
            device = (int)tb_parse_whole(val, 1023), i++;
            if (device < 0)
                usage();
        } else if (!strcmp(arg, "--beta") && val) {
            char *end;
            beta = strtod(val, &end), i++;
            if (*end || !isfinite(beta))
                usage();
        } else {
            usage();
        }
    }
    static const long long defaults[] = { 1024, 2048, 4096 };
    if (sweep) {
        if (nshapes || ntrans)
            usage(); /* the sweep draws both */
        if (!typed)
            types = "s";
        nshapes = draw_sweep(sweep, &seed, strpbrk(types, "cz") != NULL, shapes, sweep_trans);
        ntrans = 1;
        want_cpu = 0;
        printf("tileblas-bench --sweep %d: seed %llu\n", sweep, seed);
    }
    if (contend) {
        static const long long second[][3] = { { 512, 512, 512 }, { 1024, 1024, 1024 }, { 2048, 2048, 2048 },
                                               { 64, 16384, 64 } };
        if (nshapes == 0)
            for (; nshapes < 4; nshapes++)
                memcpy(shapes[nshapes], second[nshapes], sizeof second[0]);
        return bench_contend((const long long(*)[3])shapes, nshapes, repeats, big);
    }
    if (nshapes == 0)
        for (int i = accuracy ? 2 : 0; i < 3; i++, nshapes++)
            shapes[nshapes][0] = shapes[nshapes][1] = shapes[nshapes][2] = defaults[i];
    if (ntrans == 0)
        memcpy(trans[ntrans++], "NN", 3);
    if (!kernels)
        kernels = accuracy ? "tc32,blocked" : "naive,tiled32,blocked,dmma";

    if (beta != 0.0 && !host)
        usage(); /* the kernels are timed with beta = 0 */
    if (device && (host || contend))
        usage(); /* whole calls from host memory: on the library's devices */
    if (routine != TB_ROUTINE_GEMM && !host)
        usage(); /* the updates: whole calls from host memory (in device memory they do not run on the GPU yet) */
    if ((routine == TB_ROUTINE_HERK || routine == TB_ROUTINE_HER2K || routine == TB_ROUTINE_HEMM) && !typed)
        types = "cz";
    for (int t = 0; t < ntrans; t++)
        if ((host || accuracy) && strchr(trans[t], 'C'))
            usage(); /* the conjugate transpose: in the device-resident mode, where the complex types are */
    if (host)
        return bench_host((const long long(*)[3])shapes, nshapes, (const char(*)[3])trans, ntrans, repeats, beta,
                          types, routine, csv, !want_cpu);

    int count = 0;
    if (tb_kernel_count == 0 || cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
        printf("SKIP: no usable GPU\n");
        return 77;
    }
    if (device >= count) {
        printf("SKIP: no device %d (%d visible)\n", device, count);
        return 77;
    }
    /* everything on that device: the operands, cuBLAS's handle, the kernels, and the library's calls (tb-call), which
     * run on the device that holds their operands */
    die_cuda(cudaSetDevice(device), "the device");
    load_libraries(want_cpu && !accuracy);
    if (accuracy)
        return cublas_gemm[TB_TYPE_D] ? bench_accuracy((const long long(*)[3])shapes, nshapes,
                                                       (const char(*)[3])trans, ntrans, kernels, seed)
                                      : 1;
    const int ntypes = (int)strlen(types);

    struct cudaDeviceProp prop;
    die_cuda(cudaGetDeviceProperties(&prop, device), "device properties");
    printf("tileblas-bench: device %d, %s (%d SMs); column-major, alpha = 1, beta = 0; GPU: operands on the device, "
           "median of %d samples (short launches in batches of 0.2 ms, all timed %d times in turn); OpenBLAS: host "
           "memory, wall clock\n",
           device, prop.name, prop.multiProcessorCount, repeats, ROUNDS);
    printf("%-4s %-18s %-5s %-11s %10s %9s %9s %12s\n", "type", "MxNxK", "trans", "impl", "ms", "TFLOP/s",
           cublas_gemm[TB_TYPE_S] ? "x cuBLAS" : "x default", "max rel diff");
    row *rows = bench_alloc((size_t)ntypes * nshapes * ntrans * MAX_IMPLS * sizeof *rows);
    impl all[2 * MAX_IMPLS]; /* every implementation of every type, for the chart's columns */
    int nrows = 0, nall = 0, status = 0;
    for (int ty = 0; ty < ntypes; ty++) {
        const tb_type type = (tb_type)(strchr("sdcz", types[ty]) - "sdcz");
        impl impls[MAX_IMPLS];
        const int nimpls = choose_impls(type, kernels, impls);
        for (int i = 0; i < nimpls; i++) {
            int j = 0;
            while (j < nall && strcmp(all[j].name, impls[i].name))
                j++;
            if (j == nall)
                all[nall++] = impls[i];
        }
        for (int s = 0; s < nshapes; s++)
            for (int t = 0; t < ntrans; t++) {
                problem pr;
                int64_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
                char tr[3];
                memcpy(tr, sweep ? sweep_trans[s] : trans[t], sizeof tr);
                if (!tb_type_complex(type) && (tr[0] == 'C' || tr[1] == 'C')) {
                    if (!sweep)
                        continue; /* the conjugate transpose: complex types only */
                    tr[0] = tr[0] == 'C' ? 'T' : tr[0], tr[1] = tr[1] == 'C' ? 'T' : tr[1]; /* as BLAS reads it */
                }
                setup(&pr, type, m, n, k, (int)(strchr("NTC", tr[0]) - "NTC"), (int)(strchr("NTC", tr[1]) - "NTC"));
                void *ref = bench_alloc(pr.celems * pr.es);
                double ms[MAX_IMPLS][ROUNDS], diff[MAX_IMPLS];
                int rounds = 1, shown[MAX_IMPLS] = { 0 };
                for (int r = 0; r < rounds; r++) {
                    for (int i = 0; i < nimpls; i++) {
                        /* too small for the library to look for device memory: it would read it as host */
                        if (impls[i].kind == IMPL_CALL && 2.0 * m * n * k < TB_DEVPTR_MIN_FLOPS)
                            continue;
                        if (r > 0 && impls[i].kind == IMPL_OPENBLAS)
                            continue;
                        ms[i][r] = time_impl(&impls[i], &pr, repeats);
                        if (r > 0)
                            continue;
                        if (i == 0)
                            memcpy(ref, pr.hc, pr.celems * pr.es);
                        const int parts = tb_type_complex(type) ? 2 : 1; /* complex: compared part by part */
                        diff[i] = bench_max_diff(pr.hc, ref, parts * m, n, parts * pr.p.ldc, pr.es / parts);
                        shown[i] = 1;
                        if (impls[i].kind != IMPL_OPENBLAS && ms[i][0] < SHORT_MS && repeats > 1)
                            rounds = ROUNDS;
                    }
                }
                double ref_ms = 0;
                for (int i = 0; i < nimpls; i++) {
                    if (!shown[i])
                        continue;
                    const double med = bench_median(ms[i], impls[i].kind == IMPL_OPENBLAS ? 1 : rounds);
                    ref_ms = i == 0 ? med : ref_ms;
                    status |= bench_print_row(&rows[nrows++], types[ty], m, n, k, tr, impls[i].name, med, ref_ms,
                                              diff[i], tolerance_of(&impls[i]),
                                              (types[ty] == 'c' || types[ty] == 'z' ? 8.0 : 2.0) * m * n * k);
                }
                free(ref);
                teardown(&pr);
            }
    }
    if (sweep)
        sweep_summary(rows, nrows, all, nall);
    if (csv)
        bench_write_csv(csv, cublas_gemm[TB_TYPE_S] ? "ratio_to_cublas" : "ratio_to_default", rows, nrows);
    if (png && plot(png, rows, nrows, all, nall)) {
        fprintf(stderr, "tileblas-bench: --plot needs gnuplot with the pngcairo terminal "
                        "(Debian: apt-get install gnuplot-nox)\n");
        status = status ? status : 3;
    }
    free(rows);
    return status;
}
