/*
 * Every kernel of the table, called directly on device memory (linked against the core, not the exported
 * library), with leading dimensions a multiple of 4 as the library's device copies have them, and with what
 * those copies never have: odd leading dimensions, and operands that start off a 16-byte boundary.  Shapes
 * straddle the tiles' edges (16, 32, 64, 128, 256 and the k depths), fill whole large tiles and make the
 * blocked kernel split k.  Every type a kernel runs, the complex ones with every op.  Results are checked against a
 * long-double product with the bound of doc/TESTING.md;
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
#include "recipes.h"
#include "elements.h"
#include "suite.h"

/* The suite is built as several programs, each one part of it (TT_KERNELS_PART; -1: all), which make check runs
 * side by side: odd layouts and non-finite inputs; many tiles in single and in double precision; each complex type. */
enum { PART_ODD, PART_MANY_S, PART_MANY_D, PART_COMPLEX, PART_COMPLEX_Z };
#ifndef TT_KERNELS_PART
#define TT_KERNELS_PART -1
#endif
static int in_part(int part)
{
    return TT_KERNELS_PART < 0 || TT_KERNELS_PART == part;
}

static int selected(int kernel)
{
    return tt_kernel_selected(tb_kernel_names[kernel]);
}

static const int shapes[][3] = {
    { 1, 1, 1 },     { 7, 5, 3 },      { 17, 33, 15 },  { 127, 129, 17 }, { 129, 127, 31 },
    { 128, 128, 16 }, { 257, 130, 33 }, { 64, 200, 100 }, { 300, 65, 257 }, { 64, 96, 1000 },
    { 130, 257, 9 },  { 256, 256, 64 }, { 520, 260, 43 }, { 130, 258, 34 }, { 194, 66, 50 },
    { 300, 44, 257 },
};

