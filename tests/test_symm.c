/* SYMM and HEMM under every name, against OpenBLAS's plain names on the same inputs: the names whose BLAS beneath
 * is OpenBLAS (cblas_dsymm, dsymm_) bit for bit; the scipy_ names, which have no BLAS beneath here and so run
 * tileblas's own reading of the call on the built-in loop, within the bound of doc/TESTING.md (the 64_ names: bit
 * for bit or within it, whichever BLAS they find).  A's other triangle is NaN, and so are HEMM's diagonal's
 * imaginary parts and C's padding: none may be read or written; NaN in C is gone when beta = 0.  Then the
 * statistics' flops, invalid calls with no BLAS beneath reported through the program's handler.  On the GPU, where
 * there is one, the same within the bound.  Loop index: routine and type (SSYMM, DSYMM, CSYMM, ZSYMM, CHEMM, ZHEMM)
 * x name. */
#include <config.h>
#include <check.h>
#include "suite.h"
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "elements.h"
#include "names.h"
#include "tileblas.h"

enum { COL = 102, ROW = 101, UPPER = 121, LOWER = 122, LEFT = 141, RIGHT = 142 };

typedef void (*cblas_f)(int, int, int, long, long, float, const void *, long, const void *, long, float, void *, long);
typedef void (*cblas_d)(int, int, int, long, long, double, const void *, long, const void *, long, double, void *,
                        long);
typedef void (*cblas_z)(int, int, int, long, long, const void *, const void *, long, const void *, long, const void *,
                        void *, long);
typedef void (*f77_fn)(const char *, const char *, const void *, const void *, const void *, const void *,
                       const void *, const void *, const void *, const void *, void *, const void *, size_t, size_t);

static const tb_type rt_type[6] = { TB_TYPE_S, TB_TYPE_D, TB_TYPE_C, TB_TYPE_Z, TB_TYPE_C, TB_TYPE_Z };
#define RT_HERM(rt) ((rt) >= 4)

static void *symbol(void *h, int rt, int form)
{
    return tt_symbol(h, "sdczcz"[rt], RT_HERM(rt) ? "hemm" : "symm", form);
}

typedef struct sm_case {
    int rt, form, order, side, uplo; /* CBLAS values */
    int m, n, pad;
    double complex alpha, beta;
    int nan_c;
} sm_case;

/* calls fn (a name of form x->form) on A, B and C, in the caller's layout */
static void call(void *fn, const sm_case *x, const void *a, long lda, const void *b, long ldb, void *c, long ldc)
{
    const tb_type t = rt_type[x->rt];
    const int dp = t == TB_TYPE_D || t == TB_TYPE_Z;
    const float fs[4] = { (float)creal(x->alpha), (float)cimag(x->alpha), (float)creal(x->beta),
                          (float)cimag(x->beta) };
    const double ds[4] = { creal(x->alpha), cimag(x->alpha), creal(x->beta), cimag(x->beta) };
    const void *alpha = dp ? (const void *)&ds[0] : &fs[0], *beta = dp ? (const void *)&ds[2] : &fs[2];
    if (FORM_CBLAS(x->form)) {
        if (tb_type_complex(t))
            ((cblas_z)fn)(x->order, x->side, x->uplo, x->m, x->n, alpha, a, lda, b, ldb, beta, c, ldc);
        else if (dp)
            ((cblas_d)fn)(x->order, x->side, x->uplo, x->m, x->n, ds[0], a, lda, b, ldb, ds[2], c, ldc);
        else
            ((cblas_f)fn)(x->order, x->side, x->uplo, x->m, x->n, fs[0], a, lda, b, ldb, fs[2], c, ldc);
        return;
    }
    const char s = x->side == LEFT ? 'L' : 'r', u = x->uplo == UPPER ? 'U' : 'l';
    const int n32[5] = { x->m, x->n, (int)lda, (int)ldb, (int)ldc };
    const int64_t n64[5] = { x->m, x->n, lda, ldb, ldc };
#define ARG(j) (FORM_WIDE(x->form) ? (const void *)&n64[j] : (const void *)&n32[j])
    ((f77_fn)fn)(&s, &u, ARG(0), ARG(1), alpha, a, ARG(2), b, ARG(3), beta, c, ARG(4), 1, 1);
#undef ARG
}

/* Runs x through its name and through OpenBLAS's plain name (ref: that library); 1 when they agree, else 0 with
 * why in msg */
