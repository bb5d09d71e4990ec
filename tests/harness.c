#include <config.h>
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "elements.h"
#include "harness.h"
#include "seed.h"

/* OpenBLAS, called directly: the tests link it, and look its symbols up in it by handle, since a plain call
 * would reach tileblas's own cblas_?gemm and ?gemm_ first.  Scalars and matrices go through void pointers: the
 * calls below cast to the function types of one precision. */
typedef void (*cblas_s)(int, int, int, int, int, int, float, const void *, int, const void *, int, float, void *, int);
typedef void (*cblas_d)(int, int, int, int, int, int, double, const void *, int, const void *, int, double, void *,
                        int);
typedef void (*cblas_z)(int, int, int, int, int, int, const void *, const void *, int, const void *, int,
                        const void *, void *, int); /* the complex types: scalars by pointer */
typedef void (*f77_fn)(const char *, const char *, const int *, const int *, const int *, const void *, const void *,
                       const int *, const void *, const int *, const void *, void *, const int *);
static cblas_s ref_cblas_s;
static cblas_d ref_cblas_d;
static cblas_z ref_cblas_z[2]; /* c, z */
static f77_fn ref_f77[4];      /* s, d, c, z */
static pthread_once_t reference_once = PTHREAD_ONCE_INIT;

static void open_reference(void)
{
    void *h = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_NOLOAD);
    if (!h)
        h = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!h || !(ref_cblas_s = (cblas_s)dlsym(h, "cblas_sgemm")) || !(ref_cblas_d = (cblas_d)dlsym(h, "cblas_dgemm")) ||
        !(ref_cblas_z[0] = (cblas_z)dlsym(h, "cblas_cgemm")) || !(ref_cblas_z[1] = (cblas_z)dlsym(h, "cblas_zgemm")) ||
        !(ref_f77[0] = (f77_fn)dlsym(h, "sgemm_")) || !(ref_f77[1] = (f77_fn)dlsym(h, "dgemm_")) ||
        !(ref_f77[2] = (f77_fn)dlsym(h, "cgemm_")) || !(ref_f77[3] = (f77_fn)dlsym(h, "zgemm_"))) {
        fprintf(stderr, "cannot load OpenBLAS as the reference: %s\n", dlerror());
        exit(99); /* automake: hard error */
    }
}

static void load_reference(void)
{
    pthread_once(&reference_once, open_reference);
}

/* One seed for the process; each thread draws from its own stream of it (the first thread's is the seed itself,
 * so that a single-threaded suite replays as before). */
static unsigned long long seed;
static pthread_once_t seed_once = PTHREAD_ONCE_INIT;
static _Atomic unsigned threads_seeded;
static _Thread_local uint64_t state;
static _Thread_local int state_ready;

static void take_seed(void)
{
    seed = tt_test_seed();
}

unsigned long long tt_seed(void)
{
    pthread_once(&seed_once, take_seed);
    return seed;
}

static double uniform(void)
{
    if (!state_ready) {
        state = tt_seed() + 0x632be59bd9b4e019ull * atomic_fetch_add(&threads_seeded, 1);
        state_ready = 1;
    }
    /* splitmix64 */
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0 * 2.0 - 1.0; /* [-1, 1), rounded to float for SGEMM */
}

static int same_bits(const void *x, const void *y, size_t i, size_t es)
{
    return !memcmp((const char *)x + i * es, (const char *)y + i * es, es);
}

/* A matrix as stored: `outer` runs of `inner` contiguous elements, runs `ld` apart. */
typedef struct stored {
    int inner, outer, ld;
    size_t count; /* elements allocated */
} stored;

static stored layout(int row_major, int trans, int rows, int cols, int pad)
{
    /* op(X) is rows x cols; X itself is cols x rows when transposed; row-major stores rows contiguously */
    int xr = trans ? cols : rows, xc = trans ? rows : cols;
    stored s = { .inner = row_major ? xc : xr, .outer = row_major ? xr : xc };
    s.ld = (s.inner > 1 ? s.inner : 1) + pad;
    s.count = (size_t)s.ld * (size_t)(s.outer > 0 ? s.outer : 0) + 1;
    return s;
}

