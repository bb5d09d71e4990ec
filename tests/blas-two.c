/*
 * A program that loads extension modules privately (RTLD_LOCAL), as Python does, each built against a BLAS of its
 * own (tests/blas-ext.c), and prints a checksum of the bits of each product: under tileblas each must be its own
 * BLAS's, whatever the others are (tests/processes.sh).
 *   blas-two SEED EXT.so...
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*ext_fn)(int how, int m, int n, int k, const double *a, const double *b, double *c);

static uint64_t state;

static double next(void)
{
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return (double)(state >> 11) * 0x1p-53 * 2.0 - 1.0;
}

static uint64_t checksum(const double *x, size_t n)
{
    uint64_t h = 14695981039346656037ull;
    const unsigned char *p = (const unsigned char *)x;
    for (size_t i = 0; i < n * sizeof *x; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    const unsigned long long seed = strtoull(argv[1], NULL, 10);
    printf("seed %llu\n", seed);
    static const int sizes[] = { 7, 200 };
    for (int e = 2; e < argc; e++) {
        void *h = dlopen(argv[e], RTLD_NOW | RTLD_LOCAL);
        ext_fn f = h ? (ext_fn)(uintptr_t)dlsym(h, "ext_gemm") : NULL;
        if (!f) {
            printf("cannot load %s: %s\n", argv[e], dlerror());
            return 1;
        }
        const char *name = strrchr(argv[e], '/') ? strrchr(argv[e], '/') + 1 : argv[e];
        for (int how = 0; how < 2; how++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                const int n = sizes[s];
                double *a = malloc(sizeof(double) * (size_t)(3 * n * n)), *b = a + n * n, *c = b + n * n;
                state = seed * 2654435761u + (uint64_t)(n + how) + 1;
                for (int i = 0; i < 3 * n * n; i++)
                    a[i] = next();
                f(how, n, n, n, a, b, c);
                printf("%s %s %d: %016llx\n", name, how ? "cblas_dgemm" : "dgemm_", n,
                       (unsigned long long)checksum(c, (size_t)(n * n)));
                free(a);
            }
    }
    return 0;
}
