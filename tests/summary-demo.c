/*
 * For tests/summary.sh: an ordinary OpenBLAS program whose summary at exit is checked.
 *   summary-demo threads T N S   T threads at once, N calls of S x S x S each; prints its own wall time
 *   summary-demo fork C          2 calls, then a fork; the child makes C calls and exits through exit()
 */
#include <cblas.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int calls, size;
static pthread_barrier_t start;

/* A, B and C of an s x s x s product, one allocation, filled (not zeros) */
static float *operands(int s)
{
    float *a = malloc(3 * sizeof(float) * (size_t)s * (size_t)s);
    if (!a)
        exit(1);
    for (size_t i = 0; i < 3 * (size_t)s * (size_t)s; i++)
        a[i] = (float)((i * 2654435761u) % 1000) / 1000.0f - 0.5f;
    return a;
}

static void gemm(float *a, int s)
{
    float *b = a + (size_t)s * s, *c = b + (size_t)s * s;
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, s, s, s, 1.0f, a, s, b, s, 0.5f, c, s);
}

static void product(int s)
{
    float *a = operands(s);
    gemm(a, s);
    free(a);
}

/* Operands made before the start, so that the threads spend their time inside the calls, at once */
static void *worker(void *arg)
{
    (void)arg;
    float *a = operands(size);
    pthread_barrier_wait(&start);
    for (int i = 0; i < calls; i++)
        gemm(a, size);
    free(a);
    return NULL;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc == 5 && !strcmp(argv[1], "threads")) {
        int threads = atoi(argv[2]);
        calls = atoi(argv[3]), size = atoi(argv[4]);
        pthread_t t[64];
        if (threads < 1 || threads > 64)
            return 2;
        pthread_barrier_init(&start, NULL, (unsigned)threads + 1);
        for (int i = 0; i < threads; i++)
            pthread_create(&t[i], NULL, worker, NULL);
        double t0 = now();
        pthread_barrier_wait(&start);
        for (int i = 0; i < threads; i++)
            pthread_join(t[i], NULL);
        printf("wall %.6f\n", now() - t0);
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "fork")) {
        product(64);
        product(64);
        fflush(NULL);
        pid_t child = fork();
        if (child == 0) {
            for (int i = 0; i < atoi(argv[2]); i++)
                product(32);
            exit(0);
        }
        int status = 0;
        waitpid(child, &status, 0);
        return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
    }
    fprintf(stderr, "usage: summary-demo threads T N S | fork C\n");
    return 2;
}
