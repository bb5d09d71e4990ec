/*
 * Each thread counts into its own block: plain relaxed atomic loads and stores by its one writer, so that readers
 * on other threads see whole values without any lock on the call's side.  The blocks are chained for readers; a
 * thread that exits folds its block into `retired`; calls it makes after that (from other thread-exit destructors)
 * count straight into `retired`.  A reset does not touch other threads' blocks (they have one
 * writer each): it records the sum at that moment as the base that later sums subtract.
 */
#include <config.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "counters.h"
#include "util.h"

typedef struct block {
    tb_live_counter c[TB_ENTRY_COUNT][3];
    _Atomic unsigned long long device_calls[TB_COUNT_DEVICES];
    struct block *prev, *next;
} block;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* the chain, retired and base */
static block *chain;
static tb_counts retired, base;
static __thread block *mine;
__thread tb_live_counter (*tb_counts_here)[3]; /* mine->c while mine is a block */
static block gone; /* `mine` of a thread whose block has been folded into retired */
static int forked; /* this process is a forked child */
static int in_progress;       /* timed calls now running, on all threads */
static double busy_since;     /* when in_progress last went from 0 to 1 */
static double busy;           /* the busy time before that */
static pthread_key_t exit_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void add_block(tb_counts *to, const block *b)
{
    for (int i = 0; i < TB_ENTRY_COUNT; i++)
        for (int p = 0; p < 3; p++) {
            tb_counter *t = &to->c[i][p];
            const tb_live_counter *c = &b->c[i][p];
            t->calls += TB_LOAD(c->calls), t->gpu_failures += TB_LOAD(c->gpu_failures);
            t->fp32_tc += TB_LOAD(c->fp32_tc);
            t->flops += TB_LOAD(c->flops), t->seconds += TB_LOAD(c->seconds), t->bytes += TB_LOAD(c->bytes);
        }
    for (int d = 0; d < TB_COUNT_DEVICES; d++)
        to->device_calls[d] += TB_LOAD(b->device_calls[d]);
}

static void thread_exit(void *p)
{
    block *b = p;
    pthread_mutex_lock(&lock);
    add_block(&retired, b);
    if (b->prev)
        b->prev->next = b->next;
    else
        chain = b->next;
    if (b->next)
        b->next->prev = b->prev;
    pthread_mutex_unlock(&lock);
    free(b);
    mine = &gone;
    tb_counts_here = NULL;
}

/* fork: the child must not inherit the lock held by a thread that does not exist there */
static void before_fork(void)
{
    pthread_mutex_lock(&lock);
}

static void after_fork(void)
{
    pthread_mutex_unlock(&lock);
}

/* the sum since start, busy time up to now (calls may be in progress: at exit, or throughout); the caller holds
 * the lock */
static void total(tb_counts *out)
{
    *out = retired;
    for (const block *b = chain; b; b = b->next)
        add_block(out, b);
    out->busy = busy + (in_progress > 0 ? tb_now() - busy_since : 0.0);
}

/* a child is a process of its own: its counts start from zero, not from its parent's (the blocks of its parent's
 * other threads stay in the chain, unchanging, and in the base) */
static void after_fork_in_child(void)
{
    in_progress = 0; /* the parent's other threads' calls do not go on here */
    total(&base);
    pthread_mutex_unlock(&lock);
}

static void make_key(void)
{
    pthread_key_create(&exit_key, thread_exit);
    pthread_atfork(before_fork, after_fork, after_fork_in_child);
}

void tb_counts_busy(int starts, double t)
{
    pthread_once(&key_once, make_key);
    pthread_mutex_lock(&lock);
    if (starts && in_progress++ == 0)
        busy_since = t;
    else if (!starts && --in_progress == 0)
        busy += t - busy_since;
    pthread_mutex_unlock(&lock);
}

static void note_fork(void)
{
    forked = 1;
}

/* from the start, so that a child forked before the first call is known as one too */
__attribute__((constructor)) static void watch_forks(void)
{
    pthread_atfork(NULL, NULL, note_fork);
}

int tb_counts_forked(void)
{
    return forked;
}

/* this thread's block, or NULL when there is no memory for one or the thread is exiting */
static block *my_block(void)
{
    if (mine)
        return mine == &gone ? NULL : mine;
    pthread_once(&key_once, make_key);
    block *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    pthread_mutex_lock(&lock);
    b->next = chain;
    if (chain)
        chain->prev = b;
    chain = b;
    pthread_mutex_unlock(&lock);
    pthread_setspecific(exit_key, b);
    tb_counts_here = b->c;
    return mine = b;
}

void tb_counts_add(tb_entry_id entry, int path, double flops, double seconds, double bytes, int flags)
{
    const int gpu_failed = !!(flags & TB_COUNT_GPU_FAILED), tc = !!(flags & TB_COUNT_FP32_TC);
    block *b = my_block();
    if (!b) { /* no block: count straight into retired, under the lock */
        pthread_mutex_lock(&lock);
        tb_counter *t = &retired.c[entry][path];
        t->calls++, t->gpu_failures += (unsigned)gpu_failed, t->fp32_tc += (unsigned)tc, t->flops += flops;
        t->seconds += seconds;
        t->bytes += bytes;
        pthread_mutex_unlock(&lock);
        return;
    }
    tb_live_counter *c = &b->c[entry][path];
    TB_BUMP(c->calls, 1);
    if (gpu_failed)
        TB_BUMP(c->gpu_failures, 1);
    if (tc)
        TB_BUMP(c->fp32_tc, 1);
    TB_BUMP(c->flops, flops);
    TB_BUMP(c->seconds, seconds);
    if (bytes != 0.0) /* only GPU calls move any */
        TB_BUMP(c->bytes, bytes);
}

void tb_counts_devices(unsigned mask)
{
    block *b = my_block();
    if (!b)
        pthread_mutex_lock(&lock);
    for (int d = 0; d < TB_COUNT_DEVICES; d++)
        if (mask >> d & 1) {
            if (b)
                TB_BUMP(b->device_calls[d], 1);
            else
                retired.device_calls[d]++;
        }
    if (!b)
        pthread_mutex_unlock(&lock);
}

void tb_counts_sum(tb_counts *out)
{
    pthread_once(&key_once, make_key);
    pthread_mutex_lock(&lock);
    total(out);
    for (int i = 0; i < TB_ENTRY_COUNT; i++)
        for (int p = 0; p < 3; p++) {
            tb_counter *t = &out->c[i][p];
            const tb_counter *z = &base.c[i][p];
            t->calls -= z->calls, t->gpu_failures -= z->gpu_failures, t->fp32_tc -= z->fp32_tc;
            t->flops -= z->flops, t->seconds -= z->seconds, t->bytes -= z->bytes;
        }
    for (int d = 0; d < TB_COUNT_DEVICES; d++)
        out->device_calls[d] -= base.device_calls[d];
    out->busy -= base.busy;
    pthread_mutex_unlock(&lock);
}

void tb_counts_reset(void)
{
    pthread_once(&key_once, make_key);
    pthread_mutex_lock(&lock);
    total(&base);
    pthread_mutex_unlock(&lock);
}
