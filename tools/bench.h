/* What tileblas-bench's two modes (and, for the clock, medians, host memory and random data, tileblas-calibrate)
 * share: those, and the result rows and their CSV. */
#ifndef TB_BENCH_H
#define TB_BENCH_H

#include <stddef.h>
#include <stdint.h>

#define BENCH_MAX_SHAPES 64

typedef struct row {
    char type; /* 's', 'd', 'c' or 'z' */
    char shape[48];
    char trans[3];
    const char *impl;
    double ms, tflops, ratio, diff;
} row;

double bench_now(void);                          /* seconds, monotonic */
/* A quarter of a second idle, so that the threads of what was timed go idle before the next thing is: OpenBLAS's
 * workers spin for about 0.1 s after each call, and on the same cores they slow tileblas's host copies up to 5x. */
void bench_settle(void);
int bench_cmp_double(const void *x, const void *y);
double bench_median(double *t, int n);           /* sorts t */
void *bench_alloc(size_t bytes);                 /* malloc, or exit(1) */
/* fresh uniform random numbers in [-1, 1), count elements of es bytes (4: float, 8: double) */
void bench_fill(void *h, size_t count, size_t es);
/* the largest |c - ref| / (|ref| + 1) over an m x n column-major matrix of es-byte elements (NaN wins) */
double bench_max_diff(const void *c, const void *ref, int64_t m, int64_t n, int64_t ld, size_t es);
/* the largest difference from the yardstick a result may have: FP32 or FP64 products, and TF32's (11-bit inputs) */
#define BENCH_TOLERANCE 1e-3
#define BENCH_TOLERANCE_TF32 0.1
/* fills a row and prints it as a line of the table; type: 's' or 'd'; flops: the call's real flops, for the
 * TFLOP/s.  Returns 1 when diff is above tolerance (or NaN), which the line marks, else 0. */
int bench_print_row(row *rw, char type, long long m, long long n, long long k, const char *trans, const char *name,
                    double ms, double ref_ms, double diff, double tolerance, double flops);
/* ratio_name: the heading of the ratio column */
void bench_write_csv(const char *path, const char *ratio_name, const row *rows, int nrows);

/* OpenBLAS's cblas_sgemm and cblas_dgemm (and cblas_cgemm and cblas_zgemm where it has them), loaded at run time
 * (nothing links OpenBLAS): 1 when the first two were found (loaded once). */
int bench_openblas_load(void);
void *bench_openblas_lib(void); /* its handle, for dlsym (NULL if not loaded) */
/* A column-major call of OpenBLAS's of type (tb_type's numbers: 0 float, 1 double, 2 and 3 their complex types;
 * alpha and beta real, rounded to the type); ta, tb: 0 N, 1 T, 2 C (the complex types) */
void bench_openblas_gemm(int type, int ta, int tb, int m, int n, int k, double alpha, const void *a, int lda,
                         const void *b, int ldb, double beta, void *c, int ldc);

/* --host: whole calls of routine (GEMM, or the updates SYRK, HERK, SYR2K, HER2K) from host memory
 * (tools/bench-host.c), without bare-fwd and NVBLAS when no_cpu (OpenBLAS still computes the reference); returns
 * the exit status */
#include "base.h" /* tb_routine */
int bench_host(const long long (*shapes)[3], int nshapes, const char (*trans)[3], int ntrans, int repeats,
               double beta, const char *types, tb_routine routine, const char *csv, int no_cpu);

/* --contend: a second thread's calls beside a busy GPU (tools/bench-contend.c); returns the exit status */
int bench_contend(const long long (*shapes)[3], int nshapes, int repeats, int big);

/* --accuracy: single-precision errors against an FP64 product (tools/bench-accuracy.c) of the kernels in the
 * comma-separated list and cuBLAS's FP32 and TF32 paths; seed 0: a fixed one.  Returns the exit status. */
int bench_accuracy(const long long (*shapes)[3], int nshapes, const char (*trans)[3], int ntrans, const char *kernels,
                   unsigned long long seed);

/* cuBLAS (loaded by tileblas-bench.c) on p's device operands, synchronised; tf32: single precision on the TF32
 * tensor cores, else in FP32 (cuBLAS's default math).  0, or non-zero when it failed or there is no cuBLAS. */
struct tb_kproblem;
int bench_cublas_gemm(const struct tb_kproblem *p, int tf32);

#endif
