/*
 * Operands in device memory: a program that allocates with its own CUDA runtime (this test links one, as such a program
 * does; tileblas's GPU module loads the same shared runtime) passes cudaMalloc'd and managed pointers to cblas_sgemm,
 * cblas_dgemm, cblas_cgemm and cblas_zgemm, in every mix with host memory.  The call must run on the GPU with those operands in place, give the
 * product within the bound of doc/TESTING.md of a long-double reference, leave C's padding untouched and leave host operands as
 * they were; calls on device operands run beside other threads' calls through the pipeline.  Skips (77) without a
 * usable device.  Built twice: test_devptr (make check) and, with TT_DEVPTR_HUGE=1, test_devptr_huge (make
 * check-long: the offsets past 2^31, 9 GiB operands).
 */
#include <config.h>
#include <check.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "elements.h"
#include "harness.h"
#include "suite.h"
#include "tileblas.h"

#ifndef TT_DEVPTR_HUGE
#define TT_DEVPTR_HUGE 0
#endif
enum { HOST, DEVICE, MANAGED };
static const char *const place_name[] = { "host", "device", "managed" };
static uint64_t state;

static float uniform(void)
{
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return (float)((double)(state >> 40) / 16777216.0 * 2.0 - 1.0);
}

/* in [-1, 1) to the last bit of a double, rounded to float for single precision by tt_put() */
static double uniform53(void)
{
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return (double)(state >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static void check_cuda(cudaError_t e, const char *what)
{
    ck_assert_msg(e == cudaSuccess, "%s: %s", what, cudaGetErrorString(e));
}

/* count elements of es bytes at `place`, filled from host[] */
static void *place_copy_es(int place, const void *host, size_t count, size_t es)
{
    void *p = NULL;
    size_t bytes = count * es;
    if (place == HOST) {
        p = malloc(bytes);
        ck_assert_ptr_nonnull(p);
        memcpy(p, host, bytes);
    } else {
        check_cuda(place == DEVICE ? cudaMalloc(&p, bytes) : cudaMallocManaged(&p, bytes, 1), "allocate");
        check_cuda(cudaMemcpy(p, host, bytes, cudaMemcpyDefault), "fill");
    }
    return p;
}

static float *place_copy(int place, const float *host, size_t count)
{
    return place_copy_es(place, host, count, sizeof(float));
}

static void place_free(int place, void *p)
{
    if (place == HOST)
        free(p);
    else
        cudaFree(p);
}

/* column-major cblas_?gemm of type `type` (tb_type: S, D, C, Z) with A, B, C at the given places; ops 0, 1 and 2
 * (the conjugate transpose); ld = rows + 3 (C's padding poisoned).  alpha 0.75 and, for the complex types, 0.75 +
 * 0.5i, and beta's imaginary part -0.25 where beta is not 0.  Rows of C checked: every `step`-th and the last 300
 * (all when step is 1); the padding everywhere.  gpu: forced there. */
static void run_rows(int type, int pa, int pb, int pc, int ta, int tb, int m, int n, int k, double beta, int step,
                     int gpu)
{
    const tb_type t = (tb_type)type;
    const int cplx = tb_type_complex(t);
    const int arows = ta ? k : m, acols = ta ? m : k, brows = tb ? n : k, bcols = tb ? k : n;
    const int lda = arows + 3, ldb = brows + 3, ldc = m + 3;
    const size_t na = (size_t)lda * acols, nb = (size_t)ldb * bcols, nc = (size_t)ldc * n, es = tb_type_size(t);
    void *ha = malloc(na * es), *hb = malloc(nb * es), *hc = malloc(nc * es), *out = malloc(nc * es);
    ck_assert(ha && hb && hc && out);
    for (size_t i = 0; i < na; i++)
        tt_xput(ha, i, t, cplx ? uniform53() + uniform53() * I : uniform53());
    for (size_t i = 0; i < nb; i++)
        tt_xput(hb, i, t, cplx ? uniform53() + uniform53() * I : uniform53());
    for (size_t i = 0; i < nc; i++)
        tt_xput(hc, i, t, (int)(i % ldc) >= m ? -777.0 : beta == 0.0 ? NAN : cplx ? uniform53() + uniform53() * I
                                                                                   : uniform53());
    void *a = place_copy_es(pa, ha, na, es), *b = place_copy_es(pb, hb, nb, es), *c = place_copy_es(pc, hc, nc, es);
    const double alpha = 0.75, alpha_im = cplx ? 0.5 : 0.0, beta_im = cplx && beta != 0.0 ? -0.25 : 0.0;
    static const enum CBLAS_TRANSPOSE ops[3] = { CblasNoTrans, CblasTrans, CblasConjTrans };
    const float complex ac = (float)alpha + (float)alpha_im * I, bc = (float)beta + (float)beta_im * I;
    const double complex az = alpha + alpha_im * I, bz = beta + beta_im * I;
    if (gpu)
        tileblas_set_path(TILEBLAS_PATH_GPU);
    switch (t) {
    case TB_TYPE_S:
        cblas_sgemm(CblasColMajor, ops[ta], ops[tb], m, n, k, (float)alpha, a, lda, b, ldb, (float)beta, c, ldc);
        break;
    case TB_TYPE_D: cblas_dgemm(CblasColMajor, ops[ta], ops[tb], m, n, k, alpha, a, lda, b, ldb, beta, c, ldc); break;
    case TB_TYPE_C: cblas_cgemm(CblasColMajor, ops[ta], ops[tb], m, n, k, &ac, a, lda, b, ldb, &bc, c, ldc); break;
    default: cblas_zgemm(CblasColMajor, ops[ta], ops[tb], m, n, k, &az, a, lda, b, ldb, &bz, c, ldc); break;
    }
    tileblas_set_path(TILEBLAS_PATH_AUTO);
    tileblas_call_info info;
    tileblas_last_call(&info);
    check_cuda(cudaMemcpy(out, c, nc * es, cudaMemcpyDefault), "read C");
    char what[160];
    snprintf(what, sizeof what, "%cgemm: A %s, B %s, C %s, %c%c M=%d N=%d K=%d beta=%g", "sdcz"[t], place_name[pa],
             place_name[pb], place_name[pc], "NTC"[ta], "NTC"[tb], m, n, k, beta);
    if (gpu || pa != HOST || pb != HOST || pc != HOST)
        ck_assert_msg(info.path == TILEBLAS_PATH_GPU && !info.gpu_failed, "%s: not run on the GPU", what);
    /* op(B) once, row by row (its parts and moduli), then each row of C's sums for every column at once: A is read
     * along the row once (its elements are lda apart, which costs a cache miss each for the large A); sums in long
     * double, a reference for every type */
    long double *yr = malloc((size_t)k * n * sizeof *yr), *yi = malloc((size_t)k * n * sizeof *yi),
                *ya = malloc((size_t)k * n * sizeof *ya);
    long double *sr = malloc((size_t)n * sizeof *sr), *si = malloc((size_t)n * sizeof *si),
                *mag = malloc((size_t)n * sizeof *mag);
    ck_assert(yr && yi && ya && sr && si && mag);
    for (int l = 0; l < k; l++)
        for (int j = 0; j < n; j++) {
            const long double complex y = tt_op_at(hb, (size_t)ldb, tb, (size_t)l, (size_t)j, t);
            const size_t at = (size_t)l * n + j;
            yr[at] = creall(y), yi[at] = cimagl(y), ya[at] = cplx ? cabsl(y) : fabsl(creall(y));
        }
    const double u = ldexp(1.0, t == TB_TYPE_D || t == TB_TYPE_Z ? -53 : -24);
    const long double complex za = alpha + alpha_im * I, zb = beta + beta_im * I;
    for (int i = 0; i < ldc; i++) {
        if (i < m && i % step && i < m - 300)
            continue;
        for (int j = 0; j < n && i >= m; j++)
            tt_assert_msg(tt_xget(out, (size_t)i + (size_t)j * ldc, t) == -777.0L,
                          "%s: C's padding (%d, %d) overwritten", what, i, j);
        if (i >= m)
            continue;
        for (int j = 0; j < n; j++)
            sr[j] = si[j] = mag[j] = 0;
        for (int l = 0; l < k; l++) {
            const long double complex x = tt_op_at(ha, (size_t)lda, ta, (size_t)i, (size_t)l, t);
            const long double xr = creall(x), xi = cimagl(x), xa = cplx ? cabsl(x) : fabsl(xr);
            const long double *r = yr + (size_t)l * n, *q = yi + (size_t)l * n, *w = ya + (size_t)l * n;
            if (cplx)
                for (int j = 0; j < n; j++)
                    sr[j] += xr * r[j] - xi * q[j], si[j] += xr * q[j] + xi * r[j], mag[j] += xa * w[j];
            else
                for (int j = 0; j < n; j++)
                    sr[j] += xr * r[j], mag[j] += xa * w[j];
        }
        for (int j = 0; j < n; j++) {
            size_t at = (size_t)i + (size_t)j * ldc;
            const long double complex c0 = beta == 0.0 ? 0.0 : tt_xget(hc, at, t), got = tt_xget(out, at, t);
            const long double complex want = za * (sr[j] + si[j] * I) + zb * c0;
            const double bound = tt_bound_factor(t, k) * u * (cabsl(za) * mag[j] + cabsl(zb) * cabsl(c0));
            tt_assert_msg(!isnan(creall(got)) && !isnan(cimagl(got)) && (double)cabsl(got - want) <= bound,
                          "%s: C(%d,%d) = %.17Lg%+.17Lgi, want %.17Lg%+.17Lgi", what, i, j, creall(got), cimagl(got),
                          creall(want), cimagl(want));
        }
    }
    free(yr), free(yi), free(ya), free(sr), free(si), free(mag);
    if (pa == HOST)
        ck_assert_msg(!memcmp(a, ha, na * es), "%s: A changed", what);
    if (pb == HOST)
        ck_assert_msg(!memcmp(b, hb, nb * es), "%s: B changed", what);
    place_free(pa, a), place_free(pb, b), place_free(pc, c);
    free(ha), free(hb), free(hc), free(out);
}

static void run(int type, int pa, int pb, int pc, int ta, int tb, int m, int n, int k, double beta)
{
    run_rows(type, pa, pb, pc, ta, tb, m, n, k, beta, 1, 0);
}

/* _i: the type (_i / 27: SGEMM, DGEMM, CGEMM, ZGEMM) and the places of A, B and C (27 mixes); each with four op
 * pairs (the real types' four transposes; the complex types' NN, NT, CN, CT), beta = 0 and 0.5.  300 x 200 x 180
 * is 21.6 MFLOP, above the size from which operands are looked at (lib/gpu/devptr.h). */
START_TEST(every_mix)
{
    const int type = _i / 27, pa = _i % 27 / 9, pb = (_i / 3) % 3, pc = _i % 3;
    const int op = tb_type_complex((tb_type)type) ? 2 : 1; /* op(A)'s other op */
    for (int t = 0; t < 4; t++) {
        run(type, pa, pb, pc, t >> 1 ? op : 0, t & 1, 300, 200, 180, 0.0);
        run(type, pa, pb, pc, t >> 1 ? op : 0, t & 1, 257, 130, 513, 0.5);
    }
}
END_TEST

/* Row-major: the swap of A and B must carry their places with them. */
START_TEST(row_major)
{
    const int m = 200, n = 300, k = 150;
    float *ha = malloc((size_t)m * k * sizeof(float)), *hb = malloc((size_t)k * n * sizeof(float));
    float *out = malloc((size_t)m * n * sizeof(float));
    for (int i = 0; i < m * k; i++)
        ha[i] = uniform();
    for (int i = 0; i < k * n; i++)
        hb[i] = uniform();
    float *a = place_copy(DEVICE, ha, (size_t)m * k), *b = place_copy(HOST, hb, (size_t)k * n), *c = NULL;
    check_cuda(cudaMalloc((void **)&c, (size_t)m * n * sizeof(float)), "C");
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
    check_cuda(cudaMemcpy(out, c, (size_t)m * n * sizeof(float), cudaMemcpyDeviceToHost), "read C");
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double sum = 0, mag = 0;
            for (int l = 0; l < k; l++)
                sum += (double)ha[i * k + l] * hb[l * n + j], mag += fabs((double)ha[i * k + l] * hb[l * n + j]);
            tt_assert_msg(fabs(out[i * n + j] - sum) <= 2.0 * (k + 2) * ldexp(1.0, -24) * mag,
                          "C(%d,%d) = %.9g, want %.9g", i, j, out[i * n + j], sum);
        }
    cudaFree(a), cudaFree(c), free(b), free(ha), free(hb), free(out);
}
END_TEST

/* Element offsets past 2^31 (M x K = 69632 x 32832 = 2.29e9 floats, 9.1 GiB): through the pipeline from
 * host memory, and in place in device memory, where the kernel itself indexes the whole of A.  Needs 24 GiB of host
 * memory and 12 GiB of free device memory; says so and checks nothing where there is less. */
START_TEST(offsets_past_2_to_the_31)
{
    const int m = 69632, n = 40, k = 32832;
    size_t free_bytes = 0, total = 0;
    double host = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess || free_bytes < ((size_t)12 << 30) ||
        host < 24.0 * (1 << 30)) {
        printf("offsets past 2^31: not run (%.0f GiB of host memory, %.0f GiB of device memory free; needs 24 and "
               "12)\n", host / (1 << 30), (double)free_bytes / (1 << 30));
        return;
    }
    ck_assert((int64_t)m * k > ((int64_t)1 << 31));
    run_rows(0, HOST, HOST, HOST, 0, 0, m, n, k, 0.0, 61, 1);
    run_rows(0, DEVICE, HOST, HOST, 0, 0, m, n, k, 0.5, 61, 1);
    run_rows(0, DEVICE, HOST, DEVICE, 1, 0, m, n, k, 0.0, 61, 1);
    run_rows(0, HOST, HOST, HOST, 1, 0, m, n, k, 0.5, 61, 1);
    printf("offsets past 2^31: 4 calls of %d x %d x %d on the GPU, right\n", m, n, k);
}
END_TEST

