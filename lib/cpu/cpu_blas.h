/* The BLAS beneath: for each entry point and each calling object, the symbol that caller would have reached
 * without tileblas, found at run time (needs _GNU_SOURCE, which config.h defines). */
#ifndef TB_CPU_BLAS_H
#define TB_CPU_BLAS_H

#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <stdint.h>
#include "call.h"

/* An entry point's symbol in the BLAS beneath a caller: its address (NULL when no BLAS has it) and the span of
 * the library that holds it; whether that BLAS takes 64-bit integers (always for the 64_ and scipy_ names; for
 * the plain names, when the library is an ILP64 build); and whether the caller's calls go to it untouched and
 * uncounted, as those of a plain name whose BLAS could only be guessed (a definition in some library the caller
 * does not depend on): their width is unknown. */
struct tb_blas_fn {
    void *fn;
    uintptr_t start, end;
    int wide;
    int untouched;
};
typedef struct tb_blas_fn tb_blas_fn;

/* A calling object (the program, a library, or code in none): its link map and where it is mapped (together they
 * tell an object loaded again, or another in its place, from the one before), and each entry point's symbol
 * beneath it once found. */
typedef struct tb_caller {
    const void *map, *start;
    const struct tb_caller *next;
    _Atomic(const tb_blas_fn *) fn[TB_ENTRY_COUNT];
} tb_caller;
TB_HIDDEN extern _Atomic(const tb_caller *) tb_callers;

/* The object of the code at ret: its link map and start, NULL for code in no object */
static inline void tb_caller_of(const void *ret, const void **map, const void **start)
{
#ifdef HAVE__DL_FIND_OBJECT
    struct dl_find_object o;
    const int found = _dl_find_object((void *)(uintptr_t)ret, &o) == 0;
    *map = found ? o.dlfo_link_map : NULL, *start = found ? o.dlfo_map_start : NULL;
#else
    Dl_info info;
    struct link_map *lm = NULL;
    const int found = dladdr1(ret, &info, (void **)&lm, RTLD_DL_LINKMAP) != 0;
    *map = found ? lm : NULL, *start = found ? info.dli_fbase : NULL;
#endif
}

/* The listed caller of that object, else NULL */
static inline const tb_caller *tb_caller_listed(const void *map, const void *start)
{
    for (const tb_caller *c = atomic_load_explicit(&tb_callers, memory_order_acquire); c; c = c->next)
        if (c->map == map && c->start == start)
            return c;
    return NULL;
}

/* Found on the caller's first call of the entry point. */
TB_HIDDEN const tb_blas_fn *tb_cpu_blas_slow(tb_entry_id entry, const void *map, const void *start);

/* The BLAS beneath entry for the code that called it (ret: the return address): after the first call, a lookup of
 * the calling object (a few nanoseconds), a walk of the short list of callers and one atomic load. */
static inline const tb_blas_fn *tb_cpu_blas(tb_entry_id entry, const void *ret)
{
    const void *map, *start;
    tb_caller_of(ret, &map, &start);
    const tb_caller *c = tb_caller_listed(map, start);
    const tb_blas_fn *f = c ? atomic_load_explicit(&c->fn[entry], memory_order_acquire) : NULL;
    return f ? f : tb_cpu_blas_slow(entry, map, start);
}

/* The n-th file (from 0) in which the BLAS beneath an entry point was found for one of its callers, else NULL. */
TB_HIDDEN const char *tb_cpu_blas_name(tb_entry_id entry, int n);

/* An invalid call (info: the number of the first argument the reference BLAS rejects, 0 for a CBLAS order) to
 * entry with no BLAS beneath to report it: reported as that BLAS would, through the error handler the program
 * defines for the entry's names (xerbla_, xerbla_64_, scipy_xerbla_64_, scipy_xerbla_), else in its words on stderr. */
TB_HIDDEN void tb_cpu_report_invalid(tb_entry_id entry, int wide, int info);

/* Run the whole call g on the BLAS beneath, unchanged (results are that BLAS's own, bit for bit); with no BLAS
 * beneath, on a slow built-in loop. */
TB_HIDDEN void tb_cpu_gemm(const tb_call *g);

/* g on the built-in loop, whatever the BLAS beneath. */
TB_HIDDEN void tb_cpu_gemm_builtin(const tb_call *g);

/* The built-in loop itself, for a column-major problem on host memory (lib/cpu/builtin.c) */
TB_HIDDEN void tb_builtin_gemm(const tb_kproblem *p);

/* The same as tb_cpu_gemm for p, a piece of g (the tiles that the GPU did not finish); a piece that crosses its
 * triangle's diagonal goes as a product or two and a square on the diagonal (a call of g's routine). */
TB_HIDDEN void tb_cpu_gemm_part(const tb_call *g, const tb_kproblem *p);

#endif
