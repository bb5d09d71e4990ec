/* Where a call runs: the thread's forced path, TILEBLAS_MODE, auto mode's cost model; the kernel. */
#ifndef TB_ROUTE_H
#define TB_ROUTE_H

#include "call.h"
#include "cost.h"
#include "env.h"
#include "spread.h"

/* 1 when p's kernel under cfg (as tb_route_kernel) computes on the tensor cores: single precision (real or complex)
 * under fp32-tc or tf32, the cost model's tc */
TB_HIDDEN int tb_route_on_tensor_cores(const tb_kproblem *p, const tb_config *cfg);

/* Auto mode's choice alone (no device check): 1 when the cost model predicts the GPU faster; *t: its predictions. */
TB_HIDDEN int tb_route_auto_wants_gpu(const tb_call *g, const tb_config *cfg, tb_cost *t);

/* The path that the thread, TILEBLAS_MODE or auto mode's cost model wants for g, before any device is asked
 * (TB_PATH_CPU also when no kernel runs g's type while some kernel is built in).  *predicted: the cost model's
 * times when auto mode chose, else zeros. */
TB_HIDDEN tb_path tb_route_wanted(const tb_call *g, const tb_config *cfg, tb_cost *predicted);

/* What the GPU is to do with a call from host memory: the kernel asked for (a row of the table; the GPU side hands
 * a shape that row's kernel does not take to the kernel it names instead: kernels/list.h) and the call's blocks
 * over the devices (one block, unless spreading is predicted faster: lib/decide/spread.h). */
typedef struct tb_gpu_plan {
    int kernel;
    tb_spread spread;
} tb_gpu_plan;

/* The plan for g on the GPU, given how many devices calls may use: 0, or -1 when no kernel runs g's type. */
TB_HIDDEN int tb_decide_gpu(const tb_call *g, const tb_config *cfg, int devices, tb_gpu_plan *plan);

/* The GPU kernel (table index) for p: the thread's, else TILEBLAS_KERNEL's, where that kernel runs p's type, else the
 * type's default; -1 when no kernel runs it. */
TB_HIDDEN int tb_route_kernel(const tb_kproblem *p);

/* Per-thread overrides (tileblas_set_path / tileblas_set_kernel). */
TB_HIDDEN void tb_route_force_path(tb_path path); /* TB_PATH_NONE: no override */
TB_HIDDEN extern __thread tb_path tb_forced_path;  /* the thread's forced path, read by the tiny-call test */
TB_HIDDEN void tb_route_force_kernel(int kernel); /* -1: no override */

#endif
