/* Where a call runs: the thread's forced path, TILEBLAS_MODE, the auto-mode size rule, a usable device. */
#ifndef TB_ROUTE_H
#define TB_ROUTE_H

#include "env.h"
#include "gemm.h"

/* Values match tileblas_path. */
typedef enum tb_path { TB_PATH_NONE = 0, TB_PATH_CPU = 1, TB_PATH_GPU = 2 } tb_path;

/* Flops of the call (2*M*N*K) and the bytes a GPU run moves over PCIe (A and B in, C out, C in when beta != 0). */
TB_HIDDEN double tb_gemm_flops(const tb_gemm *g);
TB_HIDDEN double tb_gemm_pcie_bytes(const tb_gemm *g);

/* The auto-mode size rule alone (no device check): 1 when the call should go to the GPU. */
TB_HIDDEN int tb_route_auto_wants_gpu(const tb_gemm *g, const tb_config *cfg);

/* The path for g, and the kernel (table index) when it is the GPU.  May initialise the GPU runtime. */
TB_HIDDEN tb_path tb_route(const tb_gemm *g, int *kernel);

/* Per-thread overrides (tileblas_set_path / tileblas_set_kernel). */
TB_HIDDEN void tb_route_force_path(tb_path path); /* TB_PATH_NONE: no override */
TB_HIDDEN void tb_route_force_kernel(int kernel); /* -1: no override */

#endif
