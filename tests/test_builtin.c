/* The built-in loop (lib/cpu/builtin.c: a process with no CPU BLAS, or calls while the process exits elsewhere), every
 * type and op, against a long-double product within the bound of doc/TESTING.md; and the reference's rules for
 * alpha = 0 and beta = 0 (C = beta C, A and B unread; C not read, NaN there gone); the pieces of a rank-k update
 * and of a product with a symmetric operand.  CPU only. */
#include <config.h>
#include <check.h>
#include "suite.h"
#include <complex.h>
#include <math.h>
#include <string.h>
#include "cpu_blas.h"
#include "elements.h"

static uint64_t state;

static double uniform(void)
{
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return (double)(state >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* loop index: type x op(A) x op(B) (ops 0..2 for the complex types; the real ones skip 2) */
START_TEST(products)
{
    const tb_type t = (tb_type)(_i / 9);
    const int ta = _i / 3 % 3, tb = _i % 3, cplx = tb_type_complex(t);
    if (!cplx && (ta == 2 || tb == 2))
        return;
    const int64_t m = 13, n = 9, k = 17, lda = (ta ? k : m) + 2, ldb = (tb ? n : k) + 1, ldc = m + 3;
    const unsigned es = tb_type_size(t);
    char a[40 * 40 * 16], b[40 * 40 * 16], c[40 * 40 * 16], c0[40 * 40 * 16];
    for (int64_t i = 0; i < 40 * 40; i++) {
        tt_xput(a, i, t, uniform() + (cplx ? uniform() * I : 0));
        tt_xput(b, i, t, uniform() + (cplx ? uniform() * I : 0));
        tt_xput(c, i, t, uniform() + (cplx ? uniform() * I : 0));
    }
    memcpy(c0, c, sizeof c);
    const double complex alpha = 0.75 + (cplx ? -0.5 * I : 0), beta = -1.25 + (cplx ? 0.25 * I : 0);
    tb_kproblem p = { .type = t, .transa = ta, .transb = tb, .m = m, .n = n, .k = k, .alpha = creal(alpha),
                      .alpha_im = cimag(alpha), .beta = creal(beta), .beta_im = cimag(beta), .a = a, .lda = lda,
                      .b = b, .ldb = ldb, .c = c, .ldc = ldc };
    tb_builtin_gemm(&p);
    const double u = t == TB_TYPE_S || t == TB_TYPE_C ? ldexp(1.0, -24) : ldexp(1.0, -53);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < ldc; i++) {
            const int64_t at = i + j * ldc;
            if (i >= m) { /* past M: untouched */
                ck_assert(!memcmp(c + at * es, c0 + at * es, es));
                continue;
            }
            long double complex s = 0;
            long double mag = 0;
            for (int64_t l = 0; l < k; l++) {
                const long double complex x = tt_op_at(a, lda, ta, i, l, t), y = tt_op_at(b, ldb, tb, l, j, t);
                s += x * y, mag += cabsl(x) * cabsl(y);
            }
            const long double complex want = alpha * s + beta * tt_xget(c0, at, t);
            const long double bound = tt_bound_factor(t, k) * u *
                                      (cabs(alpha) * mag + cabs(beta) * cabsl(tt_xget(c0, at, t)));
            ck_assert_msg(cabsl(tt_xget(c, at, t) - want) <= bound, "type %d %d%d C(%lld,%lld)", t, ta, tb,
                          (long long)i, (long long)j);
        }
}
END_TEST

/* alpha = 0: C = beta C, A and B (NaN) unread; beta = 0: C (NaN) not read */
START_TEST(zeros)
{
    const tb_type t = (tb_type)_i;
    char a[16 * 16], b[16 * 16], c[16 * 16];
    for (int i = 0; i < 16; i++)
        tt_xput(a, i, t, NAN), tt_xput(b, i, t, NAN), tt_xput(c, i, t, i + 1.0);
    tb_kproblem p = { .type = t, .m = 4, .n = 4, .k = 4, .beta = 2.0, .a = a, .lda = 4, .b = b, .ldb = 4, .c = c,
                      .ldc = 4 };
    tb_builtin_gemm(&p);
    for (int i = 0; i < 16; i++)
        ck_assert(tt_xget(c, i, t) == 2.0L * (i + 1));
    for (int i = 0; i < 16; i++)
        tt_xput(a, i, t, 1.0), tt_xput(b, i, t, 1.0), tt_xput(c, i, t, NAN);
    p.alpha = 1.0, p.beta = 0.0;
    tb_builtin_gemm(&p);
    for (int i = 0; i < 16; i++)
        ck_assert(tt_xget(c, i, t) == 4.0L);
}
END_TEST

/* A piece of a rank-k or rank-2k update's GPU run that the CPU finishes (lib/cpu/cpu_blas.h: tb_cpu_gemm_part):
 * whatever block of C it is, the pieces handed to the BLAS beneath are one-product problems or squares on the
 * diagonal, and together they write what the built-in loop writes for the whole block, bit for bit (the same
 * operations, element by element). */
static int pieces_seen, pieces_bad;
static int record_piece(const tb_call *g, const tb_kproblem *p)
{
    (void)g;
    pieces_seen++;
    pieces_bad += p->part != TB_PART_ALL && (p->diag != 0 || p->m != p->n);
    pieces_bad += p->part == TB_PART_ALL && (p->herm || p->k1);
    pieces_bad += p->sym && (p->sym_r != p->sym_c || p->k != (p->sym == 1 ? p->m : p->n));
    return -1; /* no BLAS beneath: the built-in loop runs it */
}

START_TEST(pieces)
{
    const tb_type t = (tb_type)(_i / 2);
    const int n = 37, k = 5, cplx = tb_type_complex(t);
    const unsigned es = tb_type_size(t);
    static char a[37 * 5 * 16], b[40 * 6 * 16], c1[37 * 37 * 16], c2[37 * 37 * 16];
    for (int i = 0; i < n * k; i++)
        tt_xput(a, i, t, uniform() + (cplx ? uniform() * I : 0));
    for (int i = 0; i < 40 * 6; i++)
        tt_xput(b, i, t, uniform() + (cplx ? uniform() * I : 0));
    const tb_reissue via = { NULL, record_piece, NULL };
    for (int round = 0; round < 300; round++) {
        const int herm = cplx && round % 2, trans = round % 4 >= 2, two = round % 3 == 2; /* SYR2K's, HER2K's */
        tb_kproblem p = { .type = t, .transa = trans ? (herm ? 2 : 1) : 0, .transb = trans ? 0 : (herm ? 2 : 1),
                          .m = n, .n = n, .k = k, .alpha = -0.75, .beta = 1.25, .a = a, .lda = trans ? k : n, .b = a,
                          .ldb = trans ? k : n, .c = c1, .ldc = n, .part = _i % 2 ? TB_PART_UPPER : TB_PART_LOWER,
                          .herm = herm };
        if (two) /* alpha op(A) op(B)^H + conj(alpha) op(B) op(A)^H, k deep each; B's leading dimension its own */
            p.b = b, p.ldb = p.lda + 1, p.a2 = b, p.lda2 = p.ldb, p.b2 = a, p.ldb2 = p.lda, p.k1 = k, p.k = 2 * k,
            p.alpha_im = cplx ? 0.5 : 0, p.alpha2 = p.alpha, p.alpha2_im = herm ? -p.alpha_im : p.alpha_im;
        for (int i = 0; i < n * n; i++)
            tt_xput(c1, i, t, uniform() + (cplx ? uniform() * I : 0));
        memcpy(c2, c1, sizeof c1);
        const int64_t i0 = (int64_t)((uniform() + 1) * 18), j0 = (int64_t)((uniform() + 1) * 18);
        const int64_t rows = 1 + (int64_t)((uniform() + 1) * (double)(n - i0 - 1) / 2),
                      cols = 1 + (int64_t)((uniform() + 1) * (double)(n - j0 - 1) / 2);
        tb_kproblem block = tb_kproblem_block(&p, i0, rows, j0, cols);
        tb_builtin_gemm(&block);
        block.c = tb_at(c2, i0 + j0 * n, es);
        const tb_call g = { .p = p, .entry = TB_E_DSYRK, .via = &via };
        pieces_seen = pieces_bad = 0;
        tb_cpu_gemm_part(&g, &block);
        ck_assert_msg(!pieces_bad, "a piece neither a product nor on the diagonal");
        ck_assert_msg(!memcmp(c1, c2, sizeof c1), "type %d round %d: block (%lld, %lld) %lld x %lld differs", t, round,
                      (long long)i0, (long long)j0, (long long)rows, (long long)cols);
    }
}
END_TEST

/* The same for SYMM and HEMM (A symmetric, the other triangle NaN, HEMM's diagonal's imaginary parts NaN): the
 * pieces are products of plain operands or squares on A's diagonal.  Loop index: type x side x uplo. */
START_TEST(sym_pieces)
{
    const tb_type t = (tb_type)(_i / 4);
    const int right = _i / 2 % 2, lower = _i % 2, cplx = tb_type_complex(t);
    const int64_t m = 29, n = 23, na = right ? n : m, lda = na + 2, ldb = m + 1, ldc = m + 3;
    const unsigned es = tb_type_size(t);
    static char a[31 * 31 * 16], b[30 * 23 * 16], c1[32 * 23 * 16], c2[32 * 23 * 16];
    for (int i = 0; i < 30 * 23; i++)
        tt_xput(b, i, t, uniform() + (cplx ? uniform() * I : 0));
    const tb_reissue via = { NULL, record_piece, NULL };
    for (int round = 0; round < 200; round++) {
        const int herm = cplx && round % 2;
        for (int64_t j = 0; j < na; j++)
            for (int64_t i = 0; i < lda; i++)
                tt_xput(a, i + j * lda, t,
                        i >= na || (lower ? i < j : i > j) ? NAN
                        : i == j && herm                    ? CMPLX(uniform(), NAN)
                                                            : uniform() + (cplx ? uniform() * I : 0));
        tb_kproblem p = { .type = t, .m = m, .n = n, .k = na, .alpha = 0.75, .alpha_im = cplx ? -0.5 : 0,
                          .beta = -1.25, .a = right ? b : a, .lda = right ? ldb : lda, .b = right ? a : b,
                          .ldb = right ? lda : ldb, .c = c1, .ldc = ldc, .sym = right ? 2 : 1,
                          .sym_uplo = lower ? TB_LOWER : TB_UPPER, .sym_herm = herm };
        for (int i = 0; i < ldc * n; i++)
            tt_xput(c1, i, t, uniform() + (cplx ? uniform() * I : 0));
        memcpy(c2, c1, sizeof c1);
        const int64_t i0 = (int64_t)((uniform() + 1) * 14), j0 = (int64_t)((uniform() + 1) * 11);
        const int64_t rows = 1 + (int64_t)((uniform() + 1) * (double)(m - i0 - 1) / 2),
                      cols = 1 + (int64_t)((uniform() + 1) * (double)(n - j0 - 1) / 2);
        tb_kproblem block = tb_kproblem_block(&p, i0, rows, j0, cols);
        tb_builtin_gemm(&block);
        block.c = tb_at(c2, i0 + j0 * ldc, es);
        const tb_call g = { .p = p, .entry = TB_E_DSYMM, .via = &via };
        pieces_seen = pieces_bad = 0;
        tb_cpu_gemm_part(&g, &block);
        ck_assert_msg(!pieces_bad && pieces_seen >= 1, "a piece neither a product nor on A's diagonal");
        ck_assert_msg(!memcmp(c1, c2, sizeof c1), "type %d round %d: block (%lld, %lld) %lld x %lld differs", t,
                      round, (long long)i0, (long long)j0, (long long)rows, (long long)cols);
        for (int i = 0; i < ldc * n; i++)
            tt_assert_msg(!isnan(creall(tt_xget(c1, i, t))) && !isnan(cimagl(tt_xget(c1, i, t))),
                          "type %d round %d: NaN read from A's other triangle or HEMM's diagonal", t, round);
    }
}
END_TEST

/* The GEMM beside another routine's entry point (the products of its pieces): the same kind of name */
START_TEST(siblings)
{
    ck_assert_int_eq(tb_entry_sibling(TB_E_CBLAS_DSYRK, TB_ROUTINE_GEMM), TB_E_CBLAS_DGEMM);
    ck_assert_int_eq(tb_entry_sibling(TB_E_ZHER2K, TB_ROUTINE_GEMM), TB_E_ZGEMM);
    ck_assert_int_eq(tb_entry_sibling(TB_E_SSYR2K64, TB_ROUTINE_GEMM), TB_E_SGEMM64);
    ck_assert_int_eq(tb_entry_sibling(TB_E_SCIPY_CBLAS_CSYRK, TB_ROUTINE_GEMM), TB_E_SCIPY_CBLAS_CGEMM);
    ck_assert_int_eq(tb_entry_sibling(TB_E_SCIPY_DSYR2K64, TB_ROUTINE_GEMM), TB_E_SCIPY_DGEMM64);
    ck_assert_int_eq(tb_entry_sibling(TB_E_SCIPY_ZHEMM, TB_ROUTINE_GEMM), TB_E_SCIPY_ZGEMM);
    ck_assert_int_eq(tb_entry_sibling(TB_E_CBLAS_DGEMM, TB_ROUTINE_HERK), -1); /* no DHERK */
}
END_TEST

int main(void)
{
    state = tt_test_seed();
    Suite *s = suite_create("built-in loop");
    TCase *tc = tcase_create("against long double");
    tcase_add_loop_test(tc, products, 0, 4 * 9);
    tcase_add_loop_test(tc, zeros, 0, 4);
    tcase_add_loop_test(tc, pieces, 0, 8);
    tcase_add_loop_test(tc, sym_pieces, 0, 16);
    tcase_add_test(tc, siblings);
    suite_add_tcase(s, tc);
    return tt_run_suite(s, CK_FORK);
}
