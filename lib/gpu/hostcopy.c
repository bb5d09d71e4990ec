#include <config.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "env.h" /* TB_MAX_COPY_THREADS */
#include "hostcopy.h"
#include "util.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Below this many bytes a copy is done by the caller alone: handing it out would cost more. */
#define SMALL_COPY (256 << 10)
/* Pieces per thread: the threads take pieces as they finish, so one slow thread does not hold up the rest. */
#define PIECES_PER_THREAD 4
/* A worker that has finished a job looks for the next one this long before it sleeps, and the caller looks this
 * long for the workers to finish before it sleeps: the pipeline hands out chunks back to back, and a wake-up from
 * a condition variable costs tens of microseconds a thread. */
#define SPIN_NS 200000

/* Copies handed to the threads at once: one a caller (each pipeline's thread has at most one), so that the
 * pipelines of a call spread over several devices share the threads. */
#define JOBS 16

/* A job's state: free, being filled by its caller, posted (the threads take its pieces), closing (its pieces are
 * done; the caller waits for the threads that looked at it to let go before it is free again) */
enum { FREE, FILLING, POSTED, CLOSING };

/* in bytes: rows are the bytes of a column, dld and sld the bytes from one column to the next */
typedef struct job {
    char *dst;
    const char *src;
    int64_t dld, sld, rows, cols;
    int64_t pieces;      /* along columns when there are enough of them, else along rows */
    int by_columns;
    int sym;          /* a window on a symmetric matrix (w): rows are then elements, not bytes */
    tb_sym_window w;
    unsigned esize;
    _Atomic int64_t next; /* the next piece to take */
    _Atomic int64_t done; /* pieces copied */
    _Atomic int state;
    _Atomic int users; /* threads looking at the job */
} job;

static struct {
    pthread_mutex_t m; /* guards what follows, and the threads' start */
    pthread_cond_t start;
    int started, workers; /* threads besides the callers */
    _Atomic unsigned generation; /* bumped for every job posted */
    _Atomic int high;            /* jobs[high] and above have never been used */
    job jobs[JOBS];
} pool = { .m = PTHREAD_MUTEX_INITIALIZER, .start = PTHREAD_COND_INITIALIZER };

/* n bytes with stores that bypass the caches (where the CPU has them): what the threads copy, into the staging
 * memory or out of it into C, is not read again by this CPU soon, and ordinary stores first read every line they
 * write, a third more memory traffic.  A thread's streaming stores are fenced before it reports its piece done. */
static void stream_bytes(char *dst, const char *src, int64_t n)
{
#if defined(__SSE2__)
    int64_t i = 0;
    for (; i < n && ((uintptr_t)(dst + i) & 15); i++)
        dst[i] = src[i];
    for (; i + 64 <= n; i += 64) {
        __m128i x0 = _mm_loadu_si128((const __m128i *)(src + i)), x1 = _mm_loadu_si128((const __m128i *)(src + i + 16));
        __m128i x2 = _mm_loadu_si128((const __m128i *)(src + i + 32));
        __m128i x3 = _mm_loadu_si128((const __m128i *)(src + i + 48));
        _mm_stream_si128((__m128i *)(dst + i), x0), _mm_stream_si128((__m128i *)(dst + i + 16), x1);
        _mm_stream_si128((__m128i *)(dst + i + 32), x2), _mm_stream_si128((__m128i *)(dst + i + 48), x3);
    }
    memcpy(dst + i, src + i, (size_t)(n - i));
#else
    memcpy(dst, src, (size_t)n);
#endif
}

static void stream_fence(void)
{
#if defined(__SSE2__)
    _mm_sfence();
#endif
}

/* Map every 4 KiB page of dst[0 .. n) for writing, leaving what it holds: a write that adds nothing. */
static void touch_bytes(char *dst, int64_t n)
{
    for (uintptr_t p = (uintptr_t)dst, end = (uintptr_t)dst + (uintptr_t)n; p < end; p = (p | 4095) + 1)
        __atomic_fetch_or((char *)p, 0, __ATOMIC_RELAXED);
}

/* In bytes (as job); src NULL: touch dst instead (tb_touch2d); streaming: with stream_bytes (the threaded copies),
 * else memcpy (small ones) */
