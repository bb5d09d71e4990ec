/*
 * The transfer pipeline (lib/gpu/pipeline.c) against a simulated device, on the CPU.  The simulation keeps every
 * queued operation until it must run and then runs the queues' heads in a random order that respects only what
 * the pipeline asked for: queue order and event waits.  Copies read their source when they run, so a staging
 * buffer overwritten too early, a missing wait or a result copied out too soon gives a wrong C.  Device memory
 * starts as NaN.  A fault can be injected at any operation: the tiles reported written must then be right and
 * the rest of C untouched.  The kernel computes each element as the reference below does (double sums in order),
 * so results are compared exactly.  Seeds are printed; TILEBLAS_TEST_SEED replays.
 */
#include <config.h>
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include "pipeline.h"
#include "spread_run.h"
#include "util.h"
#include "suite.h"

/* Built as four programs run side by side (TT_PIPELINE_PART 0 to 3, each about a quarter of the time; -1: all) */
#ifndef TT_PIPELINE_PART
#define TT_PIPELINE_PART -1
#endif

/* ---- the simulated device ---- */

enum { OP_H2D, OP_D2H, OP_GEMM, OP_PREP, OP_GEMM_PREP, OP_RECORD, OP_WAIT };

/* A prepared operand here: op(A)'s rows (or op(B)'s columns) along k, row r at prep + r k, read when the kernel
 * runs as the real ones are. */
typedef struct op {
    int kind, ev;
    int64_t target; /* OP_WAIT: the record count to wait for */
    float *dst;
    const float *src;
    int64_t dld, sld, rows, cols;
    tb_kproblem p;
    int which;                   /* OP_PREP: op(A) (0) or op(B) (1) of p, into dst (rows from the block's first) */
    const float *prep_a, *prep_b; /* OP_GEMM_PREP: the first rows of the tile's row block and panel */
} op;

#define QUEUES TB_PIPE_QUEUES
#define MAXOPS 50000

typedef struct sim {
    op *q[QUEUES];
    int64_t head[QUEUES], tail[QUEUES];
    int64_t issued[TB_PIPE_EVENTS], recorded[TB_PIPE_EVENTS];
    int64_t calls, fail_at; /* the operation (counted from 1) that fails; 0: none */
    int64_t live;           /* device buffers allocated and not released */
    int stuck;
    uint64_t seed;          /* the random order's seed on a thread that has none yet */
    pthread_t bound;        /* the thread that bound the device (tb_spread_part's bind) */
    int binds, refuse_bind; /* binds seen; 1: the bind fails */
    int unbinds;            /* unbinds seen, each after the bind on the same thread */
} sim;