/* Calls on device operands run beside the pipeline's (they share none of its buffers).  Three threads
 * make 20 calls each on their own cudaMalloc'd A, B, C (C poisoned with NaN before each call) while a fourth makes
 * host-memory calls forced through the pipeline; every C must be right and every device call on the GPU. */
enum { DEV_THREADS = 3, DEV_CALLS = 20, DM = 256, DN = 320, DK = 288 };

typedef struct dev_job {
    int index;
    int failures, off_gpu;
    char first[600];
} dev_job;

static void *device_caller(void *arg)
{
    dev_job *j = arg;
    uint64_t r = 0x9e3779b97f4a7c15ull * (uint64_t)(j->index + 1) ^ state;
    float *ha = malloc(sizeof(float) * DM * DK), *hb = malloc(sizeof(float) * DK * DN);
    float *out = malloc(sizeof(float) * DM * DN);
    double *want = malloc(sizeof(double) * DM * DN), *bound = malloc(sizeof(double) * DM * DN);
    for (int i = 0; i < DM * DK + DK * DN; i++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        *(i < DM * DK ? &ha[i] : &hb[i - DM * DK]) = (float)((double)(r >> 40) / 16777216.0 * 2.0 - 1.0);
    }
    for (int i = 0; i < DM; i++)
        for (int jj = 0; jj < DN; jj++) {
            double sum = 0, mag = 0;
            for (int l = 0; l < DK; l++)
                sum += (double)ha[i + l * DM] * hb[l + jj * DK],
                    mag += fabs((double)ha[i + l * DM] * hb[l + jj * DK]);
            want[i + jj * DM] = sum, bound[i + jj * DM] = 2.0 * (DK + 2) * ldexp(1.0, -24) * mag;
        }
    float *a = NULL, *b = NULL, *c = NULL;
    if (cudaMalloc((void **)&a, sizeof(float) * DM * DK) || cudaMalloc((void **)&b, sizeof(float) * DK * DN) ||
        cudaMalloc((void **)&c, sizeof(float) * DM * DN) ||
        cudaMemcpy(a, ha, sizeof(float) * DM * DK, cudaMemcpyHostToDevice) ||
        cudaMemcpy(b, hb, sizeof(float) * DK * DN, cudaMemcpyHostToDevice)) {
        j->failures = 1;
        snprintf(j->first, sizeof j->first, "thread %d: cannot set up device memory", j->index);
    }
    for (int call = 0; call < DEV_CALLS && !j->failures; call++) {
        cudaMemset(c, 0xff, sizeof(float) * DM * DN);
        cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, DM, DN, DK, 1.0f, a, DM, b, DK, 0.0f, c, DM);
        tileblas_call_info info;
        tileblas_last_call(&info);
        j->off_gpu += info.path != TILEBLAS_PATH_GPU || info.gpu_failed;
        cudaMemcpy(out, c, sizeof(float) * DM * DN, cudaMemcpyDeviceToHost);
        for (int i = 0; i < DM * DN; i++)
            if (!(fabs(out[i] - want[i]) <= bound[i]) && j->failures++ == 0)
                snprintf(j->first, sizeof j->first, "thread %d call %d: C(%d,%d) = %.9g, want %.9g", j->index, call,
                         i % DM, i / DM, out[i], want[i]);
    }
    cudaFree(a), cudaFree(b), cudaFree(c);
    free(ha), free(hb), free(out), free(want), free(bound);
    return NULL;
}