static void copy_block(char *dst, int64_t dld, const char *src, int64_t sld, int64_t rows, int64_t cols, int streaming)
{
    if (dld == rows && (sld == rows || !src))
        rows *= cols, cols = 1;
    for (int64_t j = 0; j < cols; j++)
        if (!src)
            touch_bytes(dst + j * dld, rows);
        else if (streaming)
            stream_bytes(dst + j * dld, src + j * sld, rows);
        else
            memcpy(dst + j * dld, src + j * sld, (size_t)rows);
}

/* the other triangle's elements of rows [i0, i1) and columns [j0, j1) as T (4 or 8 bytes, copied as such: constant
 * sizes, one load and store each, whatever the alignment), xor flip (a sign bit) */
#define MIRROR(T, flip)                                                                                            \
    do {                                                                                                           \
        for (int64_t i = i0; i < i1; i++) {                                                                        \
            const char *from = src + ((i - shift) * sld + shift) * (int64_t)sizeof(T);                             \
            char *to = dst + i * (int64_t)sizeof(T);                                                               \
            for (int64_t j = j0; j < j1; j++)                                                                      \
                if (w->lower ? i < j + shift : i > j + shift) {                                                    \
                    T v;                                                                                           \
                    memcpy(&v, from + j * (int64_t)sizeof(T), sizeof(T));                                          \
                    v ^= (flip);                                                                                   \
                    memcpy(to + j * dld * (int64_t)sizeof(T), &v, sizeof(T));                                      \
                }                                                                                                  \
        }                                                                                                          \
    } while (0)

/* The window w's rows x cols block (rows and leading dimensions in elements of e bytes: tb_sym_window), 16 columns
 * at a time: a column's stored run as one copy, the elements read from the other triangle row by row, each row of
 * X the source of 16 consecutive columns here (one or two cache lines read, not 16) */
static void copy_sym(char *dst, int64_t dld, const char *src, int64_t sld, int64_t rows, int64_t cols, unsigned e,
                     const tb_sym_window *w)
{
    const int64_t shift = w->c - w->r; /* element (i, j) is on X's diagonal when i == j + shift */
    for (int64_t j0 = 0; j0 < cols; j0 += 16) {
        const int64_t j1 = j0 + 16 < cols ? j0 + 16 : cols;
        for (int64_t j = j0; j < j1; j++) { /* stored: i >= j + shift (lower), i <= j + shift (upper) */
            const int64_t d = j + shift;
            const int64_t lo = w->lower ? (d > 0 ? d : 0) : 0, hi = w->lower ? rows : (d + 1 < rows ? d + 1 : rows);
            if (hi > lo)
                memcpy(dst + (lo + j * dld) * e, src + (lo + j * sld) * e, (size_t)(hi - lo) * e);
            if (w->herm && d >= 0 && d < rows) /* the diagonal's imaginary part: the element's second half */
                memset(dst + (d + j * dld) * e + e / 2, 0, e / 2);
        }
        /* the rest: X's (r + i, c + j) = X's (c + j, r + i), at src + (j + shift) + (i - shift) sld */
        const int64_t first = w->lower ? 0 : j0 + shift + 1, last = w->lower ? j1 + shift - 1 : rows;
        const int64_t i0 = first > 0 ? first : 0, i1 = last < rows ? last : rows;
        if (e == 4)
            MIRROR(uint32_t, 0);
        else if (e == 8)
            MIRROR(uint64_t, w->herm ? (uint64_t)1 << 63 : 0); /* a complex float's imaginary sign bit */
        else
            for (int64_t i = i0; i < i1; i++)
                for (int64_t j = j0; j < j1; j++) {
                    if (w->lower ? i >= j + shift : i <= j + shift)
                        continue;
                    char *to = dst + (i + j * dld) * e;
                    memcpy(to, src + ((j + shift) + (i - shift) * sld) * e, 16);
                    if (w->herm) /* conjugated: the imaginary part's sign bit (its last byte's top) */
                        to[15] = (char)(to[15] ^ 0x80);
                }
    }
}
#undef MIRROR

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

/* Wait up to SPIN_NS, without sleeping, for *x to differ from `from`; returns 1 if it did. */
static int spin_while_equal(_Atomic unsigned *x, unsigned from)
{
    for (int64_t end = now_ns() + SPIN_NS;;) {
        for (int i = 0; i < 64; i++) {
            if (atomic_load_explicit(x, memory_order_acquire) != from)
                return 1;
            relax();
        }
        if (now_ns() > end)
            return 0;
    }
}