static int in_matrix(const stored *s, size_t i)
{
    return (int)(i % (size_t)s->ld) < s->inner && i < (size_t)s->ld * (size_t)s->outer;
}

/* a NaN with a recognisable payload, of either width (rs: the bytes of a real number) */
static void poison(void *x, size_t i, size_t rs)
{
    static const uint32_t s = 0x7fc0dead;
    static const uint64_t d = 0x7ff8deaddeadbeefull;
    memcpy((char *)x + i * rs, rs == 8 ? (const void *)&d : (const void *)&s, rs);
}

/* Elements of `parts` real numbers of rs bytes each (2 for the complex types: real part, then imaginary).
 * specials: +Inf, -Inf and NaN at a few places (tt_case's specials: 1, three of every 97 numbers; 2, of every
 * 4000037) */
static void *alloc_matrix(const stored *s, size_t rs, int parts, int nan_fill, int specials)
{
    void *x = malloc(s->count * rs * parts);
    for (size_t i = 0; i < s->count; i++)
        for (int q = 0; q < parts; q++) {
            const size_t at = i * parts + q;
            if (!in_matrix(s, i)) {
                poison(x, at, rs);
                continue;
            }
            double v = nan_fill ? NAN : uniform();
            const size_t every = specials == 2 ? 4000037 : 97;
            if (specials && !nan_fill)
                v = at % every == 13 ? INFINITY : at % every == 41 ? -INFINITY : at % every == 71 ? NAN : v;
            tt_put(x, at, rs, v);
        }
    return x;
}

/* the case's alpha and beta as its type has them, in za and zb (pa and pb point there) */
static void scalars(const tt_case *c, double alpha, double beta, double za[2], double zb[2], const void **pa,
                    const void **pb)
{
    if (c->dp) {
        za[0] = alpha, za[1] = c->alpha_im, zb[0] = beta, zb[1] = c->beta_im;
    } else {
        float *fa = (float *)za, *fb = (float *)zb;
        fa[0] = (float)alpha, fa[1] = (float)c->alpha_im, fb[0] = (float)beta, fb[1] = (float)c->beta_im;
    }
    *pa = za, *pb = zb;
}

static char f77_op(int t)
{
    return t == 2 ? 'C' : t ? 'T' : 'N';
}

static void call_gemm(int use_ref, const tt_case *c, const void *a, int lda, const void *b, int ldb, void *cc, int ldc,
                      double alpha, double beta)
{
    load_reference();
    const float salpha = (float)alpha, sbeta = (float)beta;
    double za[2], zb[2];
    const void *pa, *pb;
    scalars(c, alpha, beta, za, zb, &pa, &pb);
    if (c->api == TT_FORTRAN) {
        char ta = f77_op(c->ta), tb = f77_op(c->tb);
        if (use_ref)
            ref_f77[c->dp + 2 * c->cplx](&ta, &tb, &c->m, &c->n, &c->k, pa, a, &lda, b, &ldb, pb, cc, &ldc);
        else if (c->cplx)
            (c->dp ? zgemm_ : cgemm_)(&ta, &tb, &c->m, &c->n, &c->k, pa, a, &lda, b, &ldb, pb, cc, &ldc);
        else if (c->dp)
            dgemm_(&ta, &tb, &c->m, &c->n, &c->k, &alpha, a, &lda, b, &ldb, &beta, cc, &ldc);
        else
            sgemm_(&ta, &tb, &c->m, &c->n, &c->k, &salpha, a, &lda, b, &ldb, &sbeta, cc, &ldc);
        return;
    }
    const int order = c->api == TT_CBLAS_ROW ? 101 : 102, ta = 111 + c->ta, tb = 111 + c->tb;
    const enum CBLAS_ORDER o = (enum CBLAS_ORDER)order;
    const enum CBLAS_TRANSPOSE xa = (enum CBLAS_TRANSPOSE)ta, xb = (enum CBLAS_TRANSPOSE)tb;
    if (use_ref && c->cplx)
        ref_cblas_z[c->dp](order, ta, tb, c->m, c->n, c->k, pa, a, lda, b, ldb, pb, cc, ldc);
    else if (c->cplx)
        (c->dp ? cblas_zgemm : cblas_cgemm)(o, xa, xb, c->m, c->n, c->k, pa, a, lda, b, ldb, pb, cc, ldc);
    else if (use_ref && c->dp)
        ref_cblas_d(order, ta, tb, c->m, c->n, c->k, alpha, a, lda, b, ldb, beta, cc, ldc);
    else if (use_ref)
        ref_cblas_s(order, ta, tb, c->m, c->n, c->k, salpha, a, lda, b, ldb, sbeta, cc, ldc);
    else if (c->dp)
        cblas_dgemm(o, xa, xb, c->m, c->n, c->k, alpha, a, lda, b, ldb, beta, cc, ldc);
    else
        cblas_sgemm(o, xa, xb, c->m, c->n, c->k, salpha, a, lda, b, ldb, sbeta, cc, ldc);
}

