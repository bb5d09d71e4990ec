#include <config.h>
#include "plan.h"

/* Tile sides are multiples of this (the kernels' largest tile side), except the last of a row or column. */
#define GRAIN 256

size_t tb_plan_block_bytes(int64_t rows, int64_t cols, unsigned esize)
{
    return (size_t)((rows + 3) & ~(int64_t)3) * (size_t)cols * esize;
}

static size_t ctile_bytes(int64_t mb, int64_t nb, unsigned e)
{
    return (tb_plan_block_bytes(mb, nb, e) + 255) & ~(size_t)255;
}

size_t tb_plan_ctile_bytes(const tb_plan *plan)
{
    return ctile_bytes(plan->mb, plan->nb, plan->esize);
}

static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* side rounded up to the grain, but never past the whole dimension */
static int64_t to_grain(int64_t side, int64_t dim)
{
    side = ceil_div(side, GRAIN) * GRAIN;
    return side < dim ? side : dim;
}

/* The device memory for tiles of mb x nb with `depth` in flight (and as many C tiles); op(A) whole when a_resident,
 * op(B) when b_resident. */
static size_t plan_bytes(int64_t m, int64_t n, int64_t k, int transa, int transb, unsigned e, int64_t mb,
                         int64_t nb, int a_resident, int b_resident, int depth)
{
    int64_t mtiles = ceil_div(m, mb), ntiles = ceil_div(n, nb);
    size_t a_block = transa ? tb_plan_block_bytes(k, mb, e) : tb_plan_block_bytes(mb, k, e);
    size_t a_whole = transa ? tb_plan_block_bytes(k, m, e) : tb_plan_block_bytes(m, k, e);
    size_t b_panel = transb ? tb_plan_block_bytes(nb, k, e) : tb_plan_block_bytes(k, nb, e);
    size_t b_whole = transb ? tb_plan_block_bytes(n, k, e) : tb_plan_block_bytes(k, n, e);
    size_t c_tile = ctile_bytes(mb, nb, e);
    /* no more buffers of a kind than there are blocks of it */
    int64_t tiles = mtiles * ntiles;
    size_t a = a_resident ? a_whole : (size_t)(mtiles < depth ? mtiles : depth) * a_block;
    size_t b = b_resident ? b_whole : (size_t)(ntiles < depth ? ntiles : depth) * b_panel;
    return a + b + (size_t)(tiles < depth ? tiles : depth) * c_tile;
}

/* The largest tiles that fit at this depth, starting from up to TB_PLAN_TARGET_TILES of them along the longer
 * side of C and halving the longer tile side until the plan fits. */
static int fit(int64_t m, int64_t n, int64_t k, int transa, int transb, unsigned e, size_t budget, int depth,
               const tb_plan_ws *ws, tb_plan *plan)
{
    const int64_t min_m = m < TB_PLAN_MIN_TILE ? m : TB_PLAN_MIN_TILE;
    const int64_t min_n = n < TB_PLAN_MIN_TILE ? n : TB_PLAN_MIN_TILE;
    int64_t mb = m, nb = n;
    int64_t target = (m * k + k * n + m * n) * (int64_t)e / TB_PLAN_TILE_BYTES;
    target = target < 1 ? 1 : target > TB_PLAN_TARGET_TILES ? TB_PLAN_TARGET_TILES : target;
    int64_t blocks = ceil_div((n >= m ? m : n) * k * (int64_t)e, TB_PLAN_FIRST_BLOCK);
    if (ws && ws->grid && target > 1 && blocks < 2)
        blocks = 2;
    if (n >= m)
        nb = to_grain(ceil_div(n, target), n), mb = to_grain(ceil_div(m, blocks), m);
    else
        mb = to_grain(ceil_div(m, target), m), nb = to_grain(ceil_div(n, blocks), n);
    mb = mb < min_m ? min_m : mb;
    nb = nb < min_n ? min_n : nb;
    for (;;) {
        /* op(A) kept whole if it fits and is used by more than one panel (in one row block it is whole anyway);
         * op(B) too, for growing squares */
        const int64_t mtiles = ceil_div(m, mb), ntiles = ceil_div(n, nb), tiles = mtiles * ntiles;
        const int reuse = mtiles > 1 && ntiles > 1;
        /* the kernels in flight: no more than the tiles */
        const size_t ws_bytes = ws ? (size_t)(tiles < depth ? tiles : depth) * ws->bytes(ws->ctx, mb, nb) : 0;
        for (int keep = reuse ? 2 : 0; keep >= 0 && ws_bytes <= budget; keep--) { /* 2: both, 1: op(A), 0: neither */
            const int a_resident = keep >= 1, b_resident = keep == 2;
            size_t bytes = plan_bytes(m, n, k, transa, transb, e, mb, nb, a_resident, b_resident, depth);
            if (bytes <= budget - ws_bytes) {
                plan->mb = mb, plan->nb = nb;
                plan->mtiles = mtiles, plan->ntiles = ntiles;
                plan->a_resident = a_resident || mtiles == 1;
                plan->b_resident = b_resident;
                plan->depth = depth;
                plan->esize = e;
                plan->prep_bytes[0] = plan->prep_bytes[1] = 0;
                /* more C tiles where the memory left allows */
                const size_t c_tile = ctile_bytes(mb, nb, e);
                const int64_t base = tiles < depth ? tiles : depth; /* what `bytes` counts */
                const int64_t most = tiles < TB_PLAN_MAX_CTILES ? tiles : TB_PLAN_MAX_CTILES;
                const int64_t more = (int64_t)((budget - ws_bytes - bytes) / c_tile);
                plan->ws_bytes = ws_bytes;
                plan->ctiles = base + more < most ? base + more : most;
                plan->bytes = bytes + (size_t)(plan->ctiles - base) * c_tile;
                return 0;
            }
        }
        /* halve the longer side that can still shrink */
        int shrink_n = nb > min_n && (nb >= mb || mb <= min_m);
        if (shrink_n)
            nb = to_grain(nb / 2, n) < min_n ? min_n : to_grain(nb / 2, n);
        else if (mb > min_m)
            mb = to_grain(mb / 2, m) < min_m ? min_m : to_grain(mb / 2, m);
        else
            return -1;
    }
}

int tb_plan_make_ws(int64_t m, int64_t n, int64_t k, int transa, int transb, unsigned esize, size_t budget,
                    const tb_plan_ws *ws, tb_plan *plan)
{
    for (int depth = 3; depth >= 2; depth--)
        if (!fit(m, n, k, transa, transb, esize, budget, depth, ws, plan))
            return 0;
    return -1;
}

int tb_plan_make(int64_t m, int64_t n, int64_t k, int transa, int transb, unsigned esize, size_t budget,
                 tb_plan *plan)
{
    return tb_plan_make_ws(m, n, k, transa, transb, esize, budget, NULL, plan);
}
