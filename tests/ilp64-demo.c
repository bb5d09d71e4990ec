/*
 * A program written against an ILP64 BLAS (64-bit integers, OpenBLAS's 64_ names), for tests/ilp64.sh: five
 * products through cblas_sgemm64_ and sgemm_64_, both orders and every transpose pair, each checked against a
 * double-precision sum within 2 (k + 2) u |A| |B| (u = 2^-24).  It prints a line per product with a checksum of C's
 * bits, then "all results correct"; exit status 1 on a wrong result.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void cblas_sgemm64_(int order, int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha, const float *a,
                    int64_t lda, const float *b, int64_t ldb, float beta, float *c, int64_t ldc);
void sgemm_64_(const char *ta, const char *tb, const int64_t *m, const int64_t *n, const int64_t *k,
               const float *alpha, const float *a, const int64_t *lda, const float *b, const int64_t *ldb,
               const float *beta, float *c, const int64_t *ldc);

static uint64_t state = 0x9e3779b97f4a7c15ull;
static float uniform(void)
{
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return (float)((double)(state >> 40) / 16777216.0 * 2.0 - 1.0);
}

/* one product, column-major in effect: row-major calls are checked as their column-major transpose */
static int one(int fortran, int row, int ta, int tb, int64_t m, int64_t n, int64_t k)
{
    const int64_t arows = ta ? k : m, acols = ta ? m : k, brows = tb ? n : k, bcols = tb ? k : n;
    /* storage as the caller lays it out: row-major matrices are stored transposed */
    const int64_t lda = (row ? acols : arows) + 2, ldb = (row ? bcols : brows) + 1, ldc = (row ? n : m) + 3;
    float *a = malloc(sizeof(float) * (size_t)(lda * (row ? arows : acols)));
    float *b = malloc(sizeof(float) * (size_t)(ldb * (row ? brows : bcols)));
    float *c = malloc(sizeof(float) * (size_t)(ldc * (row ? m : n)));
    for (int64_t i = 0; i < lda * (row ? arows : acols); i++)
        a[i] = uniform();
    for (int64_t i = 0; i < ldb * (row ? brows : bcols); i++)
        b[i] = uniform();
    for (int64_t i = 0; i < ldc * (row ? m : n); i++)
        c[i] = uniform();
    float *c0 = malloc(sizeof(float) * (size_t)(ldc * (row ? m : n)));
    for (int64_t i = 0; i < ldc * (row ? m : n); i++)
        c0[i] = c[i];
    const float alpha = 0.75f, beta = 0.5f;
    if (fortran) {
        const char ca = ta ? 'T' : 'N', cb = tb ? 'T' : 'N';
        sgemm_64_(&ca, &cb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
    } else {
        cblas_sgemm64_(row ? 101 : 102, ta ? 112 : 111, tb ? 112 : 111, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    }
    double worst = 0;
    uint64_t sum = 0;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = 0, mag = 0;
            for (int64_t l = 0; l < k; l++) {
                /* op(A)(i, l) and op(B)(l, j), wherever the layout keeps them */
                int64_t ar = ta ? l : i, ac = ta ? i : l, br = tb ? j : l, bc = tb ? l : j;
                double x = row ? a[ar * lda + ac] : a[ar + ac * lda], y = row ? b[br * ldb + bc] : b[br + bc * ldb];
                s += x * y, mag += fabs(x * y);
            }
            int64_t at = row ? i * ldc + j : i + j * ldc;
            double want = alpha * s + beta * c0[at], bound = 2.0 * (k + 2) * ldexp(1.0, -24) *
                                                             (fabs(alpha) * mag + fabs(beta * c0[at]));
            double e = fabs(c[at] - want) / bound;
            worst = e > worst || e != e ? e : worst;
            union { float f; uint32_t u; } bits = { c[at] };
            sum = sum * 31 + bits.u;
        }
    printf("%s %s %c%c M=%lld N=%lld K=%lld  error %.3f of the bound  checksum %016llx\n",
           fortran ? "sgemm_64_" : "cblas_sgemm64_", row ? "row-major" : "col-major", ta ? 'T' : 'N', tb ? 'T' : 'N',
           (long long)m, (long long)n, (long long)k, worst, (unsigned long long)sum);
    free(a), free(b), free(c), free(c0);
    return worst <= 1.0;
}

int main(void)
{
    int ok = one(0, 0, 0, 0, 64, 48, 40);
    ok &= one(0, 1, 1, 0, 300, 200, 100);
    ok &= one(0, 0, 0, 1, 257, 129, 65);
    ok &= one(1, 0, 1, 1, 100, 50, 100);
    ok &= one(1, 0, 0, 0, 600, 600, 600);
    if (!ok) {
        printf("WRONG RESULTS\n");
        return 1;
    }
    printf("all results correct\n");
    return 0;
}
