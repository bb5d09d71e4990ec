/* One call as lib/ sees it: a column-major problem, the entry point it came in on, and the way back to the BLAS
 * beneath. */
#ifndef TB_GEMM_H
#define TB_GEMM_H

#include <stddef.h>
#include <stdint.h>
#include "entries.h"
#include "kernels.h"

#define TB_HIDDEN __attribute__((visibility("hidden")))
#define TB_EXPORT __attribute__((visibility("default")))

typedef struct tb_gemm tb_gemm;

/* How compat/ gives a call back to the BLAS beneath.  whole: the caller's call, unchanged (same symbol, same
 * arguments); part: a column-major problem on host memory (a piece of the call that the GPU did not finish) through
 * the same symbol at that BLAS's integer width; describe: the call as the caller wrote it, for the log.  whole and
 * part return 0, or -1 when there is no BLAS beneath (nothing was done). */
typedef struct tb_reissue {
    int (*whole)(const tb_gemm *g);
    int (*part)(const tb_gemm *g, const tb_kproblem *p);
    void (*describe)(const tb_gemm *g, char *buf, size_t size);
} tb_reissue;

struct tb_gemm {
    /* column-major: C = alpha * op(A) * op(B) + beta * C, the kernels' problem with host pointers */
    tb_kproblem p;
    tb_entry_id entry; /* the entry point it came in on (entries.h: its ABI, integer width, type, operation) */
    const tb_reissue *via; /* NULL only in unit tests that never reach the CPU */
    const void *raw;       /* the caller's arguments, which only compat/ reads */
    const struct tb_blas_fn *beneath; /* the BLAS beneath this caller (lib/cpu/cpu_blas.h), which compat/ calls */
};

/* The core: routing, the GPU, statistics.  g is valid as the reference BLAS checks it (compat/ forwards the
 * calls that are not, and the tiny ones of lib/route/tiny.h). */
TB_HIDDEN void tb_gemm_run(const tb_gemm *g);

#endif
