/* SYRK, HERK, SYR2K and HER2K under every name, against OpenBLAS's plain names on the same inputs: the names whose
 * BLAS beneath is OpenBLAS (cblas_dsyrk, dsyrk_) bit for bit; the scipy_ names, which have no BLAS beneath here and
 * so run tileblas's own reading of the call on the built-in loop, within the bound of doc/TESTING.md (and the 64_
 * names, bit for bit or within it, whichever BLAS they find).  Everywhere: the other triangle and the padding
 * untouched, HERK's diagonal real, NaN in C gone when beta = 0.  On the GPU, where there is one, the same within
 * the bound.  Then the statistics' flops, and invalid calls with no BLAS beneath reported through the program's
 * handler.  Loop index: routine and type (SSYRK, DSYRK, CSYRK, ZSYRK, CHERK, ZHERK, then the same of SYR2K and
 * HER2K) x name. */
#include <config.h>
#include <check.h>
#include "suite.h"
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "names.h"
#include "tileblas.h"

enum { COL = 102, ROW = 101, NOTRANS = 111, TRANS = 112, CONJTRANS = 113, UPPER = 121, LOWER = 122 };

typedef void (*cblas_f)(int, int, int, long, long, float, const void *, long, float, void *, long);
typedef void (*cblas_d)(int, int, int, long, long, double, const void *, long, double, void *, long);
typedef void (*cblas_z)(int, int, int, long, long, const void *, const void *, long, const void *, void *, long);
typedef void (*f77_fn)(const char *, const char *, const void *, const void *, const void *, const void *,
                       const void *, const void *, void *, const void *, size_t, size_t);
/* the rank-2k updates' (HER2K's alpha by pointer, beta by value) */
typedef void (*cblas2_f)(int, int, int, long, long, float, const void *, long, const void *, long, float, void *, long);
typedef void (*cblas2_d)(int, int, int, long, long, double, const void *, long, const void *, long, double, void *,
                         long);
typedef void (*cblas2_z)(int, int, int, long, long, const void *, const void *, long, const void *, long, const void *,
                         void *, long);
typedef void (*cblas2_hc)(int, int, int, long, long, const void *, const void *, long, const void *, long, float,
                          void *, long);
typedef void (*cblas2_hz)(int, int, int, long, long, const void *, const void *, long, const void *, long, double,
                          void *, long);
typedef void (*f77_2_fn)(const char *, const char *, const void *, const void *, const void *, const void *,
                         const void *, const void *, const void *, const void *, void *, const void *, size_t, size_t);

/* routine and type of loop index rt: RT_HERK for HERK and HER2K, RT_TWO for SYR2K and HER2K */
static const char rt_prefix[6] = { 's', 'd', 'c', 'z', 'c', 'z' };
#define RT_HERK(rt) ((rt) % 6 >= 4)
#define RT_COMPLEX(rt) ((rt) % 6 >= 2)
#define RT_DOUBLE(rt) ((rt) % 2 == 1)
#define RT_TWO(rt) ((rt) >= 6)
#define RT_NAME(rt) (RT_TWO(rt) ? (RT_HERK(rt) ? "her2k" : "syr2k") : RT_HERK(rt) ? "herk" : "syrk")

static void *symbol(void *h, int rt, int form)
{
    return tt_symbol(h, rt_prefix[rt % 6], RT_NAME(rt), form);
}

typedef struct rk_case {
    int rt, form, order, uplo, trans; /* CBLAS values; trans: NOTRANS, TRANS or CONJTRANS */
    int n, k, pad;
    double complex alpha, beta; /* HERK: real parts only; HER2K: beta's */
    int nan_c;
} rk_case;

