/*
 * Finding the BLAS beneath: for each entry point (entries.h) and each calling object, the symbol that caller would
 * have reached without us.  TILEBLAS_CPU_BLAS if set; else the definition in the global scope (dlsym RTLD_NEXT
 * where we are in it, RTLD_DEFAULT where we were loaded privately: the BLAS the program was linked with, or one
 * loaded globally), which the dynamic linker searches first for every caller; else the caller's own dependencies
 * (a library loaded privately, RTLD_LOCAL, with a BLAS of its own, as Python loads its extensions: two such may
 * bring BLAS builds of different integer widths); else the usual OpenBLAS opened privately (the entry point's
 * fallback: libopenblas.so.0, or for the 64_ names libopenblas64_.so.0, as OpenBLAS built with SYMBOLSUFFIX=64_ is
 * named; the one already loaded, if it is); else, a guess, a definition in any library loaded, to which the calls
 * of the plain names are passed untouched (their width unknown).  Never ourselves.  Found on the caller's first
 * call of the entry point; the integer width of the plain names is that library's, which stays loaded from then on.
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

/* A calling object as this file knows it: tb_caller (first: the fast path reads it) and the symbols found */
typedef struct caller {
    tb_caller pub;
    tb_blas_fn found[TB_ENTRY_COUNT];
} caller;

_Atomic(const tb_caller *) tb_callers;
enum { FILES = 4 }; /* distinct files named in the summary, per entry point */
static const char *files[TB_ENTRY_COUNT][FILES];
static pthread_mutex_t resolving = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static int is_ours(const void *f)
{
    Dl_info mine, theirs;
    return dladdr((void *)tb_cpu_gemm, &mine) && dladdr(f, &theirs) && mine.dli_fbase == theirs.dli_fbase;
}

static void *not_ours(void *f)
{
    return f && !is_ours(f) ? f : NULL;
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
            f = not_ours(dlsym(h, name));
            dlclose(h); /* RTLD_NOLOAD took a reference; the library stays, as before */
        }
        free(l.path[i]);
    }
    free(l.path);
    return f;
}

/* Whether the library at path, which defines plain BLAS names, is an ILP64 build: OpenBLAS says so in its
 * configuration string (Debian's libopenblas64 has plain names with 64-bit integers); other BLAS builds say it in
 * their file names (libblas64, libflexiblas64, MKL's ilp64 interface).  The library is kept loaded: its symbols
 * are called from now on. */
static int ilp64_library(const char *path)
{
    void *h = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    if (h) {
        char *(*config)(void) = (char *(*)(void))dlsym(h, "openblas_get_config");
        const char *c = config ? config() : NULL;
        if (c)
            return strstr(c, "USE64BITINT") != NULL;
    }
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return strstr(base, "blas64") || strstr(base, "ilp64");
}

/* The span of the loaded object whose segments hold the address at */
typedef struct span {
    uintptr_t at, start, end;
} span;

static int containing(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    span *o = arg;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    int in = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        const uintptr_t s = info->dlpi_addr + ph->p_vaddr, e = s + ph->p_memsz;
        lo = s < lo ? s : lo, hi = e > hi ? e : hi;
        in |= o->at - s < e - s;
    }
    if (in)
        o->start = lo, o->end = hi;
    return in;
}

/* name as the caller's own dependencies define it (not ours), where the caller is a library that can be opened
 * as itself (not the program, whose scope is the global one, nor one of another link-map namespace) */
static void *from_scope(const void *map, const char *name)
{
    const struct link_map *lm = map;
    if (!lm || !lm->l_name || !lm->l_name[0])
        return NULL;
    void *h = dlopen(lm->l_name, RTLD_LAZY | RTLD_NOLOAD), *f = NULL;
    struct link_map *got = NULL;
    if (h && dlinfo(h, RTLD_DI_LINKMAP, &got) == 0 && got == lm)
        f = not_ours(dlsym(h, name));
    if (h)
        dlclose(h); /* the reference RTLD_NOLOAD took; the symbol found is kept loaded by ilp64_library */
    return f;
}

/* The caller of that object, listed from now on (under the lock); NULL without memory */
static caller *list_caller(const void *map, const void *start)
{
    caller *c = (caller *)(uintptr_t)tb_caller_listed(map, start);
    if (c || !(c = calloc(1, sizeof *c)))
        return c;
    c->pub.map = map, c->pub.start = start;
    c->pub.next = atomic_load_explicit(&tb_callers, memory_order_relaxed);
    atomic_store_explicit(&tb_callers, &c->pub, memory_order_release);
    return c;
}

static void note_file(tb_entry_id i, const char *file)
{
    for (int n = 0; n < FILES; n++) {
        if (files[i][n] && strcmp(files[i][n], file))
            continue;
        files[i][n] = file;
        return;
    }
}

