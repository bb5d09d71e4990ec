/*
 * Linked with -ltileblas and made set-user-ID by tests/processes.sh: whether it runs in secure mode (AT_SECURE), and
 * one product through dgemm_.
 */
#include <stddef.h>
#include <stdio.h>
#include <sys/auxv.h>

void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k, const double *alpha,
            const double *a, const int *lda, const double *b, const int *ldb, const double *beta, double *c,
            const int *ldc, size_t la, size_t lb);

int main(void)
{
    const int n = 2;
    const double a[4] = { 1, 2, 3, 4 }, b[4] = { 5, 6, 7, 8 }, one = 1.0, zero = 0.0;
    double c[4] = { -1, -1, -1, -1 };
    printf("secure %lu\n", getauxval(AT_SECURE));
    dgemm_("N", "N", &n, &n, &n, &one, a, &n, b, &n, &zero, c, &n, 1, 1);
    printf("C = %g %g %g %g\n", c[0], c[1], c[2], c[3]);
    return 0;
}
