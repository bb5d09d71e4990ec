/*
 * Argument errors of every entry point (the LP64 names and the ILP64 ones), both orders: the parameter number and
 * routine name that reach the program's own handler (defined here, overriding the library's weak defaults), and C
 * untouched.  The ILP64 names also with dimensions past 2^31, which only 64-bit integers hold.
 */
#include <check.h>
#include "suite.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "harness.h"

static int seen_info, seen_calls;
static char seen_rout[32];

/* the program's handlers: reached through the dynamic linker instead of tileblas's defaults */
void cblas_xerbla(int p, const char *rout, const char *form, ...);
void cblas_xerbla(int p, const char *rout, const char *form, ...)
{
    (void)form;
    seen_info = p;
    seen_calls++;
    snprintf(seen_rout, sizeof seen_rout, "%s", rout);
}

void xerbla_(const char *srname, const int *info, size_t len);
void xerbla_(const char *srname, const int *info, size_t len)
{
    seen_info = *info;
    seen_calls++;
    snprintf(seen_rout, sizeof seen_rout, "%.*s", (int)len, srname);
}

enum { ROW = 101, COL = 102, N = 111, T = 112, C = 113 };

typedef struct cblas_args {
    int order, ta, tb, m, n, k, lda, ldb, ldc;
} cblas_args;

typedef struct bad_cblas {
    cblas_args args;
    int expect; /* reference CBLAS parameter number */
} bad_cblas;

/* A valid call is M=4 N=5 K=6 with tight leading dimensions; each row breaks something. */
static const bad_cblas cblas_cases[] = {
    { { 0, N, N, 4, 5, 6, 4, 6, 4 }, 1 },
    { { COL, 0, N, 4, 5, 6, 4, 6, 4 }, 2 },
    { { COL, N, 114, 4, 5, 6, 4, 6, 4 }, 3 },
    { { COL, 0, 0, 4, 5, 6, 4, 6, 4 }, 2 },           /* the lowest number wins */
    { { COL, N, N, -1, 5, 6, 4, 6, 4 }, 4 },
    { { COL, N, N, 4, -1, 6, 4, 6, 4 }, 5 },
    { { COL, N, N, 4, 5, -1, 4, 6, 4 }, 6 },
    { { COL, N, N, -1, -1, 6, 4, 6, 4 }, 4 },
    { { COL, N, N, 4, 5, 6, 3, 6, 4 }, 9 },           /* lda < M */
    { { COL, T, N, 4, 5, 6, 5, 6, 4 }, 9 },           /* transposed: lda < K */
    { { COL, N, N, 0, 5, 6, 0, 6, 1 }, 9 },           /* lda >= 1 even when M = 0 */
    { { COL, N, N, 4, 5, 6, 4, 5, 4 }, 11 },          /* ldb < K */
    { { COL, N, C, 4, 5, 6, 4, 4, 4 }, 11 },          /* conjugate-transposed: ldb < N */
    { { COL, N, N, 4, 5, 6, 4, 6, 3 }, 14 },          /* ldc < M */
    { { COL, N, N, 4, 5, 6, 3, 5, 3 }, 9 },
    { { ROW, 0, N, 4, 5, 6, 6, 5, 5 }, 2 },
    { { ROW, N, 0, 4, 5, 6, 6, 5, 5 }, 3 },
    { { ROW, N, N, -1, 5, 6, 6, 5, 5 }, 4 },
    { { ROW, N, N, 4, -1, 6, 6, 5, 5 }, 5 },
    { { ROW, N, N, 4, 5, -1, 6, 5, 5 }, 6 },
    { { ROW, N, N, -1, -1, 6, 6, 5, 5 }, 5 },         /* row-major: reference checks the swapped N first */
    { { ROW, N, N, 4, 5, 6, 5, 5, 5 }, 9 },           /* row-major A is M x K: lda < K */
    { { ROW, T, N, 4, 5, 6, 3, 5, 5 }, 9 },           /* transposed: lda < M */
    { { ROW, N, N, 4, 5, 6, 6, 4, 5 }, 11 },          /* row-major B is K x N: ldb < N */
    { { ROW, N, T, 4, 5, 6, 6, 5, 5 }, 11 },          /* transposed: ldb < K */
    { { ROW, N, N, 4, 5, 6, 5, 4, 5 }, 11 },          /* lda and ldb bad: the swapped ldb is checked first */
    { { ROW, N, N, 4, 5, 6, 6, 5, 4 }, 14 },          /* row-major C: ldc < N */
    { { ROW, N, N, 4, 0, 6, 6, 1, 0 }, 14 },          /* ldc >= 1 even when N = 0 */
};