void tt_describe(const tt_case *c, char *buf, size_t len)
{
    static const char *api[4][3] = { { "cblas_sgemm col-major", "cblas_sgemm row-major", "sgemm_" },
                                     { "cblas_dgemm col-major", "cblas_dgemm row-major", "dgemm_" },
                                     { "cblas_cgemm col-major", "cblas_cgemm row-major", "cgemm_" },
                                     { "cblas_zgemm col-major", "cblas_zgemm row-major", "zgemm_" } };
    char im_a[40] = "", im_b[40] = "";
    if (c->cplx)
        snprintf(im_a, sizeof im_a, "%+gi", c->alpha_im), snprintf(im_b, sizeof im_b, "%+gi", c->beta_im);
    snprintf(buf, len, "%s %c%c M=%d N=%d K=%d pad=%d alpha=%g%s beta=%g%s%s%s (seed %llu)",
             api[c->dp + 2 * c->cplx][c->api], f77_op(c->ta), f77_op(c->tb), c->m, c->n, c->k, c->pad, c->alpha,
             im_a, c->beta, im_b, c->nan_c ? " C=NaN" : "", c->nan_ab ? " A,B=NaN" : "", tt_seed());
    if (c->specials)
        strncat(buf, " with Inf/NaN elements", len - strlen(buf) - 1);
    if (c->misalign)
        strncat(buf, " misaligned", len - strlen(buf) - 1);
    if (c->alias)
        strncat(buf, " B=A", len - strlen(buf) - 1);
}

static int fail(char *msg, size_t len, const tt_case *c, const char *fmt, double x, double y, size_t at)
{
    char what[256], d[256];
    snprintf(what, sizeof what, fmt, x, y);
    tt_describe(c, d, sizeof d);
    snprintf(msg, len, "%s: %s at element %zu", d, what, at);
    return 0;
}

/* x (count elements from alloc_matrix) moved to start `off` elements past a malloc'd block's (aligned) start */
static void *shifted(void *x, size_t count, size_t es, int off)
{
    if (!off)
        return x;
    char *y = malloc((count + (size_t)off) * es);
    memcpy(y + off * es, x, count * es);
    free(x);
    return y + off * es;
}

static void *copy_of(const void *x, size_t count, size_t es, int off)
{
    char *y = (char *)malloc((count + (size_t)off) * es) + off * es;
    memcpy(y, x, count * es);
    return y;
}

static void release(void *x, size_t es, int off)
{
    free((char *)x - off * es);
}