/* per thread: the pipelines of a spread call run on threads of their own, each seeded by its device (sim.seed) */
static __thread uint64_t rng;
static uint64_t next_rand(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

static int injected(sim *s)
{
    if (!rng)
        rng = s->seed | 1;
    /* a bound device is used from the thread that bound it only */
    ck_assert(!s->binds || pthread_equal(s->bound, pthread_self()));
    return ++s->calls == s->fail_at;
}

static int sim_bind(void *arg)
{
    sim *s = arg;
    s->bound = pthread_self();
    s->binds++;
    return s->refuse_bind;
}

static void sim_unbind(void *arg)
{
    sim *s = arg;
    ck_assert(s->binds == 1 && pthread_equal(s->bound, pthread_self()));
    s->unbinds++;
}

static void copy_block(float *dst, int64_t dld, const float *src, int64_t sld, int64_t rows, int64_t cols)
{
    for (int64_t j = 0; j < cols; j++)
        memcpy(dst + j * dld, src + j * sld, sizeof(float) * (size_t)rows);
}

/* C = alpha*op(A)*op(B) + beta*C, each element summed in double in order of l; C unread when beta == 0 */
/* op(A)(i, l) and op(B)(l, j) of p, from a2 and b2 past k1 (a two-product p: base/problem.h) */
static float a_at(const tb_kproblem *p, int64_t i, int64_t l)
{
    const float *x = p->k1 && l >= p->k1 ? p->a2 : p->a;
    const int64_t ld = p->k1 && l >= p->k1 ? p->lda2 : p->lda;
    l -= p->k1 && l >= p->k1 ? p->k1 : 0;
    return p->transa ? x[l + i * ld] : x[i + l * ld];
}

static float b_at(const tb_kproblem *p, int64_t l, int64_t j)
{
    const float *x = p->k1 && l >= p->k1 ? p->b2 : p->b;
    const int64_t ld = p->k1 && l >= p->k1 ? p->ldb2 : p->ldb;
    l -= p->k1 && l >= p->k1 ? p->k1 : 0;
    return p->transb ? x[j + l * ld] : x[l + j * ld];
}

/* C = alpha op(A) op(B) + beta C on p's part, summed in double and rounded once; a two-product p under two alphas
 * as its products one after the other (as the pipeline runs them) */
static void gemm_ref(const tb_kproblem *p)
{
    ck_assert_int_eq(p->type, TB_TYPE_S);
    if (!tb_one_alpha(p)) {
        tb_kproblem x[2];
        for (int i = 0, n = tb_products(p, x); i < n; i++)
            gemm_ref(&x[i]);
        return;
    }
    for (int64_t j = 0; j < p->n; j++)
        for (int64_t i = 0; i < p->m; i++) {
            double sum = 0;
            for (int64_t l = 0; l < p->k; l++)
                sum += (double)a_at(p, i, l) * b_at(p, l, j);
            float *c = (float *)p->c + i + j * p->ldc;
            if (tb_in_part(p, i, j)) /* elsewhere, C stays as it was */
                *c = p->beta == 0.0 ? (float)(p->alpha * sum) : (float)(p->alpha * sum + p->beta * *c);
        }
}

/* OP_PREP: p's op(A) (which 0) or op(B) along k, row after row, into dst */
static void prepare_ref(const tb_kproblem *p, int which, float *dst)
{
    const float *pa = p->a, *pb = p->b;
    for (int64_t r = 0; r < (which ? p->n : p->m); r++)
        for (int64_t l = 0; l < p->k; l++)
            dst[r * p->k + l] = which ? (p->transb ? pb[r + l * p->ldb] : pb[l + r * p->ldb])
                                      : (p->transa ? pa[l + r * p->lda] : pa[r + l * p->lda]);
}

/* OP_GEMM_PREP: gemm_ref's sums from the prepared rows */
static void gemm_prepared_ref(const tb_kproblem *p, const float *pa, const float *pb)
{
    ck_assert(p->a && p->b);
    for (int64_t j = 0; j < p->n; j++)
        for (int64_t i = 0; i < p->m; i++) {
            double sum = 0;
            for (int64_t l = 0; l < p->k; l++)
                sum += (double)pa[i * p->k + l] * pb[j * p->k + l];
            float *c = (float *)p->c + i + j * p->ldc;
            if (tb_in_part(p, i, j)) /* elsewhere, C stays as it was */
                *c = p->beta == 0.0 ? (float)(p->alpha * sum) : (float)(p->alpha * sum + p->beta * *c);
        }
}

static int runnable(sim *s, int q)
{
    if (s->head[q] == s->tail[q])
        return 0;
    op *o = &s->q[q][s->head[q]];
    return o->kind != OP_WAIT || s->recorded[o->ev] >= o->target;
}

/* Run one runnable operation, picked at random among the queues; 0 when none can run. */
static int step(sim *s)
{
    int ready[QUEUES], n = 0;
    for (int q = 0; q < QUEUES; q++)
        if (runnable(s, q))
            ready[n++] = q;
    if (!n)
        return 0;
    int q = ready[next_rand() % (uint64_t)n];
    op *o = &s->q[q][s->head[q]++];
    switch (o->kind) {
    case OP_H2D:
    case OP_D2H: copy_block(o->dst, o->dld, o->src, o->sld, o->rows, o->cols); break;
    case OP_GEMM: gemm_ref(&o->p); break;
    case OP_PREP: prepare_ref(&o->p, o->which, o->dst); break;
    case OP_GEMM_PREP: gemm_prepared_ref(&o->p, o->prep_a, o->prep_b); break;
    case OP_RECORD: s->recorded[o->ev]++; break;
    default: break;
    }
    return 1;
}

static int push(sim *s, int q, op o)
{
    ck_assert_msg(q >= 0 && q < QUEUES, "queue %d", q);
    ck_assert_msg(s->tail[q] < MAXOPS, "too many operations");
    s->q[q][s->tail[q]++] = o;
    /* now and then, let the device get ahead (rarely: work left queued is where missing waits show) */
    while (next_rand() % 16 == 0 && step(s))
        ;
    return 0;
}

static int sim_alloc(void *ctx, size_t bytes, void **dev)
{
    sim *s = ctx;
    if (injected(s))
        return -1;
    float *f = malloc(bytes);
    ck_assert(f);
    for (size_t i = 0; i < bytes / sizeof(float); i++)
        f[i] = NAN;
    *dev = f;
    s->live++;
    return 0;
}

static void sim_release(void *ctx, void *dev)
{
    sim *s = ctx;
    /* what is still queued may use it: drain first, as cudaFree waits for the device */
    while (step(s))
        ;
    free(dev);
    s->live--;
}

static int sim_h2d(void *ctx, int q, void *dev, int64_t dld, const void *host, int64_t hld, int64_t rows,
                   int64_t cols, unsigned esize)
{
    sim *s = ctx;
    ck_assert_uint_eq(esize, sizeof(float));
    return injected(s) ? -1 : push(s, q, (op){ .kind = OP_H2D, .dst = dev, .dld = dld, .src = host, .sld = hld,
                                               .rows = rows, .cols = cols });
}

static int sim_d2h(void *ctx, int q, void *host, int64_t hld, const void *dev, int64_t dld, int64_t rows,
                   int64_t cols, unsigned esize)
{
    sim *s = ctx;
    ck_assert_uint_eq(esize, sizeof(float));
    return injected(s) ? -1 : push(s, q, (op){ .kind = OP_D2H, .dst = host, .dld = hld, .src = dev, .sld = dld,
                                               .rows = rows, .cols = cols });
}

static int sim_gemm(void *ctx, int q, const tb_kproblem *p)
{
    sim *s = ctx;
    ck_assert_msg(p->k1 == 0, "a kernel handed two products"); /* real kernels read one pair of operands */
    return injected(s) ? -1 : push(s, q, (op){ .kind = OP_GEMM, .p = *p });
}

static int sim_prepare(void *ctx, int q, const tb_kproblem *p, int which, void *prep, int64_t prep_rows, int64_t r0)
{
    sim *s = ctx;
    ck_assert(r0 >= 0 && r0 + (which ? p->n : p->m) <= prep_rows);
    return injected(s) ? -1
                       : push(s, q, (op){ .kind = OP_PREP, .p = *p, .which = which, .dst = (float *)prep + r0 * p->k });
}

static int sim_gemm_prepared(void *ctx, int q, const tb_kproblem *p, const void *prep_a, int64_t a_rows, int64_t i0,
                             const void *prep_b, int64_t b_rows, int64_t j0)
{
    sim *s = ctx;
    ck_assert(i0 >= 0 && i0 + p->m <= a_rows && j0 >= 0 && j0 + p->n <= b_rows);
    ck_assert_msg(p->k1 == 0, "a kernel handed two products");
    return injected(s) ? -1
                       : push(s, q, (op){ .kind = OP_GEMM_PREP, .p = *p, .prep_a = (const float *)prep_a + i0 * p->k,
                                          .prep_b = (const float *)prep_b + j0 * p->k });
}

static int sim_record(void *ctx, int q, int ev)
{
    sim *s = ctx;
    ck_assert_msg(ev >= 0 && ev < TB_PIPE_EVENTS, "event %d", ev);
    if (injected(s))
        return -1;
    s->issued[ev]++;
    return push(s, q, (op){ .kind = OP_RECORD, .ev = ev });
}

static int sim_queue_wait(void *ctx, int q, int ev)
{
    sim *s = ctx;
    ck_assert_msg(ev >= 0 && ev < TB_PIPE_EVENTS, "event %d", ev);
    return injected(s) ? -1 : push(s, q, (op){ .kind = OP_WAIT, .ev = ev, .target = s->issued[ev] });
}

static int sim_host_wait(void *ctx, int ev)
{
    sim *s = ctx;
    ck_assert_msg(ev >= 0 && ev < TB_PIPE_EVENTS, "event %d", ev);
    if (injected(s))
        return -1;
    while (s->recorded[ev] < s->issued[ev])
        if (!step(s)) {
            s->stuck = 1; /* a wait that can never be satisfied: a deadlock on a real device */
            return -1;
        }
    return 0;
}

static int sim_done(void *ctx, int ev)
{
    sim *s = ctx;
    ck_assert_msg(ev >= 0 && ev < TB_PIPE_EVENTS, "event %d", ev);
    if (injected(s))
        return -1;
    /* the device may have got on meanwhile */
    while (next_rand() % 4 == 0 && step(s))
        ;
    return s->recorded[ev] >= s->issued[ev];
}

/* ---- the tests ---- */

typedef struct shape {
    int64_t m, n, k;
    int ta, tb;
    float alpha, beta;
    size_t budget; /* device bytes for the plan */
    tb_part part;  /* a part of C alone (SYRK's triangle: base/problem.h), its diagonal through C(0, diag) */
    int64_t diag;
} shape;

static float uniform(void)
{
    return (float)((double)(next_rand() >> 40) / 16777216.0 * 2.0 - 1.0);
}

/* Padding rows checked (and filled) per column: all of them up to this many, so that a huge leading dimension
 * costs no more than a small one. */
#define PAD_CHECKED 16

static float *reserve(int64_t ld, int64_t cols)
{
    float *x = mmap(NULL, (size_t)(ld * cols) * sizeof(float), PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return x == MAP_FAILED ? NULL : x;
}

static int64_t filled_rows(int64_t rows, int64_t ld)
{
    return rows + PAD_CHECKED < ld ? rows + PAD_CHECKED : ld;
}

/* A rows x cols matrix with leading dimension ld, in memory reserved but not committed (MAP_NORESERVE), so that
 * leading dimensions of 2^27 and more cost only the pages used; the rows and the first PAD_CHECKED rows of padding
 * are random.  NULL if the system refuses the reservation. */
static float *matrix(int64_t rows, int64_t cols, int64_t ld)
{
    float *x = reserve(ld, cols);
    for (int64_t j = 0; x && j < cols; j++)
        for (int64_t i = 0; i < filled_rows(rows, ld); i++)
            x[i + j * ld] = uniform();
    return x;
}

/* another matrix like x (what matrix() filled) */
static float *copy_matrix(const float *x, int64_t rows, int64_t cols, int64_t ld)
{
    float *y = reserve(ld, cols);
    for (int64_t j = 0; y && j < cols; j++)
        memcpy(y + j * ld, x + j * ld, (size_t)filled_rows(rows, ld) * sizeof(float));
    return y;
}

static void unreserve(float *x, int64_t ld, int64_t cols)
{
    if (x)
        munmap(x, (size_t)(ld * cols) * sizeof(float));
}

/* Run one call through the pipeline; fail_at > 0 injects a fault there.  Returns the operations it made, or -1
 * when the memory for a huge `pad` cannot be reserved.  big_slot: staging slots as the library sizes them
 * (tb_pipeline_slot_wanted), else the smallest that works. */
/* A run's options: staging slots as big as the pipeline asks for (else the smallest it accepts: many chunks); the
 * operands prepared where the plan keeps both whole (as tc32's are); two products (SYR2K's: base/problem.h) under
 * one alpha or under two; op(A) or op(B) symmetric (SYMM's: the shape's k its order), stored in its lower triangle
 * or its upper one */
enum { BIG_SLOT = 1, PREP = 2, TWO = 4, TWO_ALPHAS = 8, SYM_A = 16, SYM_B = 32, SYM_UPPER = 64 };

/* A simulated device that fails at operation fail_at (0: never), and its devops */
static sim *new_sim(int64_t fail_at)
{
    sim *s = calloc(1, sizeof *s);
    ck_assert(s);
    for (int q = 0; q < QUEUES; q++)
        ck_assert((s->q[q] = malloc(sizeof(op) * MAXOPS)) != NULL);
    s->fail_at = fail_at;
    s->seed = next_rand();
    return s;
}

static tb_devops sim_ops(sim *s)
{
    return (tb_devops){ .ctx = s,
                        .alloc = sim_alloc,
                        .release = sim_release,
                        .h2d = sim_h2d,
                        .d2h = sim_d2h,
                        .gemm = sim_gemm,
                        .prepare = sim_prepare,
                        .gemm_prepared = sim_gemm_prepared,
                        .record = sim_record,
                        .queue_wait = sim_queue_wait,
                        .host_wait = sim_host_wait,
                        .done = sim_done };
}

static void free_sim(sim *s)
{
    for (int q = 0; q < QUEUES; q++)
        free(s->q[q]);
    free(s);
}

/* Staging for plan on a k-deep product, as run_case's options say */
static tb_pipe_staging staging_for(const tb_plan *plan, int64_t k, int opts)
{
    tb_pipe_staging st = { .slot_bytes = opts & BIG_SLOT ? tb_pipeline_slot_wanted(plan, k)
                                                         : tb_pipeline_slot_bytes(plan) };
    for (int i = 0; i < TB_PIPE_SLOTS; i++) {
        st.in[i] = malloc((size_t)st.slot_bytes);
        st.out[i] = malloc((size_t)st.slot_bytes);
        ck_assert(st.in[i] && st.out[i]);
    }
    return st;
}

static void free_staging(tb_pipe_staging *st)
{
    for (int i = 0; i < TB_PIPE_SLOTS; i++)
        free(st->in[i]), free(st->out[i]);
}

/* A call's operands for shape sh with `pad` rows of padding: A, B, C as the call starts (c0), C that the call
 * writes (c), and C as it must come out (want, by gemm_ref); p's pointers are to c */
typedef struct call {
    tb_kproblem p;
    int64_t ac, bc, a2c, b2c;
    float *a, *b, *a2, *b2, *c0, *c, *want;
    float *sym; /* the symmetric operand as the call passes it: its other triangle NaN (a or b is it whole) */
} call;

static void free_call(call *x)
{
    unreserve(x->a, x->p.lda, x->ac), unreserve(x->b, x->p.ldb, x->bc), unreserve(x->c0, x->p.ldc, x->p.n);
    unreserve(x->c, x->p.ldc, x->p.n), unreserve(x->want, x->p.ldc, x->p.n);
    unreserve(x->a2, x->p.lda2, x->a2c), unreserve(x->b2, x->p.ldb2, x->b2c);
    unreserve(x->sym, x->p.sym == 1 ? x->p.lda : x->p.ldb, x->p.k);
}

/* x's operand (1: A, 2: B), k x k, made symmetric, and the call's copy of it with its other triangle NaN */
static void make_symmetric(call *x, int operand, int upper)
{
    float *s = operand == 1 ? x->a : x->b;
    const int64_t ld = operand == 1 ? x->p.lda : x->p.ldb, n = x->p.k;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < j; i++)
            s[i + j * ld] = s[j + i * ld];
    x->sym = copy_matrix(s, n, n, ld);
    for (int64_t j = 0; x->sym && j < n; j++)
        for (int64_t i = 0; i < n; i++)
            if (upper ? i > j : i < j)
                x->sym[i + j * ld] = NAN;
    x->p.sym = operand, x->p.sym_uplo = upper ? TB_UPPER : TB_LOWER;
}

/* 0, or -1 when the memory for a huge pad cannot be reserved.  opts TWO, TWO_ALPHAS: the last third of the depth
 * from a second pair of operands (with leading dimensions of their own), the second alpha another one or not. */
static int make_call(const shape *sh, int64_t pad, int opts, call *x)
{
    tb_kproblem p = { .type = TB_TYPE_S, .transa = sh->ta, .transb = sh->tb, .m = sh->m, .n = sh->n, .k = sh->k,
                      .alpha = sh->alpha, .beta = sh->beta, .part = sh->part, .diag = sh->diag };
    const int64_t ar = sh->ta ? sh->k : sh->m, br = sh->tb ? sh->n : sh->k;
    x->ac = sh->ta ? sh->m : sh->k, x->bc = sh->tb ? sh->k : sh->n;
    p.lda = ar + pad, p.ldb = br + pad, p.ldc = sh->m + pad;
    x->a = matrix(ar, x->ac, p.lda), x->b = matrix(br, x->bc, p.ldb), x->c0 = matrix(sh->m, sh->n, p.ldc);
    x->c = x->c0 ? copy_matrix(x->c0, sh->m, sh->n, p.ldc) : NULL;
    x->want = x->c ? copy_matrix(x->c0, sh->m, sh->n, p.ldc) : NULL;
    x->a2 = x->b2 = x->sym = NULL, x->a2c = x->b2c = 0;
    const int64_t k1 = sh->k - sh->k / 3, k2 = sh->k - k1;
    if ((opts & (TWO | TWO_ALPHAS)) && k2 > 0) {
        const int64_t ar2 = sh->ta ? k2 : sh->m, br2 = sh->tb ? sh->n : k2;
        x->a2c = sh->ta ? sh->m : k2, x->b2c = sh->tb ? k2 : sh->n;
        p.k1 = k1, p.lda2 = ar2 + pad + 2, p.ldb2 = br2 + pad + 1;
        p.alpha2 = opts & TWO_ALPHAS ? 0.25 - 0.5 * sh->alpha : sh->alpha;
        x->a2 = matrix(ar2, x->a2c, p.lda2), x->b2 = matrix(br2, x->b2c, p.ldb2);
        if (!x->a2 || !x->b2)
            x->want = NULL;
    }
    x->p = p;
    if (x->a && x->b && (opts & (SYM_A | SYM_B)))
        make_symmetric(x, opts & SYM_A ? 1 : 2, opts & SYM_UPPER);
    if (!x->a || !x->b || !x->want || (x->p.sym && !x->sym)) {
        free_call(x);
        return -1;
    }
    p.a = x->a, p.b = x->b, p.a2 = x->a2, p.b2 = x->b2, p.c = x->want;
    gemm_ref(&p);
    x->p.a = x->p.sym == 1 ? x->sym : x->a, x->p.b = x->p.sym == 2 ? x->sym : x->b;
    x->p.a2 = x->a2, x->p.b2 = x->b2, x->p.c = x->c;
    return 0;
}

/* The tiles of blk (a block of x's C: its m, n and c) in plan's order: those before `done` right, the others
 * untouched; what: the case, for the message */
static void check_tiles(const call *x, const tb_kproblem *blk, const tb_plan *plan, int64_t done, const char *what)
{
    const int64_t tiles = plan->mtiles * plan->ntiles, ldc = x->p.ldc, at = (const float *)blk->c - x->c;
    for (int64_t t = 0; t < tiles; t++) {
        int64_t i0, rows, j0, cols;
        tb_pipeline_tile(plan, blk->m, blk->n, t, &i0, &rows, &j0, &cols);
        const float *ref = (t < done ? x->want : x->c0) + at, *c = x->c + at;
        for (int64_t j = j0; j < j0 + cols; j++)
            for (int64_t i = i0; i < i0 + rows; i++)
                if (memcmp(&c[i + j * ldc], &ref[i + j * ldc], sizeof(float)))
                    ck_abort_msg("%s, plan %lldx%lld (%lld tiles, depth %d%s): C(%lld, %lld) of the block in tile %lld "
                                 "is %g, not %g",
                                 what, (long long)plan->mb, (long long)plan->nb, (long long)tiles, plan->depth,
                                 plan->b_resident ? ", A and B resident" : plan->a_resident ? ", A resident" : "",
                                 (long long)i, (long long)j, (long long)t, (double)c[i + j * ldc],
                                 (double)ref[i + j * ldc]);
    }
}

static void check_padding(const call *x)
{
    for (int64_t j = 0; j < x->p.n; j++)
        for (int64_t i = x->p.m; i < filled_rows(x->p.m, x->p.ldc); i++)
            tt_assert_msg(!memcmp(&x->c[i + j * x->p.ldc], &x->c0[i + j * x->p.ldc], sizeof(float)),
                          "padding written");
}

static void describe(const shape *sh, int64_t fail_at, int opts, char *buf, size_t size)
{
    snprintf(buf, size, "%lldx%lldx%lld %c%c beta=%g%s (diagonal at column %lld)%s, fault at %lld", (long long)sh->m,
             (long long)sh->n, (long long)sh->k, sh->ta ? 'T' : 'N', sh->tb ? 'T' : 'N', (double)sh->beta,
             sh->part == TB_PART_UPPER ? ", upper part" : sh->part == TB_PART_LOWER ? ", lower part" : "",
             (long long)sh->diag, opts & TWO_ALPHAS ? ", two products, two alphas" : opts & TWO ? ", two products" : "",
             (long long)fail_at);
    if (opts & (SYM_A | SYM_B))
        snprintf(buf + strlen(buf), size - strlen(buf), ", op(%c) symmetric, its %s triangle", opts & SYM_A ? 'A' : 'B',
                 opts & SYM_UPPER ? "upper" : "lower");
}

/* Run one call through the pipeline; fail_at > 0 injects a fault there.  Returns the operations it made, or -1
 * when the memory for a huge `pad` cannot be reserved.  opts: as above. */
static int64_t run_case(const shape *sh, int64_t fail_at, int64_t pad, int opts)
{
    call x;
    if (make_call(sh, pad, opts, &x))
        return -1;
    tb_plan plan;
    ck_assert_int_eq(tb_plan_make(sh->m, sh->n, sh->k, sh->ta, sh->tb, sizeof(float), sh->budget, &plan), 0);
    ck_assert(!plan.prep_bytes[0] && !plan.prep_bytes[1]);
    if ((opts & PREP) && plan.b_resident && tb_one_alpha(&x.p))
        plan.prep_bytes[0] = sizeof(float) * (size_t)(sh->m * sh->k),
        plan.prep_bytes[1] = sizeof(float) * (size_t)(sh->n * sh->k);
    tb_pipe_staging st = staging_for(&plan, sh->k, opts);
    sim *s = new_sim(fail_at);
    const tb_devops ops = sim_ops(s);
    tb_call g = { .p = x.p };
    const char *err = NULL;
    tb_pipe_times times = { -1, -1, -1 };
    const double t0 = tb_now();
    int64_t done = tb_pipeline_run(&g, &plan, &ops, &st, &times, &err);
    const double wall = tb_now() - t0;
    /* the host's time, taken apart, within the run's; copies both ways once a tile is written */
    ck_assert(times.copy_in >= 0 && times.copy_out >= 0 && times.wait >= 0);
    ck_assert(times.copy_in + times.copy_out + times.wait <= wall);
    ck_assert(done == 0 || (times.copy_in > 0 && times.copy_out > 0));
    while (step(s)) /* let anything still queued run: it must not write C */
        ;
    const int64_t tiles = plan.mtiles * plan.ntiles;
    ck_assert_msg(!s->stuck, "a host wait could never be satisfied");
    ck_assert_int_eq(s->live, 0);
    if (!fail_at || fail_at > s->calls) {
        ck_assert_msg(err == NULL && done == tiles, "%s after %lld of %lld tiles", err ? err : "(no error)",
                      (long long)done, (long long)tiles);
    } else {
        ck_assert_msg(err != NULL, "fault at operation %lld not reported", (long long)fail_at);
        ck_assert_int_lt(done, tiles);
    }
    char what[160];
    describe(sh, fail_at, opts, what, sizeof what);
    check_tiles(&x, &x.p, &plan, done, what);
    check_padding(&x);
    const int64_t calls = s->calls;
    free_sim(s);
    free_staging(&st);
    free_call(&x);
    return calls;
}

/* sh spread over `count` simulated devices in blocks of `side` rows (by_rows) or columns, the last the rest, device
 * `failing` failing at its operation fail_at (or, fail_at -1, refusing to be bound): every block's tiles reported
 * written right (all of them on the devices that did not fail), the rest of C and its padding untouched; each
 * device bound once, on the thread that then runs its pipeline */
static void run_spread(const shape *sh, int count, int by_rows, int64_t side, int failing, int64_t fail_at, int opts)
{
    call x;
    ck_assert_int_eq(make_call(sh, 1, opts, &x), 0);
    tb_spread sp = { .count = count, .by_rows = by_rows };
    for (int d = 0; d <= count; d++)
        sp.start[d] = d == count ? (by_rows ? sh->m : sh->n) : d * side;
    tb_call g = { .p = x.p };
    tb_spread_part parts[TB_MAX_DEVICES];
    sim *sims[TB_MAX_DEVICES];
    tb_devops ops[TB_MAX_DEVICES];
    tb_pipe_staging st[TB_MAX_DEVICES];
    for (int d = 0; d < count; d++) {
        const tb_kproblem blk = tb_spread_block(&g, &sp, d);
        parts[d] = (tb_spread_part){ .ops = &ops[d], .staging = &st[d], .done = -1 };
        ck_assert_int_eq(tb_plan_make(blk.m, blk.n, blk.k, blk.transa, blk.transb, sizeof(float), sh->budget,
                                      &parts[d].plan),
                         0);
        st[d] = staging_for(&parts[d].plan, blk.k, d % 2 ? 0 : BIG_SLOT);
        sims[d] = new_sim(d == failing && fail_at > 0 ? fail_at : 0);
        sims[d]->refuse_bind = d == failing && fail_at < 0;
        ops[d] = sim_ops(sims[d]);
        parts[d].bind = sim_bind, parts[d].bind_arg = sims[d], parts[d].unbind = sim_unbind;
    }
    const int short_of = tb_spread_run(&g, &sp, parts);
    char what[200];
    int failed = 0;
    for (int d = 0; d < count; d++) {
        ck_assert_int_eq(sims[d]->binds, 1);
        ck_assert_int_eq(sims[d]->unbinds, 1);
        ck_assert(pthread_equal(sims[d]->bound, pthread_self()) == (d == 0)); /* block 0 on the caller's thread */
        sims[d]->binds = 0; /* drained from here */
        while (step(sims[d]))
            ;
        ck_assert(!sims[d]->stuck && sims[d]->live == 0);
        const tb_kproblem blk = tb_spread_block(&g, &sp, d);
        const int64_t tiles = parts[d].plan.mtiles * parts[d].plan.ntiles;
        failed += parts[d].done < tiles;
        ck_assert(parts[d].done >= 0 && parts[d].done <= tiles);
        ck_assert((parts[d].err != NULL) == (parts[d].done < tiles));
        if (d != failing || fail_at > sims[d]->calls)
            ck_assert_int_eq(parts[d].done, tiles);
        if (d == failing && fail_at < 0)
            ck_assert(parts[d].done == 0 && sims[d]->calls == 0);
        describe(sh, fail_at, opts, what, sizeof what);
        snprintf(what + strlen(what), sizeof what - strlen(what), ", %s block %d of %d on device %d failing",
                 by_rows ? "row" : "column", d, count, failing);
        check_tiles(&x, &blk, &parts[d].plan, parts[d].done, what);
        free_sim(sims[d]);
        free_staging(&st[d]);
    }
    ck_assert_int_eq(short_of, failed);
    check_padding(&x);
    free_call(&x);
}

/* Shapes and device budgets chosen (with tb_plan_make) for every kind of plan: one tile; row blocks only; panels
 * only; both, with op(A) kept whole or re-sent per panel, at depths 2 and 3, with panels of B reusing buffers; and
 * both operands whole (growing squares), with more row blocks than panels and fewer, at depths 2 and 3; C tiles
 * reused, as many as kernels in flight or more. */
static const shape shapes[] = {
    { 1, 1, 1, 0, 0, 1.0f, 0.0f, 1 << 20, TB_PART_ALL, 0 },
    { 33, 17, 9, 1, 0, -1.5f, 0.5f, 1 << 20, TB_PART_ALL, 0 },
    { 1100, 70, 20, 0, 0, 1.0f, 0.25f, 190000, TB_PART_ALL, 0 },     /* 5 x 1 tiles, depth 2 */
    { 70, 1100, 20, 1, 1, -1.0f, 0.0f, 195000, TB_PART_ALL, 0 },     /* 1 x 5, A whole, depth 2 */
    { 600, 900, 40, 0, 0, 1.0f, 0.0f, 700000, TB_PART_ALL, 0 },      /* 3 x 4, A per panel, depth 2 */
    { 600, 900, 40, 0, 0, 0.75f, 2.0f, 745000, TB_PART_ALL, 0 },     /* 3 x 4, A whole, depth 2 */
    { 900, 600, 33, 1, 0, 2.0f, 0.0f, 730000, TB_PART_ALL, 0 },      /* 4 x 3, A whole, depth 2 */
    { 900, 600, 33, 1, 0, 2.0f, 0.5f, 740700, TB_PART_ALL, 0 },      /* 4 x 3, both whole, depth 2 */
    { 1100, 900, 64, 0, 0, 1.0f, 0.0f, 1210000, TB_PART_ALL, 0 },    /* 5 x 4, A per panel, depth 3 */
    { 1100, 900, 64, 1, 1, 1.0f, -1.0f, 1280000, TB_PART_ALL, 0 },   /* 5 x 4, A whole, depth 3 */
    { 1300, 1000, 32, 0, 1, 1.0f, 1.0f, 1010000, TB_PART_ALL, 0 },   /* 6 x 4, A per panel, depth 3 */
    { 1300, 1000, 32, 0, 1, 2.0f, 0.0f, 1070000, TB_PART_ALL, 0 },   /* 6 x 4, A whole, depth 3 */
    { 800, 1300, 24, 1, 0, 1.0f, 0.25f, 660000, TB_PART_ALL, 0 },    /* 4 x 6, A whole, depth 2 */
    { 300, 2000, 8, 0, 0, 1.0f, 0.0f, 580000, TB_PART_ALL, 0 },      /* 2 x 8, depth 2: a panel's buffer reused 2 panels on */
    { 300, 2000, 8, 0, 0, 1.0f, 0.0f, 600000, TB_PART_ALL, 0 },      /* 2 x 8, both whole, depth 2 */
    { 600, 900, 40, 1, 1, -0.5f, 0.0f, 1500000, TB_PART_ALL, 0 },    /* 3 x 4, both whole, depth 3, 4 C tiles */
    { 1300, 700, 24, 1, 0, 1.0f, 1.5f, 1300000, TB_PART_ALL, 0 },    /* 6 x 3, both whole, depth 3, 4 C tiles */
    { 300, 2000, 8, 0, 0, 1.0f, 0.5f, 1263000, TB_PART_ALL, 0 },     /* 1 x 8, panels in 3 buffers, 4 C tiles */
    { 512, 1300, 16, 0, 1, 1.0f, 0.5f, 620000, TB_PART_ALL, 0 },     /* 2 x 6, depth 2 */
};

/* the shapes above make every kind of plan they are meant to (a change to the planner could quietly drop one) */
START_TEST(every_kind_of_plan)
{
    int kinds = 0;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const shape *sh = &shapes[i];
        tb_plan p;
        ck_assert_int_eq(tb_plan_make(sh->m, sh->n, sh->k, sh->ta, sh->tb, sizeof(float), sh->budget, &p), 0);
        const int both = p.mtiles > 1 && p.ntiles > 1;
        kinds |= p.mtiles * p.ntiles == 1 ? 256 : 0;
        kinds |= p.mtiles > 1 && p.ntiles == 1 ? 512 : 0;
        kinds |= p.mtiles == 1 && p.ntiles > 1 ? 1024 : 0;
        kinds |= both && !p.a_resident ? 1 : 0;
        kinds |= both && p.a_resident && !p.b_resident ? 2 : 0;
        kinds |= p.b_resident && p.mtiles > p.ntiles ? 4 : 0;
        kinds |= p.b_resident && p.mtiles < p.ntiles ? 8 : 0;
        kinds |= p.b_resident && p.depth == 2 ? 16 : 0;
        kinds |= p.b_resident && p.depth == 3 ? 32 : 0;
        const int more_c = p.ctiles > p.depth && p.ctiles < p.mtiles * p.ntiles;
        kinds |= more_c && p.b_resident ? 64 : 0;
        kinds |= more_c && !p.b_resident ? 128 : 0;
    }
    ck_assert_int_eq(kinds, 2047);
}
END_TEST

