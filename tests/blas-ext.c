/*
 * An extension module as Python and R load them (tests/processes.sh): built against one BLAS and loaded privately
 * (RTLD_LOCAL) beside others built against other BLAS builds, its integers as wide as its own BLAS's (BLASINT).
 */
#include <stddef.h>
#include <stdint.h>

#ifndef BLASINT
#define BLASINT int
#endif

void dgemm_(const char *ta, const char *tb, const BLASINT *m, const BLASINT *n, const BLASINT *k, const double *alpha,
            const double *a, const BLASINT *lda, const double *b, const BLASINT *ldb, const double *beta, double *c,
            const BLASINT *ldc, size_t la, size_t lb);
void cblas_dgemm(int order, int ta, int tb, BLASINT m, BLASINT n, BLASINT k, double alpha, const double *a, BLASINT lda,
                 const double *b, BLASINT ldb, double beta, double *c, BLASINT ldc);
void ext_gemm(int how, int m, int n, int k, const double *a, const double *b, double *c);

/* C = A B + C / 2, column-major m x n x k with tight leading dimensions, through dgemm_ (how 0) or cblas_dgemm (1).
 * Each integer that dgemm_ reads by reference is followed by a -1: read at the wrong width, it is invalid. */
void ext_gemm(int how, int m, int n, int k, const double *a, const double *b, double *c)
{
    const double one = 1.0, half = 0.5;
    if (how == 0) {
        const BLASINT v[6][2] = { { m, -1 }, { n, -1 }, { k, -1 }, { m, -1 }, { k, -1 }, { m, -1 } };
        dgemm_("N", "N", v[0], v[1], v[2], &one, a, v[3], b, v[4], &half, c, v[5], 1, 1);
    } else {
        cblas_dgemm(102, 111, 111, m, n, k, 1.0, a, m, b, k, 0.5, c, m);
    }
}
