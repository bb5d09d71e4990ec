/*
 * The 64_ names in a process with no ILP64 BLAS (tests/processes.sh): five invalid calls, each of which must be
 * reported the same way (with -DOWN_HANDLER through the program's own xerbla_64_), then one valid call.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

void dgemm_64_(const char *ta, const char *tb, const int64_t *m, const int64_t *n, const int64_t *k,
               const double *alpha, const double *a, const int64_t *lda, const double *b, const int64_t *ldb,
               const double *beta, double *c, const int64_t *ldc, size_t la, size_t lb);
void cblas_dgemm64_(int order, int ta, int tb, int64_t m, int64_t n, int64_t k, double alpha, const double *a,
                    int64_t lda, const double *b, int64_t ldb, double beta, double *c, int64_t ldc);

#ifdef OWN_HANDLER
void xerbla_64_(const char *name, const int64_t *info, size_t len);
void xerbla_64_(const char *name, const int64_t *info, size_t len)
{
    printf("xerbla_64_('%.*s', %lld)\n", (int)len, name, (long long)*info);
}
#endif

int main(void)
{
    const int64_t two = 2, one_i = 1, minus = -1;
    const double a[4] = { 1, 2, 3, 4 }, b[4] = { 5, 6, 7, 8 }, one = 1.0, zero = 0.0;
    double c[4] = { -1, -1, -1, -1 };
    dgemm_64_("X", "N", &two, &two, &two, &one, a, &two, b, &two, &zero, c, &two, 1, 1);    /* 1: TRANSA */
    dgemm_64_("N", "N", &minus, &two, &two, &one, a, &two, b, &two, &zero, c, &two, 1, 1);  /* 3: M */
    dgemm_64_("N", "N", &two, &two, &two, &one, a, &one_i, b, &two, &zero, c, &two, 1, 1); /* 8: LDA */
    cblas_dgemm64_(0, 111, 111, 2, 2, 2, 1.0, a, 2, b, 2, 0.0, c, 2);                       /* 0: the order */
    cblas_dgemm64_(101, 111, 111, -1, 2, 2, 1.0, a, 2, b, 2, 0.0, c, 2);                    /* 4: M, row-major */
    printf("C untouched: %g %g %g %g\n", c[0], c[1], c[2], c[3]);
    dgemm_64_("N", "N", &two, &two, &two, &one, a, &two, b, &two, &zero, c, &two, 1, 1);
    printf("C = %g %g %g %g\n", c[0], c[1], c[2], c[3]);
    return 0;
}