/* calls fn (a name of form x->form) on A (and B) and C; C is column- or row-major n x n with leading dimension ldc */
static void call(void *fn, const rk_case *x, const void *a, long lda, const void *b, long ldb, void *c, long ldc)
{
    const int rt = x->rt, herk = RT_HERK(rt), dp = RT_DOUBLE(rt);
    const float fs[4] = { (float)creal(x->alpha), (float)cimag(x->alpha), (float)creal(x->beta),
                          (float)cimag(x->beta) };
    const double ds[4] = { creal(x->alpha), cimag(x->alpha), creal(x->beta), cimag(x->beta) };
    const void *alpha = dp ? (const void *)&ds[0] : &fs[0], *beta = dp ? (const void *)&ds[2] : &fs[2];
    if (FORM_CBLAS(x->form) && RT_TWO(rt)) {
        if (herk && dp)
            ((cblas2_hz)fn)(x->order, x->uplo, x->trans, x->n, x->k, alpha, a, lda, b, ldb, ds[2], c, ldc);
        else if (herk)
            ((cblas2_hc)fn)(x->order, x->uplo, x->trans, x->n, x->k, alpha, a, lda, b, ldb, fs[2], c, ldc);
        else if (RT_COMPLEX(rt))
            ((cblas2_z)fn)(x->order, x->uplo, x->trans, x->n, x->k, alpha, a, lda, b, ldb, beta, c, ldc);
        else if (dp)
            ((cblas2_d)fn)(x->order, x->uplo, x->trans, x->n, x->k, ds[0], a, lda, b, ldb, ds[2], c, ldc);
        else
            ((cblas2_f)fn)(x->order, x->uplo, x->trans, x->n, x->k, fs[0], a, lda, b, ldb, fs[2], c, ldc);
        return;
    }
    if (FORM_CBLAS(x->form)) {
        if (RT_COMPLEX(rt) && !herk)
            ((cblas_z)fn)(x->order, x->uplo, x->trans, x->n, x->k, alpha, a, lda, beta, c, ldc);
        else if (dp)
            ((cblas_d)fn)(x->order, x->uplo, x->trans, x->n, x->k, ds[0], a, lda, ds[2], c, ldc);
        else
            ((cblas_f)fn)(x->order, x->uplo, x->trans, x->n, x->k, fs[0], a, lda, fs[2], c, ldc);
        return;
    }
    const char u = x->uplo == UPPER ? 'U' : 'L', t = x->trans == NOTRANS ? 'N' : x->trans == TRANS ? 't' : 'C';
    const int n32[5] = { x->n, x->k, (int)lda, (int)ldc, (int)ldb };
    const int64_t n64[5] = { x->n, x->k, lda, ldc, ldb };
    const int w = FORM_WIDE(x->form);
    if (RT_TWO(rt)) {
        ((f77_2_fn)fn)(&u, &t, w ? (const void *)&n64[0] : &n32[0], w ? (const void *)&n64[1] : &n32[1], alpha, a,
                       w ? (const void *)&n64[2] : &n32[2], b, w ? (const void *)&n64[4] : &n32[4], beta, c,
                       w ? (const void *)&n64[3] : &n32[3], 1, 1);
        return;
    }
    ((f77_fn)fn)(&u, &t, w ? (const void *)&n64[0] : &n32[0], w ? (const void *)&n64[1] : &n32[1], alpha, a,
                 w ? (const void *)&n64[2] : &n32[2], beta, c, w ? (const void *)&n64[3] : &n32[3], 1, 1);
}

/* doc/TESTING.md's factor for depth k: 2 (k + 2), or 2 sqrt(2) (2k + 2) for the complex types */
static double tt_bound(int cplx, long k)
{
    return cplx ? 2.0 * 1.4142135623730951 * (2.0 * (double)k + 2.0) : 2.0 * ((double)k + 2.0);
}

static long double complex get(const void *x, long i, int rt)
{
    return RT_COMPLEX(rt) ? (RT_DOUBLE(rt) ? ((const double complex *)x)[i] : ((const float complex *)x)[i])
                          : (RT_DOUBLE(rt) ? ((const double *)x)[i] : ((const float *)x)[i]);
}
static void put(void *x, long i, int rt, double complex v)
{
    if (RT_COMPLEX(rt) && RT_DOUBLE(rt))
        ((double complex *)x)[i] = v;
    else if (RT_COMPLEX(rt))
        ((float complex *)x)[i] = (float complex)v;
    else if (RT_DOUBLE(rt))
        ((double *)x)[i] = creal(v);
    else
        ((float *)x)[i] = (float)creal(v);
}

