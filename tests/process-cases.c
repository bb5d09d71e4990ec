/*
 * More programs for tests/processes.sh, one per build:
 *   -DLAPACK  process-cases N             dgeqrf_ of OpenBLAS's own LAPACK on an N x N matrix (its inner dgemm_
 *                                         calls reach the names tileblas exports): prints the factor's checksum
 *   -DLOCAL   process-cases LIBTILEBLAS   a program linked with a BLAS that loads tileblas privately (RTLD_LOCAL)
 *                                         and calls its dgemm_: prints whether the bits are its BLAS's own
 *   -DRELOAD  process-cases PLUGIN NEW    a plugin that calls dgemm_ loaded, unloaded, replaced by NEW (a rebuilt
 *                                         one) and loaded again: prints each one's version
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void dgemm_fn(const char *ta, const char *tb, const int *m, const int *n, const int *k, const double *alpha,
                      const double *a, const int *lda, const double *b, const int *ldb, const double *beta, double *c,
                      const int *ldc, size_t la, size_t lb);

static double next(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return (double)(*s >> 11) * 0x1p-53 * 2.0 - 1.0;
}

#ifdef LAPACK
void dgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau, double *work, const int *lwork,
             int *info);

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 400, query = -1;
    double *a = malloc(sizeof(double) * (size_t)n * n), *tau = malloc(sizeof(double) * (size_t)n), size;
    uint64_t s = 88172645463325252ull, h = 0;
    for (int i = 0; i < n * n; i++)
        a[i] = next(&s);
    int info;
    dgeqrf_(&n, &n, a, &n, tau, &size, &query, &info);
    const int lwork = (int)size;
    double *work = malloc(sizeof(double) * (size_t)lwork);
    dgeqrf_(&n, &n, a, &n, tau, work, &lwork, &info);
    for (int i = 0; i < n * n; i++) {
        uint64_t bits;
        memcpy(&bits, &a[i], sizeof bits);
        h = (h ^ bits) * 1099511628211ull;
    }
    printf("dgeqrf info %d checksum %016llx\n", info, (unsigned long long)h);
    return 0;
}
#endif

#ifdef LOCAL
dgemm_fn dgemm_;

int main(int argc, char **argv)
{
    void *h = argc > 1 ? dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) : NULL;
    dgemm_fn *through = h ? (dgemm_fn *)(uintptr_t)dlsym(h, "dgemm_") : NULL;
    if (!through) {
        printf("cannot load %s\n", argc > 1 ? argv[1] : "(nothing)");
        return 1;
    }
    enum { N = 150 };
    static double a[N * N], b[N * N], c0[N * N], c1[N * N];
    uint64_t s = 1234567;
    for (int i = 0; i < N * N; i++)
        a[i] = next(&s), b[i] = next(&s), c0[i] = c1[i] = next(&s);
    const int n = N;
    const double one = 1.0, half = 0.5;
    dgemm_("N", "T", &n, &n, &n, &one, a, &n, b, &n, &half, c0, &n, 1, 1);
    through("N", "T", &n, &n, &n, &one, a, &n, b, &n, &half, c1, &n, 1, 1);
    puts(memcmp(c0, c1, sizeof c0) ? "not its own BLAS's bits" : "its own BLAS's bits");
    return 0;
}
#endif

#ifdef RELOAD
static int load_and_call(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    int (*plugin)(void) = h ? (int (*)(void))(uintptr_t)dlsym(h, "plugin") : NULL;
    if (!plugin) {
        printf("cannot load %s: %s\n", path, dlerror());
        return -1;
    }
    const int v = plugin();
    dlclose(h);
    return v;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    const int first = load_and_call(argv[1]);
    if (rename(argv[2], argv[1])) {
        perror("rename");
        return 1;
    }
    printf("versions %d %d\n", first, load_and_call(argv[1]));
    return 0;
}
#endif

#ifdef PLUGIN
dgemm_fn dgemm_;
int plugin(void);

/* a product through dgemm_, then the version this plugin was built as */
int plugin(void)
{
    const int n = 2;
    const double a[4] = { 1, 2, 3, 4 }, one = 1.0, zero = 0.0;
    double c[4];
    dgemm_("N", "N", &n, &n, &n, &one, a, &n, a, &n, &zero, c, &n, 1, 1);
    return c[0] == 7.0 ? PLUGIN : -PLUGIN;
}
#endif
