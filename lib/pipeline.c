#include <config.h>
#include <string.h>
#include "hostcopy.h"
#include "pipeline.h"
#include "util.h"

/* Event numbers: staging slots (in, out), panel buffers uploaded, a queue done with a panel buffer; in growing
 * squares, each row block of A and each panel of B uploaded. */
#define EV_IN(r) (r)
#define EV_OUT(r) (TB_PIPE_SLOTS + (r))
#define EV_READY(b) (2 * TB_PIPE_SLOTS + (b))
#define EV_DONE(b, q) (2 * TB_PIPE_SLOTS + TB_PIPE_MAX_DEPTH + (b) * TB_PIPE_MAX_DEPTH + (q))
#define EV_A(i) (2 * TB_PIPE_SLOTS + TB_PIPE_MAX_DEPTH + TB_PIPE_MAX_DEPTH * TB_PIPE_MAX_DEPTH + (int)(i))
#define EV_B(j) (EV_A(TB_PLAN_MAX_BLOCKS) + (int)(j))

typedef struct run {
    const tb_gemm *g;
    const tb_plan *plan;
    unsigned e;                     /* bytes of an element */
    int64_t slot;                   /* elements in a staging slot */
    const tb_devops *ops;
    const tb_pipe_staging *st;
    const char *err;
    int next_in, next_out;          /* ring positions */
    int64_t out_tile[TB_PIPE_SLOTS]; /* the tile whose result an out slot holds, or -1 */
    void *out_dst[TB_PIPE_SLOTS];    /* where in C it goes */
    int64_t out_rows[TB_PIPE_SLOTS], out_cols[TB_PIPE_SLOTS];
    int64_t written;                /* tiles copied out to C, in order */
    tb_pipe_times times;
} run;

/* ops->host_wait, timed */
static int host_wait(run *r, int ev)
{
    const double t0 = tb_now();
    const int bad = r->ops->host_wait(r->ops->ctx, ev);
    r->times.wait += tb_now() - t0;
    return bad;
}

/* tb_copy2d, timed into *spent */
static void copy_timed(double *spent, void *dst, int64_t dld, const void *src, int64_t sld, int64_t rows,
                       int64_t cols, unsigned e)
{
    const double t0 = tb_now();
    tb_copy2d(dst, dld, src, sld, rows, cols, e);
    *spent += tb_now() - t0;
}

static int64_t ld4(int64_t rows)
{
    return (rows + 3) & ~(int64_t)3;
}

static int64_t min64(int64_t x, int64_t y)
{
    return x < y ? x : y;
}

static int failed(run *r, const char *what)
{
    if (!r->err)
        r->err = what;
    return -1;
}

/* The chunks of a rows x cols block that fit a staging slot: whole columns, or parts of one column.  Use:
 *   for (chunk_start(&c, slot, rows, cols); chunk_next(&c);) ... c.i, c.j, c.rows, c.cols ... */
typedef struct chunk {
    int64_t all_rows, all_cols, step_rows, step_cols; /* the block, and a full chunk */
    int64_t i, j, rows, cols;                          /* the current chunk */
} chunk;

static void chunk_start(chunk *c, int64_t slot, int64_t rows, int64_t cols)
{
    c->all_rows = rows, c->all_cols = cols;
    c->step_rows = rows <= slot ? rows : slot;
    c->step_cols = rows <= slot ? (slot / rows < cols ? slot / rows : cols) : 1;
    c->i = -c->step_rows, c->j = 0, c->rows = c->cols = 0;
}

static int chunk_next(chunk *c)
{
    c->i += c->step_rows;
    if (c->i >= c->all_rows)
        c->i = 0, c->j += c->step_cols;
    if (c->j >= c->all_cols)
        return 0;
    c->rows = min64(c->all_rows - c->i, c->step_rows);
    c->cols = min64(c->all_cols - c->j, c->step_cols);
    return 1;
}

