/*
 * tileblas-calibrate: measures the parameters of auto mode's cost model (lib/decide/cost.h) on this machine and writes
 * them where the library looks for them.
 *
 *   tileblas-calibrate [-o FILE | --stdout] [--quick]
 *
 * FILE defaults to the first place the library searches ($XDG_CONFIG_HOME/tileblas/calibration, or
 * ~/.config/tileblas/calibration); TILEBLAS_CALIBRATION=FILE points the library at any other.  What it measures,
 * each the median of several calls after a warm-up, with the library's own entry point on malloc'd memory:
 *   - the CPU path (the CPU BLAS tileblas uses): a tiny call (cpu_call), then for each type (SGEMM, DGEMM, CGEMM,
 *     ZGEMM) 1024^3 and 1024 x 16 x 1024 (2048 without --quick; the complex types half that side), from which the
 *     rate on large products and the size that halves it (cpu_rate, cpu_half; DGEMM's cpu_rate_d, cpu_half_d,
 *     and the same with _c and _z);
 *   - the GPU path forced: each type's kernel on the FP32 or FP64 units alone, device-resident, at 1024^3 and
 *     4096^3 (gpu_rate, gpu_half and their _d, _c and _z, where a kernel computes the type; smaller products
 *     measure the launch, not the kernel), and
 *     fp32-tc's kernel at 2048^3 and 8192^3 (4096^3 with --quick; gpu_rate_tc, gpu_half_tc); in single
 *     precision a tiny call, and 256^3 less its trips and kernel as the model has them, the larger (gpu_call);
 *     a tiny call of each complex type less the tiny real one (gpu_extra_c, gpu_extra_z: the further launches);
 *     and three calls whose time is mostly one operand's trip: op(A) of
 *     8192 x 8192 with N = 256 (h2d_a), op(B) the same with M = 256 (h2d_b), and C of 8192 x 8192 back with
 *     K = 256 (d2h) (4096 with --quick), each less the model's time for the rest of the call.  (With N, M or
 *     K = 16 the pipeline's tiles are too thin to stand for the calls that matter.)
 * Without a usable GPU the GPU parameters keep the built-in values.  Exit status 0, 1 on a failure to write.
 */
#include <config.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <cuda_runtime_api.h>
#include "bench.h"
#include "cuda_ops.h"
#include "cost.h"
#include "gpu.h"
#include "gpu_module.h"
#include "kernels.h"
#include "route.h"
#include "tileblas.h"

static const char *const type_name[TB_TYPE_COUNT] = { "SGEMM", "DGEMM", "CGEMM", "ZGEMM" };
static const char *const suffix[TB_TYPE_COUNT] = { "", "_d", "_c", "_z" }; /* of the type's fields (cost.h) */

/* count fresh random elements of type t (a complex one: both parts) */
static void *random_matrix(tb_type t, size_t count)
{
    const size_t parts = tb_type_complex(t) ? 2 : 1;
    void *x = bench_alloc(count * tb_type_size(t));
    bench_fill(x, count * parts, tb_type_size(t) / parts);
    return x;
}

/* Median seconds of a whole column-major NN call of type t (beta = 0) on the given path, after one warm-up. */
static double time_call(tb_type type, tileblas_path path, int m, int n, int k, int runs)
{
    void *a = random_matrix(type, (size_t)m * k), *b = random_matrix(type, (size_t)k * n);
    void *c = random_matrix(type, (size_t)m * n);
    double t[16];
    runs = runs > 16 ? 16 : runs;
    tileblas_set_path(path);
    static const double one[2] = { 1.0, 0.0 }, zero[2] = { 0.0, 0.0 };
    static const float onef[2] = { 1.0f, 0.0f }, zerof[2] = { 0.0f, 0.0f };
    for (int r = -1; r < runs; r++) {
        double t0 = bench_now();
        if (type == TB_TYPE_Z)
            cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, one, a, m, b, k, zero, c, m);
        else if (type == TB_TYPE_C)
            cblas_cgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, onef, a, m, b, k, zerof, c, m);
        else if (type == TB_TYPE_D)
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a, m, b, k, 0.0, c, m);
        else
            cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, m, b, k, 0.0f, c, m);
        if (r >= 0)
            t[r] = bench_now() - t0;
    }
    tileblas_set_path(TILEBLAS_PATH_AUTO);
    free(a), free(b), free(c);
    return bench_median(t, runs);
}