static int run(void *ref, const sm_case *x, char *msg, size_t len)
{
    const tb_type t = rt_type[x->rt];
    const int row = FORM_CBLAS(x->form) && x->order == ROW, cplx = tb_type_complex(t), herm = RT_HERM(x->rt);
    const unsigned es = tb_type_size(t);
    /* in the caller's layout: C and B rows x cols (m x n), A na x na; (i, j) at i ld + j (row-major) */
    const long na = x->side == LEFT ? x->m : x->n, lda = (na > 0 ? na : 1) + x->pad;
    const long lead = row ? x->n : x->m, ldb = (lead > 0 ? lead : 1) + 1, ldc = (lead > 0 ? lead : 1) + 2 * x->pad;
    const long other = row ? x->m : x->n;
    const long alen = lda * na + 1, blen = ldb * other + 1, clen = ldc * other + 1;
    char *a = malloc((size_t)alen * es), *b = malloc((size_t)blen * es), *c = malloc((size_t)clen * es),
         *c0 = malloc((size_t)clen * es), *want = malloc((size_t)clen * es);
#define AT(i, j, ld) (row ? (i) * (ld) + (j) : (i) + (j) * (ld))
    for (long i = 0; i < alen; i++)
        tt_xput(a, i, t, NAN);
    for (long i = 0; i < na; i++)
        for (long j = 0; j < na; j++)
            if (x->uplo == UPPER ? i <= j : i >= j)
                tt_xput(a, AT(i, j, lda), t,
                        i == j && herm ? CMPLX(tt_uniform(), NAN) : tt_uniform() + (cplx ? tt_uniform() * I : 0));
    for (long i = 0; i < blen; i++)
        tt_xput(b, i, t, tt_uniform() + (cplx ? tt_uniform() * I : 0));
    for (long i = 0; i < clen; i++)
        tt_xput(c0, i, t, NAN);
    for (long i = 0; i < x->m; i++)
        for (long j = 0; j < x->n; j++)
            tt_xput(c0, AT(i, j, ldc), t, x->nan_c ? NAN : tt_uniform() + (cplx ? tt_uniform() * I : 0));
    memcpy(c, c0, (size_t)clen * es);
    memcpy(want, c0, (size_t)clen * es);
    sm_case plain = *x;
    plain.form = FORM_CBLAS(x->form) ? 0 : 1;
    call(symbol(ref, x->rt, plain.form), &plain, a, lda, b, ldb, want, ldc);
    call(symbol(RTLD_DEFAULT, x->rt, x->form), x, a, lda, b, ldb, c, ldc);
    tileblas_call_info last;
    tileblas_last_call(&last);
    const int bitwise = x->form < 2 && last.path == TILEBLAS_PATH_CPU;
    const double u = t == TB_TYPE_D || t == TB_TYPE_Z ? ldexp(1.0, -53) : ldexp(1.0, -24);
    int ok = 1;
    long fi = 0, fj = 0;
    for (long at = 0; ok && at < clen; at++) {
        const long i = row ? at / ldc : at % ldc, j = row ? at % ldc : at / ldc;
        const int mine = i < x->m && j < x->n;
        fi = i, fj = j;
        if (bitwise || !mine) {
            ok = !memcmp(c + at * es, (bitwise ? want : c0) + at * es, es);
            continue;
        }
        /* |A|'s row of the product against |B|'s column (SIDE R: |B|'s row against |A|'s column), for the bound */
        long double mag = 0;
        for (long l = 0; l < na; l++) {
            const long r = x->side == LEFT ? i : l, s = x->side == LEFT ? l : j; /* A's element (r, s) */
            const int stored = x->uplo == UPPER ? r <= s : r >= s;
            const long double av = r == s && herm ? fabsl(creall(tt_xget(a, AT(r, r, lda), t)))
                                          : cabsl(tt_xget(a, stored ? AT(r, s, lda) : AT(s, r, lda), t));
            mag += av * cabsl(tt_xget(b, x->side == LEFT ? AT(l, j, ldb) : AT(i, l, ldb), t));
        }
        const long double cterm = x->beta != 0 ? cabs(x->beta) * cabsl(tt_xget(c0, at, t)) : 0;
        const long double bound = 2 * tt_bound_factor(t, na) * u * (cabs(x->alpha) * mag + cterm);
        ok = cabsl(tt_xget(c, at, t) - tt_xget(want, at, t)) <= bound; /* NaN fails */
    }
#undef AT
    if (!ok)
        snprintf(msg, len, "%c%s form %d order %d side %d uplo %d m %d n %d pad %d alpha %g%+gi beta %g%+gi nan_c %d: "
                 "C(%ld,%ld) %Lg%+Lgi, OpenBLAS %Lg%+Lgi",
                 "sdczcz"[x->rt], herm ? "hemm" : "symm", x->form, x->order, x->side, x->uplo, x->m, x->n, x->pad,
                 creal(x->alpha), cimag(x->alpha), creal(x->beta), cimag(x->beta), x->nan_c, fi, fj,
                 creall(tt_xget(c, row ? fi * ldc + fj : fi + fj * ldc, t)),
                 cimagl(tt_xget(c, row ? fi * ldc + fj : fi + fj * ldc, t)),
                 creall(tt_xget(want, row ? fi * ldc + fj : fi + fj * ldc, t)),
                 cimagl(tt_xget(want, row ? fi * ldc + fj : fi + fj * ldc, t)));
    free(a), free(b), free(c), free(c0), free(want);
    return ok;
}

