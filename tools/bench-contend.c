/*
 * tileblas-bench --contend: what a second thread's calls cost while another thread keeps the GPU busy.
 * A background thread calls cblas_sgemm on host memory, big x big x big (auto mode: the GPU, through the pipeline),
 * over and over.  For each shape, this thread's calls are timed one by one (wall clock, R calls after a warm-up)
 * alone, then beside it (the thread started for them and stopped after), as:
 *   - OpenBLAS (libopenblas.so.0), for the yardstick;
 *   - tb-auto: tileblas on host memory as the environment routes it;
 *   - tb-gpu: the same forced to the GPU, where it waits for its turn on the device;
 *   - tb-dev: tileblas on cudaMalloc'd operands (used in place, beside the pipeline), when the shape is large enough
 *     for the library to look for device memory.
 * Printed: the median alone and beside, the mean beside (a wait behind the background's call falls on some calls,
 * not on the median), mean beside / median alone, how many calls ran on the GPU (alone, beside), and the background's
 * mean ms a call meanwhile (against its time alone, in the heading).  Every result is compared with OpenBLAS's.
 */
#include <config.h>
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "devptr.h"
#include "tileblas.h"

typedef struct background {
    int n;
    float *a, *b, *c;
    _Atomic int stop;
    _Atomic long calls;
    _Atomic double seconds; /* of its calls since calls was last 0 */
} background;

static void big_call(background *bg)
{
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, bg->n, bg->n, bg->n, 1.0f, bg->a, bg->n, bg->b, bg->n,
                0.0f, bg->c, bg->n);
}

static void *background_main(void *arg)
{
    background *bg = arg;
    while (!atomic_load(&bg->stop)) {
        double t0 = bench_now();
        big_call(bg);
        atomic_store(&bg->seconds, atomic_load(&bg->seconds) + bench_now() - t0);
        atomic_fetch_add(&bg->calls, 1);
    }
    return NULL;
}

enum { OPENBLAS, TB_AUTO, TB_GPU, TB_DEV, KINDS };
static const char *const kind_name[KINDS] = { "OpenBLAS", "tb-auto", "tb-gpu", "tb-dev" };

typedef struct operands {
    int m, n, k;
    float *a, *b, *c;    /* host */
    float *da, *db, *dc; /* device, or NULL */
} operands;

/* `repeats` calls of one kind, timed one by one: their median and mean ms; *on_gpu: how many ran there */
static void time_kind(int kind, const operands *o, int repeats, double *median, double *mean,
                      int *on_gpu)
{
    double *ms = bench_alloc((size_t)repeats * sizeof *ms), sum = 0;
    const int dev = kind == TB_DEV;
    tileblas_set_path(kind == TB_GPU ? TILEBLAS_PATH_GPU : TILEBLAS_PATH_AUTO);
    *on_gpu = 0;
    for (int r = 0; r < repeats; r++) {
        double t0 = bench_now();
        if (kind == OPENBLAS)
            bench_openblas_gemm(0, 0, 0, o->m, o->n, o->k, 1.0, o->a, o->m, o->b, o->k, 0.0, o->c, o->m);
        else
            cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, o->m, o->n, o->k, 1.0f, dev ? o->da : o->a, o->m,
                        dev ? o->db : o->b, o->k, 0.0f, dev ? o->dc : o->c, o->m);
        ms[r] = 1e3 * (bench_now() - t0);
        sum += ms[r];
        tileblas_call_info info;
        tileblas_last_call(&info);
        *on_gpu += kind != OPENBLAS && info.path == TILEBLAS_PATH_GPU;
    }
    tileblas_set_path(TILEBLAS_PATH_AUTO);
    if (dev)
        cudaMemcpy(o->c, o->dc, (size_t)o->m * o->n * sizeof(float), cudaMemcpyDeviceToHost);
    *median = bench_median(ms, repeats), *mean = sum / repeats;
    free(ms);
}

/* One kind's calls beside the background thread, started for them and stopped after; the background's mean ms a
 * call meanwhile in *bg_ms.  0, or -1 when the thread cannot be started. */
static int beside(background *bg, int kind, const operands *o, int repeats, double *median,
                  double *mean, int *on_gpu, double *bg_ms)
{
    pthread_t t;
    atomic_store(&bg->stop, 0), atomic_store(&bg->calls, 0), atomic_store(&bg->seconds, 0.0);
    if (pthread_create(&t, NULL, background_main, bg))
        return -1;
    while (atomic_load(&bg->calls) < 1) /* its first call done: it is into its stride */
        bench_settle();
    atomic_store(&bg->calls, 0), atomic_store(&bg->seconds, 0.0);
    time_kind(kind, o, repeats, median, mean, on_gpu);
    atomic_store(&bg->stop, 1);
    pthread_join(t, NULL);
    *bg_ms = bg->calls ? 1e3 * bg->seconds / (double)bg->calls : 0.0;
    return 0;
}