static float a[64], b[64], c[64], c_before[64];

static void fill(void)
{
    for (int i = 0; i < 64; i++)
        a[i] = b[i] = 1.0f, c[i] = c_before[i] = (float)i + 0.5f;
    seen_info = 0, seen_calls = 0, seen_rout[0] = 0;
}

#define CBLAS_CASES ((int)(sizeof cblas_cases / sizeof cblas_cases[0]))
static const char *const cblas_names[] = { "cblas_sgemm", "cblas_sgemm64_", "scipy_cblas_sgemm64_" };

/* one call of the CBLAS entry point `name` (its integers widened or not as it takes them) */
static void cblas_call(int name, const cblas_args *x, float *cc)
{
    if (name == 0)
        cblas_sgemm((enum CBLAS_ORDER)x->order, (enum CBLAS_TRANSPOSE)x->ta, (enum CBLAS_TRANSPOSE)x->tb, x->m, x->n,
                    x->k, 1.0f, a, x->lda, b, x->ldb, 0.0f, cc, x->ldc);
    else
        (name == 1 ? cblas_sgemm64_ : scipy_cblas_sgemm64_)(x->order, x->ta, x->tb, x->m, x->n, x->k, 1.0f, a, x->lda,
                                                            b, x->ldb, 0.0f, cc, x->ldc);
}

/* _i: a case of the table for each CBLAS name in turn */
START_TEST(cblas_errors)
{
    const bad_cblas *t = &cblas_cases[_i % CBLAS_CASES];
    fill();
    cblas_call(_i / CBLAS_CASES, &t->args, c);
    ck_assert_int_eq(seen_calls, 1);
    ck_assert_int_eq(seen_info, t->expect);
    ck_assert_str_eq(seen_rout, cblas_names[_i / CBLAS_CASES]);
    ck_assert_mem_eq(c, c_before, sizeof c);
}
END_TEST

typedef struct bad_f77 {
    char ta, tb;
    int m, n, k, lda, ldb, ldc, expect;
} bad_f77;

static const bad_f77 f77_cases[] = {
    { 'X', 'N', 4, 5, 6, 4, 6, 4, 1 }, { 'N', 'x', 4, 5, 6, 4, 6, 4, 2 }, { 'X', 'X', 4, 5, 6, 4, 6, 4, 1 },
    { 'N', 'N', -1, 5, 6, 4, 6, 4, 3 }, { 'n', 'N', 4, -1, 6, 4, 6, 4, 4 }, { 'N', 't', 4, 5, -1, 4, 6, 4, 5 },
    { 'N', 'N', 4, 5, 6, 3, 6, 4, 8 },  { 't', 'N', 4, 5, 6, 5, 6, 4, 8 },  { 'N', 'N', 4, 5, 6, 4, 5, 4, 10 },
    { 'N', 'c', 4, 5, 6, 4, 4, 4, 10 }, { 'N', 'N', 4, 5, 6, 4, 6, 3, 13 }, { 'N', 'N', 0, 5, 6, 0, 6, 1, 8 },
    { 'N', 'N', 4, 5, 6, 3, 5, 3, 8 },
};

#define F77_CASES ((int)(sizeof f77_cases / sizeof f77_cases[0]))

/* the name without the underscore (for compilers that add none); tileblas.h declares only sgemm_ */
void sgemm(const char *transa, const char *transb, const int *m, const int *n, const int *k, const float *alpha,
           const float *a, const int *lda, const float *b, const int *ldb, const float *beta, float *c,
           const int *ldc);