static int64_t chunks(int64_t slot, int64_t rows, int64_t cols)
{
    chunk c;
    int64_t n = 0;
    for (chunk_start(&c, slot, rows, cols); chunk_next(&c);)
        n++;
    return n;
}

/* in elements */
static int64_t slot_least(const tb_plan *plan)
{
    /* whole columns when a tile has as many as half the ring, else parts of columns */
    const int64_t half = TB_PIPE_SLOTS / 2;
    return plan->nb >= half ? plan->mb * ((plan->nb + half - 1) / half)
                            : (plan->mb + half / plan->nb - 1) / (half / plan->nb);
}

int64_t tb_pipeline_slot_bytes(const tb_plan *plan)
{
    return slot_least(plan) * (int64_t)plan->esize;
}

int64_t tb_pipeline_slot_wanted(const tb_plan *plan, int64_t k)
{
    /* the largest block that goes through a slot: a row block of op(A), a panel of op(B) or a tile of C */
    int64_t largest = plan->mb * k > k * plan->nb ? plan->mb * k : k * plan->nb;
    largest = largest > plan->mb * plan->nb ? largest : plan->mb * plan->nb;
    int64_t want = min64(largest * (int64_t)plan->esize, TB_PIPE_GOOD_SLOT), least = tb_pipeline_slot_bytes(plan);
    return want > least ? want : least;
}

/* Queue the upload of a rows x cols block of the host matrix x (leading dimension ld) to dev (dld) on queue q. */
static int upload(run *r, int q, void *dev, int64_t dld, const void *x, int64_t ld, int64_t rows, int64_t cols)
{
    chunk c;
    void *ctx = r->ops->ctx;
    for (chunk_start(&c, r->slot, rows, cols); chunk_next(&c);) {
        int s = r->next_in;
        r->next_in = (s + 1) % TB_PIPE_SLOTS;
        if (host_wait(r, EV_IN(s)))
            return failed(r, "waiting for a staging buffer");
        copy_timed(&r->times.copy_in, r->st->in[s], c.rows, tb_at(x, c.i + c.j * ld, r->e), ld, c.rows, c.cols,
                   r->e);
        if (r->ops->h2d(ctx, q, tb_at(dev, c.i + c.j * dld, r->e), dld, r->st->in[s], c.rows, c.rows, c.cols, r->e))
            return failed(r, "copy to device");
        if (r->ops->record(ctx, q, EV_IN(s)))
            return failed(r, "recording an event");
    }
    return 0;
}

/* Copy tile t's results from the out slots to C, once every one of them has arrived (all or nothing). */
static int flush_tile(run *r, int64_t t)
{
    for (int s = 0; s < TB_PIPE_SLOTS; s++)
        if (r->out_tile[s] == t && host_wait(r, EV_OUT(s)))
            return failed(r, "copy to host");
    for (int s = 0; s < TB_PIPE_SLOTS; s++)
        if (r->out_tile[s] == t) {
            copy_timed(&r->times.copy_out, r->out_dst[s], r->g->p.ldc, r->st->out[s], r->out_rows[s],
                       r->out_rows[s], r->out_cols[s], r->e);
            r->out_tile[s] = -1;
        }
    r->written = t + 1;
    return 0;
}

/* Flush the tiles in the out ring up to and including t, oldest first. */
static int flush_upto(run *r, int64_t t)
{
    for (int64_t u = r->written; u <= t; u++) {
        int held = 0;
        for (int s = 0; s < TB_PIPE_SLOTS; s++)
            held |= r->out_tile[s] == u;
        if (held && flush_tile(r, u))
            return -1;
    }
    return 0;
}

