/* The routines besides GEMM as a program calls them (their Fortran names, linked against OpenBLAS; tileblas
 * preloaded in tests/faults.sh): DSYMM, ZHEMM, DSYR2K and ZHERK on random N x N operands (the argument, default
 * 300), each against OpenBLAS's own symbol on the same inputs (dlopen'd, so never tileblas's), normwise within
 * 1e-9 of the largest element; the triangle an update does not write, untouched.  Prints "all results correct" and
 * exits 0, or says which differ and exits 1. */
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*three_fn)(const char *, const char *, const int *, const int *, const void *, const void *,
                         const int *, const void *, const int *, const void *, void *, const int *, size_t, size_t);
typedef void (*rankk_fn)(const char *, const char *, const int *, const int *, const void *, const void *,
                         const int *, const void *, void *, const int *, size_t, size_t);
void dsymm_(const char *, const char *, const int *, const int *, const void *, const void *, const int *,
            const void *, const int *, const void *, void *, const int *, size_t, size_t);
void zhemm_(const char *, const char *, const int *, const int *, const void *, const void *, const int *,
            const void *, const int *, const void *, void *, const int *, size_t, size_t);
void dsyr2k_(const char *, const char *, const int *, const int *, const void *, const void *, const int *,
             const void *, const int *, const void *, void *, const int *, size_t, size_t);
void zherk_(const char *, const char *, const int *, const int *, const void *, const void *, const int *,
            const void *, void *, const int *, size_t, size_t);

static double uniform(void)
{
    return (double)rand() / RAND_MAX * 2.0 - 1.0;
}

/* the largest |x - y| over n elements of `parts` doubles each, against the largest |y| */
static int agree(const char *what, const double *x, const double *y, size_t n)
{
    double worst = 0, big = 0;
    for (size_t i = 0; i < n; i++) {
        const double d = fabs(x[i] - y[i]);
        worst = d > worst || d != d ? d : worst;
        big = fabs(y[i]) > big ? fabs(y[i]) : big;
    }
    if (!(worst <= 1e-9 * big)) {
        printf("%s: differs from OpenBLAS by %g (largest element %g)\n", what, worst, big);
        return 0;
    }
    return 1;
}

static void *openblas_sym(void *h, const char *name)
{
    void *f = dlsym(h, name);
    if (!f) {
        printf("%s not in libopenblas.so.0\n", name);
        exit(2);
    }
    return f;
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 300, k = n / 2 + 1;
    void *h = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        printf("libopenblas.so.0: %s\n", dlerror());
        return 2;
    }
    srand(7);
    const size_t nn = (size_t)n * n;
    double *a = malloc(nn * 16), *b = malloc(nn * 16), *c0 = malloc(nn * 16), *c = malloc(nn * 16),
           *want = malloc(nn * 16);
    for (size_t i = 0; i < 2 * nn; i++)
        a[i] = uniform(), b[i] = uniform(), c0[i] = uniform();
    const double alpha[2] = { 0.75, -0.5 }, beta[2] = { 1.25, 0.25 }, ralpha = -1.5, rbeta = 0.5;
    int ok = 1;
#define BOTH(fn, ref_name, T, elems, ...)                                                                         \
    do {                                                                                                           \
        memcpy(c, c0, nn * 16), memcpy(want, c0, nn * 16);                                                         \
        fn(__VA_ARGS__, c, &n, 1, 1);                                                                              \
        ((T)openblas_sym(h, ref_name))(__VA_ARGS__, want, &n, 1, 1);                                               \
        ok &= agree(ref_name, c, want, elems);                                                                     \
    } while (0)
    BOTH(dsymm_, "dsymm_", three_fn, nn, "L", "U", &n, &n, alpha, a, &n, b, &n, beta);
    BOTH(zhemm_, "zhemm_", three_fn, 2 * nn, "R", "L", &n, &n, alpha, a, &n, b, &n, beta);
    BOTH(dsyr2k_, "dsyr2k_", three_fn, nn, "U", "N", &n, &k, alpha, a, &n, b, &n, beta);
    BOTH(zherk_, "zherk_", rankk_fn, 2 * nn, "L", "C", &n, &k, &ralpha, a, &k, &rbeta);
    if (ok)
        printf("all results correct\n");
    free(a), free(b), free(c0), free(c), free(want);
    return ok ? 0 : 1;
}
