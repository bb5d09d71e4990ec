/*
 * The kernels, in table order, as one list that both tables are made from: the names, the element types and the
 * single-precision math of each (kernels/names.c, in the library proper, which must know them without loading
 * CUDA), and the launchers and workspace functions (kernels/table.c, in the GPU module).  A row: name, launcher,
 * workspace function (0: none needed), the types as a mask of TB_TYPE_BIT(t), the math as a mask of
 * TB_MATH_BIT(m), the family whose recipe lib/decide/recipes.c decides (TB_FAMILY_ of kernels/recipe.h; NONE:
 * nothing to decide) and, for the tensor-core families, the kernel that runs what their recipe keeps off the
 * tensor cores (0: none).  Adding a kernel is a new .cu and a row here.  Which kernel a type runs by default, under
 * each single-precision math, is stated below (TB_KERNEL_DEFAULTS), not implied by the order of the rows.
 */
#ifndef TB_KERNEL_LIST_H
#define TB_KERNEL_LIST_H

#define TB_S TB_TYPE_BIT(TB_TYPE_S)
#define TB_D TB_TYPE_BIT(TB_TYPE_D)
#define TB_C TB_TYPE_BIT(TB_TYPE_C)
#define TB_Z TB_TYPE_BIT(TB_TYPE_Z)
/* The complex kernels (kernels/complex.cu); -DTB_COMPLEX_KERNELS=0 builds without them, and complex calls then run
 * on the CPU BLAS. */
#ifndef TB_COMPLEX_KERNELS
#define TB_COMPLEX_KERNELS 1
#endif
#if TB_COMPLEX_KERNELS
#define TB_COMPLEX_ROWS(X)                                                                                         \
    /* complex products as complex numbers, 32 x 32 per block (kernels/cx.cu): on the FP32 or FP64 units, and */   \
    /* ZGEMM on the FP64 tensor cores */                                                                           \
    X("cx-simt", tb_launch_cx, tb_workspace_cx, TB_C | TB_Z, TB_FP32, CX_SIMT, 0)                                  \
    X("cx-dmma", tb_launch_cx, tb_workspace_cx, TB_Z, 0, CX_DMMA, 0)                                               \
    /* complex products as four real ones (4M) on each math's single-precision kernel, and on dmma */              \
    X("c4m-blocked", tb_launch_c4m_blocked, tb_workspace_c4m_blocked, TB_C, TB_FP32, C4M_BLOCKED, 0)               \
    X("c4m-tf32", tb_launch_c4m_tf32, tb_workspace_c4m_tf32, TB_C, TB_MATH_BIT(TB_MATH_TF32), C4M_TF32, 0)         \
    /* op(A) always read in place by the real kernel (the defaults do only where n is small), and a */             \
    /* transposed op(B) too */                                                                                     \
    X("c4m-tc32-inplace", tb_launch_c4m_tc32, tb_workspace_c4m_tc32, TB_C, TB_FP32_TC, C4M_TC32_HERE, 0)           \
    X("z4m-dmma-inplace", tb_launch_z4m_dmma, tb_workspace_z4m_dmma, TB_Z, 0, Z4M_DMMA_HERE, 0)                    \
    X("c4m-tc32", tb_launch_c4m_tc32, tb_workspace_c4m_tc32, TB_C, TB_FP32_TC, C4M_TC32, 0)                        \
    X("z4m-dmma", tb_launch_z4m_dmma, tb_workspace_z4m_dmma, TB_Z, 0, Z4M_DMMA, 0)
#define TB_NAIVE_COMPLEX (TB_C | TB_Z) /* naive runs them too, as the reference */
#define TB_COMPLEX_DEFAULTS(X)                                                                                     \
    X(C, FP32_TC, "c4m-tc32") X(C, FP32, "c4m-blocked") X(C, TF32, "c4m-tf32")                                     \
    X(Z, FP32_TC, "z4m-dmma") X(Z, FP32, "z4m-dmma") X(Z, TF32, "z4m-dmma")
