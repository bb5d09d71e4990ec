/*
 * A host model of kernels/complex.cu with op(B) in place: the real form Ab op(B) with Ab's blocks in columns 2l,
 * 2l + 1, alpha folded into Ab where complex (or, as with op(A) in place, TB_COMPLEX_A_IN_PLACE, into op(B)'s
 * copy), C saved, and every non-finite element recomputed (fixup) -- against OpenBLAS's ZGEMM on 3000 small
 * problems with Inf, -Inf and NaN among A, B and C, nine scalar sets, alpha folded either way.  cc -O2 -ffp-contract=off bench/complex-model.c -lopenblas -lm && ./a.out  (NOFIX=1: without
 * the recomputation, which must then differ).  A check of the design, not of the CUDA code.
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cblas.h>
typedef struct { double re, im; } cx;
static cx mul(double ar, double ai, double br, double bi) { return (cx){ ar * br - ai * bi, ar * bi + ai * br }; }
static void update(double *c, cx v, double ar, double ai, double br, double bi)
{
    cx w = mul(ar, ai, v.re, v.im);
    if (br == 1 && bi == 0) w.re += c[0], w.im += c[1];
    else if (br != 0 || bi != 0) { cx z = mul(br, bi, c[0], c[1]); w.re += z.re, w.im += z.im; }
    c[0] = w.re, c[1] = w.im;
}
static cx op_at(const double *x, int ld, int op, int r, int c)
{
    int e = op ? c + r * ld : r + c * ld;
    return (cx){ x[2 * e], op == 2 ? -x[2 * e + 1] : x[2 * e + 1] };
}
static cx dot(const double *a, int lda, int ta, const double *b, int ldb, int k, int i, int j)
{
    cx acc = { 0, 0 };
    for (int l = 0; l < k; l++) {
        cx x = op_at(a, lda, ta, i, l), y = op_at(b, ldb, 0, l, j);
        acc.re = fma(x.re, y.re, fma(-x.im, y.im, acc.re));
        acc.im = fma(x.re, y.im, fma(x.im, y.re, acc.im));
        if (acc.re != acc.re && acc.im != acc.im) break;
    }
    return acc;
}
static double rnd(unsigned long long *s) { *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17; return (double)(*s >> 11) / 9007199254740992.0 * 2 - 1; }
static double special(unsigned long long *s, double v)
{
    double r = rnd(s);
    if (r > 0.93) return INFINITY;
    if (r > 0.86) return -INFINITY;
    if (r > 0.80) return NAN;
    return v;
}
static int same(double x, double y, double tol)
{
    if (isnan(x) || isnan(y)) return isnan(x) && isnan(y);
    if (isinf(x) || isinf(y)) return x == y;
    return fabs(x - y) <= tol;
}
int main(void)
{
    const double sc[][4] = { { 1, 0, 0, 0 }, { 1.5, 0, 0.5, 0 }, { 0.5, -1, 0, 1 }, { 1, 0, 1, 0 }, { 0, 1, 1, 0 },
                             { 1.5, 0, 1, 0 }, { NAN, 0, 0.5, 0 }, { 1, 0, INFINITY, 0 }, { 0.75, 0.5, -0.25, 0.5 } };
    unsigned long long s = 88172645463325252ull;
    long cases = 0, bad = 0;
    for (int t = 0; t < 3000; t++) {
        int m = 1 + t % 5, n = 1 + (t / 5) % 5, k = 1 + (t / 25) % 6, ta = t % 3;
        int lda = ta ? k : m, ldb = k, ldc = m;
        double a[2 * 36], b[2 * 36], c[2 * 36];
        for (int i = 0; i < 2 * lda * (ta ? m : k); i++) a[i] = special(&s, rnd(&s));
        for (int i = 0; i < 2 * ldb * n; i++) b[i] = special(&s, rnd(&s));
        for (int i = 0; i < 2 * ldc * n; i++) c[i] = special(&s, rnd(&s));
        for (int v = 0; v < 18; v++) {
            const double ar = sc[v % 9][0], ai = sc[v % 9][1], br = sc[v % 9][2], bi = sc[v % 9][3];
            const int fold_b = v >= 9; /* alpha folded into op(B)'s copy, not into Ab */
            double ref[2 * 36], got[2 * 36], c0[2 * 36];
            memcpy(ref, c, sizeof c), memcpy(got, c, sizeof c), memcpy(c0, c, sizeof c);
            double complex al = ar + ai * I, be = br + bi * I;
            cblas_zgemm(CblasColMajor, ta == 0 ? CblasNoTrans : ta == 1 ? CblasTrans : CblasConjTrans, CblasNoTrans, m,
                        n, k, &al, a, lda, b, ldb, &be, ref, ldc);
            /* the model: Ab (2m x 2k, blocks in columns 2l, 2l + 1), alpha folded when complex */
            double ab[4 * 36];
            for (int r = 0; r < m; r++)
                for (int l = 0; l < k; l++) {
                    cx x = op_at(a, lda, ta, r, l);
                    if (ai != 0 && !fold_b) x = mul(ar, ai, x.re, x.im);
                    double *left = ab + 2 * r + (2 * l) * (2 * m), *right = ab + 2 * r + (2 * l + 1) * (2 * m);
                    left[0] = x.re, left[1] = x.im, right[0] = -x.im, right[1] = x.re;
                }
            double bq[2 * 36]; /* op(B) as the real product reads it */
            for (int e = 0; e < ldb * n; e++) {
                cx y = { b[2 * e], b[2 * e + 1] };
                if (ai != 0 && fold_b) y = mul(ar, ai, y.re, y.im);
                bq[2 * e] = y.re, bq[2 * e + 1] = y.im;
            }
            const double qa = ai != 0 ? 1 : ar, qb = bi != 0 ? 1 : br;
            const int reads_c = br != 0 || bi != 0;
            if (bi != 0)
                for (int e = 0; e < m * n; e++) { cx z = mul(br, bi, got[2 * e], got[2 * e + 1]); got[2 * e] = z.re, got[2 * e + 1] = z.im; }
            for (int R = 0; R < 2 * m; R++)
                for (int j = 0; j < n; j++) {
                    double sum = 0;
                    for (int L = 0; L < 2 * k; L++) sum = fma(ab[R + L * 2 * m], bq[L + j * 2 * ldb], sum);
                    double *z = got + R + j * 2 * ldc;
                    *z = qb == 0 ? qa * sum : qb == 1 ? qa * sum + *z : qa * sum + qb * *z;
                }
            /* fixup: every non-finite element recomputed from the saved C */
            for (int i = 0; i < m; i++)
                for (int j = 0; j < n; j++) {
                    double *z = got + 2 * (i + j * ldc);
                    if (getenv("NOFIX") || (isfinite(z[0]) && isfinite(z[1]))) continue;
                    if (reads_c) z[0] = c0[2 * (i + j * ldc)], z[1] = c0[2 * (i + j * ldc) + 1];
                    update(z, dot(a, lda, ta, b, ldb, k, i, j), ar, ai, br, bi);
                }
            cases++;
            int diff = 0;
            for (int e = 0; e < 2 * m * n; e++) diff |= !same(got[e], ref[e], 1e-12 * (1 + fabs(ref[e])) * 64);
            if (diff && bad++ < 5) printf("case %d set %d (m %d n %d k %d op %d) differs\n", t, v, m, n, k, ta);
        }
    }
    printf("%ld of %ld cases differ\n", bad, cases);
    return bad != 0;
}