static void resolve(caller *c, tb_entry_id i)
{
    const char *name = tb_entries[i].name, *override = tb_config_get()->cpu_blas, *err;
    static _Atomic int warned_override;
    void *f = NULL;
    if (override && !(f = from_library(override, name, &err)))
        tb_warn_once(&warned_override, "TILEBLAS_CPU_BLAS=%s: no %s there (%s); looking elsewhere", override, name,
                     err ? err : "not found");
    if (!f)
        f = not_ours(dlsym(RTLD_NEXT, name)); /* the global scope after us, where we are in it */
    if (!f)
        f = not_ours(dlsym(RTLD_DEFAULT, name)); /* the global scope, where we were loaded privately */
    if (!f)
        f = from_scope(c->pub.map, name);
    if (!f && tb_entries[i].fallback)
        f = from_library(tb_entries[i].fallback, name, &err);
    const int guessed = !f && (f = from_loaded(name)) != NULL;
    Dl_info info;
    const char *file = f && dladdr(f, &info) && info.dli_fname ? info.dli_fname : NULL;
    span where = { .at = (uintptr_t)f };
    if (f)
        dl_iterate_phdr(containing, &where);
    c->found[i] = (tb_blas_fn){ .fn = f, .start = where.start, .end = where.end,
                                .wide = tb_entries[i].width == TB_WIDTH_64 || (file && ilp64_library(file)),
                                .untouched = guessed && tb_entries[i].width == TB_WIDTH_BLAS };
    if (file)
        note_file(i, file);
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

const tb_blas_fn *tb_cpu_blas_slow(tb_entry_id i, const void *map, const void *start)
{
    static caller anyone; /* without memory for another caller: the global scope's, as for code in no object */
    pthread_once(&atfork_once, register_atfork);
    pthread_mutex_lock(&resolving);
    caller *c = list_caller(map, start);
    if (!c)
        c = &anyone;
    if (!atomic_load_explicit(&c->pub.fn[i], memory_order_relaxed)) {
        resolve(c, i);
        atomic_store_explicit(&c->pub.fn[i], &c->found[i], memory_order_release);
    }
    pthread_mutex_unlock(&resolving);
    return &c->found[i];
}

const char *tb_cpu_blas_name(tb_entry_id entry, int n)
{
    return n >= 0 && n < FILES ? files[entry][n] : NULL;
}

/* The handlers the BLAS of each kind of name calls, referenced weakly and never defined here: a program linked
 * with tileblas that defines one then exports it, as it would for the BLAS it stands for, and dlsym finds it. */
typedef void xerbla_fn(const char *name, const void *info, size_t len);
extern xerbla_fn xerbla_ __attribute__((weak)), xerbla_64_ __attribute__((weak)),
    scipy_xerbla_64_ __attribute__((weak)), scipy_xerbla_ __attribute__((weak));
TB_HIDDEN xerbla_fn *const tb_xerbla_refs[] = { xerbla_, xerbla_64_, scipy_xerbla_64_, scipy_xerbla_ };

void tb_cpu_report_invalid(tb_entry_id entry, int wide, int info)
{
    const char *name = tb_entries[entry].name;
    const int scipy = !strncmp(name, "scipy_", 6), w64 = tb_entries[entry].width == TB_WIDTH_64;
    const char *handler = scipy ? w64 ? "scipy_xerbla_64_" : "scipy_xerbla_" : w64 ? "xerbla_64_" : "xerbla_";
    /* the routine's name as the reference passes it: upper case, padded to six */
    char routine[8];
    snprintf(routine, sizeof routine, "%c%s ", "SDCZ"[tb_entries[entry].type],
             tb_routine_names[tb_entries[entry].routine]);
    xerbla_fn *xerbla = (xerbla_fn *)not_ours(dlsym(RTLD_DEFAULT, handler));
    const int64_t wide_info = info;
    const int narrow_info = info;
    if (xerbla)
        xerbla(routine, wide ? (const void *)&wide_info : (const void *)&narrow_info, 6);
    else
        tb_msg("%s: on entry to %.6s parameter number %d had an illegal value (no BLAS beneath to report it; "
               "nothing done)", name, routine, info);
}

static void missing(tb_entry_id entry)
{
    static _Atomic int warned;
    tb_warn_once(&warned, "no CPU BLAS with %s found (set TILEBLAS_CPU_BLAS); using a slow built-in loop",
                 tb_entries[entry].name);
}

void tb_cpu_gemm(const tb_call *g)
{
    if (g->via->whole(g) == 0)
        return;
    missing(g->entry);
    tb_builtin_gemm(&g->p);
}

void tb_cpu_gemm_builtin(const tb_call *g)
{
    tb_builtin_gemm(&g->p);
}

static void part(const tb_call *g, const tb_kproblem *p)
{
    if (g->via->part(g, p) == 0)
        return;
    missing(g->entry);
    tb_builtin_gemm(p);
}

void tb_cpu_gemm_part(const tb_call *g, const tb_kproblem *p)
{
    /* a square on the diagonal is a call of the routine itself; a block off it, one product or two (SYR2K's); with
     * a symmetric operand, the products before and after its diagonal's square and that square's */
    tb_kproblem piece[3], product[2];
    if (p->sym) {
        for (int i = 0, n = tb_sym_pieces(p, piece); i < n; i++)
            part(g, &piece[i]);
        return;
    }
    for (int i = 0, n = tb_part_blocks(p, piece); i < n; i++)
        if (piece[i].part != TB_PART_ALL)
            part(g, &piece[i]);
        else
            for (int j = 0, np = tb_products(&piece[i], product); j < np; j++)
                part(g, &product[j]);
}
