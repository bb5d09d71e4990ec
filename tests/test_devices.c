/*
 * Several GPUs (TILEBLAS_DEVICES=all, lib/gpu/cuda_gpu.h): host-memory calls spread over the devices, right
 * within the bound on shapes that split unevenly, with beta = 0 (C NaN) and not, each call's log naming two devices
 * or more; calls on device memory of device 1 run there whichever device is current, and leave the caller's current
 * device and both devices' memory pools as they were; operands on two devices leave C as it was.  A calibration
 * (TILEBLAS_CALIBRATION) of fast host copies and no cost a device makes these modest calls worth spreading.
 * tests/devices.sh runs it twice: as it is, and within a TILEBLAS_GPU_MEMORY that has every block computed tile by
 * tile on its device.  SKIP (77) with fewer than two devices.
 */
#include <config.h>
#include <check.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "suite.h"
#include "tileblas.h"

static uint64_t state;
static FILE *log_file; /* the library's log (stderr, TILEBLAS_VERBOSE=1), read back */
static long log_read;  /* how far */

/* What the library logged since the last look (a static buffer) */
static const char *new_log(void)
{
    static char text[1 << 16];
    fflush(stderr);
    fseek(log_file, log_read, SEEK_SET);
    size_t n = fread(text, 1, sizeof text - 1, log_file);
    text[n] = 0;
    log_read = ftell(log_file);
    return text;
}

static void check_cuda(cudaError_t e, const char *what)
{
    ck_assert_msg(e == cudaSuccess, "%s: %s", what, cudaGetErrorString(e));
}

/* Shapes whose blocks are uneven (none a multiple of the 128-wide blocks), rows and columns split */
static const struct {
    int type, m, n, k, ta, tb;
    double beta;
} spread_cases[] = {
    { 0, 4097, 3001, 1500, 0, 0, 0.0 }, { 0, 3001, 4097, 1200, 1, 0, 0.5 }, { 0, 2000, 2000, 2000, 1, 1, 0.5 },
    { 1, 4097, 3001, 1000, 0, 1, 0.5 }, { 1, 1500, 2999, 800, 0, 0, 0.0 },  { 2, 2049, 1500, 700, 2, 0, 0.5 },
    { 3, 1500, 2049, 600, 0, 2, 0.0 },
};

START_TEST(host_memory_spread)
{
    const int t = spread_cases[_i].type;
    tt_case c = { .dp = t == 1 || t == 3, .cplx = t >= 2, .api = TT_CBLAS_COL, .ta = spread_cases[_i].ta,
                  .tb = spread_cases[_i].tb, .m = spread_cases[_i].m, .n = spread_cases[_i].n,
                  .k = spread_cases[_i].k, .pad = 3, .alpha = 0.75, .beta = spread_cases[_i].beta,
                  .alpha_im = t >= 2 ? 0.5 : 0.0, .beta_im = t >= 2 && spread_cases[_i].beta != 0.0 ? -0.25 : 0.0,
                  .nan_c = spread_cases[_i].beta == 0.0 };
    char msg[600], what[200];
    tt_describe(&c, what, sizeof what);
    new_log();
    tileblas_set_path(TILEBLAS_PATH_GPU);
    const int ok = tt_run(&c, TT_TOLERANCE, msg, sizeof msg);
    tileblas_set_path(TILEBLAS_PATH_AUTO);
    ck_assert_msg(ok, "%s", msg);
    const char *log = new_log();
    ck_assert_msg(strstr(log, "-> gpu devices "), "%s: not spread over several devices; the log says:\n%s", what, log);
}
END_TEST

/* The current device as the driver sees it (the library's runtime and the program's share the driver's
 * per-thread context) */
typedef int (*ctx_get_device_fn)(int *);
static ctx_get_device_fn ctx_get_device;

static int current_device(void)
{
    int d = -1;
    ck_assert_int_eq(ctx_get_device(&d), 0);
    return d;
}

static uint64_t pool_threshold(int device)
{
    cudaMemPool_t pool;
    uint64_t v = 0;
    check_cuda(cudaDeviceGetDefaultMemPool(&pool, device), "the default pool");
    check_cuda(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &v), "its threshold");
    return v;
}

static void set_pool_threshold(int device, uint64_t v)
{
    cudaMemPool_t pool;
    check_cuda(cudaDeviceGetDefaultMemPool(&pool, device), "the default pool");
    check_cuda(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &v), "its threshold");
}

