/*
 * The kernels, in table order, as one list that both tables are made from: the names and the element types each
 * runs (kernels/names.c, in the library proper, which must know them without loading CUDA), and the launchers
 * and the workspace each needs (kernels/table.c, in the GPU module).  A row: name, launcher, workspace function
 * (0: none needed), the types as a mask of TB_TYPE_BIT(t).  Adding a kernel is a new .cu and a row here; for a
 * type, the last row that runs it is the default (the best).
 */
#ifndef TB_KERNEL_LIST_H
#define TB_KERNEL_LIST_H

#define TB_KERNEL_LIST(X)                                                                                     \
    /* one thread per element of C: the lessons' starting point, and the reference for every type */          \
    X("naive", tb_launch_naive, 0, TB_TYPE_BIT(TB_TYPE_S) | TB_TYPE_BIT(TB_TYPE_D))                               \
    /* shared-memory tiles, 16 x 16 and 32 x 32 (the lessons' best) */                                           \
    X("tiled16", tb_launch_tiled16, 0, TB_TYPE_BIT(TB_TYPE_S))                                                    \
    X("tiled32", tb_launch_tiled32, 0, TB_TYPE_BIT(TB_TYPE_S))                                                    \
    /* register-blocked: 64 x 64 per block and 8 x 8 per thread; 128 x 128 and 256 x 128 (or 128 x 256), 8 x 16 */ \
    X("block64", tb_launch_block64, 0, TB_TYPE_BIT(TB_TYPE_S))                                                    \
    X("block128", tb_launch_block128, 0, TB_TYPE_BIT(TB_TYPE_S))                                                  \
    X("block256", tb_launch_block256, 0, TB_TYPE_BIT(TB_TYPE_S))                                                  \
    /* the register-blocked configuration chosen by shape, with k split (a workspace) for shapes of few tiles */ \
    X("blocked", tb_launch_blocked, tb_workspace_blocked, TB_TYPE_BIT(TB_TYPE_S))                                \
    /* FP64 on the tensor cores (DMMA): 128 x 128 per block, 128 x 64 and 64 x 128 (two blocks a SM) */          \
    X("dmma128", tb_launch_dmma128, 0, TB_TYPE_BIT(TB_TYPE_D))                                                    \
    X("dmma128x64", tb_launch_dmma128x64, 0, TB_TYPE_BIT(TB_TYPE_D))                                              \
    X("dmma64x128", tb_launch_dmma64x128, 0, TB_TYPE_BIT(TB_TYPE_D))                                              \
    /* the DMMA configuration chosen by shape, with k split (a workspace) for shapes of few tiles */             \
    X("dmma", tb_launch_dmma, tb_workspace_dmma, TB_TYPE_BIT(TB_TYPE_D))

#endif