/* 1 when sh's plan keeps both operands whole: the plans whose operands may be prepared */
static int both_whole(const shape *sh)
{
    tb_plan p;
    ck_assert_int_eq(tb_plan_make(sh->m, sh->n, sh->k, sh->ta, sh->tb, sizeof(float), sh->budget, &p), 0);
    return p.b_resident;
}

START_TEST(every_shape_and_plan)
{
    const shape *sh = &shapes[_i];
    static const int schedules[] = { 0, BIG_SLOT, PREP };
    const int n = both_whole(sh) ? 3 : 2;
    for (int64_t pad = 0; pad <= 3; pad += 3)
        for (int r = 0; r < n; r++) /* random schedules of each kind */
            ck_assert_int_ge(run_case(sh, 0, pad, schedules[r]), 0);
}
END_TEST

/* A part of C alone (the triangles of SYRK, HERK, and of SYR2K and HER2K with their two products, and the blocks
 * of them a spread call makes): every shape above with its diagonal through the first column, and off it either
 * way; tiles wholly outside neither computed nor copied, those across the diagonal copied out on the part alone;
 * faults at the first operations and a few others; spread over two devices by rows and by columns */
START_TEST(triangles)
{
    for (int up = 0; up <= 1; up++)
        for (int d = 0; d < 3; d++) {
            shape sh = shapes[_i];
            sh.part = up ? TB_PART_UPPER : TB_PART_LOWER;
            sh.diag = d == 0 ? 0 : d == 1 ? sh.n / 3 : -(sh.m / 4);
            const int two = d == 1 ? TWO_ALPHAS : TWO; /* two products: under one alpha, or two */
            const int64_t calls = run_case(&sh, 0, 3, both_whole(&sh) ? PREP : 0);
            ck_assert_int_ge(run_case(&sh, 0, 0, BIG_SLOT), 0);
            ck_assert_int_ge(run_case(&sh, 0, 2, two | (both_whole(&sh) ? PREP : 0)), 0);
            for (int64_t f = 1; f <= calls; f += f < 6 ? 1 : 1 + calls / 5)
                ck_assert_int_ge(run_case(&sh, f, 1, f % 2 ? two : 0), 0);
            for (int by_rows = 0; by_rows <= 1; by_rows++) {
                const int64_t side = by_rows ? sh.m : sh.n;
                if (side >= 2)
                    run_spread(&sh, 2, by_rows, (side + 1) / 2, -1, 0, by_rows ? two : 0);
            }
        }
}
END_TEST

