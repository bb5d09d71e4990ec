/* The CPU path: the real BLAS, found at run time, and the call re-issued on the interface it came in on. */
#ifndef TB_CPU_BLAS_H
#define TB_CPU_BLAS_H

#include "gemm.h"

/* Run g on the CPU BLAS.  Results are that BLAS's own, bit for bit. */
TB_HIDDEN void tb_cpu_sgemm(const tb_gemm *g);

/* The same, for the tiny-call path: 1 when done; 0 (nothing done) until the CPU BLAS has been found by a first
 * tb_cpu_sgemm, or when there is none. */
TB_HIDDEN int tb_cpu_sgemm_found(const tb_gemm *g);

/* The file the CPU BLAS of an interface was found in (after the first CPU call), else NULL. */
TB_HIDDEN const char *tb_cpu_blas_name(tb_iface iface);

/* Set while this thread is inside the CPU BLAS: an entry point reached then is that BLAS calling back into
 * the symbols we export, and must go straight to the CPU BLAS again (tb_sgemm checks it). */
TB_HIDDEN extern __thread int tb_in_cpu_blas;

#endif
