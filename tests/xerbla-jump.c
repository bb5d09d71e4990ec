/*
 * A program whose BLAS error handler leaves by longjmp, as R's does (tests/processes.sh): one invalid dgemm_, then
 * three valid ones, each printed as a checksum; under tileblas every later call is its own call again.
 */
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k, const double *alpha,
            const double *a, const int *lda, const double *b, const int *ldb, const double *beta, double *c,
            const int *ldc, size_t la, size_t lb);
void xerbla_(const char *name, const int *info, size_t len);

static jmp_buf back;

void xerbla_(const char *name, const int *info, size_t len)
{
    printf("handler: %.*s parameter %d\n", (int)len, name, *info);
    fflush(stdout);
    longjmp(back, 1);
}

enum { N = 96 };
static double a[N * N], b[N * N], c[N * N];

int main(void)
{
    const int n = N, zero = 0;
    const double one = 1.0, half = 0.5;
    for (int i = 0; i < N * N; i++)
        a[i] = (i * 7 % 13) - 6.0, b[i] = (i * 5 % 11) * 0.25 - 1.0, c[i] = i % 17;
    if (!setjmp(back)) {
        dgemm_("N", "N", &n, &n, &n, &one, a, &zero, b, &n, &half, c, &n, 1, 1); /* LDA = 0: parameter 8 */
        puts("the handler returned");
    }
    for (int r = 0; r < 3; r++) {
        dgemm_("N", "N", &n, &n, &n, &one, a, &n, b, &n, &half, c, &n, 1, 1);
        uint64_t h = 0;
        for (int i = 0; i < N * N; i++)
            h = h * 31 + (uint64_t)(int64_t)c[i];
        printf("call %d: %016llx\n", r, (unsigned long long)h);
    }
    return 0;
}