/* Runs x through its name and through OpenBLAS's plain name (ref: that library); 1 when they agree, else 0 with
 * why in msg */
static int run(void *ref, const rk_case *x, char *msg, size_t len)
{
    const int rt = x->rt, row = FORM_CBLAS(x->form) && x->order == ROW, cplx = RT_COMPLEX(rt);
    const unsigned es = (RT_DOUBLE(rt) ? 8u : 4u) * (cplx ? 2u : 1u);
    /* op(A) is n x k; stored (in the caller's layout) n x k for NOTRANS, else k x n */
    const long arows = x->trans == NOTRANS ? x->n : x->k, acols = x->trans == NOTRANS ? x->k : x->n;
    const long lda = ((row ? acols : arows) > 0 ? (row ? acols : arows) : 1) + x->pad, ldc = x->n + 2 * x->pad;
    const long ldb = lda + 1; /* B (SYR2K's, HER2K's): shaped as A, its own leading dimension */
    const long alen = lda * (row ? arows : acols) + 1, blen = ldb * (row ? arows : acols) + 1, clen = ldc * x->n + 1;
    char *a = malloc((size_t)alen * es), *b = malloc((size_t)blen * es), *c = malloc((size_t)clen * es),
         *c0 = malloc((size_t)clen * es), *want = malloc((size_t)clen * es);
    for (long i = 0; i < alen; i++)
        put(a, i, rt, tt_uniform() + (cplx ? tt_uniform() * I : 0));
    for (long i = 0; i < blen; i++)
        put(b, i, rt, tt_uniform() + (cplx ? tt_uniform() * I : 0));
    for (long i = 0; i < clen; i++) /* C's triangle: values (NaN when asked); elsewhere NaN, which must stay */
        put(c0, i, rt, NAN);
    for (long i = 0; i < x->n; i++)
        for (long j = 0; j < x->n; j++)
            if (x->uplo == UPPER ? i <= j : i >= j)
                put(c0, row ? i * ldc + j : i + j * ldc, rt, x->nan_c ? NAN : tt_uniform() + (cplx ? tt_uniform() * I : 0));
    memcpy(c, c0, (size_t)clen * es);
    memcpy(want, c0, (size_t)clen * es);
    rk_case plain = *x;
    plain.form = FORM_CBLAS(x->form) ? 0 : 1;
    call(symbol(ref, rt, plain.form), &plain, a, lda, b, ldb, want, ldc);
    call(symbol(RTLD_DEFAULT, rt, x->form), x, a, lda, b, ldb, c, ldc);
    tileblas_call_info last;
    tileblas_last_call(&last);
    const int bitwise = x->form < 2 && last.path == TILEBLAS_PATH_CPU; /* the GPU's: within the bound */
    const double u = RT_DOUBLE(rt) ? ldexp(1.0, -53) : ldexp(1.0, -24);
    int ok = 1;
    for (long at = 0; ok && at < clen; at++) {
        const long i = row ? at / ldc : at % ldc, j = row ? at % ldc : at / ldc;
        const int mine = i < x->n && j < x->n && (x->uplo == UPPER ? i <= j : i >= j);
        const long double complex got = get(c, at, rt), ref_v = get(want, at, rt);
        if (bitwise || !mine) {
            ok = !memcmp(c + at * es, (bitwise ? want : c0) + at * es, es);
        } else {
            /* the sum of |op(A)(i, l)| |op(A)(j, l)| (SYR2K: |op(A)(i, l)| |op(B)(j, l)| +
             * |op(B)(i, l)| |op(A)(j, l)|), for the bound */
            long double mag = 0;
#define OP_AT(ld, r, l) (x->trans == NOTRANS ? (row ? (r) * (ld) + (l) : (r) + (l) * (ld)) \
                                             : (row ? (l) * (ld) + (r) : (l) + (r) * (ld)))
            for (long l = 0; l < x->k; l++)
                mag += RT_TWO(rt) ? cabsl(get(a, OP_AT(lda, i, l), rt)) * cabsl(get(b, OP_AT(ldb, j, l), rt)) +
                                        cabsl(get(b, OP_AT(ldb, i, l), rt)) * cabsl(get(a, OP_AT(lda, j, l), rt))
                                  : cabsl(get(a, OP_AT(lda, i, l), rt)) * cabsl(get(a, OP_AT(lda, j, l), rt));
#undef OP_AT
            /* twice the bound: both results are rounded */
            const long double cterm = x->beta != 0 ? cabs(x->beta) * cabsl(get(c0, at, rt)) : 0;
            const long depth = RT_TWO(rt) ? 2 * x->k : x->k;
            const long double bound = 2 * tt_bound(cplx, depth) * u * (cabs(x->alpha) * mag + cterm);
            ok = cabsl(got - ref_v) <= bound;
        }
        if (ok && mine && i == j && RT_HERK(rt))
            ok = cimagl(got) == 0; /* HERK's diagonal is real */
        if (!ok)
            snprintf(msg, len, "%c%s form %d order %d uplo %d trans %d n %d k %d pad %d alpha %g%+gi beta %g%+gi "
                     "nan_c %d: C(%ld,%ld) %Lg%+Lgi, OpenBLAS %Lg%+Lgi%s",
                     rt_prefix[rt % 6], RT_NAME(rt), x->form, x->order, x->uplo, x->trans, x->n, x->k,
                     x->pad, creal(x->alpha), cimag(x->alpha), creal(x->beta), cimag(x->beta), x->nan_c, i, j,
                     creall(got), cimagl(got), creall(ref_v), cimagl(ref_v), mine ? "" : " (not its to write)");
    }
    free(a), free(b), free(c), free(c0), free(want);
    return ok;
}

