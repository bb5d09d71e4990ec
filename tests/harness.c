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
#include "harness.h"
#include "seed.h"

/* OpenBLAS, called directly: the tests link it, and look its symbols up in it by handle, since a plain call
 * would reach tileblas's own cblas_sgemm and sgemm_ first. */
typedef void (*cblas_fn)(int, int, int, int, int, int, float, const float *, int, const float *, int, float, float *,
                         int);
typedef void (*f77_fn)(const char *, const char *, const int *, const int *, const int *, const float *,
                       const float *, const int *, const float *, const int *, const float *, float *, const int *);
static cblas_fn ref_cblas;
static f77_fn ref_f77;
static pthread_once_t reference_once = PTHREAD_ONCE_INIT;

static void open_reference(void)
{
    void *h = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_NOLOAD);
    if (!h)
        h = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!h || !(ref_cblas = (cblas_fn)dlsym(h, "cblas_sgemm")) || !(ref_f77 = (f77_fn)dlsym(h, "sgemm_"))) {
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

static float uniform(void)
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
    return (float)((double)(z >> 40) / 16777216.0 * 2.0 - 1.0); /* [-1, 1) */
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

static const uint32_t poison_bits = 0x7fc0dead; /* a NaN with a recognisable payload */

/* specials: +Inf, -Inf and NaN at a few places (every 97 elements, three of them) */
static float *alloc_matrix(const stored *s, int nan_fill, int specials)
{
    float *x = malloc(s->count * sizeof *x);
    float poison;
    memcpy(&poison, &poison_bits, sizeof poison);
    for (size_t i = 0; i < s->count; i++) {
        x[i] = !in_matrix(s, i) ? poison : nan_fill ? NAN : uniform();
        if (specials && in_matrix(s, i) && !nan_fill)
            x[i] = i % 97 == 13 ? INFINITY : i % 97 == 41 ? -INFINITY : i % 97 == 71 ? NAN : x[i];
    }
    return x;
}

static void call_sgemm(int use_ref, const tt_case *c, const float *a, int lda, const float *b, int ldb, float *cc,
                       int ldc, float alpha, float beta)
{
    load_reference();
    if (c->api == TT_FORTRAN) {
        char ta = c->ta ? 'T' : 'N', tb = c->tb ? 'T' : 'N';
        (use_ref ? ref_f77 : sgemm_)(&ta, &tb, &c->m, &c->n, &c->k, &alpha, a, &lda, b, &ldb, &beta, cc, &ldc);
    } else {
        int order = c->api == TT_CBLAS_ROW ? 101 : 102;
        int ta = c->ta ? 112 : 111, tb = c->tb ? 112 : 111;
        if (use_ref)
            ref_cblas(order, ta, tb, c->m, c->n, c->k, alpha, a, lda, b, ldb, beta, cc, ldc);
        else
            cblas_sgemm((enum CBLAS_ORDER)order, (enum CBLAS_TRANSPOSE)ta, (enum CBLAS_TRANSPOSE)tb, c->m, c->n, c->k,
                        alpha, a, lda, b, ldb, beta, cc, ldc);
    }
}

void tt_describe(const tt_case *c, char *buf, size_t len)
{
    static const char *api[] = { "cblas col-major", "cblas row-major", "sgemm_" };
    snprintf(buf, len, "%s %c%c M=%d N=%d K=%d pad=%d alpha=%g beta=%g%s%s (seed %llu)", api[c->api],
             c->ta ? 'T' : 'N', c->tb ? 'T' : 'N', c->m, c->n, c->k, c->pad, c->alpha, c->beta,
             c->nan_c ? " C=NaN" : "", c->nan_ab ? " A,B=NaN" : "", tt_seed());
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

/* x (count floats from alloc_matrix) moved to start `off` floats past a malloc'd block's (aligned) start */
static float *shifted(float *x, size_t count, int off)
{
    if (!off)
        return x;
    float *y = malloc((count + (size_t)off) * sizeof *y);
    memcpy(y + off, x, count * sizeof *y);
    free(x);
    return y + off;
}

int tt_run(const tt_case *c, tt_match match, char *msg, size_t len)
{
    int rm = c->api == TT_CBLAS_ROW, off = c->misalign ? 1 : 0;
    stored sa = layout(rm, c->ta, c->m, c->k, c->pad), sb = layout(rm, c->tb, c->k, c->n, 2 * c->pad);
    stored sc = layout(rm, 0, c->m, c->n, 3 * c->pad);
    if (c->alias) /* B's storage is A's: the same shape when m = n = k and both transposed alike or square */
        sb = sa;
    float *a = shifted(alloc_matrix(&sa, c->nan_ab, c->specials), sa.count, off);
    float *b = c->alias ? a : shifted(alloc_matrix(&sb, c->nan_ab, c->specials), sb.count, off);
    float *c0 = shifted(alloc_matrix(&sc, c->nan_c, c->specials && c->beta != 0.0f), sc.count, off);
    float *got = (float *)malloc((sc.count + (size_t)off) * sizeof *got) + off;
    float *want = (float *)malloc((sc.count + (size_t)off) * sizeof *want) + off;
    memcpy(got, c0, sc.count * sizeof *got);
    memcpy(want, c0, sc.count * sizeof *want);

    call_sgemm(0, c, a, sa.ld, b, sb.ld, got, sc.ld, c->alpha, c->beta);
    call_sgemm(1, c, a, sa.ld, b, sb.ld, want, sc.ld, c->alpha, c->beta);
    /* Nothing to multiply: the BLAS beneath answers the call on every path, so its answer is the expectation, bit
     * for bit (OpenBLAS's small-matrix kernels of 0.3.26 read A and B when alpha = 0: NaN there reaches C) */
    if (c->alpha == 0.0f || c->k == 0 || c->m == 0 || c->n == 0)
        match = TT_BITWISE;

    int ok = 1;
    float *absab = NULL;
    if (match == TT_BITWISE) {
        for (size_t i = 0; ok && i < sc.count; i++)
            if (memcmp(&got[i], &want[i], sizeof(float)))
                ok = fail(msg, len, c, "got %.9g, OpenBLAS %.9g (bits differ)", got[i], want[i], i);
    } else {
        /* (|A||B|) through OpenBLAS on absolute values, for the bound */
        absab = malloc(sc.count * sizeof *absab);
        memcpy(absab, c0, sc.count * sizeof *absab);
        int reads_ab = c->alpha != 0.0f && c->k > 0;
        if (reads_ab) {
            for (size_t i = 0; i < sa.count; i++) a[i] = fabsf(a[i]);
            for (size_t i = 0; i < sb.count && !c->alias; i++) b[i] = fabsf(b[i]);
            call_sgemm(1, c, a, sa.ld, b, sb.ld, absab, sc.ld, 1.0f, 0.0f);
        }
        for (size_t i = 0; ok && i < sc.count; i++) {
            if (!in_matrix(&sc, i)) {
                if (memcmp(&got[i], &c0[i], sizeof(float)))
                    ok = fail(msg, len, c, "padding overwritten: %g (was %g)", got[i], c0[i], i);
                continue;
            }
            /* doc/TESTING.md: |C - C_ref| <= c * K * 2^-24 * (|alpha| (|A||B|)ij + |beta| |C0ij|), here with c = 2 and
             * K + 2 for K (the alpha scaling and the beta update round once each); NaN never passes */
            if (!isfinite(want[i])) { /* Inf and NaN: the same class as OpenBLAS's (no order of sums changes it) */
                if (isnan(want[i]) ? !isnan(got[i]) : got[i] != want[i])
                    ok = fail(msg, len, c, "got %.9g, OpenBLAS %.9g", got[i], want[i], i);
                continue;
            }
            double mag = (reads_ab ? fabs(c->alpha) * absab[i] : 0.0) + (c->beta != 0.0f ? fabs(c->beta * c0[i]) : 0.0);
            double bound = 2.0 * (c->k + 2) * ldexp(1.0, -24) * mag;
            double err = fabs((double)got[i] - (double)want[i]);
            if (isnan(got[i]) || !(err <= bound))
                ok = fail(msg, len, c, "got %.9g, OpenBLAS %.9g", got[i], want[i], i);
        }
    }
    free(a - off), free(c0 - off), free(got - off), free(want - off), free(absab);
    if (!c->alias)
        free(b - off);
    return ok;
}

void tt_combo(int i, tt_case *c)
{
    memset(c, 0, sizeof *c);
    c->api = (tt_api)(i / 4);
    c->ta = (i >> 1) & 1;
    c->tb = i & 1;
}

const int tt_shapes[][3] = {
    { 0, 5, 5 },    { 5, 0, 5 },    { 5, 5, 0 },    { 1, 1, 1 },    { 2, 2, 2 },    { 1, 37, 19 },
    { 37, 1, 19 },  { 37, 19, 1 },  { 15, 15, 15 }, { 16, 16, 16 }, { 17, 17, 17 }, { 31, 31, 31 },
    { 32, 32, 32 }, { 33, 33, 33 }, { 33, 17, 65 }, { 100, 3, 250 }, { 64, 65, 63 }, { 3, 130, 47 },
    { 127, 129, 17 }, { 129, 127, 31 }, { 257, 130, 33 },
};
const size_t tt_shape_count = sizeof tt_shapes / sizeof tt_shapes[0];

const tt_scalars tt_scalar_sets[] = {
    { 1.0f, 0.0f, 1, 0, 0 },    /* beta = 0: C (NaN here) is never read */
    { 1.0f, 1.0f, 0, 0, 0 },    /* alpha = beta = 1 */
    { -1.5f, 0.75f, 0, 0, 0 },  /* general */
    { 0.5f, 0.0f, 1, 0, 0 },    /* alpha other, beta = 0 */
    { 0.0f, 2.5f, 0, 1, 0 },    /* alpha = 0: A and B (NaN here) are never read, C = beta*C */
    { 0.0f, 0.0f, 1, 1, 0 },    /* alpha = beta = 0: C = 0 */
    { 0.0f, 1.0f, 0, 1, 0 },    /* quick return: nothing changes */
    { 1.5f, 0.5f, 0, 0, 1 },    /* Inf and NaN among A, B and C */
    { -1.0f, 0.0f, 1, 0, 1 },   /* Inf and NaN among A and B, C never read */
    { 0.0f, 2.0f, 0, 0, 1 },    /* alpha = 0: A and B never read, Inf and NaN in C scaled */
};
const size_t tt_scalar_set_count = sizeof tt_scalar_sets / sizeof tt_scalar_sets[0];

int tt_run_grid(int combo, tt_match match, char *msg, size_t len)
{
    int failures = 0;
    for (size_t s = 0; s < tt_shape_count; s++)
        for (size_t v = 0; v < tt_scalar_set_count; v++)
            for (int pad = 0; pad <= 3; pad += 3) {
                tt_case c;
                tt_combo(combo, &c);
                c.m = tt_shapes[s][0], c.n = tt_shapes[s][1], c.k = tt_shapes[s][2];
                c.pad = pad;
                c.alpha = tt_scalar_sets[v].alpha, c.beta = tt_scalar_sets[v].beta;
                c.nan_c = tt_scalar_sets[v].nan_c, c.nan_ab = tt_scalar_sets[v].nan_ab;
                c.specials = tt_scalar_sets[v].specials;
                char one[512];
                if (!tt_run(&c, match, one, sizeof one) && failures++ == 0)
                    snprintf(msg, len, "%s", one);
            }
    return failures;
}

/* count floats of address space, reserved but not committed: only the pages written cost memory */
static float *reserve(size_t count)
{
    float *x = mmap(NULL, count * sizeof(float), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                    -1, 0);
    return x == MAP_FAILED ? NULL : x;
}

static int run_far(int which, tt_match match, char *msg, size_t len)
{
    const int m = 100, n = which ? 3 : 30, k = which ? 30 : 3, pad = 16;
    const int lda = which ? m : INT_MAX, ldb = k, ldc = which ? INT_MAX : m + pad;
    const float alpha = 0.75f, beta = 0.5f;
    const size_t na = (size_t)lda * k, nc = (size_t)ldc * n;
    float *a = reserve(na), *b = malloc((size_t)ldb * n * sizeof *b);
    float *c0 = reserve(nc), *got = reserve(nc), *want = reserve(nc);
    int ok = -1;
    if (a && b && c0 && got && want) {
        for (int l = 0; l < k; l++)
            for (int i = 0; i < m; i++)
                a[i + (size_t)l * lda] = uniform();
        for (int i = 0; i < ldb * n; i++)
            b[i] = uniform();
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m + pad; i++) /* the matrix, and padding poisoned */
                c0[i + (size_t)j * ldc] = got[i + (size_t)j * ldc] = want[i + (size_t)j * ldc] = i < m ? uniform()
                                                                                                        : -777.0f;
        load_reference();
        cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, alpha, a, lda, b, ldb, beta, got, ldc);
        ref_cblas(102, 111, 111, m, n, k, alpha, a, lda, b, ldb, beta, want, ldc);
        ok = 1;
        tt_case c = { .api = TT_CBLAS_COL, .m = m, .n = n, .k = k, .alpha = alpha, .beta = beta };
        for (int j = 0; ok == 1 && j < n; j++)
            for (int i = 0; ok == 1 && i < m + pad; i++) {
                size_t at = i + (size_t)j * ldc;
                if (i >= m) {
                    if (got[at] != -777.0f)
                        ok = fail(msg, len, &c, "padding overwritten: %g (was %g)", got[at], -777.0, at);
                    continue;
                }
                double mag = fabs(beta * c0[at]);
                for (int l = 0; l < k; l++)
                    mag += fabs(alpha * a[i + (size_t)l * lda] * b[l + (size_t)j * ldb]);
                double bound = match == TT_BITWISE ? 0.0 : 2.0 * (k + 2) * ldexp(1.0, -24) * mag;
                if (isnan(got[at]) || !(fabs((double)got[at] - (double)want[at]) <= bound))
                    ok = fail(msg, len, &c, "got %.9g, OpenBLAS %.9g", got[at], want[at], at);
            }
        if (ok == 0) { /* say which operand was far */
            size_t used = strlen(msg);
            snprintf(msg + used, len - used, " (%s's leading dimension %d)", which ? "C" : "A", INT_MAX);
        }
    }
    if (a)
        munmap(a, na * sizeof(float));
    float *cs[3] = { c0, got, want };
    for (int i = 0; i < 3; i++)
        if (cs[i])
            munmap(cs[i], nc * sizeof(float));
    free(b);
    return ok;
}

int tt_run_far(tt_match match, char *msg, size_t len)
{
    int r = 1;
    for (int which = 0; which < 2 && r == 1; which++)
        if ((r = run_far(which, match, msg, len)) < 0)
            printf("offsets past 2^31: not run (the system refuses to reserve the address space)\n");
    return r;
}

int tt_run_odd_pointers(int combo, int n, tt_match match, char *msg, size_t len)
{
    int failures = 0;
    for (int v = 0; v < 4; v++) {
        tt_case c;
        tt_combo(combo, &c);
        c.m = c.n = c.k = n, c.pad = 1, c.alpha = 0.75f;
        c.beta = v & 1 ? 0.5f : 0.0f, c.nan_c = !(v & 1);
        c.misalign = 1, c.alias = v >> 1;
        char one[512];
        if (!tt_run(&c, match, one, sizeof one) && failures++ == 0)
            snprintf(msg, len, "%s", one);
    }
    return failures;
}