/* Take pieces of j until none are left; returns how many this thread copied. */
static int64_t run(job *j)
{
    int64_t p, copied = 0;
    while ((p = atomic_fetch_add(&j->next, 1)) < j->pieces) {
        int64_t n = j->by_columns ? j->cols : j->rows;
        int64_t lo = n * p / j->pieces, hi = n * (p + 1) / j->pieces;
        if (j->sym) {
            tb_sym_window w = j->w;
            const unsigned e = j->esize;
            if (j->by_columns) {
                w.c += lo;
                copy_sym(j->dst + lo * j->dld * e, j->dld, j->src + lo * j->sld * e, j->sld, j->rows, hi - lo, e, &w);
            } else {
                w.r += lo;
                copy_sym(j->dst + lo * e, j->dld, j->src + lo * e, j->sld, hi - lo, j->cols, e, &w);
            }
        } else if (j->by_columns)
            copy_block(j->dst + lo * j->dld, j->dld, j->src ? j->src + lo * j->sld : NULL, j->sld, j->rows, hi - lo,
                       1);
        else
            copy_block(j->dst + lo, j->dld, j->src ? j->src + lo : NULL, j->sld, hi - lo, j->cols, 1);
        stream_fence();
        atomic_fetch_add_explicit(&j->done, 1, memory_order_release);
        copied++;
    }
    return copied;
}

/* A worker's pass over the posted jobs, taking what pieces are left; returns how many it copied.  Workers start
 * their passes at different jobs, so that callers copying at once each get some of them.  A job is looked at only
 * while it is posted and the worker counts among its users, so that its caller does not reuse it under the
 * worker. */
static int64_t help(int index)
{
    int64_t copied = 0;
    const int high = atomic_load(&pool.high);
    for (int n = 0; n < high; n++) {
        job *j = &pool.jobs[(index + n) % high];
        if (atomic_load(&j->state) != POSTED)
            continue;
        atomic_fetch_add(&j->users, 1);
        if (atomic_load(&j->state) == POSTED)
            copied += run(j);
        atomic_fetch_sub(&j->users, 1);
    }
    return copied;
}

/* How a worker starts: its index, and the generation when it was made (after a fork, the parent's jobs are gone) */
typedef struct worker_arg {
    int index;
    unsigned seen;
} worker_arg;
static worker_arg worker_args[TB_MAX_COPY_THREADS];

static void *worker(void *arg)
{
    const int index = ((worker_arg *)arg)->index;
    unsigned seen = ((worker_arg *)arg)->seen;
    for (;;) {
        /* the generation before the pass: a job posted after it bumps it, and the worker looks again */
        const unsigned now = atomic_load(&pool.generation);
        if (now != seen) {
            seen = now;
            while (help(index))
                ;
            continue;
        }
        if (spin_while_equal(&pool.generation, seen))
            continue;
        pthread_mutex_lock(&pool.m);
        while (atomic_load(&pool.generation) == seen)
            pthread_cond_wait(&pool.start, &pool.m);
        pthread_mutex_unlock(&pool.m);
    }
    return NULL;
}

/* The threads do not survive fork: the child starts its own on first use, and the jobs of its parent's other
 * threads are not its own. */
static void after_fork_in_child(void)
{
    pthread_mutex_init(&pool.m, NULL);
    pthread_cond_init(&pool.start, NULL);
    pool.started = pool.workers = 0;
    for (int i = 0; i < JOBS; i++)
        atomic_store(&pool.jobs[i].state, FREE), atomic_store(&pool.jobs[i].users, 0);
}

static _Atomic int spread_devices = 1, wanted_threads, say_refused;

void tb_copy_threads_for_devices(int devices)
{
    atomic_store(&spread_devices, devices < 1 ? 1 : devices);
}

void tb_copy_threads_told(int threads, int say)
{
    atomic_store(&wanted_threads, threads), atomic_store(&say_refused, say);
}

int tb_copy_threads(void)
{
    const int n = atomic_load(&wanted_threads);
    if (n > 0)
        return n;
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN), most = 16L * atomic_load(&spread_devices);
    const long want = cpus < most ? cpus : most;
    return want < 1 ? 1 : want > TB_MAX_COPY_THREADS ? TB_MAX_COPY_THREADS : (int)want;
}

static void register_atfork(void)
{
    pthread_atfork(NULL, NULL, after_fork_in_child);
}