/* A symmetric op(A) or op(B) (SYMM's), stored in one triangle, the other NaN: the shapes above, a third the size,
 * with k their side, each schedule, faults at the first operations and a few others, spread over two devices.  Loop
 * index: shape x operand x triangle. */
START_TEST(symmetric)
{
    shape sh = shapes[_i / 4];
    const int on_b = _i / 2 % 2, opts = (on_b ? SYM_B : SYM_A) | (_i % 2 ? SYM_UPPER : 0);
    /* a third of the shape each way, k its side, the budget as much smaller as its operands (the exact
     * reference's time), so that C is still many tiles */
    const double before = (double)(sh.m * sh.k + sh.k * sh.n + sh.m * sh.n);
    sh.m = (sh.m + 2) / 3, sh.n = (sh.n + 2) / 3, sh.k = on_b ? sh.n : sh.m, sh.ta = sh.tb = 0;
    sh.budget = (size_t)((double)sh.budget * (double)(sh.m * sh.k + sh.k * sh.n + sh.m * sh.n) / before);
    tb_plan plan;
    while (tb_plan_make(sh.m, sh.n, sh.k, 0, 0, sizeof(float), sh.budget, &plan))
        sh.budget += sh.budget / 2 + 4096;
    const int64_t calls = run_case(&sh, 0, 2, opts | (both_whole(&sh) ? PREP : 0));
    ck_assert_int_ge(run_case(&sh, 0, 0, opts | BIG_SLOT), 0);
    for (int64_t f = 1; f <= calls; f += f < 2 ? 1 : 1 + calls / 3)
        ck_assert_int_ge(run_case(&sh, f, 1, opts), 0);
    for (int by_rows = 0; by_rows <= 1; by_rows++) {
        const int64_t side = by_rows ? sh.m : sh.n;
        if (side >= 2)
            run_spread(&sh, 2, by_rows, (side + 1) / 2, -1, 0, opts);
    }
}
END_TEST