START_TEST(names)
{
    const int rt = _i / 8, form = _i % 8, herk = RT_HERK(rt), cplx = RT_COMPLEX(rt);
    void *ref = tt_openblas();
    static const int shapes[][2] = { { 1, 1 }, { 6, 3 }, { 17, 9 }, { 33, 40 }, { 4, 0 } };
    const int transes[3] = { NOTRANS, herk ? CONJTRANS : TRANS, cplx ? 0 : CONJTRANS }; /* real C is T */
    static const double complex scalars[][2] = { { 1.5, 0.5 }, { -1, 0 }, { 0, 0.75 }, { 0.5 + 0.25 * I, -0.5 + I } };
    char msg[512] = "", scratch[512];
    int failures = 0;
    tileblas_set_path(TILEBLAS_PATH_CPU);
    for (int order = 0; order < (FORM_CBLAS(form) ? 2 : 1); order++)
        for (int uplo = 0; uplo < 2; uplo++)
            for (int t = 0; t < 3 && transes[t]; t++)
                for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
                    for (size_t v = 0; v < sizeof scalars / sizeof scalars[0]; v++)
                        for (int pad = 0; pad <= 3; pad += 3) {
                            rk_case x = { rt, form, order ? ROW : COL, uplo ? LOWER : UPPER, transes[t],
                                          shapes[s][0], shapes[s][1], pad, scalars[v][0], scalars[v][1],
                                          scalars[v][1] == 0 };
                            if (!cplx || (herk && !RT_TWO(rt))) /* real scalars */
                                x.alpha = creal(x.alpha);
                            if (!cplx || herk)
                                x.beta = creal(x.beta);
                            failures += !run(ref, &x, failures ? scratch : msg, sizeof msg);
                        }
    ck_assert_msg(failures == 0, "%d cases differ; first: %s", failures, msg);
}
END_TEST

/* On the GPU (where one is usable): the plain names forced there, within the bound, in blocks small enough (at most
 * 4 MB of device memory a call) that C is many tiles, some wholly outside the triangle, some across its diagonal */
