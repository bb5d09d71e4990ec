/* A host-memory call's plan on one device (lib/gpu/cuda_gpu.h, tb_cuda_prepare): the tiles within the memory the
 * device can give, room for the kernel's workspaces and prepared operands, staging and the device interface. */
#include <config.h>
#include <cuda_runtime_api.h>
#include "cuda_gpu.h"
#include "cuda_ops.h"
#include "kernels.h"

/* The device memory a call may use on `device` (the current one): what is free (plus what our cache holds) less a
 * margin for other users, and no more than TILEBLAS_GPU_MEMORY.  The plan leaves room in it for the kernels'
 * workspaces. */
static size_t budget(int device)
{
    size_t free_bytes = 0, total = 0;
    if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    size_t have = free_bytes + tb_cuda_cached_bytes(device), margin = total / 16 + ((size_t)256 << 20);
    size_t b = have > margin ? have - margin : 0;
    const double cap = tb_cuda_settings()->memory_cap;
    return cap > 0 && cap < (double)b ? (size_t)cap : b;
}

/* The workspace of the call's kernel for a tile of mb x nb (all of k), for the plan to leave room for */
struct tile_ws {
    int device, kernel;
    const tb_kproblem *p;
};

static size_t tile_ws_bytes(const void *ctx, int64_t mb, int64_t nb)
{
    const struct tile_ws *t = ctx;
    tb_kproblem tile = *t->p;
    tile.m = mb, tile.n = nb;
    return tb_cuda_workspace(t->device, t->kernel, &tile);
}

/* Where the kernel prepares its operands (kernels.h) and would run the plan's tiles itself, and both operands stay
 * whole with room for their prepared forms beside them: each row block and panel prepared once (plan->prep_bytes).
 * Not for two products under two alphas (HER2K's), which run one kernel each. */
static void plan_preparation(const tb_call *g, int device, int kernel, size_t budget, tb_plan *plan)
{
    if (!tb_kernel_prep_of(kernel) || !plan->b_resident || !tb_one_alpha(&g->p))
        return;
    tb_kproblem tile = g->p;
    tile.m = plan->mb, tile.n = plan->nb;
    const size_t a = tb_cuda_prep_bytes(device, kernel, &tile, 0, g->p.m);
    const size_t b = tb_cuda_prep_bytes(device, kernel, &tile, 1, g->p.n);
    if (a && b && plan->bytes + plan->ws_bytes + a + b <= budget)
        plan->prep_bytes[0] = a, plan->prep_bytes[1] = b;
}

/* The plan within `have` bytes, cut along both sides where grid is set (plan.h), with room for the kernels'
 * workspaces where the memory allows; else the plan alone: the workspaces may still find room when the kernels run
 * (they come from the pool), and a kernel without its own runs a slower way (k unsplit, the operands not
 * converted, the complex types on the naive kernel).  0, or -1 when not even the smallest tiles fit. */
static int make_plan(const tb_call *g, int device, int kernel, size_t have, int grid, tb_plan *plan)
{
    const tb_kproblem *p = &g->p;
    const unsigned e = tb_type_size(p->type);
    const struct tile_ws tws = { device, kernel, p };
    const tb_plan_ws ws = { tile_ws_bytes, &tws, grid };
    if (!tb_plan_make_ws(p->m, p->n, p->k, p->transa, p->transb, e, have, &ws, plan))
        return 0;
    return grid ? -1 : tb_plan_make(p->m, p->n, p->k, p->transa, p->transb, e, have, plan);
}

int tb_cuda_prepare(const tb_call *g, int kernel, int device, tb_plan *plan, const tb_pipe_staging **st,
                    tb_cuda_ctx *cc, tb_devops *ops, const char **what)
{
    const size_t have = budget(device);
    /* the complex kernels' plans cut C along both sides, so that their operands are prepared once (plan.h, grid):
     * their real forms are four times op(A), too much to make again for every tile; a real operand's conversion
     * costs little beside its copies */
    const int grid = tb_kernel_prep_of(kernel) && tb_type_complex(g->p.type);
    int rc = make_plan(g, device, kernel, have, grid, plan);
    if (grid) { /* cut both ways only where the kernel then prepares the operands: else as without */
        if (!rc)
            plan_preparation(g, device, kernel, have, plan);
        if (rc || !plan->prep_bytes[0])
            rc = make_plan(g, device, kernel, have, 0, plan);
    }
    if (rc) {
        *what = "device memory (the problem's smallest tiles do not fit)";
        return -1;
    }
    if (!(*st = tb_cuda_staging(device, tb_pipeline_slot_wanted(plan, g->p.k)))) {
        *what = "pinned host memory";
        return -1;
    }
    *cc = (tb_cuda_ctx){ device, kernel };
    tb_cuda_ops(cc, ops);
    plan_preparation(g, device, kernel, have, plan);
    return 0;
}

