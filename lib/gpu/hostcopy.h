/*
 * Copies between the caller's (pageable) matrices and pinned staging buffers, spread over several host threads:
 * one thread cannot copy pageable memory as fast as the DMA moves pinned memory (doc/NOTES.md, "The staging
 * copies").  The threads are started on first use and kept; the calling thread works too.  Plain memory copies:
 * no CUDA here.
 */
#ifndef TB_HOSTCOPY_H
#define TB_HOSTCOPY_H

#include <stdint.h>
#include "call.h"

/* dst (leading dimension dld) = src (leading dimension sld), a rows x cols column-major block of esize-byte
 * elements. */
TB_HIDDEN void tb_copy2d(void *dst, int64_t dld, const void *src, int64_t sld, int64_t rows, int64_t cols,
                         unsigned esize);

/* tb_copy2d of the elements that a problem's part of C holds (base/problem.h: part, and diag, element (i, j) on the
 * diagonal when i + diag == j); herm: the diagonal's imaginary parts (each element's second half) set to 0 in dst. */
TB_HIDDEN void tb_copy2d_part(void *dst, int64_t dld, const void *src, int64_t sld, int64_t rows, int64_t cols,
                              unsigned esize, tb_part part, int64_t diag, int herm);

/* tb_copy2d in two halves, so that the caller can do other work while the threads copy: start hands the copy to
 * the threads (or, where it is small, does it at once); finish takes the caller's share and returns once all of
 * it is done.  Callers that copy at once share the threads (a call spread over several devices has a pipeline a
 * device, each with its own copies).  A thread finishes each copy it starts before it starts or makes another. */
typedef struct tb_copy_job {
    int posted; /* handed to the threads: finish has work to wait for */
    int slot;   /* the threads' job */
} tb_copy_job;
TB_HIDDEN void tb_copy2d_start(tb_copy_job *h, void *dst, int64_t dld, const void *src, int64_t sld, int64_t rows,
                               int64_t cols, unsigned esize);
TB_HIDDEN void tb_copy2d_finish(tb_copy_job *h);

/* A window on a symmetric (Hermitian: herm) matrix X stored in one triangle (lower, or upper): the copy's source
 * pointer is at X's (r, c), and element (i, j) of the block copied is X's (r + i, c + j), read from the stored
 * triangle (the other's: the transpose, conjugated when herm, whose diagonal's imaginary parts are then 0). */
typedef struct tb_sym_window {
    int64_t r, c;
    int lower, herm;
} tb_sym_window;

/* tb_copy2d_start of such a window (w NULL: a plain block) */
TB_HIDDEN void tb_copy2d_sym_start(tb_copy_job *h, void *dst, int64_t dld, const void *src, int64_t sld,
                                   int64_t rows, int64_t cols, unsigned esize, const tb_sym_window *w);

/* Map the pages of a rows x cols block (leading dimension dld) for writing, leaving what it holds, spread over the
 * threads as tb_copy2d is. */
TB_HIDDEN void tb_touch2d(void *dst, int64_t dld, int64_t rows, int64_t cols, unsigned esize);

/* Threads that tb_copy2d uses, the caller included (TILEBLAS_COPY_THREADS, else the online CPUs up to 16 for each
 * device the calls may spread over: sixteen keep one device's pipeline fed, and a call spread over several runs
 * their pipelines at once). */
TB_HIDDEN int tb_copy_threads(void);

/* The devices the calls may spread over (1 unless said), for tb_copy_threads: said before the first copy. */
TB_HIDDEN void tb_copy_threads_for_devices(int devices);

/* TILEBLAS_COPY_THREADS (0, the default: as above) and whether to say when the system refuses threads
 * (TILEBLAS_VERBOSE), told by the GPU side before the first copy. */
TB_HIDDEN void tb_copy_threads_told(int threads, int say);

/* Threads started besides the caller: 0 before the first copy large enough to share out, else at most
 * tb_copy_threads() - 1 (fewer where the system refused some). */
TB_HIDDEN int tb_copy_workers(void);

#endif