/* Queue the download of tile t (rows x cols at dev, leading dimension dld) into the out ring, on queue q. */
static int download(run *r, int q, int64_t t, const void *dev, int64_t dld, void *c, int64_t rows, int64_t cols)
{
    chunk k;
    void *ctx = r->ops->ctx;
    for (chunk_start(&k, r->slot, rows, cols); chunk_next(&k);) {
        int s = r->next_out;
        r->next_out = (s + 1) % TB_PIPE_SLOTS;
        if (r->out_tile[s] >= 0 && flush_upto(r, r->out_tile[s]))
            return -1;
        if (r->ops->d2h(ctx, q, r->st->out[s], k.rows, tb_at(dev, k.i + k.j * dld, r->e), dld, k.rows, k.cols, r->e))
            return failed(r, "copy to host");
        if (r->ops->record(ctx, q, EV_OUT(s)))
            return failed(r, "recording an event");
        r->out_tile[s] = t;
        r->out_dst[s] = tb_at(c, k.i + k.j * r->g->p.ldc, r->e);
        r->out_rows[s] = k.rows, r->out_cols[s] = k.cols;
    }
    return 0;
}

/* Row block *i and panel *j of tile t in the plan's order: panel by panel, or in growing squares (lib/plan.h) */
static void tile_at(const tb_plan *plan, int64_t t, int64_t *i, int64_t *j)
{
    if (!plan->b_resident) {
        *i = t % plan->mtiles, *j = t / plan->mtiles;
        return;
    }
    for (int64_t s = 0;; s++) {
        /* shell s: row block s against panels 0 .. s - 1, then panel s against row blocks 0 .. s */
        const int64_t row = s < plan->mtiles ? min64(s, plan->ntiles) : 0;
        const int64_t col = s < plan->ntiles ? min64(s + 1, plan->mtiles) : 0;
        if (t < row) {
            *i = s, *j = t;
            return;
        }
        t -= row;
        if (t < col) {
            *i = t, *j = s;
            return;
        }
        t -= col;
    }
}

/* The rows and columns of C in row block i and panel j */
static void tile_extent(const tb_plan *plan, int64_t m, int64_t n, int64_t i, int64_t j, int64_t *i0, int64_t *rows,
                        int64_t *j0, int64_t *cols)
{
    *i0 = i * plan->mb, *j0 = j * plan->nb;
    *rows = m - *i0 < plan->mb ? m - *i0 : plan->mb;
    *cols = n - *j0 < plan->nb ? n - *j0 : plan->nb;
}

void tb_pipeline_tile(const tb_plan *plan, int64_t m, int64_t n, int64_t t, int64_t *i0, int64_t *rows, int64_t *j0,
                      int64_t *cols)
{
    int64_t i, j;
    tile_at(plan, t, &i, &j);
    tile_extent(plan, m, n, i, j, i0, rows, j0, cols);
}

/* The device buffers of a run: op(A) whole or by row blocks, panels of op(B), tiles of C. */
typedef struct buffers {
    void *a[TB_PIPE_MAX_DEPTH], *b[TB_PIPE_MAX_DEPTH], *c[TB_PIPE_MAX_DEPTH];
    int na, nb, nc;
} buffers;

static void release(const tb_devops *ops, buffers *d)
{
    for (int i = 0; i < d->na; i++)
        ops->release(ops->ctx, d->a[i]);
    for (int i = 0; i < d->nb; i++)
        ops->release(ops->ctx, d->b[i]);
    for (int i = 0; i < d->nc; i++)
        ops->release(ops->ctx, d->c[i]);
}

