/*
 * Every kernel of the table, called directly on device memory (linked against the core, not the exported
 * library), with leading dimensions a multiple of 4 as the library's device copies have them, and with what
 * those copies never have: odd leading dimensions, and operands that start off a 16-byte boundary.  Shapes
 * straddle the tiles' edges (16, 32, 64, 128, 256 and the k depths), fill whole large tiles and make the
 * blocked kernel split k.  Results are checked against a double-precision product with the bound of doc/TESTING.md;
 * C's padding rows and guard bands before and after C are poisoned and must come back untouched.  Skips (77)
 * without a usable device.
 */
#include <config.h>
#include <check.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cuda_ops.h"
#include "kernels.h"
#include "suite.h"

static const int shapes[][3] = {
    { 1, 1, 1 },     { 7, 5, 3 },      { 17, 33, 15 },  { 127, 129, 17 }, { 129, 127, 31 },
    { 128, 128, 16 }, { 257, 130, 33 }, { 64, 200, 100 }, { 300, 65, 257 }, { 64, 96, 1000 },
    { 130, 257, 9 },  { 256, 256, 64 }, { 520, 260, 43 },
};

static uint64_t state;
static float uniform(void)
{
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return (float)((double)(state >> 40) / 16777216.0 * 2.0 - 1.0);
}

#define GUARD 64 /* floats poisoned before and after C on the device */

static void check_cuda(cudaError_t e, const char *what)
{
    ck_assert_msg(e == cudaSuccess, "%s: %s", what, cudaGetErrorString(e));
}

/* op(X)(r, c) of a column-major host matrix */
static double at(const float *x, int64_t ld, int trans, int64_t r, int64_t c)
{
    return trans ? x[c + r * ld] : x[r + c * ld];
}

/* Where the operands sit: 0 = leading dimensions a multiple of 4 and 16-byte aligned bases (the wide loads);
 * 1 = odd leading dimensions; 2 = leading dimensions a multiple of 4 but every base one float off 16 bytes. */
static int64_t leading(int64_t rows, int layout)
{
    return layout == 1 ? rows + 1 + (rows % 2) : ((rows + 3) & ~(int64_t)3) + 4;
}

