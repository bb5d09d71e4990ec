/*
 * Finding the BLAS beneath, for each entry point (entries.h) its own symbol (cblas_sgemm, sgemm_, ...):
 * TILEBLAS_CPU_BLAS if set; else the next definition in the process (dlsym RTLD_NEXT: the BLAS the program was linked
 * with, or loaded after us); else a definition in any library already loaded, also those loaded privately
 * (RTLD_LOCAL), as Python loads numpy's scipy-openblas64; else the usual OpenBLAS opened privately
 * (the entry point's fallback: libopenblas.so.0, or for the 64_ names libopenblas64_.so.0, as OpenBLAS built with
 * SYMBOLSUFFIX=64_ is named).
 * Never ourselves.  Each entry point's is found on its first call (a numpy wheel's BLAS is loaded by then: numpy
 * is what calls), since the integer width of the plain names is that library's.
 */
#include <config.h> /* defines _GNU_SOURCE, for RTLD_NEXT and dl_iterate_phdr */
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cpu_blas.h"
#include "env.h"
#include "util.h"

static tb_blas_fn found[TB_ENTRY_COUNT];
static const char *where[TB_ENTRY_COUNT];
static pthread_mutex_t resolving = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
_Atomic(const tb_blas_fn *) tb_cpu_blas_ready[TB_ENTRY_COUNT];
__thread int tb_in_cpu_blas;

static int is_ours(void *f)
{
    Dl_info mine, theirs;
    return dladdr((void *)tb_cpu_gemm, &mine) && dladdr(f, &theirs) && mine.dli_fbase == theirs.dli_fbase;
}

/* name from the library at path, opened privately; NULL (with *err set) if it cannot be had.  A path with a slash
 * is opened only if it is a regular file (dlopen of a FIFO would wait for a writer forever). */
static void *from_library(const char *path, const char *name, const char **err)
{
    struct stat st;
    if (strchr(path, '/') && (stat(path, &st) || !S_ISREG(st.st_mode))) {
        *err = "not a regular file";
        return NULL;
    }
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

/* Whether the library at path, which defines plain BLAS names, is an ILP64 build: OpenBLAS says so in its
 * configuration string (Debian's libopenblas64 has plain names with 64-bit integers); other BLAS builds say it in
 * their file names (libblas64, libflexiblas64, MKL's ilp64 interface). */
static int ilp64_library(const char *path)
{
    void *h = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    if (h) {
        char *(*config)(void) = (char *(*)(void))dlsym(h, "openblas_get_config");
        const char *c = config ? config() : NULL;
        dlclose(h);
        if (c)
            return strstr(c, "USE64BITINT") != NULL;
    }
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return strstr(base, "blas64") || strstr(base, "ilp64");
}

static void resolve(tb_entry_id i)
{
    const char *override = tb_config_get()->cpu_blas, *err;
    static _Atomic int warned_override;
    void *f = NULL;
    if (override && !(f = from_library(override, tb_entries[i].name, &err)))
        tb_warn_once(&warned_override, "TILEBLAS_CPU_BLAS=%s: no %s there (%s); looking elsewhere", override,
                     tb_entries[i].name, err ? err : "not found");
    if (!f) {
        f = dlsym(RTLD_NEXT, tb_entries[i].name);
        if (f && is_ours(f))
            f = NULL;
    }
    if (!f)
        f = from_loaded(tb_entries[i].name);
    if (!f && tb_entries[i].fallback)
        f = from_library(tb_entries[i].fallback, tb_entries[i].name, &err);
    Dl_info info;
    found[i].fn = f;
    where[i] = f && dladdr(f, &info) && info.dli_fname ? info.dli_fname : NULL;
    found[i].wide = tb_entries[i].width == TB_WIDTH_64 || (where[i] && ilp64_library(where[i]));
}

/* fork: a child must not inherit the lock held by a thread that does not exist there */
static void before_fork(void)
{
    pthread_mutex_lock(&resolving);
}

static void after_fork(void)
{
    pthread_mutex_unlock(&resolving);
}

static void register_atfork(void)
{
    pthread_atfork(before_fork, after_fork, after_fork);
}

const tb_blas_fn *tb_cpu_blas_slow(tb_entry_id i)
{
    pthread_once(&atfork_once, register_atfork);
    pthread_mutex_lock(&resolving);
    if (!atomic_load_explicit(&tb_cpu_blas_ready[i], memory_order_relaxed)) {
        resolve(i);
        atomic_store_explicit(&tb_cpu_blas_ready[i], &found[i], memory_order_release);
    }
    pthread_mutex_unlock(&resolving);
    return &found[i];
}

const char *tb_cpu_blas_name(tb_entry_id entry)
{
    return where[entry];
}

static void missing(tb_entry_id entry)
{
    static _Atomic int warned;
    tb_warn_once(&warned, "no CPU BLAS with %s found (set TILEBLAS_CPU_BLAS); using a slow built-in loop",
                 tb_entries[entry].name);
}

void tb_cpu_gemm(const tb_gemm *g)
{
    if (g->via->whole(g) == 0)
        return;
    missing(g->entry);
    tb_builtin_gemm(&g->p);
}

void tb_cpu_gemm_builtin(const tb_gemm *g)
{
    tb_builtin_gemm(&g->p);
}

void tb_cpu_gemm_part(const tb_gemm *g, const tb_kproblem *p)
{
    if (g->via->part(g, p) == 0)
        return;
    missing(g->entry);
    tb_builtin_gemm(p);
}