/* _i: a case of the table for each Fortran name in turn: sgemm_, sgemm, sgemm_64_, scipy_sgemm_64_ */
START_TEST(fortran_errors)
{
    const bad_f77 *t = &f77_cases[_i % F77_CASES];
    float alpha = 1.0f, beta = 0.0f;
    const int64_t m = t->m, n = t->n, k = t->k, lda = t->lda, ldb = t->ldb, ldc = t->ldc;
    fill();
    switch (_i / F77_CASES) {
    case 0: sgemm_(&t->ta, &t->tb, &t->m, &t->n, &t->k, &alpha, a, &t->lda, b, &t->ldb, &beta, c, &t->ldc); break;
    case 1: sgemm(&t->ta, &t->tb, &t->m, &t->n, &t->k, &alpha, a, &t->lda, b, &t->ldb, &beta, c, &t->ldc); break;
    case 2: sgemm_64_(&t->ta, &t->tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc); break;
    default: scipy_sgemm_64_(&t->ta, &t->tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
    }
    ck_assert_int_eq(seen_calls, 1);
    ck_assert_int_eq(seen_info, t->expect);
    ck_assert_str_eq(seen_rout, "SGEMM ");
    ck_assert_mem_eq(c, c_before, sizeof c);
}
END_TEST

/* Valid calls reach no handler, lower-case and 'C' transposes included. */
START_TEST(valid_calls)
{
    float alpha = 1.0f, beta = 0.0f;
    int m = 4, n = 5, k = 6, lda = 6, ldb = 5, ldc = 4;
    fill();
    sgemm_("c", "t", &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
    cblas_sgemm(CblasRowMajor, CblasConjTrans, CblasNoTrans, 4, 5, 6, 1.0f, a, 4, b, 5, 0.0f, c, 5);
    ck_assert_int_eq(seen_calls, 0);
    ck_assert(c[0] == 6.0f);
}
END_TEST

/* The ILP64 names take dimensions that an int cannot hold: past 2^31, checked as such (a leading dimension one
 * short of 2^32 + 5 is an error; with N = 0 or K = 0 the call is valid and reads nothing). */
START_TEST(wide_dimensions)
{
    const int64_t big = ((int64_t)1 << 32) + 5, m = big, n = 0, k = 3, lda = big, ldb = 3, ldc = big, lda_bad = big - 1;
    float alpha = 1.0f, beta = 1.0f;
    fill();
    sgemm_64_("N", "N", &m, &n, &k, &alpha, a, &lda_bad, b, &ldb, &beta, c, &ldc);
    ck_assert_int_eq(seen_calls, 1);
    ck_assert_int_eq(seen_info, 8);
    fill();
    cblas_sgemm64_(CblasColMajor, CblasNoTrans, CblasNoTrans, big, 0, 3, 1.0f, a, big - 1, b, 3, 1.0f, c, big);
    ck_assert_int_eq(seen_info, 9);
    fill();
    scipy_cblas_sgemm64_(CblasRowMajor, CblasNoTrans, CblasNoTrans, 0, big, 3, 1.0f, a, 3, b, big, 1.0f, c,
                         big - 1);
    ck_assert_int_eq(seen_info, 14);
    fill();
    sgemm_64_("N", "N", &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc); /* N = 0: nothing to do */
    const int64_t one = 1;
    scipy_sgemm_64_("T", "N", &k, &m, &n, &alpha, a, &one, b, &one, &beta, c, &k); /* K = 0, beta = 1: nothing */
    ck_assert_int_eq(seen_calls, 0);
    ck_assert_mem_eq(c, c_before, sizeof c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("argument errors");
    TCase *tc = tcase_create("reference numbering");
    tcase_add_loop_test(tc, cblas_errors, 0, 3 * CBLAS_CASES);
    tcase_add_loop_test(tc, fortran_errors, 0, 4 * F77_CASES);
    tcase_add_test(tc, valid_calls);
    tcase_add_test(tc, wide_dimensions);
    suite_add_tcase(s, tc);
    return tt_run_suite(s, CK_FORK);
}