/* Median seconds of kernel (of type type) on an n^3 product already on the device, or -1. */
static double time_kernel(int kernel, tb_type type, int n, int runs)
{
    size_t bytes = (size_t)n * n * tb_type_size(type);
    void *h = random_matrix(type, (size_t)n * n), *a = NULL, *b = NULL, *c = NULL;
    double result = -1;
    cudaEvent_t e0 = NULL, e1 = NULL;
    if (kernel >= 0 && cudaMalloc(&a, bytes) == cudaSuccess && cudaMalloc(&b, bytes) == cudaSuccess &&
        cudaMalloc(&c, bytes) == cudaSuccess && cudaMemcpy(a, h, bytes, cudaMemcpyHostToDevice) == cudaSuccess &&
        cudaMemcpy(b, h, bytes, cudaMemcpyHostToDevice) == cudaSuccess && cudaEventCreate(&e0) == cudaSuccess &&
        cudaEventCreate(&e1) == cudaSuccess) {
        tb_kproblem p = { .type = type, .m = n, .n = n, .k = n, .alpha = 1.0, .beta = 0.0, .a = a, .lda = n,
                          .b = b, .ldb = n, .c = c, .ldc = n };
        double t[16];
        int ok = 1;
        runs = runs > 16 ? 16 : runs;
        for (int r = -1; r < runs && ok; r++) {
            float ms = 0;
            ok = cudaEventRecord(e0, NULL) == cudaSuccess && tb_cuda_launch(kernel, &p, NULL) == 0 &&
                 cudaEventRecord(e1, NULL) == cudaSuccess && cudaEventSynchronize(e1) == cudaSuccess &&
                 cudaEventElapsedTime(&ms, e0, e1) == cudaSuccess;
            if (r >= 0)
                t[r] = 1e-3 * ms;
        }
        if (ok)
            result = bench_median(t, runs);
    }
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    cudaFree(a), cudaFree(b), cudaFree(c), free(h);
    cudaGetLastError();
    return result;
}

/*
 * rate and half from a square product n^3 and a thin one n x THIN x n taking ts and tt seconds beyond the fixed
 * cost: with r = 2 m n k / t = rate f(m) f(n) f(k), f(d) = d / (d + half), the ratio of the two rates is
 * f(THIN) / f(n), which gives half.  A thin product, not a small square: thin shapes are where the CPU and the GPU
 * are close, and a small square's rate is mostly the BLAS's threading (doc/NOTES.md).  When the thin product is
 * not slower per flop (noise), half is 1 and the rate the square's.
 */
#define THIN 16
static void fit_thin(double flops, double n, double ts, double tt, double *rate, double *half)
{
    double rs = flops * n * n * n / ts, rt = flops * n * n * THIN / tt, q = rt / rs;
    double h = THIN * n * (1 - q) / (q * n - THIN);
    *half = isfinite(h) && h >= 1 ? h : 1;
    double f = n / (n + *half);
    *rate = rs / (f * f * f);
}

/*
 * rate and half from two square products n1 < n2 taking t1 and t2 seconds: with r(n) = 2 n^3 / t(n) =
 * rate (n / (n + half))^3, the ratio of the two rates' cube roots gives half.  When the larger is not faster per
 * flop (noise), half is 1 and the rate the larger's.
 */
static void fit_squares(double flops, double n1, double t1, double n2, double t2, double *rate, double *half)
{
    double r1 = flops * n1 * n1 * n1 / t1, r2 = flops * n2 * n2 * n2 / t2, q = cbrt(r1 / r2);
    double h = n1 * n2 * (q - 1) / (n1 - q * n2);
    *half = isfinite(h) && h >= 1 ? h : 1;
    double f = n2 / (n2 + *half);
    *rate = r2 / (f * f * f);
}