static float uniform(void)
{
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return (float)((double)(state >> 40) / 16777216.0 * 2.0 - 1.0);
}

enum { DM = 512, DN = 384, DK = 256 }; /* 100 MFLOP: operands looked at (lib/gpu/devptr.h) */

/* A program that manages its devices: A, B, C in device 1's memory, called with device 1 current and then with
 * device 0 current; then host operands with device 1 current */
START_TEST(device_memory_of_device_1)
{
    float *ha = malloc(sizeof(float) * DM * DK), *hb = malloc(sizeof(float) * DK * DN),
          *out = malloc(sizeof(float) * DM * DN);
    ck_assert(ha && hb && out);
    for (int i = 0; i < DM * DK; i++)
        ha[i] = uniform();
    for (int i = 0; i < DK * DN; i++)
        hb[i] = uniform();
    const uint64_t mine[2] = { 12345 * 4096ull, 54321 * 4096ull };
    set_pool_threshold(0, mine[0]), set_pool_threshold(1, mine[1]);
    check_cuda(cudaSetDevice(1), "device 1");
    float *a, *b, *c;
    check_cuda(cudaMalloc((void **)&a, sizeof(float) * DM * DK), "A");
    check_cuda(cudaMalloc((void **)&b, sizeof(float) * DK * DN), "B");
    check_cuda(cudaMalloc((void **)&c, sizeof(float) * DM * DN), "C");
    check_cuda(cudaMemcpy(a, ha, sizeof(float) * DM * DK, cudaMemcpyHostToDevice), "fill A");
    check_cuda(cudaMemcpy(b, hb, sizeof(float) * DK * DN, cudaMemcpyHostToDevice), "fill B");
    for (int current = 1; current >= 0; current--) {
        check_cuda(cudaSetDevice(1), "device 1");
        check_cuda(cudaMemset(c, 0xff, sizeof(float) * DM * DN), "poison C"); /* NaN */
        check_cuda(cudaDeviceSynchronize(), "poison C");
        check_cuda(cudaSetDevice(current), "current device");
        new_log();
        cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, DM, DN, DK, 1.0f, a, DM, b, DK, 0.0f, c, DM);
        tileblas_call_info info;
        tileblas_last_call(&info);
        ck_assert_msg(info.path == TILEBLAS_PATH_GPU && !info.gpu_failed, "device %d current: not on the GPU",
                      current);
        const char *log = new_log();
        ck_assert_msg(strstr(log, "-> gpu device 1 "), "device %d current: not run on device 1; the log says:\n%s",
                      current, log);
        ck_assert_msg(current_device() == current, "current device %d after the call, %d before", current_device(),
                      current);
        check_cuda(cudaMemcpy(out, c, sizeof(float) * DM * DN, cudaMemcpyDeviceToHost), "read C");
        for (int i = 0; i < DM; i++)
            for (int j = 0; j < DN; j++) {
                double sum = 0, mag = 0;
                for (int l = 0; l < DK; l++)
                    sum += (double)ha[i + l * DM] * hb[l + j * DK], mag += fabs((double)ha[i + l * DM] * hb[l + j * DK]);
                if (!(fabs(out[i + j * DM] - sum) <= 2.0 * (DK + 2) * ldexp(1.0, -24) * mag))
                    ck_abort_msg("device %d current: C(%d,%d) = %.9g, want %.9g", current, i, j, out[i + j * DM],
                                 sum);
            }
    }
    /* host operands with device 1 current: the library's devices, the caller's current device left as it was */
    check_cuda(cudaSetDevice(1), "device 1");
    tt_case hc = { .api = TT_CBLAS_COL, .m = 1000, .n = 900, .k = 700, .pad = 3, .alpha = 0.75, .beta = 0.5 };
    char msg[600];
    tileblas_set_path(TILEBLAS_PATH_GPU);
    const int ok = tt_run(&hc, TT_TOLERANCE, msg, sizeof msg);
    tileblas_set_path(TILEBLAS_PATH_AUTO);
    ck_assert_msg(ok, "host operands, device 1 current: %s", msg);
    ck_assert_msg(current_device() == 1, "host operands: current device %d after the call, 1 before", current_device());
    for (int d = 0; d < 2; d++)
        ck_assert_msg(pool_threshold(d) == mine[d], "device %d's default pool threshold %llu, set to %llu", d,
                      (unsigned long long)pool_threshold(d), (unsigned long long)mine[d]);
    cudaFree(a), cudaFree(b), cudaFree(c);
    free(ha), free(hb), free(out);
    check_cuda(cudaSetDevice(0), "device 0");
}
END_TEST

