/*
 * Finding the CPU BLAS, for each interface its own symbol (cblas_sgemm, sgemm_, cblas_sgemm64_, ...):
 * TILEBLAS_CPU_BLAS if set; else the next definition in the process (dlsym RTLD_NEXT: the BLAS the program was linked
 * with, or loaded after us); else a definition in any library already loaded, also those loaded privately
 * (RTLD_LOCAL), as Python loads numpy's scipy-openblas64; else the usual OpenBLAS opened privately
 * (libopenblas.so.0; for the 64_ names libopenblas64_.so.0, as OpenBLAS built with SYMBOLSUFFIX=64_ is named).
 * Never ourselves.  Each interface's is resolved once, on its first CPU call (a numpy wheel's BLAS is loaded by
 * then: numpy is what calls).
 */
#include <config.h> /* defines _GNU_SOURCE, for RTLD_NEXT and dl_iterate_phdr */
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "cpu_blas.h"
#include "env.h"
#include "util.h"

typedef void (*cblas_sgemm_fn)(int, int, int, int, int, int, float, const float *, int, const float *, int, float,
                               float *, int);
typedef void (*f77_sgemm_fn)(const char *, const char *, const int *, const int *, const int *, const float *,
                             const float *, const int *, const float *, const int *, const float *, float *,
                             const int *);
typedef void (*cblas_sgemm64_fn)(int, int, int, int64_t, int64_t, int64_t, float, const float *, int64_t,
                                 const float *, int64_t, float, float *, int64_t);
typedef void (*f77_sgemm64_fn)(const char *, const char *, const int64_t *, const int64_t *, const int64_t *,
                               const float *, const float *, const int64_t *, const float *, const int64_t *,
                               const float *, float *, const int64_t *);

static const char *const symbol[TB_IFACE_COUNT] = { "cblas_sgemm",    "sgemm_",
                                                    "cblas_sgemm64_", "sgemm_64_",
                                                    "scipy_cblas_sgemm64_", "scipy_sgemm_64_" };
/* the library opened when nothing loaded has the symbol (none for the scipy names: numpy brings its own) */
static const char *const fallback[TB_IFACE_COUNT] = { "libopenblas.so.0",   "libopenblas.so.0",
                                                      "libopenblas64_.so.0", "libopenblas64_.so.0", NULL, NULL };
static void *fn[TB_IFACE_COUNT];
static const char *where[TB_IFACE_COUNT];
static pthread_mutex_t resolving = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int resolved[TB_IFACE_COUNT];
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

/* the paths of the loaded libraries, collected first: dlopen may not be called from dl_iterate_phdr's callback */
typedef struct loaded {
    char **path;
    int count, size;
} loaded;

static int collect(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    loaded *l = arg;
    if (!info->dlpi_name || !info->dlpi_name[0])
        return 0; /* the program itself: RTLD_NEXT has seen it */
    if (l->count == l->size) {
        int grown = l->size ? 2 * l->size : 64;
        char **p = realloc(l->path, (size_t)grown * sizeof *p);
        if (!p)
            return 1;
        l->path = p, l->size = grown;
    }
    if ((l->path[l->count] = strdup(info->dlpi_name)))
        l->count++;
    return 0;
}

/* name as defined by a library already loaded, by RTLD_LOCAL ones too (not ours); else NULL */
static void *from_loaded(const char *name)
{
    loaded l = { NULL, 0, 0 };
    dl_iterate_phdr(collect, &l);
    void *f = NULL;
    for (int i = 0; i < l.count; i++) {
        void *h = f ? NULL : dlopen(l.path[i], RTLD_LAZY | RTLD_NOLOAD);
        if (h) {
            void *g = dlsym(h, name);
            f = g && !is_ours(g) ? g : NULL;
            dlclose(h); /* RTLD_NOLOAD took a reference; the library stays, as before */
        }
        free(l.path[i]);
    }
    free(l.path);
    return f;
}

static void resolve(tb_iface i)
{
    const char *override = tb_config_get()->cpu_blas, *err;
    static _Atomic int warned_override;
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
        f = from_loaded(symbol[i]);
    if (!f && fallback[i])
        f = from_library(fallback[i], symbol[i], &err);
    Dl_info info;
    fn[i] = f;
    where[i] = f && dladdr(f, &info) && info.dli_fname ? info.dli_fname : NULL;
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
    const int wide = tb_iface_is_64(g->iface);
    if (tb_iface_is_cblas(g->iface)) {
        int row = g->orig.cblas.order == 101;
        /* undo the row-major swap made by compat/cblas_sgemm.c */
        const float *a = row ? g->p.b : g->p.a, *b = row ? g->p.a : g->p.b;
        int64_t lda = row ? g->p.ldb : g->p.lda, ldb = row ? g->p.lda : g->p.ldb;
        int64_t m = row ? g->p.n : g->p.m, n = row ? g->p.m : g->p.n;
        if (wide)
            ((cblas_sgemm64_fn)f)(g->orig.cblas.order, g->orig.cblas.trans_a, g->orig.cblas.trans_b, m, n, g->p.k,
                                  g->p.alpha, a, lda, b, ldb, g->p.beta, g->p.c, g->p.ldc);
        else
            ((cblas_sgemm_fn)f)(g->orig.cblas.order, g->orig.cblas.trans_a, g->orig.cblas.trans_b, (int)m, (int)n,
                                (int)g->p.k, g->p.alpha, a, (int)lda, b, (int)ldb, g->p.beta, g->p.c, (int)g->p.ldc);
    } else if (wide) {
        ((f77_sgemm64_fn)f)(&g->orig.fortran.transa, &g->orig.fortran.transb, &g->p.m, &g->p.n, &g->p.k,
                            &g->p.alpha, g->p.a, &g->p.lda, g->p.b, &g->p.ldb, &g->p.beta, g->p.c, &g->p.ldc);
    } else {
        int m = (int)g->p.m, n = (int)g->p.n, k = (int)g->p.k;
        int lda = (int)g->p.lda, ldb = (int)g->p.ldb, ldc = (int)g->p.ldc;
        ((f77_sgemm_fn)f)(&g->orig.fortran.transa, &g->orig.fortran.transb, &m, &n, &k, &g->p.alpha, g->p.a, &lda,
                          g->p.b, &ldb, &g->p.beta, g->p.c, &ldc);
    }
}

int tb_cpu_sgemm_found(const tb_gemm *g)
{
    void *f = atomic_load_explicit(&resolved[g->iface], memory_order_acquire) ? fn[g->iface] : NULL;
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
    if (!atomic_load_explicit(&resolved[g->iface], memory_order_acquire)) { /* once per interface */
        pthread_mutex_lock(&resolving);
        if (!atomic_load_explicit(&resolved[g->iface], memory_order_relaxed)) {
            resolve(g->iface);
            atomic_store_explicit(&resolved[g->iface], 1, memory_order_release);
        }
        pthread_mutex_unlock(&resolving);
    }
    if (tb_cpu_sgemm_found(g))
        return;
    tb_warn_once(&warned_missing, "no CPU BLAS with %s found (set TILEBLAS_CPU_BLAS); using a slow built-in loop",
                 symbol[g->iface]);
    builtin_sgemm(g);
}