START_TEST(faults_anywhere)
{
    const shape *sh = &shapes[_i];
    const int kinds[2] = { 0, both_whole(sh) ? PREP : BIG_SLOT };
    for (int kind = 0; kind < 2; kind++) {
        int64_t calls = run_case(sh, 0, 1, kinds[kind]);
        ck_assert_int_gt(calls, 0);
        /* a fault at the first operations, the last, and a spread in between */
        for (int64_t f = 1; f <= calls; f += f < 12 || f > calls - 12 ? 1 : 1 + calls / 40)
            ck_assert_int_ge(run_case(sh, f, 1, kinds[kind]), 0);
    }
}
END_TEST

/* Element offsets past 2^31 in the caller's matrices: leading dimensions of 2^27 + rows with 24 to 40
 * columns (A 13 GB, B 17 GB, C 21 GB of address space, a few MB of it used), every transpose, beta 0 and not. */
START_TEST(offsets_past_2_to_the_31)
{
    const int64_t pad = (int64_t)1 << 27;
    for (int t = 0; t < 4; t++) {
        shape sh = { 300, 40, 24, t >> 1, t & 1, 0.75f, t == 1 ? 0.5f : 0.0f, 600000, TB_PART_ALL, 0 };
        ck_assert(pad * (sh.k - 1) > ((int64_t)1 << 31) && pad * (sh.n - 1) > ((int64_t)1 << 31));
        if (run_case(&sh, 0, pad, t & 1 ? BIG_SLOT : 0) < 0) {
            printf("offsets past 2^31: not run (the system refuses to reserve 100 GB of address space)\n");
            return;
        }
    }
}
END_TEST

