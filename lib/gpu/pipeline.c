#include <config.h>
#include <string.h>
#include "hostcopy.h"
#include "pipeline.h"
#include "util.h"

/* Queues: tile t's kernel on queue t % depth; every upload, in the host's order, on UPQ; every download on DOWNQ;
 * the preparation of operands, after their uploads, on PREPQ. */
#define UPQ TB_PIPE_MAX_DEPTH
#define DOWNQ (TB_PIPE_MAX_DEPTH + 1)
#define PREPQ (TB_PIPE_MAX_DEPTH + 2)

/* Events: staging slots (in, out); the uploads queued so far done; the preparations queued so far done; queue q's
 * last kernel done; queue q's last kernel that read panel buffer b done; C buffer c's last kernel done, and its
 * last download done. */
#define EV_IN(s) (s)
#define EV_OUT(s) (TB_PIPE_SLOTS + (s))
#define EV_UP (2 * TB_PIPE_SLOTS)
#define EV_PREP (EV_UP + 1)
#define EV_KERNEL(q) (EV_PREP + 1 + (q))
#define EV_PANEL(b, q) (EV_KERNEL(TB_PIPE_MAX_DEPTH) + (b) * TB_PIPE_MAX_DEPTH + (q))
#define EV_COMPUTED(c) (EV_PANEL(TB_PIPE_MAX_DEPTH, 0) + (int)(c))
#define EV_FREED(c) (EV_COMPUTED(TB_PLAN_MAX_CTILES) + (int)(c))

/* The device buffers of a run: op(A) whole or by row blocks, panels of op(B), the C tiles side by side, op(A) and
 * op(B) prepared (where the plan has them). */
typedef struct buffers {
    void *a[TB_PIPE_MAX_DEPTH], *b[TB_PIPE_MAX_DEPTH], *c, *prep[2];
    int na, nb;
    size_t ctile; /* bytes from one C tile buffer to the next */
} buffers;