/* A on device 0, B and C on device 1: no device can read them all (peer access is the program's to enable): C is
 * left as it was, with a warning */
START_TEST(operands_on_two_devices)
{
    float *a, *b, *c, *out = malloc(sizeof(float) * DM * DN);
    ck_assert(out);
    check_cuda(cudaSetDevice(0), "device 0");
    check_cuda(cudaMalloc((void **)&a, sizeof(float) * DM * DK), "A");
    check_cuda(cudaMemset(a, 0, sizeof(float) * DM * DK), "fill A");
    check_cuda(cudaSetDevice(1), "device 1");
    check_cuda(cudaMalloc((void **)&b, sizeof(float) * DK * DN), "B");
    check_cuda(cudaMalloc((void **)&c, sizeof(float) * DM * DN), "C");
    check_cuda(cudaMemset(b, 0, sizeof(float) * DK * DN), "fill B");
    check_cuda(cudaMemset(c, 0x3f, sizeof(float) * DM * DN), "fill C"); /* 0.747 each */
    new_log();
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, DM, DN, DK, 1.0f, a, DM, b, DK, 0.0f, c, DM);
    const char *log = new_log();
    ck_assert_msg(strstr(log, "different CUDA devices"), "no warning of operands on different devices; the log says:\n%s",
                  log);
    check_cuda(cudaMemcpy(out, c, sizeof(float) * DM * DN, cudaMemcpyDeviceToHost), "read C");
    for (int i = 0; i < DM * DN; i++)
        if (memcmp(&out[i], "\x3f\x3f\x3f\x3f", 4))
            ck_abort_msg("C(%d,%d) changed to %g", i % DM, i / DM, out[i]);
    ck_assert_msg(current_device() == 1, "current device %d after the call, 1 before", current_device());
    cudaFree(b), cudaFree(c);
    check_cuda(cudaSetDevice(0), "device 0");
    cudaFree(a);
    free(out);
}
END_TEST

int main(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < 2) {
        printf("SKIP: fewer than two usable CUDA devices (%d)\n", count);
        return 77;
    }
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    ctx_get_device = cuda ? (ctx_get_device_fn)dlsym(cuda, "cuCtxGetDevice") : NULL;
    if (!ctx_get_device) {
        printf("cannot find cuCtxGetDevice in the CUDA driver\n");
        return 1;
    }
    state = tt_test_seed();
    /* the calibration and the log, before the library reads its configuration (at its first call) */
    char calibration[] = "/tmp/tileblas-devices-XXXXXX", log_path[] = "/tmp/tileblas-devices-log-XXXXXX";
    int fd = mkstemp(calibration), lfd = mkstemp(log_path);
    if (fd < 0 || lfd < 0 || write(fd, "host_copy 1e13\ndevice_call 1e-9\n", 32) != 32) {
        printf("cannot write %s or %s\n", calibration, log_path);
        return 1;
    }
    close(fd);
    setenv("TILEBLAS_CALIBRATION", calibration, 1);
    setenv("TILEBLAS_DEVICES", "all", 1);
    setenv("TILEBLAS_VERBOSE", "1", 1);
    fflush(stderr);
    const int saved_stderr = dup(2);
    dup2(lfd, 2); /* the library's log into the file, read back through a description of its own */
    close(lfd);
    log_file = fopen(log_path, "r");
    unlink(log_path);
    if (!log_file || saved_stderr < 0) {
        printf("cannot read back %s\n", log_path);
        return 1;
    }
    Suite *s = suite_create("several GPUs");
    TCase *tc = tcase_create("devices");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, host_memory_spread, 0, (int)(sizeof spread_cases / sizeof spread_cases[0]));
    tcase_add_test(tc, device_memory_of_device_1);
    tcase_add_test(tc, operands_on_two_devices);
    suite_add_tcase(s, tc);
    const int rc = tt_run_suite(s, CK_NOFORK);
    unlink(calibration);
    /* the whole log into the test's, after its results */
    fflush(stderr);
    dup2(saved_stderr, 2);
    log_read = 0;
    printf("the library's log:\n%s", new_log());
    return rc;
}