/* Calls spread over two to four simulated devices, each block its own pipeline on its own thread: blocks of whole
 * and uneven sizes, rows and columns, beta 0 and not, one device failing at a random operation or refusing to be
 * bound */
START_TEST(spread_over_devices)
{
    const shape *sh = &shapes[_i];
    for (int by_rows = 0; by_rows <= 1; by_rows++) {
        const int64_t side = by_rows ? sh->m : sh->n;
        for (int count = 2; count <= 4; count++) {
            const int64_t part = (side + count - 1) / count;
            if (part * (count - 1) >= side)
                continue; /* too narrow for so many blocks */
            run_spread(sh, count, by_rows, part, -1, 0, 0);
            const int failing = (int)(next_rand() % (uint64_t)count);
            run_spread(sh, count, by_rows, part, failing, 1 + (int64_t)(next_rand() % 60), 0);
            run_spread(sh, count, by_rows, part, (int)(next_rand() % (uint64_t)count), -1, 0);
        }
    }
}
END_TEST

START_TEST(refuses_a_staging_slot_too_small)
{
    tb_plan plan;
    ck_assert_int_eq(tb_plan_make(600, 900, 40, 0, 0, sizeof(float), 3 << 20, &plan), 0);
    tb_pipe_staging st = { .slot_bytes = tb_pipeline_slot_bytes(&plan) / 2 };
    tb_call g = { .p = { .type = TB_TYPE_S, .m = 600, .n = 900, .k = 40, .alpha = 1.0 } };
    const char *err = NULL;
    tb_pipe_times times = { -1, -1, -1 };
    ck_assert_int_eq(tb_pipeline_run(&g, &plan, NULL, &st, &times, &err), 0);
    ck_assert_ptr_nonnull(err);
    ck_assert(times.copy_in == 0 && times.copy_out == 0 && times.wait == 0);
}
END_TEST