typedef struct run {
    const tb_call *g;
    const tb_plan *plan;
    unsigned e;                     /* bytes of an element */
    int64_t slot;                   /* elements in a staging slot */
    const tb_devops *ops;
    const tb_pipe_staging *st;
    const buffers *d;
    const char *err;
    int next_in, next_out;          /* ring positions */
    int held;                       /* out slots holding results not yet copied to C */
    int64_t out_tile[TB_PIPE_SLOTS]; /* the tile whose result an out slot holds, or -1 */
    void *out_dst[TB_PIPE_SLOTS];    /* where in C it goes */
    int64_t out_rows[TB_PIPE_SLOTS], out_cols[TB_PIPE_SLOTS];
    int64_t out_diag[TB_PIPE_SLOTS]; /* where the diagonal of C's part crosses it (base/problem.h's diag) */
    /* tiles, in the plan's order: [0, written) copied out to C; [written, queued) downloads queued; [queued,
     * computed) kernels queued */
    int64_t written, queued, computed;
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

/* Whether the block of C at (i0, j0) holds nothing of the call's part (SYRK's other triangle): its tile is neither
 * computed nor copied */
static int outside(const tb_kproblem *p, int64_t i0, int64_t rows, int64_t j0, int64_t cols)
{
    if (p->part == TB_PART_ALL)
        return 0;
    const tb_kproblem b = tb_kproblem_block(p, i0, rows, j0, cols);
    return tb_part_elems(&b) == 0;
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

/* Row block *i and panel *j of tile t in the plan's order: panel by panel, or in growing squares (lib/gpu/plan.h) */
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

/* 1 when the plan's operands are prepared once for all their tiles */
static int prepared(const tb_plan *plan)
{
    return plan->b_resident && plan->prep_bytes[0] && plan->prep_bytes[1];
}

static void release(const tb_devops *ops, buffers *d)
{
    for (int i = 0; i < 2; i++)
        if (d->prep[i])
            ops->release(ops->ctx, d->prep[i]);
    for (int i = 0; i < d->na; i++)
        ops->release(ops->ctx, d->a[i]);
    for (int i = 0; i < d->nb; i++)
        ops->release(ops->ctx, d->b[i]);
    if (d->c)
        ops->release(ops->ctx, d->c);
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
    /* as many as there are blocks of a kind, up to the depth; tile t uses A buffer t % depth */
    int na = pl->a_resident ? 1 : (int)min64(pl->mtiles * pl->ntiles, depth);
    int nb = pl->b_resident ? 1 : (int)min64(pl->ntiles, depth);
    memset(d, 0, sizeof *d);
    d->ctile = tb_plan_ctile_bytes(pl);
    for (; d->na < na; d->na++)
        if (r->ops->alloc(r->ops->ctx, a_bytes, &d->a[d->na]))
            return failed(r, "device memory");
    for (; d->nb < nb; d->nb++)
        if (r->ops->alloc(r->ops->ctx, b_bytes, &d->b[d->nb]))
            return failed(r, "device memory");
    if (r->ops->alloc(r->ops->ctx, d->ctile * (size_t)pl->ctiles, &d->c)) {
        d->c = NULL;
        return failed(r, "device memory");
    }
    for (int i = 0; i < 2 && prepared(pl); i++)
        if (r->ops->alloc(r->ops->ctx, pl->prep_bytes[i], &d->prep[i])) {
            d->prep[i] = NULL;
            return failed(r, "device memory");
        }
    return 0;
}

/* Tile t's C buffer on the device; CTILE_LD: the leading dimension of every one */
static void *ctile(const run *r, int64_t t)
{
    return (char *)r->d->c + (size_t)(t % r->plan->ctiles) * r->d->ctile;
}

#define CTILE_LD(plan) ld4((plan)->mb)

/* Copy the oldest tile whose download is queued to C, all of it at once, if its results have arrived (wait: once
 * they have).  1 when copied, 0 when not yet (or none is queued), -1 on failure. */
static int flush_oldest(run *r, int wait)
{
    const int64_t t = r->written;
    if (t >= r->queued)
        return 0;
    for (int s = 0; s < TB_PIPE_SLOTS; s++) {
        if (r->out_tile[s] != t)
            continue;
        int here = wait ? !host_wait(r, EV_OUT(s)) : r->ops->done(r->ops->ctx, EV_OUT(s));
        if (here < 0 || (wait && !here))
            return failed(r, "copy to host");
        if (!here)
            return 0;
    }
    for (int s = 0; s < TB_PIPE_SLOTS; s++)
        if (r->out_tile[s] == t) {
            const double t0 = tb_now(); /* the results, of the call's part of C alone */
            tb_copy2d_part(r->out_dst[s], r->g->p.ldc, r->st->out[s], r->out_rows[s], r->out_rows[s],
                           r->out_cols[s], r->e, r->g->p.part, r->out_diag[s], r->g->p.herm);
            r->times.copy_out += tb_now() - t0;
            r->out_tile[s] = -1;
            r->held--;
        }
    r->written = t + 1;
    return 1;
}

/* Queue the download of the oldest computed tile into the next out slots, if they are free (after its kernel, on
 * DOWNQ; its C buffer is free once the download is done).  1 when queued, 0 when the slots are not free yet, -1 on
 * failure. */
static int queue_download(run *r)
{
    const tb_plan *pl = r->plan;
    const int64_t t = r->queued;
    int64_t i0, rows, j0, cols;
    tb_pipeline_tile(pl, r->g->p.m, r->g->p.n, t, &i0, &rows, &j0, &cols);
    const int skip = outside(&r->g->p, i0, rows, j0, cols);
    if (!skip && chunks(r->slot, rows, cols) > TB_PIPE_SLOTS - r->held)
        return 0;
    void *ctx = r->ops->ctx;
    const int cb = (int)(t % pl->ctiles);
    const int64_t dld = CTILE_LD(pl);
    const void *dev = ctile(r, t);
    char *c = tb_at(r->g->p.c, i0 + j0 * r->g->p.ldc, r->e);
    if (r->ops->queue_wait(ctx, DOWNQ, EV_COMPUTED(cb)))
        return failed(r, "waiting for an event");
    chunk k;
    for (chunk_start(&k, r->slot, rows, skip ? 0 : cols); chunk_next(&k);) {
        int s = r->next_out;
        r->next_out = (s + 1) % TB_PIPE_SLOTS;
        if (r->ops->d2h(ctx, DOWNQ, r->st->out[s], k.rows, tb_at(dev, k.i + k.j * dld, r->e), dld, k.rows, k.cols,
                        r->e))
            return failed(r, "copy to host");
        if (r->ops->record(ctx, DOWNQ, EV_OUT(s)))
            return failed(r, "recording an event");
        r->out_tile[s] = t;
        r->out_dst[s] = tb_at(c, k.i + k.j * r->g->p.ldc, r->e);
        r->out_rows[s] = k.rows, r->out_cols[s] = k.cols;
        r->out_diag[s] = r->g->p.diag + (i0 + k.i) - (j0 + k.j);
        r->held++;
    }
    if (r->ops->record(ctx, DOWNQ, EV_FREED(cb)))
        return failed(r, "recording an event");
    r->queued = t + 1;
    return 1;
}

/* Take the results that have arrived to C and queue the downloads the out ring has room for; and if `need` >= 0,
 * go on (waiting for the oldest results as needed) until the download of tile `need` (computed) is queued. */
static int take_results(run *r, int64_t need)
{
    for (;;) {
        int rc;
        while ((rc = flush_oldest(r, 0)) > 0)
            ;
        while (rc == 0 && r->queued < r->computed && (rc = queue_download(r)) > 0)
            rc = 0;
        if (rc < 0)
            return -1;
        if (r->queued > need)
            return 0;
        if (flush_oldest(r, 1) < 0) /* the ring is full of results still on their way */
            return -1;
    }
}

/* Queue the DMA of chunk c, staged in in-slot s, to dev (dld), on UPQ; the slot is free again after it */
static int queue_chunk(run *r, void *dev, int64_t dld, const chunk *c, int s)
{
    void *ctx = r->ops->ctx;
    if (r->ops->h2d(ctx, UPQ, tb_at(dev, c->i + c->j * dld, r->e), dld, r->st->in[s], c->rows, c->rows, c->cols, r->e))
        return failed(r, "copy to device");
    return r->ops->record(ctx, UPQ, EV_IN(s)) ? failed(r, "recording an event") : 0;
}

/* Queue the upload of a rows x cols block of the host matrix x (leading dimension ld) to dev (dld), on UPQ, chunk by
 * chunk through the in slots.  While the next in slot is still being read by the device, results that have arrived
 * are taken first.  A chunk's DMA is queued while the copy threads stage the next one, so that the queueing
 * overlaps the copy. */
static int upload(run *r, void *dev, int64_t dld, const void *x, int64_t ld, int64_t rows, int64_t cols,
                  const tb_sym_window *w)
{
    chunk c, last;
    int last_slot = -1; /* a chunk staged whose DMA is not queued yet */
    for (chunk_start(&c, r->slot, rows, cols); chunk_next(&c);) {
        int s = r->next_in;
        r->next_in = (s + 1) % TB_PIPE_SLOTS;
        const int free = r->ops->done(r->ops->ctx, EV_IN(s));
        if (free < 0 || (!free && take_results(r, -1)) || (!free && host_wait(r, EV_IN(s))))
            return failed(r, "waiting for a staging buffer");
        const double t0 = tb_now();
        tb_copy_job job;
        tb_sym_window cw; /* the chunk's window, when x is one on a symmetric matrix */
        if (w)
            cw = *w, cw.r += c.i, cw.c += c.j;
        tb_copy2d_sym_start(&job, r->st->in[s], c.rows, tb_at(x, c.i + c.j * ld, r->e), ld, c.rows, c.cols, r->e,
                            w ? &cw : NULL);
        const int queued = last_slot >= 0 ? queue_chunk(r, dev, dld, &last, last_slot) : 0;
        tb_copy2d_finish(&job);
        r->times.copy_in += tb_now() - t0;
        if (queued)
            return -1;
        last = c, last_slot = s;
    }
    return last_slot >= 0 ? queue_chunk(r, dev, dld, &last, last_slot) : 0;
}

/* Queue the upload of a block of op(A) or op(B), k deep (by_rows: k rows of `width` columns, else `width` rows of k
 * columns), from x, and from x2 past k1 for a two-product call (base/problem.h): one block on the device.  w: x is
 * a window on a symmetric matrix (SYMM's A), uploaded whole, both triangles. */
static int upload_deep(run *r, void *dev, int64_t dld, int by_rows, const void *x, int64_t ld, const void *x2,
                       int64_t ld2, int64_t width, const tb_sym_window *w)
{
    const int64_t k = r->g->p.k, k1 = tb_depth(&r->g->p);
    if (by_rows ? upload(r, dev, dld, x, ld, k1, width, w) : upload(r, dev, dld, x, ld, width, k1, w))
        return -1;
    if (k1 == k)
        return 0;
    return by_rows ? upload(r, tb_at(dev, k1, r->e), dld, x2, ld2, k - k1, width, NULL)
                   : upload(r, tb_at(dev, k1 * dld, r->e), dld, x2, ld2, width, k - k1, NULL);
}

/* The window of block host's operand (1: op(A), 2: op(B)) when it is the symmetric one, else NULL */
static const tb_sym_window *sym_window(const tb_kproblem *host, int operand, tb_sym_window *w)
{
    if (host->sym != operand)
        return NULL;
    *w = (tb_sym_window){ host->sym_r, host->sym_c, host->sym_uplo == TB_LOWER, host->sym_herm };
    return w;
}

/* Queue tile k's kernels (its operands on the device, a two-product call's joined there k deep): one per product */
static int products(run *r, int q, tb_kproblem *k)
{
    if (k->k1) {
        k->a2 = tb_at(k->a, k->transa ? k->k1 : k->k1 * k->lda, r->e), k->lda2 = k->lda;
        k->b2 = tb_at(k->b, k->transb ? k->k1 * k->ldb : k->k1, r->e), k->ldb2 = k->ldb;
    }
    tb_kproblem x[2];
    for (int i = 0, n = tb_products(k, x); i < n; i++)
        if (r->ops->gemm(r->ops->ctx, q, &x[i]))
            return -1;
    return 0;
}

/* UPQ waits for ev (a buffer's last reader or writer) */
static int up_waits(run *r, int ev)
{
    return r->ops->queue_wait(r->ops->ctx, UPQ, ev) ? failed(r, "waiting for an event") : 0;
}

/* Queue tile t: its operands that are not on the device yet, its kernel. */
static int tile(run *r, int64_t t, unsigned *panel_queues)
{
    const tb_kproblem *p = &r->g->p;
    const tb_plan *pl = r->plan;
    const buffers *d = r->d;
    const tb_devops *ops = r->ops;
    const int depth = pl->depth, q = (int)(t % depth), cb = (int)(t % pl->ctiles);
    const unsigned e = r->e;
    int64_t i, j, i0, rows, j0, cols;
    tile_at(pl, t, &i, &j);
    tile_extent(pl, p->m, p->n, i, j, &i0, &rows, &j0, &cols);
    tb_kproblem k = *p;
    k.m = rows, k.n = cols, k.diag = p->diag + i0 - j0;
    /* a tile outside the call's part of C: the operands other tiles read, nothing else */
    const int skip = outside(p, i0, rows, j0, cols);
    const tb_kproblem host = tb_kproblem_block(p, i0, rows, j0, cols); /* its operands in the caller's memory */

    /* The panel of op(B), uploaded by the panel's first tile (i == 0, in either order): kept whole, or in one of
     * `depth` buffers once the kernels that read the panel before it there are done. */
    const int b = pl->b_resident ? 0 : (int)(j % d->nb);
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
            if ((panel_queues[b] >> q2 & 1) && up_waits(r, EV_PANEL(b, q2)))
                return -1;
        panel_queues[b] = 0;
        tb_sym_window w;
        if (upload_deep(r, bdev, k.ldb, !p->transb, host.b, p->ldb, host.b2, p->ldb2, cols, sym_window(&host, 2, &w)))
            return -1;
    }

    /* The row block of op(A): kept whole (uploaded by its first tile, j == 0 in either order), or uploaded for
     * every tile into buffer t % depth once the kernel of tile t - depth, on the same queue, is done. */
    void *adev;
    int send_a = 1;
    if (pl->a_resident) {
        k.lda = p->transa ? ld4(p->k) : ld4(p->m);
        adev = tb_at(d->a[0], p->transa ? i0 * k.lda : i0, e);
        send_a = j == 0;
    } else {
        k.lda = p->transa ? ld4(p->k) : ld4(pl->mb);
        adev = d->a[t % depth];
        send_a = !skip;
        if (send_a && t >= depth && up_waits(r, EV_KERNEL(q)))
            return -1;
    }
    k.a = adev;
    tb_sym_window wa;
    if (send_a &&
        upload_deep(r, adev, k.lda, p->transa, host.a, p->lda, host.a2, p->lda2, rows, sym_window(&host, 1, &wa)))
        return -1;

    /* C: read only when beta != 0, into its buffer once the download of the tile before there is done */
    k.c = ctile(r, t);
    k.ldc = CTILE_LD(pl);
    if (!tb_beta_zero(p) && !skip &&
        ((t >= pl->ctiles && up_waits(r, EV_FREED(cb))) ||
         upload(r, k.c, k.ldc, host.c, p->ldc, rows, cols, NULL)))
        return -1;

    /* the row block and panel sent just now prepared, once they are on the device, on a queue of their own (the
     * uploads go on meanwhile) */
    if (ops->record(ops->ctx, UPQ, EV_UP))
        return failed(r, "recording an event");
    const int prep = prepared(pl), prep_a = prep && send_a, prep_b = prep && i == 0;
    if ((prep_a || prep_b) && ops->queue_wait(ops->ctx, PREPQ, EV_UP))
        return failed(r, "waiting for an event");
    if ((prep_b && ops->prepare(ops->ctx, PREPQ, &k, 1, d->prep[1], p->n, j0)) ||
        (prep_a && ops->prepare(ops->ctx, PREPQ, &k, 0, d->prep[0], p->m, i0)))
        return failed(r, "preparing the operands");
    if ((prep_a || prep_b) && ops->record(ops->ctx, PREPQ, EV_PREP))
        return failed(r, "recording an event");

    /* the kernel, once every upload (and preparation) queued so far is done and its C buffer is free */
    if (ops->queue_wait(ops->ctx, q, EV_UP) || (prep && ops->queue_wait(ops->ctx, q, EV_PREP)) ||
        (t >= pl->ctiles && ops->queue_wait(ops->ctx, q, EV_FREED(cb))))
        return failed(r, "waiting for an event");
    if (tb_one_alpha(&k)) /* one product over the joined operands (the only kind the plan prepares) */
        k.k1 = 0;
    if (!skip && (prep ? ops->gemm_prepared(ops->ctx, q, &k, d->prep[0], p->m, i0, d->prep[1], p->n, j0)
                       : products(r, q, &k)))
        return failed(r, "kernel");
    if (ops->record(ops->ctx, q, EV_COMPUTED(cb)) || ops->record(ops->ctx, q, EV_KERNEL(q)))
        return failed(r, "recording an event");
    if (!pl->b_resident) { /* who read the panel's buffer, for its next panel (kept whole, it has none) */
        if (ops->record(ops->ctx, q, EV_PANEL(b, q)))
            return failed(r, "recording an event");
        panel_queues[b] |= 1u << q;
    }
    r->computed = t + 1;
    return 0;
}

int64_t tb_pipeline_run(const tb_call *g, const tb_plan *plan, const tb_devops *ops, const tb_pipe_staging *staging,
                        tb_pipe_times *times, const char **err)
{
    buffers d;
    run r = { .g = g, .plan = plan, .ops = ops, .st = staging, .e = plan->esize, .d = &d };
    *times = r.times;
    r.slot = plan->esize ? staging->slot_bytes / plan->esize : 0;
    for (int s = 0; s < TB_PIPE_SLOTS; s++)
        r.out_tile[s] = -1;
    /* a tile's results must fit in half the out ring: copied to C all at once, with the next tile's download
     * queued meanwhile */
    if (plan->depth < 1 || plan->depth > TB_PIPE_MAX_DEPTH || plan->ctiles < 1 || plan->ctiles > TB_PLAN_MAX_CTILES ||
        r.slot < 1 || chunks(r.slot, plan->mb, plan->nb) > TB_PIPE_SLOTS / 2) {
        *err = "pipeline set-up (staging too small, or depth or C tiles out of range)";
        return 0;
    }
    const int64_t tiles = plan->mtiles * plan->ntiles;
    unsigned panel_queues[TB_PIPE_MAX_DEPTH] = { 0 };
    /* C's pages mapped for writing first, all threads a piece each, values left as they are: memory never written
     * (numpy's fresh result of every product) costs a page fault and the kernel's zeroing per page, which inside
     * the copies out, a few pages at a time, costs twice as much */
    const double t0 = tb_now();
    tb_touch2d(g->p.c, g->p.ldc, g->p.m, g->p.n, r.e);
    r.times.copy_out += tb_now() - t0;
    if (!allocate(&r, &d)) {
        for (int64_t t = 0; t < tiles; t++)
            /* tile t's C buffer is free once the tile before there has its download queued */
            if ((t >= plan->ctiles && take_results(&r, t - plan->ctiles)) || tile(&r, t, panel_queues) ||
                take_results(&r, -1))
                break;
        if (!r.err && !take_results(&r, tiles - 1))
            while (r.written < tiles && flush_oldest(&r, 1) > 0)
                ;
    }
    release(ops, &d);
    *times = r.times;
    *err = r.err;
    return r.written;
}