/* the bound of doc/TESTING.md for K: |C - C_ref| <= c * K * u * (|alpha| (|A||B|)ij + |beta| |C0ij|), here with
 * c = 2 and K + 2 for K (the alpha scaling and the beta update round once each); for the complex types with moduli,
 * 2 sqrt(2) (2K + 2) */
static double bound(tb_type t, int k, double mag, tt_match match)
{
    const int dp = t == TB_TYPE_D || t == TB_TYPE_Z;
    return tt_bound_factor(t, k) * ldexp(1.0, dp ? -53 : match == TT_TOLERANCE_TF32 ? -11 : -24) * mag;
}

/* the moduli of count elements of type t, as reals of t's precision */
static void *moduli(const void *x, size_t count, tb_type t)
{
    const size_t rs = t == TB_TYPE_D || t == TB_TYPE_Z ? 8 : 4;
    void *m = malloc(count * rs);
    for (size_t i = 0; i < count; i++)
        tt_put(m, i, rs, (double)cabsl(tt_xget(x, i, t)));
    return m;
}

int tt_run(const tt_case *c, tt_match match, char *msg, size_t len)
{
    const int rm = c->api == TT_CBLAS_ROW, off = c->misalign ? 1 : 0, parts = c->cplx ? 2 : 1;
    const size_t rs = c->dp ? 8 : 4, es = rs * parts;
    stored sa = layout(rm, c->ta, c->m, c->k, c->pad), sb = layout(rm, c->tb, c->k, c->n, 2 * c->pad);
    stored sc = layout(rm, 0, c->m, c->n, 3 * c->pad);
    if (c->alias) /* B's storage is A's: the same shape when m = n = k and both transposed alike or square */
        sb = sa;
    void *a = shifted(alloc_matrix(&sa, rs, parts, c->nan_ab, c->specials), sa.count, es, off);
    void *b = c->alias ? a : shifted(alloc_matrix(&sb, rs, parts, c->nan_ab, c->specials), sb.count, es, off);
    const int c_specials = c->beta != 0.0 || c->beta_im != 0.0 ? c->specials : 0;
    void *c0 = shifted(alloc_matrix(&sc, rs, parts, c->nan_c, c_specials), sc.count, es, off);
    void *got = copy_of(c0, sc.count, es, off), *want = copy_of(c0, sc.count, es, off);
    /* the scalars as the call's type has them */
    const double alpha = c->dp ? c->alpha : (float)c->alpha, beta = c->dp ? c->beta : (float)c->beta;

    call_gemm(0, c, a, sa.ld, b, sb.ld, got, sc.ld, alpha, beta);
    call_gemm(1, c, a, sa.ld, b, sb.ld, want, sc.ld, alpha, beta);
    /* Nothing to multiply: the BLAS beneath answers the call on every path, so its answer is the expectation, bit
     * for bit (OpenBLAS's small-matrix kernels of 0.3.26 read A and B when alpha = 0: NaN there reaches C) */
    if ((alpha == 0.0 && c->alpha_im == 0.0) || c->k == 0 || c->m == 0 || c->n == 0)
        match = TT_BITWISE;

    int ok = 1;
    void *absab = NULL;
    if (match == TT_BITWISE) {
        for (size_t i = 0; ok && i < sc.count; i++)
            if (!same_bits(got, want, i, es))
                ok = fail(msg, len, c, "got %.17g, OpenBLAS %.17g (bits differ; the real part)",
                          tt_get(got, i * parts, rs), tt_get(want, i * parts, rs), i);
    } else {
        /* (|A||B|) through OpenBLAS's real product of the moduli, for the bound */
        const tb_type t = (tb_type)(c->dp + 2 * c->cplx); /* S, D, C, Z */
        const double complex za = alpha + c->alpha_im * I, zb = beta + c->beta_im * I;
        absab = calloc(sc.count, rs);
        const int reads_ab = za != 0.0 && c->k > 0;
        if (reads_ab) {
            void *ma = moduli(a, sa.count, t), *mb = c->alias ? ma : moduli(b, sb.count, t);
            tt_case r = *c; /* the same layout and ops, real (a conjugate transpose of moduli is a transpose) */
            r.cplx = 0, r.ta = c->ta != 0, r.tb = c->tb != 0;
            call_gemm(1, &r, ma, sa.ld, mb, sb.ld, absab, sc.ld, 1.0, 0.0);
            free(ma);
            if (!c->alias)
                free(mb);
        }
        for (size_t i = 0; ok && i < sc.count; i++) {
            const long double complex g = tt_xget(got, i, t), w = tt_xget(want, i, t), z = tt_xget(c0, i, t);
            const double gr = (double)creall(g), gi = (double)cimagl(g), wr = (double)creall(w), wi = (double)cimagl(w);
            if (!in_matrix(&sc, i)) {
                if (!same_bits(got, c0, i, es))
                    ok = fail(msg, len, c, "padding overwritten: %g (was %g)", gr, (double)creall(z), i);
                continue;
            }
            if (!isfinite(wr) || !isfinite(wi)) { /* Inf and NaN: the same class as OpenBLAS's, part by part */
                if ((isnan(wr) ? !isnan(gr) : !isfinite(wr) && gr != wr) ||
                    (isnan(wi) ? !isnan(gi) : !isfinite(wi) && gi != wi))
                    ok = fail(msg, len, c, "got %.17g (real part), OpenBLAS %.17g", gr, wr, i);
                continue;
            }
            /* NaN never passes */
            const double mag = (reads_ab ? cabs(za) * tt_get(absab, i, rs) : 0.0) +
                               (zb != 0.0 ? cabs(zb) * (double)cabsl(z) : 0.0);
            if (isnan(gr) || isnan(gi) || !((double)cabsl(g - w) <= bound(t, c->k, mag, match)))
                ok = fail(msg, len, c, "got %.17g (real part), OpenBLAS %.17g", gr, wr, i);
        }
    }
    release(a, es, off), release(c0, es, off), release(got, es, off), release(want, es, off), free(absab);
    if (!c->alias)
        release(b, es, off);
    return ok;
}