static uint64_t state;
static double uniform(void)
{
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return (double)(state >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

#define GUARD 64 /* elements poisoned before and after C on the device */

static void check_cuda(cudaError_t e, const char *what)
{
    ck_assert_msg(e == cudaSuccess, "%s: %s", what, cudaGetErrorString(e));
}

/* compute capability 9.0: where the tensor-core kernels run */
/* kernel's recipe for p on device 0 (lib/decide/recipes.h), as the library decides it */
static tb_recipe recipe(int kernel, const tb_kproblem *p)
{
    tb_recipe r;
    tb_decide_recipe(tb_cuda_decider(0), tb_kernel_families[kernel], 0, p, &r);
    return r;
}

static int hopper(void)
{
    int major = 0, minor = 0;
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);
    return major == 9 && minor == 0;
}

/* a random element of type t (both parts random for a complex one) */
static double complex random_element(tb_type t)
{
    const double re = uniform();
    return tb_type_complex(t) ? re + uniform() * I : re;
}

/* Where the operands sit: 0 = leading dimensions a multiple of 4 and 16-byte aligned bases (the wide loads);
 * 1 = odd leading dimensions; 2 = leading dimensions a multiple of 4 but every base one element off 16 bytes;
 * 3 (complex types) = as 0, but op(A) and op(B) half an element off: a complex array need only be aligned to its
 * parts (C's float complex is aligned to 4 bytes). */
static int64_t leading(int64_t rows, int layout)
{
    return layout == 1 ? rows + 1 + (rows % 2) : ((rows + 3) & ~(int64_t)3) + 4;
}

/* op(A)'s row x and op(B)'s column y along k (real parts, imaginary parts, magnitudes): their product, in double for
 * single-precision elements (their products are exact there, and the sum's error far inside FP32's bound), in long
 * double for double ones (11 bits beyond FP64's); *mag = the sum of the magnitudes' products, for the bound.  One
 * pass of independent sums (the imaginary ones only for the complex types): this reference is most of the suite's
 * time. */
#define PRODUCT(name, T)                                                                                              \
    static long double complex name(const double *xr, const double *xi, const double *xa, const double *yr,            \
                                    const double *yi, const double *ya, int64_t k, int cplx, double *mag)              \
    {                                                                                                                 \
        T rr = 0, ii = 0, ri = 0, ir = 0;                                                                             \
        double m = 0;                                                                                                 \
        if (!cplx)                                                                                                    \
            for (int64_t l = 0; l < k; l++)                                                                           \
                rr += (T)xr[l] * yr[l], m += xa[l] * ya[l];                                                           \
        else                                                                                                          \
            for (int64_t l = 0; l < k; l++) {                                                                         \
                const T x = xr[l], y = xi[l];                                                                         \
                rr += x * yr[l], ii += y * yi[l], ri += x * yi[l], ir += y * yr[l], m += xa[l] * ya[l];               \
            }                                                                                                         \
        *mag = m;                                                                                                     \
        return CMPLXL((long double)rr - ii, (long double)ri + ir);                                                    \
    }
PRODUCT(product_narrow, double)
PRODUCT(product_wide, long double)

/* whether row (column) i of n is checked: every stride-th, and the last two */
static int checked(int64_t i, int64_t n, int stride)
{
    return i % stride == 0 || i >= n - 2;
}

/* one case: kernel, type, ops (2: the conjugate transpose, complex types), shape, layout, alpha (its imaginary part
 * for the complex types only) and beta (for the complex types with imaginary part -0.25 where it is not 0).  The
 * reference is product_narrow's or product_wide's; the bound is that of doc/TESTING.md with the type's unit
 * roundoff.  Every element of C is checked against it where stride is 1; otherwise the rows and columns a multiple of
 * stride, and the last two of each (everything outside C is always checked for being left alone). */
static int launch_prepared(int kernel, const tb_kproblem *p);

/* prepared: through the kernel's prepared operands (launch_prepared); nothing is checked where it has none */
static void run_case(int kernel, tb_type type, int ta, int tb, const int *shape, int layout, double complex zalpha,
                     double beta, int stride, int prepared)
{
    const double alpha = creal(zalpha);
    const int64_t m = shape[0], n = shape[1], k = shape[2];
    const int64_t arows = ta ? k : m, acols = ta ? m : k, brows = tb ? n : k, bcols = tb ? k : n;
    const int64_t lda = leading(arows, layout), ldb = leading(brows, layout), ldc = leading(m, layout);
    const int misalign = layout == 2;
    const size_t es = tb_type_size(type), shift = layout == 3 ? es / 2 : 0; /* op(A), op(B) aligned to parts only */
    const size_t na = (size_t)(lda * acols + misalign), nb = (size_t)(ldb * bcols + misalign);
    const size_t nc = (size_t)(ldc * n) + 2 * GUARD + misalign;
    void *ha = malloc(na * es), *hb = malloc(nb * es), *hc0 = malloc(nc * es), *hc = malloc(nc * es);
    for (size_t i = 0; i < na; i++) tt_xput(ha, i, type, random_element(type));
    for (size_t i = 0; i < nb; i++) tt_xput(hb, i, type, random_element(type));
    for (size_t i = 0; i < nc; i++) {
        int64_t e = (int64_t)i - GUARD - misalign;
        int inside = e >= 0 && e < ldc * n && e % ldc < m;
        /* beta = 0: C must not be read, so it starts as NaN; outside C, a poison that must come back as it was */
        if (!inside)
            memset((char *)hc0 + i * es, 0x7f, es);
        else
            tt_xput(hc0, i, type, beta == 0.0 ? NAN : random_element(type));
    }
    void *da, *db, *dc; /* C's base is misaligned too: GUARD + misalign elements into its allocation */
    check_cuda(cudaMalloc(&da, na * es + shift), "cudaMalloc A");
    check_cuda(cudaMalloc(&db, nb * es + shift), "cudaMalloc B");
    check_cuda(cudaMalloc(&dc, nc * es), "cudaMalloc C");
    check_cuda(cudaMemcpy((char *)da + shift, ha, na * es, cudaMemcpyHostToDevice), "copy A");
    check_cuda(cudaMemcpy((char *)db + shift, hb, nb * es, cudaMemcpyHostToDevice), "copy B");
    check_cuda(cudaMemcpy(dc, hc0, nc * es, cudaMemcpyHostToDevice), "copy C");

    const int cplx = tb_type_complex(type);
    const double alpha_im = cplx ? cimag(zalpha) : 0.0, beta_im = cplx && beta != 0.0 ? -0.25 : 0.0;
    tb_kproblem p = { .type = type, .transa = ta, .transb = tb, .m = m, .n = n, .k = k, .alpha = alpha,
                      .beta = beta, .alpha_im = alpha_im, .beta_im = beta_im,
                      .a = (char *)tb_at(da, misalign, es) + shift, .lda = lda,
                      .b = (char *)tb_at(db, misalign, es) + shift, .ldb = ldb,
                      .c = tb_at(dc, GUARD + misalign, es), .ldc = ldc };
    /* tc128 runs every shape on the tensor cores of a Hopper GPU (elsewhere it hands them to blocked) */
    if (kernel == tb_kernel_find("tc128") && hopper())
        ck_assert_int_eq(tb_cuda_kernel_for(0, kernel, &p), kernel);
    if (!prepared)
        check_cuda((cudaError_t)tb_cuda_launch(kernel, &p, NULL), "launch");
    else if (!launch_prepared(kernel, &p))
        prepared = -1; /* none: nothing to check */
    check_cuda(cudaDeviceSynchronize(), "kernel");
    check_cuda(cudaMemcpy(hc, dc, nc * es, cudaMemcpyDeviceToHost), "copy C back");
    if (prepared < 0) {
        cudaFree(da), cudaFree(db), cudaFree(dc);
        free(ha), free(hb), free(hc0), free(hc);
        return;
    }

    const void *a = tb_at(ha, misalign, es), *b = tb_at(hb, misalign, es);
    const int tf32 = tb_kernel_maths[kernel] == TB_MATH_BIT(TB_MATH_TF32); /* inputs rounded to 11 bits */
    const int fp64 = type == TB_TYPE_D || type == TB_TYPE_Z;
    const double u = fp64 ? ldexp(1.0, -53) : ldexp(1.0, tf32 ? -11 : -24);
    const double complex za = alpha + alpha_im * I, zb = beta + beta_im * I;
    char what[160];
    snprintf(what, sizeof what, "%s%s %c %c%c M=%lld N=%lld K=%lld layout %d alpha=%g%+gi beta=%g%+gi",
             tb_kernel_names[kernel], prepared ? " prepared" : "", "SDCZ"[type], "NTC"[ta], "NTC"[tb], (long long)m,
             (long long)n, (long long)k, layout, alpha, alpha_im, beta, beta_im);
    /* op(A)'s rows and op(B)'s columns that are checked, each along k, as doubles (exact for every type): the
     * reference's inner loop then runs along memory, with the products' magnitudes ready */
    double *ar = malloc((size_t)(m * k) * sizeof(double)), *ai = malloc((size_t)(m * k) * sizeof(double));
    double *br = malloc((size_t)(k * n) * sizeof(double)), *bi = malloc((size_t)(k * n) * sizeof(double));
    double *aa = malloc((size_t)(m * k) * sizeof(double)), *ba = malloc((size_t)(k * n) * sizeof(double));
    for (int64_t r = 0; r < m; r++)
        for (int64_t l = 0; l < k && checked(r, m, stride); l++) {
            const long double complex x = tt_op_at(a, (size_t)lda, ta, (size_t)r, (size_t)l, type);
            const double re = (double)creall(x), im = (double)cimagl(x);
            ar[r * k + l] = re, ai[r * k + l] = im, aa[r * k + l] = hypot(re, im);
        }
    for (int64_t c = 0; c < n; c++)
        for (int64_t l = 0; l < k && checked(c, n, stride); l++) {
            const long double complex y = tt_op_at(b, (size_t)ldb, tb, (size_t)l, (size_t)c, type);
            const double re = (double)creall(y), im = (double)cimagl(y);
            br[c * k + l] = re, bi[c * k + l] = im, ba[c * k + l] = hypot(re, im);
        }
    for (size_t i = 0; i < nc; i++) {
        int64_t e = (int64_t)i - GUARD - misalign;
        int64_t r = e % ldc, c = e / ldc;
        if (!(e >= 0 && e < ldc * n && r < m)) {
            tt_assert_msg(!memcmp((char *)hc + i * es, (char *)hc0 + i * es, es), "%s: wrote outside C at offset %lld",
                          what, (long long)e);
            continue;
        }
        if (!checked(r, m, stride) || !checked(c, n, stride))
            continue;
        const double *xr = ar + r * k, *xi = ai + r * k, *yr = br + c * k, *yi = bi + c * k;
        const double *xa = aa + r * k, *ya = ba + c * k;
        double mag;
        const long double complex sum = (fp64 ? product_wide : product_narrow)(xr, xi, xa, yr, yi, ya, k, cplx, &mag);
        const long double complex c0 = beta == 0.0 ? 0.0 : tt_xget(hc0, i, type), got = tt_xget(hc, i, type);
        const long double complex want = za * sum + zb * c0;
        const double bound = tt_bound_factor(type, k) * u * (cabs(za) * mag + cabs(zb) * (double)cabsl(c0));
        tt_assert_msg(!isnan(creall(got)) && !isnan(cimagl(got)) && (double)cabsl(got - want) <= bound,
                      "%s: C(%lld,%lld) = %.17Lg%+.17Lgi, want %.17Lg%+.17Lgi", what, (long long)r, (long long)c,
                      creall(got), cimagl(got), creall(want), cimagl(want));
    }
    free(ar), free(ai), free(br), free(bi), free(aa), free(ba);
    cudaFree(da), cudaFree(db), cudaFree(dc);
    free(ha), free(hb), free(hc0), free(hc);
}

/* loop index -> kernel x type x transposes; types a kernel does not run pass at once */
START_TEST(odd_layouts)
{
    const int kernel = _i / 8, ta = (_i >> 1) & 1, tb = _i & 1;
    const tb_type type = (_i >> 2) & 1 ? TB_TYPE_D : TB_TYPE_S;
    if (!(tb_kernel_types[kernel] & TB_TYPE_BIT(type)) || !selected(kernel))
        return;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int layout = 0; layout <= 2; layout++) {
            run_case(kernel, type, ta, tb, shapes[s], layout, -1.25, 0.0, 1, 0);
            run_case(kernel, type, ta, tb, shapes[s], layout, -1.25, 0.5, 1, 0);
            if (layout == 0) /* alpha = 1, beta = 0: kernels may store the sums as they are */
                run_case(kernel, type, ta, tb, shapes[s], layout, 1.0, 0.0, 1, 0);
        }
}
END_TEST