START_TEST(names)
{
    const int rt = _i / 8, form = _i % 8, cplx = tb_type_complex(rt_type[rt]);
    void *ref = tt_openblas();
    static const int shapes[][2] = { { 1, 1 }, { 6, 3 }, { 17, 9 }, { 33, 40 }, { 0, 4 }, { 4, 0 } };
    static const double complex scalars[][2] = { { 1.5, 0.5 }, { -1, 0 }, { 0, 0.75 }, { 0.5 + 0.25 * I, -0.5 + I } };
    char msg[512] = "", scratch[512];
    int failures = 0;
    tileblas_set_path(TILEBLAS_PATH_CPU);
    for (int order = 0; order < (FORM_CBLAS(form) ? 2 : 1); order++)
        for (int side = 0; side < 2; side++)
            for (int uplo = 0; uplo < 2; uplo++)
                for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
                    for (size_t v = 0; v < sizeof scalars / sizeof scalars[0]; v++)
                        for (int pad = 0; pad <= 3; pad += 3) {
                            sm_case x = { rt, form, order ? ROW : COL, side ? RIGHT : LEFT, uplo ? LOWER : UPPER,
                                          shapes[s][0], shapes[s][1], pad, scalars[v][0], scalars[v][1],
                                          scalars[v][1] == 0 };
                            if (!cplx)
                                x.alpha = creal(x.alpha), x.beta = creal(x.beta);
                            failures += !run(ref, &x, failures ? scratch : msg, sizeof msg);
                        }
    ck_assert_msg(failures == 0, "%d cases differ; first: %s", failures, msg);
}
END_TEST

/* Statistics: the flops of M x N from depth M (SIDE L) or N (R), 2 M N K (8 M N K complex); M = 0 is a quick return */
START_TEST(stats)
{
    double a[2 * 7 * 7], b[2 * 7 * 5], c[2 * 7 * 5];
    for (int i = 0; i < 98; i++)
        a[i] = tt_uniform();
    for (int i = 0; i < 70; i++)
        b[i] = tt_uniform(), c[i] = tt_uniform();
    const int m = 7, n = 5, zero = 0;
    const double one[2] = { 1.0, 0.0 }, half[2] = { 0.5, 0.0 };
    f77_fn dsymm = (f77_fn)dlsym(RTLD_DEFAULT, "dsymm_"), zhemm = (f77_fn)dlsym(RTLD_DEFAULT, "zhemm_");
    tileblas_reset_stats();
    tileblas_set_path(TILEBLAS_PATH_AUTO);
    dsymm("L", "U", &m, &n, one, a, &m, b, &m, half, c, &m, 1, 1);
    zhemm("R", "L", &n, &m, one, a, &m, b, &n, half, c, &n, 1, 1);
    dsymm("L", "U", &zero, &n, one, a, &m, b, &m, half, c, &m, 1, 1);
    tileblas_stats s;
    tileblas_get_stats(&s);
    ck_assert_uint_eq(s.cpu_calls, 2);
    ck_assert_uint_eq(s.quick_returns, 1);
    ck_assert(s.cpu_flops == 2.0 * 7 * 5 * 7 + 8.0 * 5 * 7 * 7);
}
END_TEST

/* On the GPU (where one is usable): the plain names forced there, within the bound, in blocks small enough (at most
 * 4 MB of device memory a call) that C is many tiles and A's row blocks or column panels cross its diagonal */