/* Start the workers once; as many as could be started are used.  Returns how many there are. */
static int start_workers(void)
{
    static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
    pthread_mutex_lock(&pool.m);
    if (pool.started) {
        const int n = pool.workers;
        pthread_mutex_unlock(&pool.m);
        return n;
    }
    pool.started = 1;
    pthread_once(&atfork_once, register_atfork);
    int want = tb_copy_threads() - 1, err = 0;
    /* A copy loop needs little stack, but glibc carves the static TLS of every library loaded so far out of a
     * thread's stack and refuses (EINVAL) a stack too small for it: R's process has more than 64 KiB of it.  So
     * the small stack first, then the default one. */
    pthread_attr_t small, plain;
    pthread_attr_init(&small);
    pthread_attr_init(&plain);
    pthread_attr_setdetachstate(&small, PTHREAD_CREATE_DETACHED);
    pthread_attr_setdetachstate(&plain, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&small, 64 * 1024);
    for (int i = 0; i < want; i++) {
        pthread_t t;
        worker_arg *arg = &worker_args[i];
        *arg = (worker_arg){ i, atomic_load(&pool.generation) };
        if (pthread_create(&t, &small, worker, arg) && (err = pthread_create(&t, &plain, worker, arg)))
            break;
        pool.workers++;
    }
    pthread_attr_destroy(&small);
    pthread_attr_destroy(&plain);
    if (pool.workers < want && atomic_load(&say_refused))
        tb_msg("%d of %d staging copy threads started (%s): the copies between host memory and the GPU are slower",
               pool.workers + 1, want + 1, strerror(err));
    const int n = pool.workers;
    pthread_mutex_unlock(&pool.m);
    return n;
}

int tb_copy_workers(void)
{
    pthread_mutex_lock(&pool.m);
    int n = pool.workers;
    pthread_mutex_unlock(&pool.m);
    return n;
}

/* A copy by the caller alone (as spread's arguments) */
static void copy_alone(char *dst, int64_t dld, const char *src, int64_t sld, int64_t rows, int64_t cols, unsigned e,
                       const tb_sym_window *w)
{
    if (w)
        copy_sym(dst, dld, src, sld, rows, cols, e, w);
    else
        copy_block(dst, dld * e, src, sld * e, rows * e, cols, 0);
}

/* tb_copy2d_start (of a window on a symmetric matrix: w), and the start of tb_touch2d where src_ is NULL */
static void spread(tb_copy_job *h, void *dst_, int64_t dld, const void *src_, int64_t sld, int64_t rows, int64_t cols,
                   unsigned esize, const tb_sym_window *w)
{
    h->posted = 0;
    if (rows <= 0 || cols <= 0)
        return;
    char *dst = dst_;
    const char *src = src_;
    int workers, slot = 0;
    if ((size_t)(rows * cols * esize) < SMALL_COPY || !(workers = start_workers())) {
        copy_alone(dst, dld, src, sld, rows, cols, esize, w);
        return;
    }
    for (; slot < JOBS; slot++) {
        int expect = FREE;
        if (atomic_compare_exchange_strong(&pool.jobs[slot].state, &expect, FILLING))
            break;
    }
    if (slot == JOBS) { /* as many callers copying as there are jobs */
        copy_alone(dst, dld, src, sld, rows, cols, esize, w);
        return;
    }
    for (int high = atomic_load(&pool.high); high <= slot && !atomic_compare_exchange_weak(&pool.high, &high, slot + 1);)
        ;
    job *j = &pool.jobs[slot];
    const int64_t want = (int64_t)(workers + 1) * PIECES_PER_THREAD;
    j->sym = w != NULL, j->esize = esize;
    if (w)
        j->w = *w;
    else
        rows *= esize, dld *= esize, sld *= esize; /* bytes */
    j->dst = dst, j->src = src, j->dld = dld, j->sld = sld, j->rows = rows, j->cols = cols;
    j->by_columns = cols >= want;
    j->pieces = j->by_columns ? want : rows < want ? rows : want;
    atomic_store(&j->next, 0);
    atomic_store(&j->done, 0);
    atomic_store(&j->state, POSTED);
    pthread_mutex_lock(&pool.m);
    atomic_fetch_add(&pool.generation, 1);
    pthread_cond_broadcast(&pool.start);
    pthread_mutex_unlock(&pool.m);
    h->posted = 1, h->slot = slot;
}

