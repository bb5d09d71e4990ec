/*
 * The kernels, in table order, as one list that both tables are made from: the names (kernels/names.c, in the
 * library proper, which must know them without loading CUDA) and the launchers (kernels/table.c, in the GPU
 * module).  Adding a kernel is a new .cu and a row here; the last row is the default (best).
 */
#ifndef TB_KERNEL_LIST_H
#define TB_KERNEL_LIST_H

#define TB_KERNEL_LIST(X)                                                                                     \
    X("naive", tb_launch_naive)         /* one thread per element of C: the lessons' starting point */       \
    X("tiled16", tb_launch_tiled16)     /* shared-memory tiles, 16 x 16 */                                    \
    X("tiled32", tb_launch_tiled32)     /* shared-memory tiles, 32 x 32: the lessons' best */                 \
    X("block64", tb_launch_block64)     /* register-blocked: 64 x 64 per block, 8 x 8 per thread */          \
    X("block128", tb_launch_block128)   /* register-blocked: 128 x 128 per block, 8 x 16 per thread */       \
    X("block256", tb_launch_block256)   /* register-blocked: 256 x 128 (or 128 x 256), 8 x 16 per thread */ \
    X("blocked", tb_launch_blocked)     /* the register-blocked tile configuration chosen by shape */

#endif