/* Slots big enough to amortise a chunk's fixed costs where the blocks are big, never smaller than a plan needs,
 * and no bigger than the largest block that goes through them. */
START_TEST(slot_sizes)
{
    static const int64_t dims[][3] = { { 2048, 2048, 2048 }, { 8192, 8192, 8192 }, { 600, 900, 40 },
                                       { 64, 64, 16384 },   { 16384, 64, 16384 }, { 300, 2000, 8 } };
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        const int64_t m = dims[i][0], n = dims[i][1], k = dims[i][2];
        tb_plan plan;
        ck_assert_int_eq(tb_plan_make(m, n, k, 0, 0, sizeof(float), (size_t)1 << 36, &plan), 0);
        int64_t least = tb_pipeline_slot_bytes(&plan), want = tb_pipeline_slot_wanted(&plan, k);
        int64_t largest = plan.mb * k;
        largest = k * plan.nb > largest ? k * plan.nb : largest;
        largest = plan.mb * plan.nb > largest ? plan.mb * plan.nb : largest;
        largest *= (int64_t)sizeof(float);
        int64_t expect = largest < TB_PIPE_GOOD_SLOT ? largest : TB_PIPE_GOOD_SLOT;
        expect = expect > least ? expect : least;
        ck_assert_msg(want == expect, "%lldx%lldx%lld: slot %lld, expected %lld", (long long)m, (long long)n,
                      (long long)k, (long long)want, (long long)expect);
    }
    /* 2048^3: tiles of 2048 x 256 need 256K floats, but blocks of 4M floats go through: 4 MiB slots */
    tb_plan plan;
    ck_assert_int_eq(tb_plan_make(2048, 2048, 2048, 0, 0, sizeof(float), (size_t)1 << 36, &plan), 0);
    ck_assert_int_eq(tb_pipeline_slot_wanted(&plan, 2048), TB_PIPE_GOOD_SLOT);
}
END_TEST