static int allocate(run *r, buffers *d)
{
    const tb_kproblem *p = &r->g->p;
    const tb_plan *pl = r->plan;
    const int depth = pl->depth;
    const unsigned e = r->e;
    const int64_t a_rows = pl->a_resident ? p->m : pl->mb;
    size_t a_bytes = p->transa ? tb_plan_block_bytes(p->k, a_rows, e) : tb_plan_block_bytes(a_rows, p->k, e);
    const int64_t b_cols = pl->b_resident ? p->n : pl->nb;
    size_t b_bytes = p->transb ? tb_plan_block_bytes(b_cols, p->k, e) : tb_plan_block_bytes(p->k, b_cols, e);
    size_t c_bytes = tb_plan_block_bytes(pl->mb, pl->nb, e);
    /* as many as there are blocks of a kind, up to the depth; tile t uses A and C buffers t % depth */
    int nc = (int)min64(pl->mtiles * pl->ntiles, depth), na = pl->a_resident ? 1 : nc;
    int nb = pl->b_resident ? 1 : (int)min64(pl->ntiles, depth);
    memset(d, 0, sizeof *d);
    for (; d->na < na; d->na++)
        if (r->ops->alloc(r->ops->ctx, a_bytes, &d->a[d->na]))
            return failed(r, "device memory");
    for (; d->nb < nb; d->nb++)
        if (r->ops->alloc(r->ops->ctx, b_bytes, &d->b[d->nb]))
            return failed(r, "device memory");
    for (; d->nc < nc; d->nc++)
        if (r->ops->alloc(r->ops->ctx, c_bytes, &d->c[d->nc]))
            return failed(r, "device memory");
    return 0;
}

/* Queue tile t: its operands that are not on the device yet, its kernel, its download. */
static int tile(run *r, const buffers *d, int64_t t, unsigned *panel_queues, unsigned panel0_queues, int *a_waited)
{
    const tb_kproblem *p = &r->g->p;
    const tb_plan *pl = r->plan;
    const tb_devops *ops = r->ops;
    const int depth = pl->depth, q = (int)(t % depth);
    int64_t i, j, i0, rows, j0, cols;
    tile_at(pl, t, &i, &j);
    tile_extent(pl, p->m, p->n, i, j, &i0, &rows, &j0, &cols);
    tb_kproblem k = *p;
    k.m = rows, k.n = cols;

    /* the panel of op(B): uploaded by the panel's first tile (i == 0, in either order).  Kept whole: the other
     * tiles wait for its upload.  Otherwise in one of `depth` buffers: uploaded once the tiles of the panel that
     * had the buffer before are done on every queue; the other tiles wait for the upload. */
    const int b = pl->b_resident ? 0 : (int)(j % d->nb);
    const unsigned e = r->e;
    const int ready = pl->b_resident ? EV_B(j) : EV_READY(b);
    void *bdev = d->b[b];
    if (pl->b_resident) {
        k.ldb = p->transb ? ld4(p->n) : ld4(p->k);
        bdev = tb_at(bdev, p->transb ? j0 : j0 * k.ldb, e);
    } else {
        k.ldb = p->transb ? ld4(pl->nb) : ld4(p->k);
    }
    k.b = bdev;
    if (i == 0) {
        for (int q2 = 0; q2 < depth; q2++)
            if ((panel_queues[b] >> q2 & 1) && ops->queue_wait(ops->ctx, q, EV_DONE(b, q2)))
                return failed(r, "waiting for an event");
        panel_queues[b] = 0;
        int bad = p->transb ? upload(r, q, bdev, k.ldb, tb_at(p->b, j0, e), p->ldb, cols, p->k)
                            : upload(r, q, bdev, k.ldb, tb_at(p->b, j0 * p->ldb, e), p->ldb, p->k, cols);
        if (bad || ops->record(ops->ctx, q, ready))
            return failed(r, "recording an event");
    } else if (ops->queue_wait(ops->ctx, q, ready)) {
        return failed(r, "waiting for an event");
    }

    /* the row block of op(A): kept whole (uploaded by its first tile, j == 0 in either order; panel by panel, the
     * later panels wait, once per queue, for the first panel to be done everywhere; in growing squares each tile
     * waits for its row block's upload) or uploaded for every tile */
    if (pl->a_resident) {
        k.lda = p->transa ? ld4(p->k) : ld4(p->m);
        void *adev = tb_at(d->a[0], p->transa ? i0 * k.lda : i0, e);
        k.a = adev;
        if (j == 0) {
            if (p->transa ? upload(r, q, adev, k.lda, tb_at(p->a, i0 * p->lda, e), p->lda, p->k, rows)
                          : upload(r, q, adev, k.lda, tb_at(p->a, i0, e), p->lda, rows, p->k))
                return -1;
            if (pl->b_resident && ops->record(ops->ctx, q, EV_A(i)))
                return failed(r, "recording an event");
        } else if (pl->b_resident) { /* growing squares: the row block's own upload */
            if (ops->queue_wait(ops->ctx, q, EV_A(i)))
                return failed(r, "waiting for an event");
        } else if (!a_waited[q]) {
            for (int q2 = 0; q2 < depth; q2++)
                if ((panel0_queues >> q2 & 1) && ops->queue_wait(ops->ctx, q, EV_DONE(0, q2)))
                    return failed(r, "waiting for an event");
            a_waited[q] = 1;
        }
    } else {
        k.lda = p->transa ? ld4(p->k) : ld4(pl->mb);
        void *adev = d->a[t % depth];
        k.a = adev;
        if (p->transa ? upload(r, q, adev, k.lda, tb_at(p->a, i0 * p->lda, e), p->lda, p->k, rows)
                      : upload(r, q, adev, k.lda, tb_at(p->a, i0, e), p->lda, rows, p->k))
            return -1;
    }

    /* C: read only when beta != 0 */
    k.c = d->c[t % depth];
    k.ldc = ld4(pl->mb);
    void *c = tb_at(p->c, i0 + j0 * p->ldc, e);
    if (p->beta != 0.0 && upload(r, q, k.c, k.ldc, c, p->ldc, rows, cols))
        return -1;
    if (ops->gemm(ops->ctx, q, &k))
        return failed(r, "kernel");
    if (!pl->b_resident) { /* who read the panel's buffer, for its next panel (kept whole, it has none) */
        if (ops->record(ops->ctx, q, EV_DONE(b, q)))
            return failed(r, "recording an event");
        panel_queues[b] |= 1u << q;
    }
    return download(r, q, t, k.c, k.ldc, c, rows, cols);
}