/* the caller's share of the job spread() handed out, and the wait for the rest; then the job is free again, once
 * no worker looks at it */
static void finish(tb_copy_job *h)
{
    if (!h->posted)
        return;
    h->posted = 0;
    job *j = &pool.jobs[h->slot];
    run(j);
    /* Then wait for the pieces, not for the workers: a sleeping worker wakes in tens of microseconds, but the
     * pieces that running ones took are done in a few */
    for (int64_t spins = 0; atomic_load_explicit(&j->done, memory_order_acquire) < j->pieces; spins++)
        if (spins < 4096)
            relax();
        else
            sched_yield();
    atomic_store(&j->state, CLOSING);
    while (atomic_load(&j->users))
        relax();
    atomic_store(&j->state, FREE);
}

void tb_copy2d_start(tb_copy_job *h, void *dst, int64_t dld, const void *src, int64_t sld, int64_t rows,
                     int64_t cols, unsigned esize)
{
    spread(h, dst, dld, src, sld, rows, cols, esize, NULL);
}

void tb_copy2d_sym_start(tb_copy_job *h, void *dst, int64_t dld, const void *src, int64_t sld, int64_t rows,
                         int64_t cols, unsigned esize, const tb_sym_window *w)
{
    spread(h, dst, dld, src, sld, rows, cols, esize, w);
}

void tb_copy2d_finish(tb_copy_job *h)
{
    finish(h);
}

void tb_copy2d(void *dst, int64_t dld, const void *src, int64_t sld, int64_t rows, int64_t cols, unsigned esize)
{
    tb_copy_job h;
    spread(&h, dst, dld, src, sld, rows, cols, esize, NULL);
    finish(&h);
}

void tb_touch2d(void *dst, int64_t dld, int64_t rows, int64_t cols, unsigned esize)
{
    tb_copy_job h;
    spread(&h, dst, dld, NULL, dld, rows, cols, esize, NULL);
    finish(&h);
}

/* The triangle `part` of an s x s square on the diagonal: halves on the diagonal in turn, the block between them
 * whole (on the threads), down to squares of at most 64, copied a column's segment at a time */
static void copy_triangle(char *dst, int64_t dld, const char *src, int64_t sld, int64_t s, unsigned e, tb_part part)
{
    if (s <= 64) {
        for (int64_t j = 0; j < s; j++) {
            const int64_t i0 = part == TB_PART_LOWER ? j : 0, i1 = part == TB_PART_LOWER ? s : j + 1;
            memcpy(dst + (i0 + j * dld) * e, src + (i0 + j * sld) * e, (size_t)(i1 - i0) * e);
        }
        return;
    }
    const int64_t h = s / 2;
    copy_triangle(dst, dld, src, sld, h, e, part);
    copy_triangle(dst + (h + h * dld) * e, dld, src + (h + h * sld) * e, sld, s - h, e, part);
    if (part == TB_PART_LOWER)
        tb_copy2d(dst + h * e, dld, src + h * e, sld, s - h, h, e);
    else
        tb_copy2d(dst + h * dld * e, dld, src + h * sld * e, sld, h, s - h, e);
}

void tb_copy2d_part(void *dst, int64_t dld, const void *src, int64_t sld, int64_t rows, int64_t cols, unsigned esize,
                    tb_part part, int64_t diag, int herm)
{
    if (part == TB_PART_ALL) {
        tb_copy2d(dst, dld, src, sld, rows, cols, esize);
        return;
    }
    const tb_kproblem whole = { .m = rows, .n = cols, .part = part, .diag = diag };
    int64_t x[3][4];
    for (int i = 0, n = tb_part_pieces(&whole, x); i < n; i++) {
        const int64_t i0 = x[i][0], r = x[i][1], j0 = x[i][2], c = x[i][3];
        char *to = (char *)dst + (i0 + j0 * dld) * esize;
        const char *from = (const char *)src + (i0 + j0 * sld) * esize;
        if (diag + i0 != j0 || r != c) { /* wholly inside */
            tb_copy2d(to, dld, from, sld, r, c, esize);
            continue;
        }
        copy_triangle(to, dld, from, sld, r, esize, part);
        for (int64_t k = 0; herm && k < r; k++) /* the imaginary part: the element's second half */
            memset(to + (k + k * dld) * esize + esize / 2, 0, esize / 2);
    }
}