#else
#define TB_COMPLEX_ROWS(X)
#define TB_NAIVE_COMPLEX 0
#define TB_COMPLEX_DEFAULTS(X)
#endif
#define TB_FP32 TB_MATH_BIT(TB_MATH_FP32)
#define TB_FP32_TC TB_MATH_BIT(TB_MATH_FP32_TC)
#define TB_KERNEL_LIST(X)                                                                                          \
    /* one thread per element of C: the lessons' starting point, and the reference for every type */               \
    X("naive", tb_launch_naive, 0, TB_S | TB_D | TB_NAIVE_COMPLEX, TB_FP32, NONE, 0)                               \
    /* shared-memory tiles, 16 x 16 and 32 x 32 (the lessons' best) */                                             \
    X("tiled16", tb_launch_tiled16, 0, TB_S, TB_FP32, NONE, 0)                                                     \
    X("tiled32", tb_launch_tiled32, 0, TB_S, TB_FP32, NONE, 0)                                                     \
    /* register-blocked: 64 x 64 per block and 8 x 8 per thread; 128 x 128 and 256 x 128 (or 128 x 256), 8 x 16 */ \
    X("block64", tb_launch_block64, 0, TB_S, TB_FP32, NONE, 0)                                                     \
    X("block128", tb_launch_block128, 0, TB_S, TB_FP32, NONE, 0)                                                   \
    X("block256", tb_launch_block256, 0, TB_S, TB_FP32, NONE, 0)                                                   \
    /* the register-blocked configuration chosen by shape, with k split (a workspace) for shapes of few tiles */   \
    X("blocked", tb_launch_blocked, tb_workspace_blocked, TB_S, TB_FP32, BLOCKED, 0)                               \
    /* TF32 (TILEBLAS_MATH=tf32): each element rounded to TF32, one product; blocked off Hopper */                 \
    X("tf32", tb_launch_tf32, tb_workspace_tf32, TB_S, TB_MATH_BIT(TB_MATH_TF32), TF32, "blocked")                 \
    /* FP32 at FP32's accuracy on the tensor cores (Hopper): three BF16 parts per element, 128 x 128 per block; */ \
    /* tc32 hands shapes where blocked is faster to it, tc128 only what the tensor cores cannot run */             \
    X("tc128", tb_launch_tc128, tb_workspace_tc128, TB_S, TB_FP32_TC, TC128, "blocked")                            \
    X("tc32", tb_launch_tc32, tb_workspace_tc32, TB_S, TB_FP32_TC, TC32, "blocked")                                \
    /* FP64 on the tensor cores (DMMA): 128 x 128 per block, 128 x 64 and 64 x 128 (two blocks a SM) */            \
    X("dmma128", tb_launch_dmma128, 0, TB_D, 0, NONE, 0)                                                           \
    X("dmma128x64", tb_launch_dmma128x64, 0, TB_D, 0, NONE, 0)                                                     \
    X("dmma64x128", tb_launch_dmma64x128, 0, TB_D, 0, NONE, 0)                                                     \
    /* 64 x 32 per block, warps of 32 x 16 (three blocks a SM): for products of very few tiles */                  \
    X("dmma64x32", tb_launch_dmma64x32, 0, TB_D, 0, NONE, 0)                                                       \
    /* the DMMA configuration chosen by shape, with k split (a workspace) for shapes of few tiles */               \
    X("dmma", tb_launch_dmma, tb_workspace_dmma, TB_D, 0, DMMA, 0)                                                 \
    TB_COMPLEX_ROWS(X)

/* The default kernel of each type under each single-precision math (TILEBLAS_MATH): a row (type, math, kernel).
 * Double precision has one math, FP64: its rows name the same kernel for all three.  A type without rows runs on
 * the CPU (complex, in builds without the complex kernels). */
#define TB_KERNEL_DEFAULTS(X)                                                                                      \
    X(S, FP32_TC, "tc32") X(S, FP32, "blocked") X(S, TF32, "tf32")                                                 \
    X(D, FP32_TC, "dmma") X(D, FP32, "dmma") X(D, TF32, "dmma")                                                    \
    TB_COMPLEX_DEFAULTS(X)

#endif