void tt_combo(int i, tt_case *c)
{
    memset(c, 0, sizeof *c);
    c->api = (tt_api)(i / 4);
    c->ta = (i >> 1) & 1;
    c->tb = i & 1;
}

void tt_combo_complex(int i, tt_case *c)
{
    memset(c, 0, sizeof *c);
    c->cplx = 1;
    c->api = (tt_api)(i / 9);
    c->ta = i / 3 % 3;
    c->tb = i % 3;
}

const int tt_shapes[][3] = {
    { 0, 5, 5 },    { 5, 0, 5 },    { 5, 5, 0 },    { 1, 1, 1 },    { 2, 2, 2 },    { 1, 37, 19 },
    { 37, 1, 19 },  { 37, 19, 1 },  { 15, 15, 15 }, { 16, 16, 16 }, { 17, 17, 17 }, { 31, 31, 31 },
    { 32, 32, 32 }, { 33, 33, 33 }, { 33, 17, 65 }, { 100, 3, 250 }, { 64, 65, 63 }, { 3, 130, 47 },
    { 127, 129, 17 }, { 129, 127, 31 }, { 257, 130, 33 },
};
const size_t tt_shape_count = sizeof tt_shapes / sizeof tt_shapes[0];

const tt_scalars tt_scalar_sets[] = {
    { 1.0, 0.0, 1, 0, 0, 0.0, 0.0 },    /* beta = 0: C (NaN here) is never read */
    { 1.0, 1.0, 0, 0, 0, 0.0, 0.0 },    /* alpha = beta = 1 */
    { -1.5, 0.75, 0, 0, 0, 0.0, 0.0 },  /* general */
    { 0.5, 0.0, 1, 0, 0, 0.0, 0.0 },    /* alpha other, beta = 0 */
    { 0.0, 2.5, 0, 1, 0, 0.0, 0.0 },    /* alpha = 0: A and B (NaN here) are never read, C = beta*C */
    { 0.0, 0.0, 1, 1, 0, 0.0, 0.0 },    /* alpha = beta = 0: C = 0 */
    { 0.0, 1.0, 0, 1, 0, 0.0, 0.0 },    /* quick return: nothing changes */
    { 1.5, 0.5, 0, 0, 1, 0.0, 0.0 },    /* Inf and NaN among A, B and C */
    { -1.0, 0.0, 1, 0, 1, 0.0, 0.0 },   /* Inf and NaN among A and B, C never read */
    { 0.0, 2.0, 0, 0, 1, 0.0, 0.0 },    /* alpha = 0: A and B never read, Inf and NaN in C scaled */
};
const size_t tt_scalar_set_count = sizeof tt_scalar_sets / sizeof tt_scalar_sets[0];