static void *pipeline_caller(void *arg)
{
    dev_job *j = arg;
    tileblas_set_path(TILEBLAS_PATH_GPU);
    for (int call = 0; call < 6; call++) {
        tt_case c = { .api = TT_CBLAS_COL, .ta = call % 2, .m = 1000 + call, .n = 900, .k = 700, .pad = 3,
                      .alpha = 0.75f, .beta = call % 3 ? 0.5f : 0.0f, .nan_c = call % 3 == 0 };
        char msg[512];
        if (!tt_run(&c, TT_TOLERANCE, msg, sizeof msg) && j->failures++ == 0)
            snprintf(j->first, sizeof j->first, "pipeline: %s", msg);
    }
    return NULL;
}

START_TEST(beside_the_pipeline)
{
    pthread_t t[DEV_THREADS + 1];
    dev_job jobs[DEV_THREADS + 1];
    memset(jobs, 0, sizeof jobs);
    for (int i = 0; i <= DEV_THREADS; i++) {
        jobs[i].index = i;
        ck_assert_int_eq(pthread_create(&t[i], NULL, i < DEV_THREADS ? device_caller : pipeline_caller, &jobs[i]),
                         0);
    }
    for (int i = 0; i <= DEV_THREADS; i++)
        ck_assert_int_eq(pthread_join(t[i], NULL), 0);
    for (int i = 0; i <= DEV_THREADS; i++) {
        ck_assert_msg(!jobs[i].failures, "%s", jobs[i].first);
        ck_assert_msg(!jobs[i].off_gpu, "thread %d: %d device-operand calls not on the GPU", i, jobs[i].off_gpu);
    }
    printf("beside the pipeline: %d threads x %d calls on device operands and 6 pipeline calls, right\n",
           DEV_THREADS, DEV_CALLS);
}
END_TEST

