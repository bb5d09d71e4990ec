/*
 * Threads: 16 threads call cblas_sgemm (both orders) and sgemm_ at once, 200 calls each, on shapes from
 * the suites' grid and some larger ones, with every scalar set.  Half the threads force the CPU path (results
 * bit for bit OpenBLAS's), half the GPU path (within the bound of doc/TESTING.md; on the CPU, so bit for bit, where there is
 * no GPU).  Every C must be right, and the counters of tileblas_get_stats must add up to exactly the calls made,
 * with the threads gone.
 */
#include <config.h>
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "harness.h"
#include "suite.h"

#define THREADS 16
#define CALLS 200

static const int larger[][3] = { { 300, 200, 100 }, { 257, 129, 511 }, { 64, 1000, 64 }, { 513, 65, 130 } };

typedef struct job {
    int index;
    int failures;
    unsigned long long quick; /* calls with nothing to multiply */
    char first[600];
} job;

static void *thread_main(void *arg)
{
    job *j = arg;
    const int gpu = j->index % 2;
    tileblas_set_path(gpu ? TILEBLAS_PATH_GPU : TILEBLAS_PATH_CPU);
    uint64_t r = 0x9e3779b97f4a7c15ull * (uint64_t)(j->index + 1) ^ tt_seed();
    for (int call = 0; call < CALLS; call++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        tt_case c;
        tt_combo((int)(r % TT_COMBOS), &c);
        const int *shape = (r >> 8) % 5 == 0 ? larger[(r >> 16) % 4] : tt_shapes[(r >> 16) % tt_shape_count];
        const tt_scalars *s = &tt_scalar_sets[(r >> 24) % tt_scalar_set_count];
        c.m = shape[0], c.n = shape[1], c.k = shape[2], c.pad = (int)((r >> 32) % 2) * 3;
        c.alpha = s->alpha, c.beta = s->beta, c.nan_c = s->nan_c, c.nan_ab = s->nan_ab, c.specials = s->specials;
        j->quick += c.m == 0 || c.n == 0 || c.k == 0 || c.alpha == 0.0f;
        char msg[512];
        if (!tt_run(&c, gpu ? TT_TOLERANCE : TT_BITWISE, msg, sizeof msg) && j->failures++ == 0)
            snprintf(j->first, sizeof j->first, "thread %d: %s", j->index, msg);
    }
    return NULL;
}

START_TEST(sixteen_threads)
{
    tileblas_reset_stats();
    pthread_t t[THREADS];
    static job jobs[THREADS];
    for (int i = 0; i < THREADS; i++) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].index = i;
        ck_assert_int_eq(pthread_create(&t[i], NULL, thread_main, &jobs[i]), 0);
    }
    int failures = 0;
    unsigned long long quick = 0;
    const char *first = NULL;
    for (int i = 0; i < THREADS; i++) {
        ck_assert_int_eq(pthread_join(t[i], NULL), 0);
        failures += jobs[i].failures, quick += jobs[i].quick;
        if (jobs[i].failures && !first)
            first = jobs[i].first;
    }
    ck_assert_msg(failures == 0, "%d of %d calls wrong; first: %s", failures, THREADS * CALLS, first);
    tileblas_stats st;
    tileblas_get_stats(&st);
    ck_assert_uint_eq(st.cpu_calls + st.gpu_calls + st.quick_returns, THREADS * CALLS);
    ck_assert_uint_eq(st.quick_returns, quick);
    printf("%d threads x %d calls: %llu on the CPU, %llu on the GPU, %llu quick returns, all right\n", THREADS,
           CALLS, st.cpu_calls, st.gpu_calls, st.quick_returns);
}
END_TEST

/* A program's thread-exit destructor that calls SGEMM after tileblas's own destructor has retired the thread's
 * counters (a key made after the thread's first call runs after tileblas's): the call is right and counted, and
 * nothing touches freed memory (the sanitizer build and valgrind see that). */
static pthread_key_t late_key;
static float late_c[4];

static void small_product(float *c)
{
    const float a[4] = { 1, 2, 3, 4 }, b[4] = { 5, 6, 7, 8 };
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0f, a, 2, b, 2, 0.0f, c, 2);
}

static void late_destructor(void *p)
{
    (void)p;
    small_product(late_c);
}

static void *exiting_thread(void *arg)
{
    float c[4];
    (void)arg;
    small_product(c); /* tileblas's per-thread counters, and their key, exist from here */
    pthread_key_create(&late_key, late_destructor);
    pthread_setspecific(late_key, &late_key);
    return NULL;
}

START_TEST(call_from_thread_exit_destructor)
{
    tileblas_set_path(TILEBLAS_PATH_CPU);
    tileblas_reset_stats();
    memset(late_c, 0, sizeof late_c);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, exiting_thread, NULL), 0);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    ck_assert(late_c[0] == 23.0f && late_c[1] == 34.0f && late_c[2] == 31.0f && late_c[3] == 46.0f);
    tileblas_stats st;
    tileblas_get_stats(&st);
    ck_assert_uint_eq(st.cpu_calls + st.gpu_calls, 2);
}
END_TEST

int main(void)
{
    tt_seed(); /* prints it */
    const TTest *const tests[] = { call_from_thread_exit_destructor, sixteen_threads, NULL };
    return tt_run_tests("threads", "concurrent calls", tests, 600, CK_NOFORK);
}
