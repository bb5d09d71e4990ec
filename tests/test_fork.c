/*
 * fork.  A child forked before any GPU use may use the GPU itself; a child of a process that has used the
 * GPU computes on the CPU (CUDA cannot be used there), and the parent keeps using the GPU; children forked while
 * other threads of the parent are inside GPU calls (holding the library's locks) neither deadlock nor go wrong.
 * Results are checked against OpenBLAS.  Without a GPU the first two check the CPU path across fork, and the third
 * is skipped: with calls in flight on other threads, OpenBLAS 0.3.21's own fork handler waits for its workers
 * forever, with or without tileblas (a hang seen in this test's first version, stack in blas_thread_shutdown_).
 */
#include <config.h>
#include <check.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "harness.h"
#include "suite.h"

/* a few calls through the forced path, all checked; returns 0 when all are right */
static int some_calls(tileblas_path path, tileblas_path *ran)
{
    static const int shapes[][3] = { { 300, 200, 100 }, { 33, 17, 65 }, { 257, 130, 33 } };
    tileblas_set_path(path);
    int bad = 0;
    for (int i = 0; i < 3; i++) {
        tt_case c;
        tt_combo(i * 5 % TT_COMBOS, &c);
        c.m = shapes[i][0], c.n = shapes[i][1], c.k = shapes[i][2], c.alpha = 1.5f, c.beta = 0.5f;
        char msg[512];
        if (!tt_run(&c, TT_TOLERANCE, msg, sizeof msg)) {
            fprintf(stderr, "%s\n", msg);
            bad = 1;
        }
        tileblas_call_info info;
        tileblas_last_call(&info);
        *ran = info.path;
    }
    tileblas_set_path(TILEBLAS_PATH_AUTO);
    return bad;
}

/* fork, run `child` there (its return value is the exit status; 30 s at most), return the child's status */
static int in_child(int (*child)(void))
{
    fflush(stdout), fflush(stderr);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        alarm(30); /* a deadlock ends as SIGALRM */
        _exit(child());
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status), "child killed by signal %d", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return WEXITSTATUS(status);
}

/* exit status: 0 right on the GPU, 2 right on the CPU, 1 wrong */
static int child_gpu_calls(void)
{
    tileblas_path ran;
    if (some_calls(TILEBLAS_PATH_GPU, &ran))
        return 1;
    return ran == TILEBLAS_PATH_GPU ? 0 : 2;
}

static _Atomic int stop;

/* GPU calls in a loop, each result compared with the first (the kernels are deterministic); no OpenBLAS call,
 * since the fork handler of OpenBLAS waits for calls in flight */
static void *busy(void *arg)
{
    (void)arg;
    enum { M = 300, N = 200, K = 100 };
    float *a = malloc(sizeof(float) * M * K), *b = malloc(sizeof(float) * K * N);
    float *c = malloc(sizeof(float) * M * N), *first = malloc(sizeof(float) * M * N);
    void *result = NULL;
    if (!a || !b || !c || !first)
        abort();
    for (int i = 0; i < M * K; i++)
        a[i] = (float)(i % 7) - 3.0f;
    for (int i = 0; i < K * N; i++)
        b[i] = (float)(i % 5) - 2.0f;
    tileblas_set_path(TILEBLAS_PATH_GPU);
    for (int r = 0; !stop; r++) {
        cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, a, M, b, K, 0.0f, c, M);
        if (r == 0)
            memcpy(first, c, sizeof(float) * M * N);
        else if (memcmp(first, c, sizeof(float) * M * N)) {
            result = (void *)1;
            break;
        }
    }
    free(a), free(b), free(c), free(first);
    return result;
}

START_TEST(fork_around_the_gpu)
{
    /* 1. before any GPU use in this process: the child may use the GPU */
    int before = in_child(child_gpu_calls);
    ck_assert_msg(before != 1, "child forked before any GPU use: wrong results");
    const char *why;
    int gpu = tileblas_gpu_available(&why);
    if (gpu)
        ck_assert_msg(before == 0, "child forked before any GPU use did not run on the GPU");
    else
        printf("no GPU (%s): every call below is on the CPU\n", why);

    /* 2. the parent uses the GPU, forks: the child's calls are right, on the CPU; the parent's stay on the GPU */
    tileblas_path ran;
    ck_assert_int_eq(some_calls(TILEBLAS_PATH_GPU, &ran), 0);
    ck_assert_int_eq(ran, gpu ? TILEBLAS_PATH_GPU : TILEBLAS_PATH_CPU);
    int after = in_child(child_gpu_calls);
    ck_assert_msg(after == 2, "child of a process that used the GPU: status %d (want right, on the CPU)", after);
    ck_assert_int_eq(some_calls(TILEBLAS_PATH_GPU, &ran), 0);
    ck_assert_int_eq(ran, gpu ? TILEBLAS_PATH_GPU : TILEBLAS_PATH_CPU);

    /* 3. forks while two other threads are inside GPU calls */
    if (!gpu) {
        printf("SKIP part 3 (forks during GPU calls on other threads): no GPU\n");
        return;
    }
    pthread_t t[2];
    stop = 0;
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, busy, NULL), 0);
    for (int i = 0; i < 10; i++) {
        int s = in_child(child_gpu_calls);
        ck_assert_msg(s == 2, "fork %d during calls on other threads: child status %d", i, s);
    }
    stop = 1;
    for (int i = 0; i < 2; i++) {
        void *r;
        ck_assert_int_eq(pthread_join(t[i], &r), 0);
        ck_assert_msg(r == NULL, "the parent's busy thread %d got a wrong result", i);
    }
}
END_TEST

int main(void)
{
    tt_seed();
    const TTest *const tests[] = { fork_around_the_gpu, NULL };
    /* no fork by check: the test forks itself, and a child of check's child could not use CUDA */
    return tt_run_tests("fork", "fork around GPU use", tests, 600, CK_NOFORK);
}