/* alpha re, beta re, nan_c, nan_ab, specials, alpha im, beta im */
const tt_scalars tt_complex_scalar_sets[] = {
    { 0.0, 0.0, 1, 0, 0, 1.0, 0.0 },      /* alpha = i: not a quick return though its real part is 0 */
    { 0.0, 0.5, 0, 0, 0, -2.0, 0.0 },
    { -1.5, 0.75, 0, 0, 0, 0.25, -0.5 },  /* general */
    { 0.5, 0.0, 0, 0, 0, -1.0, 1.0 },     /* beta = i: C read, rotated */
    { 0.0, 2.5, 0, 1, 0, 0.0, 1.0 },      /* alpha = 0: A and B (NaN here) never read, C = beta*C */
    { 1.0, 0.0, 0, 0, 0, NAN, 0.0 },      /* NaN in alpha's imaginary part */
    { 0.0, INFINITY, 0, 1, 0, 0.0, 0.0 }, /* alpha = 0, beta = Inf */
    { 1.5, 0.5, 0, 0, 1, -0.5, 2.0 },     /* Inf and NaN among A, B and C */
    { 1.0, 1.0, 0, 0, 1, 0.5, 0.0 },      /* beta = 1: C's Inf and NaN added as they are, not multiplied by 1 + 0i */
};
const size_t tt_complex_scalar_set_count = sizeof tt_complex_scalar_sets / sizeof tt_complex_scalar_sets[0];

int tt_run_grid(int type, int combo, tt_match match, char *msg, size_t len)
{
    int failures = 0;
    const int cplx = type >= 2, nsets = (int)(tt_scalar_set_count + (cplx ? tt_complex_scalar_set_count : 0));
    for (size_t s = 0; s < tt_shape_count; s++)
        for (int v = 0; v < nsets; v++)
            for (int pad = 0; pad <= 3; pad += 3) {
                const tt_scalars *set = v < (int)tt_scalar_set_count ? &tt_scalar_sets[v]
                                                                     : &tt_complex_scalar_sets[v - tt_scalar_set_count];
                tt_case c;
                (cplx ? tt_combo_complex : tt_combo)(combo, &c);
                c.dp = type & 1;
                c.m = tt_shapes[s][0], c.n = tt_shapes[s][1], c.k = tt_shapes[s][2];
                c.pad = pad;
                c.alpha = set->alpha, c.beta = set->beta, c.alpha_im = set->alpha_im, c.beta_im = set->beta_im;
                c.nan_c = set->nan_c, c.nan_ab = set->nan_ab;
                c.specials = set->specials;
                char one[512];
                if (!tt_run(&c, match, one, sizeof one) && failures++ == 0)
                    snprintf(msg, len, "%s", one);
            }
    return failures;
}

/* bytes of address space, reserved but not committed: only the pages written cost memory */
static void *reserve(size_t bytes)
{
    void *x = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return x == MAP_FAILED ? NULL : x;
}