/* The complex types: loop index -> kernel x type (C, Z) x op(A) x op(B), each of N, T and C (the conjugate
 * transpose); the small shapes, one whose real products split k, one whose real product tc32 takes (whole,
 * and through prepared operands in tiles it takes too), and one whose real product, too shallow for tc32, fills
 * blocked's large tiles (reading a transposed op(B) as pairs); alpha complex, and real (where the kernels that
 * read op(A) in place read op(B) in place too) */
START_TEST(complex_layouts)
{
    const int kernel = _i / 18, ta = _i / 3 % 3, tb = _i % 3;
    const tb_type type = _i / 9 % 2 ? TB_TYPE_Z : TB_TYPE_C;
    static const int deep[3] = { 64, 40, 1500 }, tall[3] = { 3000, 256, 1700 }, wide[3] = { 3000, 1300, 64 };
    const size_t nshapes = sizeof shapes / sizeof shapes[0];
    if (!(tb_kernel_types[kernel] & TB_TYPE_BIT(type)) || !in_part(type == TB_TYPE_Z ? PART_COMPLEX_Z : PART_COMPLEX) ||
        !selected(kernel))
        return;
    for (size_t s = 0; s <= nshapes; s++)
        for (int layout = 0; layout <= (s < nshapes ? 3 : 0); layout++) {
            const int *shape = s < nshapes ? shapes[s] : deep;
            run_case(kernel, type, ta, tb, shape, layout, -1.25 + 0.5 * I, 0.0, 1, 0);
            run_case(kernel, type, ta, tb, shape, layout, 0.75 + 0.5 * I, 0.5, 1, 0);
            run_case(kernel, type, ta, tb, shape, layout, layout == 1 ? 0.75 : -1.25, layout == 1 ? 0.5 : 0.0, 1, 0);
            if (layout == 1)
                run_case(kernel, type, ta, tb, shape, layout, 0.75 + 0.5 * I, 0.5, 1, 1);
        }
    /* tc32 takes its real product (the inplace kernels) */
    run_case(kernel, type, ta, tb, tall, 0, -1.25 + 0.5 * I, 0.0, 31, 0);
    run_case(kernel, type, ta, tb, tall, 1, 0.75 + 0.5 * I, 0.5, 31, 0);
    run_case(kernel, type, ta, tb, tall, 2, -1.25, 0.5, 31, 0);
    run_case(kernel, type, ta, tb, wide, 0, 0.75 + 0.5 * I, 0.5, 31, 0);
    run_case(kernel, type, ta, tb, wide, 1, -1.25, 0.0, 31, 0);
    if (tb_kernel_prep_of(kernel)) {
        run_case(kernel, type, ta, tb, tall, 0, -1.25 + 0.5 * I, 0.0, 31, 1);
        run_case(kernel, type, ta, tb, tall, 1, 0.75 + 0.5 * I, 0.5, 31, 1);
    }
}
END_TEST