/* A program that manages its own devices: its current device (the last one there is) and its device 0's default
 * memory pool threshold are as it set them after every kind of call (host operands, device operands on device 0,
 * a product whose k is split into a workspace).  The current device is read through the driver (the library has a
 * CUDA runtime of its own, which the driver's per-thread context reflects). */
typedef int (*ctx_get_device_fn)(int *);

START_TEST(caller_device_and_pool_unchanged)
{
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    ctx_get_device_fn ctx_get_device = cuda ? (ctx_get_device_fn)dlsym(cuda, "cuCtxGetDevice") : NULL;
    ck_assert_ptr_nonnull(ctx_get_device);
    int count = 0;
    ck_assert_int_eq(cudaGetDeviceCount(&count), cudaSuccess);
    cudaMemPool_t pool;
    ck_assert_int_eq(cudaDeviceGetDefaultMemPool(&pool, 0), cudaSuccess);
    uint64_t mine = 12345 * 4096ull, now = 0;
    ck_assert_int_eq(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &mine), cudaSuccess);
    const int dev = count - 1;
    static const int shapes[][3] = { { 300, 200, 180 }, { 64, 64, 8192 }, { 1000, 1000, 64 } };
    for (int where = 0; where < 2; where++)
        for (int i = 0; i < 3; i++) {
            ck_assert_int_eq(cudaSetDevice(dev), cudaSuccess);
            if (where == 0)
                run_rows(i % 2, HOST, HOST, HOST, 0, 0, shapes[i][0], shapes[i][1], shapes[i][2], 0.5, 1, 1); /* S, D */
            else if (dev == 0) /* device operands: the library uses device 0's */
                run_rows(i % 2, DEVICE, DEVICE, DEVICE, 0, 0, shapes[i][0], shapes[i][1], shapes[i][2], 0.5, 1,
                         1);
            int cur = -1;
            ck_assert_int_eq(ctx_get_device(&cur), 0);
            ck_assert_msg(cur == dev, "current device %d after the call, %d before", cur, dev);
            ck_assert_int_eq(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &now), cudaSuccess);
            ck_assert_msg(now == mine, "device 0's default pool threshold %llu, set to %llu",
                          (unsigned long long)now, (unsigned long long)mine);
        }
    printf("current device %d and device 0's pool threshold unchanged after every call (%d devices)\n", dev, count);
    ck_assert_int_eq(cudaSetDevice(0), cudaSuccess); /* the later tests allocate on device 0, which tileblas uses */
}
END_TEST

int main(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
        printf("SKIP: no usable CUDA device\n");
        return 77;
    }
    state = tt_test_seed();
    Suite *s = suite_create("operands in device memory");
    TCase *tc = tcase_create(TT_DEVPTR_HUGE ? "huge" : "in place");
    tcase_set_timeout(tc, TT_DEVPTR_HUGE ? 600 : 300);
    if (TT_DEVPTR_HUGE) {
        tcase_add_test(tc, offsets_past_2_to_the_31);
    } else {
        tcase_add_loop_test(tc, every_mix, 0, TB_TYPE_COUNT * 27);
        tcase_add_test(tc, row_major);
        tcase_add_test(tc, beside_the_pipeline);
        tcase_add_test(tc, caller_device_and_pool_unchanged);
    }
    suite_add_tcase(s, tc);
    return tt_run_suite(s, CK_NOFORK);
}
