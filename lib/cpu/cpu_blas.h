/* The BLAS beneath: for each entry point and each calling object, the symbol that caller would have reached
 * without tileblas, found at run time. */
#ifndef TB_CPU_BLAS_H
#define TB_CPU_BLAS_H

#include <stdatomic.h>
#include <stdint.h>
#include "gemm.h"

/* An entry point's symbol in the BLAS beneath a caller: its address (NULL when no BLAS has it); whether that BLAS
 * takes 64-bit integers (always for the 64_ and scipy_ names; for the plain names, when the library is an ILP64
 * build); and whether the caller's calls go straight to the symbol, untouched and uncounted: those of a BLAS itself
 * (a library that defines BLAS names, such as the reference CBLAS calling sgemm_), and a plain name's whose BLAS
 * could only be guessed (a definition in some library that the caller does not depend on): its width is unknown. */
struct tb_blas_fn {
    void *fn;
    int wide;
    int untouched;
};
typedef struct tb_blas_fn tb_blas_fn;

/* A calling object (the program, or a library that calls BLAS names): its mapped addresses, and each entry
 * point's symbol beneath it once found.  Listed for good: the object is kept loaded (it cannot go, and its
 * addresses cannot be reused by another, while its symbols are in use here). */
typedef struct tb_caller {
    uintptr_t start, end;
    const struct tb_caller *next;
    _Atomic(const tb_blas_fn *) fn[TB_ENTRY_COUNT];
} tb_caller;
TB_HIDDEN extern _Atomic(const tb_caller *) tb_callers;

/* Found on the caller's first call of the entry point (and on every call from code in no loaded object). */
TB_HIDDEN const tb_blas_fn *tb_cpu_blas_slow(tb_entry_id entry, const void *ret);

/* The BLAS beneath entry for the code that called it (ret: the return address): after the first call, a walk of
 * the short list of calling objects and one atomic load. */
static inline const tb_blas_fn *tb_cpu_blas(tb_entry_id entry, const void *ret)
{
    const uintptr_t at = (uintptr_t)ret;
    for (const tb_caller *c = atomic_load_explicit(&tb_callers, memory_order_acquire); c; c = c->next)
        if (at - c->start < c->end - c->start) {
            const tb_blas_fn *f = atomic_load_explicit(&c->fn[entry], memory_order_acquire);
            if (f)
                return f;
            break;
        }
    return tb_cpu_blas_slow(entry, ret);
}

/* The n-th file (from 0) in which the BLAS beneath an entry point was found for one of its callers, else NULL. */
TB_HIDDEN const char *tb_cpu_blas_name(tb_entry_id entry, int n);

/* An invalid call (info: the number of the first argument the reference BLAS rejects, 0 for a CBLAS order) to
 * entry with no BLAS beneath to report it: reported as that BLAS would, through the error handler the program
 * defines for the entry's names (xerbla_, xerbla_64_, scipy_xerbla_64_), else in its words on stderr. */
TB_HIDDEN void tb_cpu_report_invalid(tb_entry_id entry, int wide, int info);

/* Run the whole call g on the BLAS beneath, unchanged (results are that BLAS's own, bit for bit); with no BLAS
 * beneath, on a slow built-in loop. */
TB_HIDDEN void tb_cpu_gemm(const tb_gemm *g);

/* g on the built-in loop, whatever the BLAS beneath. */
TB_HIDDEN void tb_cpu_gemm_builtin(const tb_gemm *g);

/* The built-in loop itself, for a column-major problem on host memory (lib/cpu/builtin.c) */
TB_HIDDEN void tb_builtin_gemm(const tb_kproblem *p);

/* The same as tb_cpu_gemm for p, a piece of g (the tiles that the GPU did not finish). */
TB_HIDDEN void tb_cpu_gemm_part(const tb_gemm *g, const tb_kproblem *p);

#endif