/* More tiles of C than there are blocks on the GPU at once, so that blocks go on from one tile to the next (dmma),
 * with a partial tile at either edge and k a few tiles deep; and, k deeper, 128 x 128 tiles that fill one wave
 * of 132 SMs and a little of the next, which dmma computes in two parts, split by rows and by columns; a wave and a
 * bit of 128 x 128 tiles with k long enough to split (blocked's middle tile), a few tiles with k split into slices
 * (blocked's small tile, tc32), and 136 of blocked's large tiles, which it splits in two along k (272 blocks fill
 * 69% of three waves of 132, where 136 fill 52% of two).  Then C with a side of at most 32 (where blocked is built
 * with its thin tile: m thin, computed as C^T, with k split and not; n thin with k split; both thin, k in many
 * slices); and C whose large tiles would be little more than half used (300 rows), which the middle tile takes.
 * Rows and columns sampled (odd strides: both of each pair of rows that are stored together) */
static const struct {
    int shape[3], stride;
} many[] = { { { 1700, 2200, 37 }, 7 },    { { 1600, 1536, 1024 }, 31 }, { { 1536, 1600, 1024 }, 31 },
             { { 1536, 1536, 1536 }, 31 }, { { 2000, 256, 4096 }, 31 }, { { 4352, 1000, 1024 }, 7 },
             { { 17, 5000, 3000 }, 31 },    { { 30, 3001, 100 }, 7 },     { { 3000, 29, 2000 }, 31 },
             { { 20, 24, 5000 }, 7 },       { { 300, 9000, 200 }, 31 } };