/* one case: kernel, transposes, shape, layout */
static void run_case(int kernel, int ta, int tb, const int *shape, int layout, float beta)
{
    const int64_t m = shape[0], n = shape[1], k = shape[2];
    const int64_t arows = ta ? k : m, acols = ta ? m : k, brows = tb ? n : k, bcols = tb ? k : n;
    const int64_t lda = leading(arows, layout), ldb = leading(brows, layout), ldc = leading(m, layout);
    const int misalign = layout == 2;
    const size_t na = (size_t)(lda * acols + misalign), nb = (size_t)(ldb * bcols + misalign);
    const size_t nc = (size_t)(ldc * n) + 2 * GUARD + misalign;
    float *ha = malloc(na * sizeof(float)), *hb = malloc(nb * sizeof(float));
    float *hc0 = malloc(nc * sizeof(float)), *hc = malloc(nc * sizeof(float));
    for (size_t i = 0; i < na; i++) ha[i] = uniform();
    for (size_t i = 0; i < nb; i++) hb[i] = uniform();
    const uint32_t poison_bits = 0x7fc0beef;
    float poison;
    memcpy(&poison, &poison_bits, sizeof poison);
    for (size_t i = 0; i < nc; i++) {
        int64_t e = (int64_t)i - GUARD - misalign;
        int inside = e >= 0 && e < ldc * n && e % ldc < m;
        /* beta = 0: C must not be read, so it starts as NaN */
        hc0[i] = !inside ? poison : beta == 0.0f ? NAN : uniform();
    }
    float *da, *db, *dc; /* C's base is misaligned too: GUARD + misalign floats into its allocation */
    check_cuda(cudaMalloc((void **)&da, na * sizeof(float)), "cudaMalloc A");
    check_cuda(cudaMalloc((void **)&db, nb * sizeof(float)), "cudaMalloc B");
    check_cuda(cudaMalloc((void **)&dc, nc * sizeof(float)), "cudaMalloc C");
    check_cuda(cudaMemcpy(da, ha, na * sizeof(float), cudaMemcpyHostToDevice), "copy A");
    check_cuda(cudaMemcpy(db, hb, nb * sizeof(float), cudaMemcpyHostToDevice), "copy B");
    check_cuda(cudaMemcpy(dc, hc0, nc * sizeof(float), cudaMemcpyHostToDevice), "copy C");

    const float alpha = -1.25f;
    tb_kproblem p = { .type = TB_TYPE_S, .transa = ta, .transb = tb, .m = m, .n = n, .k = k, .alpha = alpha,
                      .beta = beta, .a = da + misalign, .lda = lda, .b = db + misalign, .ldb = ldb,
                      .c = dc + GUARD + misalign, .ldc = ldc };
    check_cuda((cudaError_t)tb_cuda_launch(kernel, &p, NULL), "launch");
    check_cuda(cudaDeviceSynchronize(), "kernel");
    check_cuda(cudaMemcpy(hc, dc, nc * sizeof(float), cudaMemcpyDeviceToHost), "copy C back");

    const float *a = ha + misalign, *b = hb + misalign;
    char what[160];
    snprintf(what, sizeof what, "%s %c%c M=%lld N=%lld K=%lld layout %d beta=%g", tb_kernel_names[kernel],
             ta ? 'T' : 'N', tb ? 'T' : 'N', (long long)m, (long long)n, (long long)k, layout, beta);
    for (size_t i = 0; i < nc; i++) {
        int64_t e = (int64_t)i - GUARD - misalign;
        int64_t r = e % ldc, c = e / ldc;
        if (!(e >= 0 && e < ldc * n && r < m)) {
            ck_assert_msg(!memcmp(&hc[i], &hc0[i], sizeof(float)), "%s: wrote outside C at offset %lld", what,
                          (long long)e);
            continue;
        }
        double sum = 0, mag = 0;
        for (int64_t l = 0; l < k; l++) {
            double t = at(a, lda, ta, r, l) * at(b, ldb, tb, l, c);
            sum += t, mag += fabs(t);
        }
        double c0 = beta == 0.0f ? 0.0 : hc0[i];
        double want = alpha * sum + beta * c0;
        double bound = 2.0 * (k + 2) * ldexp(1.0, -24) * (fabs(alpha) * mag + fabs(beta * c0));
        ck_assert_msg(!isnan(hc[i]) && fabs(hc[i] - want) <= bound, "%s: C(%lld,%lld) = %.9g, want %.9g", what,
                      (long long)r, (long long)c, hc[i], want);
    }
    cudaFree(da), cudaFree(db), cudaFree(dc);
    free(ha), free(hb), free(hc0), free(hc);
}

/* loop index -> kernel x transposes */
START_TEST(odd_layouts)
{
    int kernel = _i / 4, ta = (_i >> 1) & 1, tb = _i & 1;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int layout = 0; layout <= 2; layout++) {
            run_case(kernel, ta, tb, shapes[s], layout, 0.0f);
            run_case(kernel, ta, tb, shapes[s], layout, 0.5f);
        }
}
END_TEST

int main(void)
{
    int count = 0;
    if (tb_kernel_count == 0 || cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
        printf("SKIP: no usable GPU%s\n", tb_kernel_count == 0 ? " (built without CUDA)" : "");
        return 77;
    }
    state = tt_test_seed();
    Suite *suite = suite_create("kernels on odd layouts");
    TCase *tc = tcase_create("direct launches");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, odd_layouts, 0, tb_kernel_count * 4);
    suite_add_tcase(suite, tc);
    /* CUDA is initialised in this process: children forked by check could not use it */
    return tt_run_suite(suite, CK_NOFORK);
}