/* mkdir -p of path's directory, with mode (less the umask) */
static void make_parent(const char *path, mode_t mode)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *s = dir + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(dir, mode); /* an existing one is fine; a real failure shows at fopen */
            *s = '/';
        }
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    int to_stdout = 0, quick = 0;
    tb_gpu_link(&tb_cuda_gpu); /* the GPU side is linked in: no module to load */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc && argv[i + 1][0] && !out && !to_stdout)
            out = argv[++i];
        else if (!strcmp(argv[i], "--stdout") && !out)
            to_stdout = 1;
        else if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--help")) {
            printf("usage: tileblas-calibrate [-o FILE | --stdout] [--quick]\n"
                   "Measures this host's CPU BLAS and GPU and writes auto mode's cost model (tileblas-calibrate(1)).\n");
            return 0;
        } else if (!strcmp(argv[i], "--version")) {
            printf("tileblas-calibrate %s\n", PACKAGE_VERSION);
            return 0;
        } else {
            fprintf(stderr, "usage: tileblas-calibrate [-o FILE | --stdout] [--quick]\n");
            return 2;
        }
    }
    char path[512];
    const int user_place = !out; /* the XDG rules: the directories made there are the user's alone (0700) */
    if (!out && !to_stdout && !*(out = tb_cost_path(0, path, sizeof path))) {
        fprintf(stderr, "tileblas-calibrate: no absolute HOME or XDG_CONFIG_HOME to write to; use -o FILE\n");
        return 2;
    }
    tb_cost_params c = tb_cost_defaults;
    const int runs = quick ? 3 : 7;
    FILE *log = to_stdout ? stderr : stdout;

    /* the CPU path: the fixed cost once, the rates per type */
    c.cpu_call = time_call(TB_TYPE_S, TILEBLAS_PATH_CPU, 2, 2, 2, runs);
    const double n = quick ? 1024 : 2048;
    for (int ty = 0; ty < TB_TYPE_COUNT; ty++) {
        /* the complex types at half the side: as many flops as a real square of the side */
        const double side = tb_type_complex((tb_type)ty) ? n / 2 : n, f = tb_type_flops((tb_type)ty);
        double ts = time_call((tb_type)ty, TILEBLAS_PATH_CPU, (int)side, (int)side, (int)side, quick ? 3 : 5);
        double tt = time_call((tb_type)ty, TILEBLAS_PATH_CPU, (int)side, THIN, (int)side, runs);
        fit_thin(f, side, ts - c.cpu_call, tt - c.cpu_call, &c.cpu_rate[ty], &c.cpu_half[ty]);
        fprintf(log, "CPU %s: %.2f us a call; %.3f TFLOP/s at %g^3, %.3f at %gx%dx%g -> cpu_rate%s %.3g, cpu_half%s "
                     "%.3g\n",
                type_name[ty], 1e6 * c.cpu_call, 1e-12 * f * side * side * side / (ts - c.cpu_call), side,
                1e-12 * f * side * side * THIN / (tt - c.cpu_call), side, THIN, side, suffix[ty], c.cpu_rate[ty],
                suffix[ty], c.cpu_half[ty]);
    }

    /* the GPU path */
    const char *why = NULL;
    if (tileblas_gpu_available(&why)) {
        bench_settle(); /* the CPU BLAS's threads, still spinning, would slow the host copies */
        c.gpu_call = time_call(TB_TYPE_S, TILEBLAS_PATH_GPU, 2, 2, 2, runs);
        /* what a tiny call of a complex type costs beyond a real one (its kernels' further launches); at least a
         * nanosecond, as the file holds positive figures only */
        for (int ty = TB_TYPE_C; ty <= TB_TYPE_Z; ty++) {
            const double extra = time_call((tb_type)ty, TILEBLAS_PATH_GPU, 2, 2, 2, runs) - c.gpu_call;
            c.gpu_extra[ty] = extra > 1e-9 ? extra : 1e-9;
            fprintf(log, "GPU %s: %.2f us a call beyond a real one -> gpu_extra%s %.3g\n", type_name[ty],
                    1e6 * c.gpu_extra[ty], suffix[ty], c.gpu_extra[ty]);
        }
        for (int ty = 0; ty < TB_TYPE_COUNT; ty++) {
            /* single precision's curve on the FP32 units: the kernel that tensor-core kernels hand shapes to */
            const int kernel = tb_kernel_default((tb_type)ty, TB_MATH_FP32);
            double k1 = time_kernel(kernel, (tb_type)ty, 1024, runs);
            double k2 = time_kernel(kernel, (tb_type)ty, 4096, runs);
            if (k1 > 0 && k2 > 0) {
                const double f = tb_type_flops((tb_type)ty);
                fit_squares(f, 1024, k1, 4096, k2, &c.gpu_rate[ty], &c.gpu_half[ty]);
                fprintf(log, "GPU %s kernel: %.2f TFLOP/s at 1024^3, %.2f at 4096^3 -> gpu_rate%s %.3g, gpu_half%s "
                             "%.3g\n",
                        type_name[ty], 1e-12 * f * 1024 * 1024 * 1024 / k1, 1e-12 * f * 4096.0 * 4096 * 4096 / k2,
                        suffix[ty], c.gpu_rate[ty], suffix[ty], c.gpu_half[ty]);
            } else {
                fprintf(log, "GPU %s kernel could not be timed: gpu_rate%s and gpu_half%s stay built in\n",
                        type_name[ty], suffix[ty], suffix[ty]);
            }
        }
        /* the tensor cores' curve, from squares they take (2048^3 and up on the H200) */
        const int tck = tb_kernel_default(TB_TYPE_S, TB_MATH_FP32_TC), n2 = quick ? 4096 : 8192;
        double k1 = -1, k2 = -1;
        if (tck >= 0 && (tb_kernel_maths[tck] & TB_MATH_BIT(TB_MATH_FP32_TC)))
            k1 = time_kernel(tck, TB_TYPE_S, 2048, runs), k2 = time_kernel(tck, TB_TYPE_S, n2, runs);
        if (k1 > 0 && k2 > 0) {
            fit_squares(2.0, 2048, k1, n2, k2, &c.gpu_rate_tc, &c.gpu_half_tc);
            fprintf(log, "GPU SGEMM on the tensor cores (%s): %.2f TFLOP/s at 2048^3, %.2f at %d^3 -> "
                         "gpu_rate_tc %.3g, gpu_half_tc %.3g\n",
                    tb_kernel_names[tck], 2e-12 * 2048 * 2048 * 2048 / k1, 2e-12 * n2 * n2 * (double)n2 / k2, n2,
                    c.gpu_rate_tc, c.gpu_half_tc);
        } else {
            fprintf(log, "GPU SGEMM on the tensor cores could not be timed: gpu_rate_tc and gpu_half_tc stay "
                         "built in\n");
        }
        const int big = quick ? 4096 : 8192, thin = 256;
        const int on_tc = tb_route_on_tensor_cores(&(tb_kproblem){ .type = TB_TYPE_S, .m = 1, .n = 1, .k = 1 },
                                                   tb_config_get()); /* the kernel the calls below run on */
        const double bytes = 4.0 * big * big;
        /* each: the call's time less its fixed cost, its kernel (predicted) and its small operands' trips */
        tb_call g = { .p.m = big, .p.n = thin, .p.k = big, .p.alpha = 1.0f };
        tb_cost_params only = c;
        only.h2d_a = INFINITY;
        double ta = time_call(TB_TYPE_S, TILEBLAS_PATH_GPU, big, thin, big, runs);
        ta -= tb_cost_predict(&only, &g, on_tc).gpu;
        g.p.m = thin, g.p.n = big, only = c, only.h2d_b = INFINITY;
        double tb = time_call(TB_TYPE_S, TILEBLAS_PATH_GPU, thin, big, big, runs);
        tb -= tb_cost_predict(&only, &g, on_tc).gpu;
        g.p.m = big, g.p.k = thin, only = c, only.d2h = INFINITY;
        double tc = time_call(TB_TYPE_S, TILEBLAS_PATH_GPU, big, big, thin, runs);
        tc -= tb_cost_predict(&only, &g, on_tc).gpu;
        if (ta > 0)
            c.h2d_a = bytes / ta;
        if (tb > 0)
            c.h2d_b = bytes / tb;
        if (tc > 0)
            c.d2h = bytes / tc;
        /* The fixed cost as calls near the crossover see it: 256^3 less its trips and kernel as the model has them
         * (small copies have latencies that the rates do not carry; 256^3 cost 100-130 us on the H200 host, a 2^3
         * call 31-35), when that is more than the tiny call's. */
        g.p.m = g.p.n = g.p.k = 256, only = c, only.gpu_call = 0;
        double mid = time_call(TB_TYPE_S, TILEBLAS_PATH_GPU, 256, 256, 256, runs);
        mid -= tb_cost_predict(&only, &g, on_tc).gpu;
        if (mid > c.gpu_call)
            c.gpu_call = mid;
        fprintf(log, "GPU: %.1f us a call; op(A) in %.1f GB/s, op(B) in %.1f GB/s, C out %.1f GB/s\n",
                1e6 * c.gpu_call, 1e-9 * c.h2d_a, 1e-9 * c.h2d_b, 1e-9 * c.d2h);
    } else {
        fprintf(log, "GPU: none usable (%s): its parameters stay built in\n", why);
    }

    FILE *f = stdout;
    if (!to_stdout) {
        make_parent(out, user_place ? 0700 : 0755);
        f = fopen(out, "w");
        if (!f) {
            fprintf(stderr, "tileblas-calibrate: %s: %s\n", out, strerror(errno));
            return 1;
        }
    }
    time_t when = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M", localtime(&when));
    int bad = fprintf(f, "# tileblas-calibrate %s, %s%s\n", date, quick ? "--quick, " : "",
                      why ? "no GPU (GPU parameters built in)" : "GPU measured") < 0 ||
              tb_cost_write(&c, f);
    if (f != stdout)
        bad |= fclose(f) != 0;
    if (bad) {
        fprintf(stderr, "tileblas-calibrate: %s: write failed\n", to_stdout ? "stdout" : out);
        return 1;
    }
    if (!to_stdout)
        fprintf(log, "wrote %s\n", out);
    return 0;
}