START_TEST(gpu)
{
    const char *why;
    if (!tileblas_gpu_available(&why)) {
        printf("gpu: skipped (%s)\n", why);
        return;
    }
    const int rt = _i / 2, form = _i % 2, herk = RT_HERK(rt), cplx = RT_COMPLEX(rt);
    void *ref = tt_openblas();
    static const int shapes[][2] = { { 300, 200 }, { 777, 64 }, { 1000, 5 } };
    char msg[512] = "", scratch[512];
    int failures = 0;
    tileblas_set_path(TILEBLAS_PATH_GPU);
    for (int uplo = 0; uplo < 2; uplo++)
        for (int t = 0; t < 2; t++)
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
                rk_case x = { rt, form, (s + uplo) % 2 ? ROW : COL, uplo ? LOWER : UPPER,
                              t ? (herk ? CONJTRANS : TRANS) : NOTRANS, shapes[s][0], shapes[s][1], (int)s,
                              cplx && (!herk || RT_TWO(rt)) ? 0.5 - 0.25 * I : -1.5, s == 1 ? 0 : 0.75, s == 1 };
                failures += !run(ref, &x, failures ? scratch : msg, sizeof msg);
                tileblas_call_info info;
                tileblas_last_call(&info);
                ck_assert_msg(info.path == TILEBLAS_PATH_GPU && !info.gpu_failed, "not run on the GPU");
            }
    ck_assert_msg(failures == 0, "%d cases differ; first: %s", failures, msg);
}
END_TEST

/* Statistics: the flops of a rank-k update are its triangle's, N (N + 1) K (4 N (N + 1) K complex), twice that for
 * a rank-2k one; N = 0 is a quick return */
START_TEST(stats)
{
    double a[2 * 7 * 5], c[2 * 7 * 7];
    for (int i = 0; i < 70; i++)
        a[i] = tt_uniform();
    const int n = 7, k = 5, zero = 0;
    const double one = 1.0, half = 0.5;
    f77_fn dsyrk = (f77_fn)dlsym(RTLD_DEFAULT, "dsyrk_"), zherk = (f77_fn)dlsym(RTLD_DEFAULT, "zherk_");
    f77_2_fn dsyr2k = (f77_2_fn)dlsym(RTLD_DEFAULT, "dsyr2k_");
    tileblas_reset_stats();
    tileblas_set_path(TILEBLAS_PATH_AUTO);
    for (int i = 0; i < 98; i++)
        c[i] = tt_uniform();
    dsyrk("U", "N", &n, &k, &one, a, &n, &half, c, &n, 1, 1);
    zherk("L", "C", &n, &k, &one, a, &k, &half, c, &n, 1, 1);
    dsyrk("U", "N", &zero, &k, &one, a, &n, &half, c, &n, 1, 1);
    dsyr2k("L", "T", &n, &k, &one, a, &k, a + 35, &k, &half, c, &n, 1, 1);
    tileblas_stats s;
    tileblas_get_stats(&s);
    ck_assert_uint_eq(s.cpu_calls, 3);
    ck_assert_uint_eq(s.quick_returns, 1);
    ck_assert(s.cpu_flops == 2.0 * 28 * 5 + 8.0 * 28 * 5 + 2.0 * 28 * 10);
}
END_TEST

/* Invalid calls with no BLAS beneath (the scipy_ names here): the handler gets the reference's name and argument
 * number, and C is untouched */