int main(void)
{
    rng = tt_test_seed();
    Suite *s = suite_create("transfer pipeline on a simulated device");
    TCase *tc = tcase_create("pipeline");
    tcase_set_timeout(tc, 600);
    const int n = (int)(sizeof shapes / sizeof shapes[0]), part = TT_PIPELINE_PART;
    if (part < 0 || part == 0) {
        tcase_add_test(tc, every_kind_of_plan);
        tcase_add_loop_test(tc, every_shape_and_plan, 0, n);
        tcase_add_loop_test(tc, spread_over_devices, 0, n);
        tcase_add_loop_test(tc, triangles, 0, n / 2);
        tcase_add_test(tc, refuses_a_staging_slot_too_small);
        tcase_add_test(tc, slot_sizes);
        tcase_add_test(tc, offsets_past_2_to_the_31);
    }
    if (part < 0 || part == 1)
        tcase_add_loop_test(tc, faults_anywhere, 0, n / 2);
    if (part < 0 || part == 2)
        tcase_add_loop_test(tc, faults_anywhere, n / 2, n);
    if (part < 0 || part == 3) {
        tcase_add_loop_test(tc, triangles, n / 2, n);
        tcase_add_loop_test(tc, symmetric, 0, 4 * n);
    }
    suite_add_tcase(s, tc);
    return tt_run_suite(s, CK_NOFORK);
}