START_TEST(many_tiles)
{
    const int kernel = _i / 4, ta = (_i >> 1) & 1;
    const tb_type type = _i & 1 ? TB_TYPE_D : TB_TYPE_S;
    if (!(tb_kernel_types[kernel] & TB_TYPE_BIT(type)) || !in_part(type == TB_TYPE_D ? PART_MANY_D : PART_MANY_S) ||
        !selected(kernel))
        return;
    for (size_t s = 0; s < sizeof many / sizeof many[0]; s++)
        for (int layout = 0; layout <= 2; layout++) {
            run_case(kernel, type, ta, 0, many[s].shape, layout, -1.25, 0.0, many[s].stride, 0);
            run_case(kernel, type, ta, 1, many[s].shape, layout, -1.25, 0.5, many[s].stride, 0);
            if (layout != 2) /* alpha = 1, beta = 0: kernels may store the sums as they are */
                run_case(kernel, type, ta, 1 - ta, many[s].shape, layout, 1.0, 0.0, many[s].stride, 0);
        }
}
END_TEST

/* p (on the device) as the host pipeline computes it from prepared operands (kernels.h): op(A) prepared in two
 * row blocks, op(B) in two column blocks (the first 128 wide where n > 256), each tile of C from them.  0 where the
 * kernel prepares none for p's tiles, or p has a side of 1 (then nothing is run). */