int64_t tb_pipeline_run(const tb_gemm *g, const tb_plan *plan, const tb_devops *ops, const tb_pipe_staging *staging,
                        tb_pipe_times *times, const char **err)
{
    run r = { .g = g, .plan = plan, .ops = ops, .st = staging, .e = plan->esize };
    *times = r.times;
    r.slot = plan->esize ? staging->slot_bytes / plan->esize : 0;
    for (int s = 0; s < TB_PIPE_SLOTS; s++)
        r.out_tile[s] = -1;
    /* a tile's results must fit in half the out ring, so that it is copied to C all at once */
    if (plan->depth < 1 || plan->depth > TB_PIPE_MAX_DEPTH || r.slot < 1 ||
        chunks(r.slot, plan->mb, plan->nb) > TB_PIPE_SLOTS / 2) {
        *err = "pipeline set-up (staging too small or depth out of range)";
        return 0;
    }
    buffers d;
    const int64_t tiles = plan->mtiles * plan->ntiles;
    unsigned panel_queues[TB_PIPE_MAX_DEPTH] = { 0 }, panel0_queues = 0;
    int a_waited[TB_PIPE_MAX_DEPTH] = { 0 };
    if (!allocate(&r, &d)) {
        for (int64_t t = 0; t < tiles; t++) {
            if (t == plan->mtiles) /* the first panel is queued: who has to be waited for by the next ones */
                panel0_queues = panel_queues[0];
            if (tile(&r, &d, t, panel_queues, panel0_queues, a_waited))
                break;
        }
        if (!r.err)
            flush_upto(&r, tiles - 1);
    }
    release(ops, &d);
    *times = r.times;
    *err = r.err;
    return r.written;
}
