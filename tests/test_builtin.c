/* The built-in loop (lib/cpu/builtin.c: a process with no CPU BLAS, or calls while the process exits elsewhere), every
 * type and op, against a long-double product within the bound of doc/TESTING.md; and the reference's rules for
 * alpha = 0 and beta = 0 (C = beta C, A and B unread; C not read, NaN there gone).  CPU only. */
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

int main(void)
{
    state = tt_test_seed();
    Suite *s = suite_create("built-in loop");
    TCase *tc = tcase_create("against long double");
    tcase_add_loop_test(tc, products, 0, 4 * 9);
    tcase_add_loop_test(tc, zeros, 0, 4);
    suite_add_tcase(s, tc);
    return tt_run_suite(s, CK_FORK);
}
