/* The BLAS beneath: for each entry point the same symbol in the program's own BLAS, found at run time. */
#ifndef TB_CPU_BLAS_H
#define TB_CPU_BLAS_H

#include <stdatomic.h>
#include "gemm.h"

/* An entry point's symbol in the BLAS beneath: its address (NULL when no BLAS has it) and whether that BLAS takes
 * 64-bit integers (always for the 64_ and scipy_ names; for the plain names, when the library is an ILP64 build). */
typedef struct tb_blas_fn {
    void *fn;
    int wide;
} tb_blas_fn;

/* Found on the entry point's first call, then one atomic load. */
TB_HIDDEN const tb_blas_fn *tb_cpu_blas_slow(tb_entry_id entry);
TB_HIDDEN extern _Atomic(const tb_blas_fn *) tb_cpu_blas_ready[TB_ENTRY_COUNT];
static inline const tb_blas_fn *tb_cpu_blas(tb_entry_id entry)
{
    const tb_blas_fn *f = atomic_load_explicit(&tb_cpu_blas_ready[entry], memory_order_acquire);
    return f ? f : tb_cpu_blas_slow(entry);
}

/* The file the BLAS beneath an entry point was found in (after its first call), else NULL. */
TB_HIDDEN const char *tb_cpu_blas_name(tb_entry_id entry);

/* Run the whole call g on the BLAS beneath, unchanged (results are that BLAS's own, bit for bit); with no BLAS
 * beneath, on a slow built-in loop. */
TB_HIDDEN void tb_cpu_gemm(const tb_gemm *g);

/* g on the built-in loop, whatever the BLAS beneath. */
TB_HIDDEN void tb_cpu_gemm_builtin(const tb_gemm *g);

/* The built-in loop itself, for a column-major problem on host memory (lib/cpu/builtin.c) */
TB_HIDDEN void tb_builtin_gemm(const tb_kproblem *p);

/* The same as tb_cpu_gemm for p, a piece of g (the tiles that the GPU did not finish). */
TB_HIDDEN void tb_cpu_gemm_part(const tb_gemm *g, const tb_kproblem *p);

/* Set while this thread is inside the BLAS beneath: an entry point reached then is that BLAS calling the symbols we
 * export (the reference CBLAS calls sgemm_), and goes straight back to it. */
TB_HIDDEN extern __thread int tb_in_cpu_blas;

#endif