static int launch_prepared(int kernel, const tb_kproblem *p)
{
    const tb_kernel_prep *kp = tb_kernel_prep_of(kernel);
    const int64_t i0[3] = { 0, p->m / 2, p->m }, j0[3] = { 0, p->n > 256 ? 128 : p->n / 2, p->n };
    tb_kproblem t = *p;
    t.m = i0[1], t.n = j0[1];
    if (!t.m || !t.n)
        return 0;
    tb_recipe r = recipe(kernel, &t);
    const size_t bytes[2] = { kp ? kp->bytes(&t, &r, 0, p->m) : 0, kp ? kp->bytes(&t, &r, 1, p->n) : 0 };
    if (!bytes[0] || !bytes[1])
        return 0;
    void *prep[2];
    for (int s = 0; s < 2; s++) { /* poisoned: NaN wherever a part is read before it is written */
        check_cuda(cudaMalloc(&prep[s], bytes[s]), "cudaMalloc prepared");
        check_cuda(cudaMemset(prep[s], 0xff, bytes[s]), "poison prepared");
    }
    for (int x = 0; x < 2; x++) {
        t = tb_kproblem_block(p, i0[x], i0[x + 1] - i0[x], 0, p->n);
        r = recipe(kernel, &t);
        check_cuda((cudaError_t)kp->prepare(&t, &r, 0, prep[0], p->m, i0[x], NULL), "prepare A");
        t = tb_kproblem_block(p, 0, p->m, j0[x], j0[x + 1] - j0[x]);
        r = recipe(kernel, &t);
        check_cuda((cudaError_t)kp->prepare(&t, &r, 1, prep[1], p->n, j0[x], NULL), "prepare B");
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            t = tb_kproblem_block(p, i0[i], i0[i + 1] - i0[i], j0[j], j0[j + 1] - j0[j]);
            void *ws = NULL;
            r = recipe(kernel, &t);
            const size_t wsb = kp->workspace(&t, &r);
            if (wsb)
                check_cuda(cudaMalloc(&ws, wsb), "cudaMalloc workspace");
            check_cuda((cudaError_t)kp->launch(&t, &r, prep[0], p->m, i0[i], prep[1], p->n, j0[j], ws, NULL),
                       "launch");
            check_cuda(cudaDeviceSynchronize(), "kernel");
            cudaFree(ws);
        }
    cudaFree(prep[0]), cudaFree(prep[1]);
    return 1;
}

/* Inf and NaN in op(A) and op(B), each single-precision kernel: every element of C of the class (NaN, +Inf, -Inf,
 * finite) an FP32 loop along k gives it, and the finite ones within the bound (the tensor-core kernels send the rows
 * and columns that hold them to a loop of their own; blocks of C far from them take the tensor cores).  k = 260
 * with beta = 0, k = 600 with beta = 0.5 (deep enough for tc128 to split k), and k = 2100 with some far along k.
 * prepared: through the kernel's prepared operands, in blocks that each hold some of those rows and columns
 * (launch_prepared); 0 where the kernel has none for this problem. */