static float *device_copy(const float *h, size_t count)
{
    float *d = NULL;
    if (cudaMalloc((void **)&d, count * sizeof(float)) != cudaSuccess) {
        cudaGetLastError();
        return NULL;
    }
    cudaMemcpy(d, h, count * sizeof(float), cudaMemcpyHostToDevice);
    return d;
}

int bench_contend(const long long (*shapes)[3], int nshapes, int repeats, int big)
{
    const char *why;
    if (!bench_openblas_load() || !tileblas_gpu_available(&why)) {
        printf("SKIP: --contend needs OpenBLAS (libopenblas.so.0) and a usable GPU\n");
        return 77;
    }
    background bg = { .n = big };
    size_t bigelems = (size_t)big * big;
    bg.a = bench_alloc(bigelems * sizeof(float)), bg.b = bench_alloc(bigelems * sizeof(float));
    bg.c = bench_alloc(bigelems * sizeof(float));
    bench_fill(bg.a, bigelems, 4), bench_fill(bg.b, bigelems, 4);
    big_call(&bg); /* warm-up: staging buffers, device buffers */
    double t0 = bench_now();
    for (int i = 0; i < 3; i++)
        big_call(&bg);
    double big_alone = 1e3 * (bench_now() - t0) / 3;
    bench_settle();
    printf("tileblas-bench --contend: a background thread calls cblas_sgemm %dx%dx%d on host memory (%.2f ms a call "
           "alone); this thread's calls, column-major NN, beta = 0, median of %d, alone and beside it\n",
           big, big, big, big_alone, repeats);
    printf("%-18s %-9s %10s %10s %10s %8s %10s %13s\n", "MxNxK", "impl", "alone ms", "beside ms", "beside mean",
           "ratio", "on GPU", "bg ms beside");
    int status = 0;
    for (int s = 0; s < nshapes; s++) {
        operands o = { (int)shapes[s][0], (int)shapes[s][1], (int)shapes[s][2], NULL, NULL, NULL, NULL, NULL, NULL };
        size_t ae = (size_t)o.m * o.k, be = (size_t)o.k * o.n, ce = (size_t)o.m * o.n;
        o.a = bench_alloc(ae * sizeof(float)), o.b = bench_alloc(be * sizeof(float));
        o.c = bench_alloc(ce * sizeof(float));
        float *ref = bench_alloc(ce * sizeof(float));
        bench_fill(o.a, ae, 4), bench_fill(o.b, be, 4);
        if (2.0 * o.m * o.n * o.k >= TB_DEVPTR_MIN_FLOPS && (o.da = device_copy(o.a, ae)) &&
            (o.db = device_copy(o.b, be)))
            o.dc = device_copy(o.c, ce);
        if (!o.dc) {
            cudaFree(o.da), cudaFree(o.db);
            o.da = o.db = NULL;
        }
        char shape[48];
        snprintf(shape, sizeof shape, "%dx%dx%d", o.m, o.n, o.k);
        double diff = 0;
        for (int kind = 0; kind < KINDS; kind++) {
            if (kind == TB_DEV && !o.da)
                continue;
            double med, mean, bmed, bmean, bg_ms;
            int gpu, bgpu;
            memset(o.c, 0xff, ce * sizeof(float)); /* NaN: a result not written shows */
            time_kind(kind, &o, 1, &med, &mean, &gpu); /* warm-up */
            time_kind(kind, &o, repeats, &med, &mean, &gpu);
            bench_settle();
            if (beside(&bg, kind, &o, repeats, &bmed, &bmean, &bgpu, &bg_ms)) {
                perror("pthread_create");
                return 1;
            }
            bench_settle();
            if (kind == OPENBLAS) {
                memcpy(ref, o.c, ce * sizeof(float));
            } else {
                double d = bench_max_diff(o.c, ref, o.m, o.n, o.m, 4);
                diff = d > diff || d != d ? d : diff;
            }
            char where[24] = "";
            if (kind != OPENBLAS)
                snprintf(where, sizeof where, "%d/%d, %d/%d", gpu, repeats, bgpu, repeats);
            printf("%-18s %-9s %10.4f %10.4f %11.4f %8.2f %10s %13.2f\n", shape, kind_name[kind], med, bmed, bmean,
                   bmean / med, where, bg_ms);
        }
        printf("%-18s largest difference from OpenBLAS: %.2e\n", shape, diff);
        if (!(diff <= 1e-3))
            status = 1;
        cudaFree(o.da), cudaFree(o.db), cudaFree(o.dc);
        free(o.a), free(o.b), free(o.c), free(ref);
    }
    free(bg.a), free(bg.b), free(bg.c);
    return status;
}