START_TEST(invalid)
{
    double a[64], c[64], c0[64];
    for (int i = 0; i < 64; i++)
        a[i] = tt_uniform(), c[i] = c0[i] = tt_uniform();
    const double one = 1.0;
    f77_fn dsyrk = (f77_fn)dlsym(RTLD_DEFAULT, "scipy_dsyrk_"), zherk = (f77_fn)dlsym(RTLD_DEFAULT, "scipy_zherk_64_");
    cblas_z csyrk = (cblas_z)dlsym(RTLD_DEFAULT, "scipy_cblas_csyrk");
    const struct { char u, t; int n, k, lda, ldc, info; } f[] = {
        { 'X', 'N', 4, 3, 4, 4, 1 }, { 'U', 'X', 4, 3, 4, 4, 2 }, { 'U', 'N', -1, 3, 4, 4, 3 },
        { 'L', 'T', 4, -1, 4, 4, 4 }, { 'L', 'N', 4, 3, 3, 4, 7 }, { 'u', 't', 4, 5, 4, 4, 7 },
        { 'U', 'N', 4, 3, 4, 3, 10 },
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        tt_said[0] = 0;
        dsyrk(&f[i].u, &f[i].t, &f[i].n, &f[i].k, &one, a, &f[i].lda, &one, c, &f[i].ldc, 1, 1);
        ck_assert_msg(!strcmp(tt_said, "DSYRK ") && tt_said_info == f[i].info, "case %zu: said '%s' %lld", i, tt_said,
                      tt_said_info);
    }
    const int64_t n = 4, k = 3, lda = 4;
    tt_said[0] = 0;
    zherk("U", "T", &n, &k, &one, a, &lda, &one, c, &lda, 1, 1); /* HERK takes no plain transpose */
    ck_assert_msg(!strcmp(tt_said, "ZHERK ") && tt_said_info == 2, "said '%s' %lld", tt_said, tt_said_info);
    tt_said[0] = 0;
    const float z[2] = { 1, 0 };
    csyrk(ROW, UPPER, CONJTRANS, 4, 3, z, a, 3, z, c, 4); /* SYRK of a complex type takes no conjugate transpose */
    ck_assert_msg(!strcmp(tt_said, "CSYRK ") && tt_said_info == 2, "said '%s' %lld", tt_said, tt_said_info);
    /* SYR2K's and HER2K's: LDB is the 9th argument, LDC the 12th */
    f77_2_fn dsyr2k = (f77_2_fn)dlsym(RTLD_DEFAULT, "scipy_dsyr2k_");
    cblas2_hz zher2k = (cblas2_hz)dlsym(RTLD_DEFAULT, "scipy_cblas_zher2k");
    const struct { char u, t; int n, k, lda, ldb, ldc, info; } f2[] = {
        { 'X', 'N', 4, 3, 4, 4, 4, 1 }, { 'U', 'N', 4, 3, 4, 3, 4, 9 }, { 'L', 'T', 4, 3, 3, 2, 4, 9 },
        { 'L', 'T', 4, 3, 2, 3, 4, 7 }, { 'U', 'N', 4, 3, 4, 4, 3, 12 }, { 'U', 'C', 4, -1, 4, 4, 4, 4 },
        { 'U', 'N', 4, 0, 4, 1, 4, 9 }, { 'L', 'N', 4, 0, 4, 4, 3, 12 }, /* whatever K is */
    };
    for (size_t i = 0; i < sizeof f2 / sizeof f2[0]; i++) {
        tt_said[0] = 0;
        dsyr2k(&f2[i].u, &f2[i].t, &f2[i].n, &f2[i].k, &one, a, &f2[i].lda, a, &f2[i].ldb, &one, c, &f2[i].ldc, 1, 1);
        ck_assert_msg(!strcmp(tt_said, "DSYR2K") && tt_said_info == f2[i].info, "case %zu: said '%s' %lld", i, tt_said,
                      tt_said_info);
    }
    tt_said[0] = 0;
    const double zz[2] = { 1, 0 };
    zher2k(COL, LOWER, TRANS, 4, 3, zz, a, 3, a, 3, 1.0, c, 4); /* HER2K takes no plain transpose */
    ck_assert_msg(!strcmp(tt_said, "ZHER2K") && tt_said_info == 2, "said '%s' %lld", tt_said, tt_said_info);
    ck_assert(!memcmp(c, c0, sizeof c));
}
END_TEST

int main(void)
{
    return tt_names_suite("rank-k updates", names, 12 * 8, gpu, 12 * 2, stats, invalid);
}