static int non_finite_case(int kernel, int K, float beta, int prepared)
{
    enum { M = 300, N = 270 };
    float *a = malloc(sizeof(float) * M * K), *b = malloc(sizeof(float) * K * N), *c0 = malloc(sizeof(float) * M * N),
          *c = malloc(sizeof(float) * M * N);
    for (int i = 0; i < M * K; i++)
        a[i] = (float)uniform();
    for (int i = 0; i < K * N; i++)
        b[i] = (float)uniform();
    for (int i = 0; i < M * N; i++)
        c0[i] = beta == 0.f ? NAN : (float)uniform();
    a[3 + 10 * M] = INFINITY, a[7 + 20 * M] = NAN, a[9 + 0 * M] = -INFINITY, a[9 + 1 * M] = INFINITY;
    b[30 + 2 * K] = -INFINITY, b[40 + 5 * K] = INFINITY, b[41 + 200 * K] = NAN;
    b[10 + 6 * K] = 0.f; /* A(3, 10) = Inf times 0: NaN in C(3, 6) */
    a[200 + 7 * M] = NAN, b[9 + 140 * K] = -INFINITY; /* in the second blocks of launch_prepared */
    if (K > 2048) { /* deep: tc32 finds a row's scale in pieces of k; Inf and NaN far along k, and in two pieces */
        a[11 + 1500 * M] = INFINITY, a[13 + 100 * M] = NAN, a[13 + 2000 * M] = -INFINITY;
        b[1800 + 8 * K] = NAN, b[5 + 9 * K] = INFINITY, b[2090 + 9 * K] = INFINITY;
    }
    float *da, *db, *dc;
    check_cuda(cudaMalloc((void **)&da, sizeof(float) * M * K), "cudaMalloc A");
    check_cuda(cudaMalloc((void **)&db, sizeof(float) * K * N), "cudaMalloc B");
    check_cuda(cudaMalloc((void **)&dc, sizeof(float) * M * N), "cudaMalloc C");
    check_cuda(cudaMemcpy(da, a, sizeof(float) * M * K, cudaMemcpyHostToDevice), "copy A");
    check_cuda(cudaMemcpy(db, b, sizeof(float) * K * N, cudaMemcpyHostToDevice), "copy B");
    check_cuda(cudaMemcpy(dc, c0, sizeof(float) * M * N, cudaMemcpyHostToDevice), "copy C");
    tb_kproblem p = { .type = TB_TYPE_S, .m = M, .n = N, .k = K, .alpha = 1.0, .beta = beta, .a = da, .lda = M,
                      .b = db, .ldb = K, .c = dc, .ldc = M };
    int ran = 1;
    if (!prepared)
        check_cuda((cudaError_t)tb_cuda_launch(kernel, &p, NULL), "launch");
    else
        ran = launch_prepared(kernel, &p);
    check_cuda(cudaMemcpy(c, dc, sizeof(float) * M * N, cudaMemcpyDeviceToHost), "copy C back");
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++) {
            float sum = 0.f;
            long double mag = 0;
            for (int l = 0; l < K; l++) {
                sum = fmaf(a[i + l * M], b[l + j * K], sum);
                mag += fabsl((long double)a[i + l * M] * b[l + j * K]);
            }
            const float want = beta == 0.f ? sum : fmaf(beta, c0[i + j * M], sum), got = c[i + j * M];
            if (!ran)
                continue;
            if (!isfinite(want)) {
                tt_assert_msg(isnan(want) ? isnan(got) : got == want, "%s K=%d%s: C(%d,%d) = %g, want %g",
                              tb_kernel_names[kernel], K, prepared ? " prepared" : "", i, j, got, want);
                continue;
            }
            /* beta = 0: C held NaN, never read */
            const long double err = fabsl((long double)got - want),
                              scale = mag + (beta == 0.f ? 0.f : fabsf(beta * c0[i + j * M]));
            const double u = ldexp(1.0, tb_kernel_maths[kernel] == TB_MATH_BIT(TB_MATH_TF32) ? -11 : -24);
            tt_assert_msg(isfinite(got) && err <= 4.0L * (K + 2) * u * scale, "%s K=%d%s: C(%d,%d) = %g, want %g",
                          tb_kernel_names[kernel], K, prepared ? " prepared" : "", i, j, got, want);
        }
    cudaFree(da), cudaFree(db), cudaFree(dc);
    free(a), free(b), free(c0), free(c);
    return ran;
}

START_TEST(non_finite)
{
    if (!(tb_kernel_types[_i] & TB_TYPE_BIT(TB_TYPE_S)) || !selected(_i))
        return;
    for (int prepared = 0; prepared <= 1; prepared++) {
        int ran = non_finite_case(_i, 260, 0.f, prepared);
        ran &= non_finite_case(_i, 600, 0.5f, prepared);
        ran &= non_finite_case(_i, 2100, 0.f, prepared);
        /* tc128 and tf32 prepare operands for any problem on a Hopper GPU (tc32 only for tiles it would run) */
        if (prepared && hopper() && (_i == tb_kernel_find("tc128") || _i == tb_kernel_find("tf32")))
            ck_assert_msg(ran, "%s prepared no operands", tb_kernel_names[_i]);
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
    if (in_part(PART_ODD)) {
        tcase_add_loop_test(tc, odd_layouts, 0, tb_kernel_count * 8);
        tcase_add_loop_test(tc, non_finite, 0, tb_kernel_count);
    }
    if (in_part(PART_MANY_S) || in_part(PART_MANY_D))
        tcase_add_loop_test(tc, many_tiles, 0, tb_kernel_count * 4);
    if (in_part(PART_COMPLEX) || in_part(PART_COMPLEX_Z))
        tcase_add_loop_test(tc, complex_layouts, 0, tb_kernel_count * 18);
    suite_add_tcase(suite, tc);
    /* CUDA is initialised in this process: children forked by check could not use it */
    return tt_run_suite(suite, CK_NOFORK);
}