static int run_far(int dp, int which, tt_match match, char *msg, size_t len)
{
    const int m = 100, n = which ? 3 : 30, k = which ? 30 : 3, pad = 16;
    const int lda = which ? m : INT_MAX, ldb = k, ldc = which ? INT_MAX : m + pad;
    const double alpha = 0.75, beta = 0.5;
    const size_t es = dp ? 8 : 4, na = (size_t)lda * k, nc = (size_t)ldc * n;
    void *a = reserve(na * es), *b = malloc((size_t)ldb * n * es);
    void *c0 = reserve(nc * es), *got = reserve(nc * es), *want = reserve(nc * es);
    int ok = -1;
    if (a && b && c0 && got && want) {
        for (int l = 0; l < k; l++)
            for (int i = 0; i < m; i++)
                tt_put(a, i + (size_t)l * lda, es, uniform());
        for (int i = 0; i < ldb * n; i++)
            tt_put(b, (size_t)i, es, uniform());
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m + pad; i++) { /* the matrix, and padding poisoned */
                const size_t at = i + (size_t)j * ldc;
                const double v = i < m ? uniform() : -777.0;
                tt_put(c0, at, es, v), tt_put(got, at, es, v), tt_put(want, at, es, v);
            }
        tt_case c = { .dp = dp, .api = TT_CBLAS_COL, .m = m, .n = n, .k = k, .alpha = alpha, .beta = beta };
        call_gemm(0, &c, a, lda, b, ldb, got, ldc, alpha, beta);
        call_gemm(1, &c, a, lda, b, ldb, want, ldc, alpha, beta);
        ok = 1;
        for (int j = 0; ok == 1 && j < n; j++)
            for (int i = 0; ok == 1 && i < m + pad; i++) {
                const size_t at = i + (size_t)j * ldc;
                const double g = tt_get(got, at, es), w = tt_get(want, at, es);
                if (i >= m) {
                    if (g != -777.0)
                        ok = fail(msg, len, &c, "padding overwritten: %g (was %g)", g, -777.0, at);
                    continue;
                }
                double mag = fabs(beta * tt_get(c0, at, es));
                for (int l = 0; l < k; l++)
                    mag += fabs(alpha * tt_get(a, i + (size_t)l * lda, es) * tt_get(b, l + (size_t)j * ldb, es));
                if (isnan(g) || !(fabs(g - w) <= (match == TT_BITWISE ? 0.0 : bound((tb_type)dp, k, mag, match))))
                    ok = fail(msg, len, &c, "got %.17g, OpenBLAS %.17g", g, w, at);
            }
        if (ok == 0) { /* say which operand was far */
            size_t used = strlen(msg);
            snprintf(msg + used, len - used, " (%s's leading dimension %d)", which ? "C" : "A", INT_MAX);
        }
    }
    if (a)
        munmap(a, na * es);
    void *cs[3] = { c0, got, want };
    for (int i = 0; i < 3; i++)
        if (cs[i])
            munmap(cs[i], nc * es);
    free(b);
    return ok;
}

int tt_run_far(int dp, tt_match match, char *msg, size_t len)
{
    int r = 1;
    for (int which = 0; which < 2 && r == 1; which++)
        if ((r = run_far(dp, which, match, msg, len)) < 0)
            printf("offsets past 2^31: not run (the system refuses to reserve the address space)\n");
    return r;
}

int tt_run_odd_pointers(int dp, int combo, int n, tt_match match, char *msg, size_t len)
{
    int failures = 0;
    for (int v = 0; v < 4; v++) {
        tt_case c;
        tt_combo(combo, &c);
        c.dp = dp;
        c.m = c.n = c.k = n, c.pad = 1, c.alpha = 0.75;
        c.beta = v & 1 ? 0.5 : 0.0, c.nan_c = !(v & 1);
        c.misalign = 1, c.alias = v >> 1;
        char one[512];
        if (!tt_run(&c, match, one, sizeof one) && failures++ == 0)
            snprintf(msg, len, "%s", one);
    }
    return failures;
}
