/*
 * Finding the CPU BLAS: TILEBLAS_CPU_BLAS if set, else the next definition of the same symbol in the process
 * (dlsym RTLD_NEXT: the BLAS the program was linked with, or loaded after us), else libopenblas.so.0 opened
 * privately.  Never ourselves.  Each symbol is resolved once, on the first CPU call.
 */
#include <config.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include "cpu_blas.h"
#include "env.h"
#include "util.h"

typedef void (*cblas_sgemm_fn)(int, int, int, int, int, int, float, const float *, int, const float *, int, float,
                               float *, int);
typedef void (*f77_sgemm_fn)(const char *, const char *, const int *, const int *, const int *, const float *,
                             const float *, const int *, const float *, const int *, const float *, float *,
                             const int *);

static const char *const symbol[TB_IFACE_COUNT] = { "cblas_sgemm", "sgemm_" };
static void *fn[TB_IFACE_COUNT];
static const char *where[TB_IFACE_COUNT];
static pthread_once_t resolve_once = PTHREAD_ONCE_INIT;
static _Atomic int resolved;
__thread int tb_in_cpu_blas;

static int is_ours(void *f)
{
    Dl_info mine, theirs;
    return dladdr((void *)tb_cpu_sgemm, &mine) && dladdr(f, &theirs) && mine.dli_fbase == theirs.dli_fbase;
}

/* name from the library at path, opened privately; NULL (with *err set) if it cannot be had */
static void *from_library(const char *path, const char *name, const char **err)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    void *f = h ? dlsym(h, name) : NULL;
    *err = f ? NULL : dlerror();
    if (f && is_ours(f)) {
        *err = "that is tileblas itself";
        f = NULL;
    }
    return f;
}

static void resolve(void)
{
    const char *override = tb_config_get()->cpu_blas, *err;
    static _Atomic int warned_override;
    for (int i = 0; i < TB_IFACE_COUNT; i++) {
        void *f = NULL;
        if (override && !(f = from_library(override, symbol[i], &err)))
            tb_warn_once(&warned_override, "TILEBLAS_CPU_BLAS=%s: no %s there (%s); looking elsewhere", override,
                         symbol[i], err ? err : "not found");
        if (!f) {
            f = dlsym(RTLD_NEXT, symbol[i]);
            if (f && is_ours(f))
                f = NULL;
        }
        if (!f)
            f = from_library("libopenblas.so.0", symbol[i], &err);
        Dl_info info;
        fn[i] = f;
        where[i] = f && dladdr(f, &info) && info.dli_fname ? info.dli_fname : NULL;
    }
    atomic_store_explicit(&resolved, 1, memory_order_release);
}

const char *tb_cpu_blas_name(tb_iface iface)
{
    return where[iface];
}

/* Reference SGEMM, column-major, for a process with no CPU BLAS at all: slow but right. */
static void builtin_sgemm(const tb_gemm *g)
{
    tb_scale_c(g);
    if (g->p.alpha == 0.0f)
        return;
    for (int64_t j = 0; j < g->p.n; j++) {
        float *c = g->p.c + j * g->p.ldc;
        for (int64_t l = 0; l < g->p.k; l++) {
            float blj = g->p.transb ? g->p.b[j + l * g->p.ldb] : g->p.b[l + j * g->p.ldb];
            float t = g->p.alpha * blj;
            for (int64_t i = 0; i < g->p.m; i++)
                c[i] += t * (g->p.transa ? g->p.a[l + i * g->p.lda] : g->p.a[i + l * g->p.lda]);
        }
    }
}

static void reissue(const tb_gemm *g, void *f)
{
    if (g->iface == TB_IFACE_CBLAS) {
        int row = g->orig.cblas.order == 101;
        /* undo the row-major swap made by compat/cblas_sgemm.c */
        const float *a = row ? g->p.b : g->p.a, *b = row ? g->p.a : g->p.b;
        int lda = (int)(row ? g->p.ldb : g->p.lda), ldb = (int)(row ? g->p.lda : g->p.ldb);
        int m = (int)(row ? g->p.n : g->p.m), n = (int)(row ? g->p.m : g->p.n);
        ((cblas_sgemm_fn)f)(g->orig.cblas.order, g->orig.cblas.trans_a, g->orig.cblas.trans_b, m, n, (int)g->p.k,
                            g->p.alpha, a, lda, b, ldb, g->p.beta, g->p.c, (int)g->p.ldc);
    } else {
        int m = (int)g->p.m, n = (int)g->p.n, k = (int)g->p.k;
        int lda = (int)g->p.lda, ldb = (int)g->p.ldb, ldc = (int)g->p.ldc;
        ((f77_sgemm_fn)f)(&g->orig.fortran.transa, &g->orig.fortran.transb, &m, &n, &k, &g->p.alpha, g->p.a, &lda,
                          g->p.b, &ldb, &g->p.beta, g->p.c, &ldc);
    }
}

int tb_cpu_sgemm_found(const tb_gemm *g)
{
    void *f = atomic_load_explicit(&resolved, memory_order_acquire) ? fn[g->iface] : NULL;
    if (!f)
        return 0;
    tb_in_cpu_blas++;
    reissue(g, f);
    tb_in_cpu_blas--;
    return 1;
}

void tb_cpu_sgemm(const tb_gemm *g)
{
    static _Atomic int warned_missing;
    if (!atomic_load_explicit(&resolved, memory_order_acquire)) /* pthread_once costs a few ns a tiny call */
        pthread_once(&resolve_once, resolve);
    if (tb_cpu_sgemm_found(g))
        return;
    tb_warn_once(&warned_missing, "no CPU BLAS with %s found (set TILEBLAS_CPU_BLAS); using a slow built-in loop",
                 symbol[g->iface]);
    builtin_sgemm(g);
}
