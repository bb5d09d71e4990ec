/*
 * The GPU kernels: one .cu per kernel, each behind the same launch signature, listed once (list.h).
 * Kernels know nothing of BLAS entry points: they get device pointers and a column-major problem.
 */
#ifndef TB_KERNELS_H
#define TB_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include "base.h"
#include "problem.h"
#include "recipe.h"

#ifdef __cplusplus
extern "C" {
#endif


/* The contract of a kernel.  r: how it runs p, decided outside it (kernels/recipe.h; for a kernel of no family only
 * its decider matters); workspace: the device bytes it needs for p (0: none), which the caller allocates on the
 * launch's stream and frees after it; launch: queue the kernel on stream (a cudaStream_t) with that workspace (or
 * NULL: then it runs without, more slowly where it would have used one) and return the launch's cudaError_t (0 =
 * success).  A kernel touches no process-wide CUDA state: no pools, no device settings. */
typedef size_t (*tb_kernel_workspace)(const tb_kproblem *p, const tb_recipe *r);
typedef int (*tb_kernel_launch)(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);

/* The kernels, numbered in one order (kernels/list.h): their names, types, single-precision math, family (whose
 * recipe lib/decide/recipes.c decides) and the kernel each hands the problems its tensor cores do not run to, known
 * to the library proper; their launchers and workspace functions, which only the GPU side has (it is built with
 * CUDA).  With no CUDA there are none (count 0). */
TB_HIDDEN extern const char *const tb_kernel_names[];
TB_HIDDEN extern const unsigned tb_kernel_types[];
TB_HIDDEN extern const unsigned tb_kernel_maths[];
TB_HIDDEN extern const tb_family tb_kernel_families[];
TB_HIDDEN extern const char *const tb_kernel_instead[]; /* NULL: none */
TB_HIDDEN extern const int tb_kernel_count;
TB_HIDDEN extern const tb_kernel_launch tb_kernel_launches[];
TB_HIDDEN extern const tb_kernel_workspace tb_kernel_workspaces[];
TB_HIDDEN int tb_kernel_find(const char *name); /* index, or -1 */
TB_HIDDEN int tb_kernel_can(int kernel, const tb_kproblem *p); /* 1 when that kernel runs p's type */
/* index of the default kernel for t under math m (kernels/list.h, TB_KERNEL_DEFAULTS), or -1 if none */
TB_HIDDEN int tb_kernel_default(tb_type t, tb_math m);
/* what kernel's products of type t are: "fp32-tc", "fp32", "tf32" or "fp64" (double precision, real or complex) */
TB_HIDDEN const char *tb_kernel_math_name(int kernel, tb_type t);
/* GPU side: the current device's facts (kernels/recipe.h), from its attributes, the kernels' occupancy and whether the
 * tensor-core kernels' TMA can be set up */
TB_HIDDEN void tb_kernel_facts(tb_device_facts *f);
TB_HIDDEN int tb_blocked_per_sm(int shape);
TB_HIDDEN int tb_tc32_ready(void);
TB_HIDDEN void tb_cx_facts(tb_device_facts *f); /* cx's occupancy and clusters, TMA (kernels/cx.cu) */

/*
 * Operands prepared once for several products.  The host pipeline sends each row block of op(A) and each panel of
 * op(B) once and multiplies it into several tiles of C; a kernel that converts its operands before the product
 * (tc32: scales and BF16 parts; the complex kernels: their real forms) can convert each block once instead of for
 * every tile.
 *   bytes: device bytes of `rows` rows of op(A) (which 0) or columns of op(B) (which 1) prepared, k deep, where
 *          the kernel runs `tile` itself; 0 where it does not (then nothing is prepared);
 *   prepare: queue on stream the preparation of p's op(A) (which 0: its m rows, from p->a) or op(B) (which 1: its
 *          n columns) as rows [r0, ...) of prep, an operand of prep_rows rows (as `bytes` sized it);
 *   workspace, launch: as a kernel's (above), for tile p from the rows of prep_a from i0 and of prep_b from j0,
 *          each prepared there as one block.  p's a and b are still the operands: the kernel reads them for the
 *          elements the prepared form leaves out, and for all of p where it does not run p itself.
 */
typedef struct tb_kernel_prep {
    size_t (*bytes)(const tb_kproblem *tile, const tb_recipe *r, int which, int64_t rows);
    int (*prepare)(const tb_kproblem *p, const tb_recipe *r, int which, void *prep, int64_t prep_rows, int64_t r0,
                   void *stream);
    tb_kernel_workspace workspace;
    int (*launch)(const tb_kproblem *p, const tb_recipe *r, const void *prep_a, int64_t a_rows, int64_t i0,
                  const void *prep_b, int64_t b_rows, int64_t j0, void *workspace, void *stream);
} tb_kernel_prep;
/* GPU side: the prepared operands of kernel `kernel`, NULL for one without */
TB_HIDDEN const tb_kernel_prep *tb_kernel_prep_of(int kernel);
TB_HIDDEN extern const tb_kernel_prep tb_prep_tc128, tb_prep_tc32, tb_prep_tf32;
TB_HIDDEN extern const tb_kernel_prep tb_prep_c4m_blocked, tb_prep_c4m_tf32, tb_prep_c4m_tc32, tb_prep_z4m_dmma;

/* the launchers, one per .cu */
TB_HIDDEN int tb_launch_naive(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN int tb_launch_tiled16(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN int tb_launch_tiled32(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN int tb_launch_block64(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN int tb_launch_block128(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN int tb_launch_block256(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN int tb_launch_blocked(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN size_t tb_workspace_blocked(const tb_kproblem *p, const tb_recipe *r);
/* blocked with a transposed op(B) complex pairs (kernels/complex.cu): b and ldb the stored complex matrix read as
 * real (2n rows, k / 2 columns), its imaginary parts negated where transb is 2 (the conjugate transpose); k even */
TB_HIDDEN int tb_launch_blocked_pairs(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN size_t tb_workspace_blocked_pairs(const tb_kproblem *p, const tb_recipe *r);
/* blocked with op(A) the 2 x 2 blocks of interleaved complex numbers (as tb_launch_dmma_blocks), and op(B) real
 * with transb N or complex pairs with T or C (as tb_launch_blocked_pairs); m and k even */
TB_HIDDEN int tb_launch_blocked_blocks(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN size_t tb_workspace_blocked_blocks(const tb_kproblem *p, const tb_recipe *r);
TB_HIDDEN int tb_launch_dmma128(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN int tb_launch_dmma128x64(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN int tb_launch_dmma64x128(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN int tb_launch_dmma64x32(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN int tb_launch_dmma(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN size_t tb_workspace_dmma(const tb_kproblem *p, const tb_recipe *r);
/* dmma with op(A) the 2 x 2 blocks [re -im; im re] of interleaved complex numbers, read in place (kernels/complex.cu):
 * a and lda the stored complex matrix read as real (op N: 2m rows, k / 2 columns; T, or C for the conjugate
 * transpose (transa 2): k rows, m / 2 columns); where transb is T or C (2: conjugate), op(B) is read in place too,
 * as the real view of the complex op(B) (rows 2l, 2l + 1: its parts): b and ldb the stored complex matrix read as
 * real (2n rows, k / 2 columns); with transb N, b is real as for dmma.  Workspace as tb_workspace_dmma's */
TB_HIDDEN int tb_launch_dmma_blocks(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
/* dmma with op(A) real and a transposed op(B) complex pairs, as in tb_launch_dmma_blocks */
TB_HIDDEN int tb_launch_dmma_pairs(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN int tb_launch_tc128(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN size_t tb_workspace_tc128(const tb_kproblem *p, const tb_recipe *r);
TB_HIDDEN int tb_launch_tc32(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN size_t tb_workspace_tc32(const tb_kproblem *p, const tb_recipe *r);
/* tc32 with op(A) complex blocks, and a transposed op(B) complex pairs, as tb_launch_dmma_blocks (above), where the
 * recipe has the tensor cores run it, and elsewhere blocked's (tb_launch_blocked_blocks); its recipe is that of
 * form TB_FORM_BLOCKS, with TB_FORM_PAIRS too where op(B) is transposed */
TB_HIDDEN int tb_launch_tc32_blocks(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN size_t tb_workspace_tc32_blocks(const tb_kproblem *p, const tb_recipe *r);
/* tc32 with op(A) real and a transposed op(B) complex pairs, where the recipe says (elsewhere blocked's pairs; form
 * TB_FORM_PAIRS) */
TB_HIDDEN int tb_launch_tc32_pairs(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN size_t tb_workspace_tc32_pairs(const tb_kproblem *p, const tb_recipe *r);
TB_HIDDEN int tb_launch_tf32(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN size_t tb_workspace_tf32(const tb_kproblem *p, const tb_recipe *r);
/* complex products as complex numbers, op(A) and op(B) read as stored (kernels/cx.cu), on the tile of the recipe:
 * on the FP32 or FP64 units (cx-simt), and ZGEMM on the FP64 tensor cores (cx-dmma) */
TB_HIDDEN int tb_launch_cx(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN size_t tb_workspace_cx(const tb_kproblem *p, const tb_recipe *r);
/* complex products as four real ones (kernels/complex.cu), on the real kernel named; how (op(A) and op(B) in
 * place or not), or whether as complex numbers after all, is the recipe's */
TB_HIDDEN int tb_launch_c4m_blocked(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN size_t tb_workspace_c4m_blocked(const tb_kproblem *p, const tb_recipe *r);
TB_HIDDEN int tb_launch_c4m_tf32(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN size_t tb_workspace_c4m_tf32(const tb_kproblem *p, const tb_recipe *r);
TB_HIDDEN int tb_launch_c4m_tc32(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN size_t tb_workspace_c4m_tc32(const tb_kproblem *p, const tb_recipe *r);
TB_HIDDEN int tb_launch_z4m_dmma(const tb_kproblem *p, const tb_recipe *r, void *workspace, void *stream);
TB_HIDDEN size_t tb_workspace_z4m_dmma(const tb_kproblem *p, const tb_recipe *r);

#ifdef __cplusplus
}
#endif
#endif