START_TEST(gpu)
{
    const char *why;
    if (!tileblas_gpu_available(&why)) {
        printf("gpu: skipped (%s)\n", why);
        return;
    }
    const int rt = _i / 2, form = _i % 2, cplx = tb_type_complex(rt_type[rt]);
    void *ref = tt_openblas();
    static const int shapes[][2] = { { 300, 200 }, { 777, 64 }, { 90, 1000 } };
    char msg[512] = "", scratch[512];
    int failures = 0;
    tileblas_set_path(TILEBLAS_PATH_GPU);
    for (int side = 0; side < 2; side++)
        for (int uplo = 0; uplo < 2; uplo++)
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
                sm_case x = { rt, form, (s + uplo) % 2 ? ROW : COL, side ? RIGHT : LEFT, uplo ? LOWER : UPPER,
                              shapes[s][0], shapes[s][1], (int)s, cplx ? 0.5 - 0.25 * I : -1.5, s == 1 ? 0 : 0.75,
                              s == 1 };
                failures += !run(ref, &x, failures ? scratch : msg, sizeof msg);
                tileblas_call_info info;
                tileblas_last_call(&info);
                ck_assert_msg(info.path == TILEBLAS_PATH_GPU && !info.gpu_failed, "not run on the GPU");
            }
    ck_assert_msg(failures == 0, "%d cases differ; first: %s", failures, msg);
}
END_TEST

/* Invalid calls with no BLAS beneath (the scipy_ names here): the handler gets the reference's name and argument
 * number (SIDE 1, UPLO 2, M 3, N 4, LDA 7 against M or N by SIDE, LDB 9 and LDC 12 against M), C untouched */
START_TEST(invalid)
{
    double a[64], c[64], c0[64];
    for (int i = 0; i < 64; i++)
        a[i] = tt_uniform(), c[i] = c0[i] = tt_uniform();
    const double one[2] = { 1.0, 0.0 };
    f77_fn dsymm = (f77_fn)dlsym(RTLD_DEFAULT, "scipy_dsymm_"), zhemm = (f77_fn)dlsym(RTLD_DEFAULT, "scipy_zhemm_64_");
    const struct { char s, u; int m, n, lda, ldb, ldc, info; } f[] = {
        { 'X', 'U', 4, 3, 4, 4, 4, 1 }, { 'L', 'X', 4, 3, 4, 4, 4, 2 }, { 'L', 'U', -1, 3, 4, 4, 4, 3 },
        { 'R', 'L', 4, -1, 4, 4, 4, 4 }, { 'L', 'L', 4, 3, 3, 4, 4, 7 }, { 'r', 'u', 3, 4, 3, 3, 3, 7 },
        { 'R', 'U', 4, 3, 3, 3, 4, 9 }, { 'L', 'U', 4, 3, 4, 4, 3, 12 }, { 'R', 'U', 4, 0, 1, 3, 4, 9 },
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        tt_said[0] = 0;
        dsymm(&f[i].s, &f[i].u, &f[i].m, &f[i].n, one, a, &f[i].lda, a, &f[i].ldb, one, c, &f[i].ldc, 1, 1);
        ck_assert_msg(!strcmp(tt_said, "DSYMM ") && tt_said_info == f[i].info, "case %zu: said '%s' %lld", i, tt_said,
                      tt_said_info);
    }
    const int64_t m = 4, n = 3, ld = 2;
    tt_said[0] = 0;
    zhemm("L", "U", &m, &n, one, a, &ld, a, &m, one, c, &m, 1, 1);
    ck_assert_msg(!strcmp(tt_said, "ZHEMM ") && tt_said_info == 7, "said '%s' %lld", tt_said, tt_said_info);
    /* a row-major CBLAS call: reported as its column-major problem's (SIDE and UPLO swapped, M and N) */
    cblas_z csymm = (cblas_z)dlsym(RTLD_DEFAULT, "scipy_cblas_csymm");
    tt_said[0] = 0;
    csymm(ROW, LEFT, UPPER, 4, 3, one, a, 4, a, 3, one, c, 2); /* column-major: M 3, LDC 2 */
    ck_assert_msg(!strcmp(tt_said, "CSYMM ") && tt_said_info == 12, "said '%s' %lld", tt_said, tt_said_info);
    ck_assert(!memcmp(c, c0, sizeof c));
}
END_TEST

int main(void)
{
    return tt_names_suite("symmetric products", names, 6 * 8, gpu, 6 * 2, stats, invalid);
}
