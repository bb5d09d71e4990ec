/*
 * tileblas: single- and double-precision GEMM on the GPU for unmodified BLAS programs.
 *
 * The library exports the BLAS entry points cblas_sgemm, sgemm_ and sgemm, their ILP64 names (64-bit integers:
 * cblas_sgemm64_ and sgemm_64_ as OpenBLAS built with SYMBOLSUFFIX=64_ names them, scipy_cblas_sgemm64_ and
 * scipy_sgemm_64_ as the scipy-openblas64 library of numpy's wheels does), scipy's 32-bit scipy_cblas_sgemm and
 * scipy_sgemm_ (the scipy-openblas library of scipy's wheels), and the same for dgemm, cgemm and zgemm; programs
 * call those as they would call any BLAS.  The rank-k updates ssyrk, dsyrk, csyrk, zsyrk, cherk and zherk are
 * exported under the same kinds of name (declared by the program's own BLAS headers, not here).  It has no error
 * handler of its own: invalid calls go to the BLAS beneath unchanged.  This header adds the tileblas_*
 * functions: version, per-thread forcing of the path and kernel (for tests and benchmarks), and statistics.
 */
#ifndef TILEBLAS_H
#define TILEBLAS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TILEBLAS_VERSION_MAJOR 0
#define TILEBLAS_VERSION_MINOR 1
#define TILEBLAS_VERSION_PATCH 0

/* "MAJOR.MINOR.PATCH" of the library actually loaded. */
const char *tileblas_version(void);

/* Where a call runs.  AUTO follows TILEBLAS_MODE and the size rule; CPU and GPU force the path. */
typedef enum tileblas_path {
    TILEBLAS_PATH_AUTO = 0,
    TILEBLAS_PATH_CPU = 1,
    TILEBLAS_PATH_GPU = 2
} tileblas_path;

/*
 * Force the path of this thread's following calls (TILEBLAS_PATH_AUTO restores the environment's choice).
 * A forced GPU call still runs on the CPU when no device is usable or the GPU fails: check tileblas_last_call().
 */
void tileblas_set_path(tileblas_path path);

/* Force the GPU kernel of this thread's following calls by name (NULL restores the default).
 * Returns 0, or -1 if no kernel of that name is built in. */
int tileblas_set_kernel(const char *name);

/* The GPU kernels built in, in table order: names for i = 0 .. tileblas_kernel_count() - 1, else NULL. */
int tileblas_kernel_count(void);
const char *tileblas_kernel_name(int i);

/* The element types kernel i computes, as BLAS prefixes ("s", "d", "sd", "c", "z", ...), else NULL.  For each type, the last
 * kernel of the table that computes it is the default; a kernel forced by tileblas_set_kernel or TILEBLAS_KERNEL
 * for a type it does not compute gives way to that default. */
const char *tileblas_kernel_types(int i);

/* 1 when a CUDA device is usable (this initialises the GPU runtime once), else 0; why_not gets the reason. */
int tileblas_gpu_available(const char **why_not);

/* What this thread's last BLAS call (of those tileblas exports) did. */
typedef struct tileblas_call_info {
    tileblas_path path;  /* TILEBLAS_PATH_CPU or TILEBLAS_PATH_GPU; AUTO for a call with nothing to multiply
                            (M or N = 0, alpha = 0 or K = 0), which the BLAS beneath answers */
    const char *kernel;  /* GPU kernel name, or NULL on the CPU */
    int gpu_failed;      /* 1 when the call was meant for the GPU, failed there, and ran on the CPU */
} tileblas_call_info;
void tileblas_last_call(tileblas_call_info *info);

/* Process-wide counters since start (or the last reset), summed over all entry points and threads. */
typedef struct tileblas_stats {
    unsigned long long gpu_calls, cpu_calls, gpu_failures;
    unsigned long long quick_returns; /* calls with nothing to multiply (the BLAS beneath answers them) */
    double gpu_flops, cpu_flops;     /* 2*M*N*K per GEMM call (8*M*N*K complex), N*(N+1)*K per SYRK or HERK (x4) */
    double gpu_seconds, cpu_seconds; /* wall time spent inside the calls; calls under 16.7 MFLOP are timed only
                                        after the first tileblas_get_stats or tileblas_reset_stats (or with
                                        TILEBLAS_VERBOSE), since reading the clock costs them up to a fifth more */
} tileblas_stats;
void tileblas_get_stats(tileblas_stats *stats);
void tileblas_reset_stats(void);

/*
 * Declarations of the BLAS entry points the library exports, for programs that have no BLAS headers.
 * The CBLAS ones are skipped when a cblas.h was included first; define TILEBLAS_NO_BLAS_DECLS to skip them all
 * (for example alongside a BLAS's own f77blas.h).
 */
#ifndef TILEBLAS_NO_BLAS_DECLS
#ifndef CBLAS_H
enum CBLAS_ORDER { CblasRowMajor = 101, CblasColMajor = 102 };
enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 };
void cblas_sgemm(enum CBLAS_ORDER Order, enum CBLAS_TRANSPOSE TransA, enum CBLAS_TRANSPOSE TransB, int M, int N,
                 int K, float alpha, const float *A, int lda, const float *B, int ldb, float beta, float *C,
                 int ldc);
void cblas_dgemm(enum CBLAS_ORDER Order, enum CBLAS_TRANSPOSE TransA, enum CBLAS_TRANSPOSE TransB, int M, int N,
                 int K, double alpha, const double *A, int lda, const double *B, int ldb, double beta, double *C,
                 int ldc);
/* complex: elements and scalars as interleaved (real, imaginary) pairs of float (c) or double (z) */
void cblas_cgemm(enum CBLAS_ORDER Order, enum CBLAS_TRANSPOSE TransA, enum CBLAS_TRANSPOSE TransB, int M, int N,
                 int K, const void *alpha, const void *A, int lda, const void *B, int ldb, const void *beta,
                 void *C, int ldc);
void cblas_zgemm(enum CBLAS_ORDER Order, enum CBLAS_TRANSPOSE TransA, enum CBLAS_TRANSPOSE TransB, int M, int N,
                 int K, const void *alpha, const void *A, int lda, const void *B, int ldb, const void *beta,
                 void *C, int ldc);
#endif
#define TILEBLAS_F77_XGEMM(name, I)                                                                                 \
    void name(const char *transa, const char *transb, const I *m, const I *n, const I *k, const void *alpha,      \
              const void *a, const I *lda, const void *b, const I *ldb, const void *beta, void *c, const I *ldc)
TILEBLAS_F77_XGEMM(cgemm_, int);
TILEBLAS_F77_XGEMM(zgemm_, int);
TILEBLAS_F77_XGEMM(cgemm_64_, int64_t);
TILEBLAS_F77_XGEMM(zgemm_64_, int64_t);
TILEBLAS_F77_XGEMM(scipy_cgemm_64_, int64_t);
TILEBLAS_F77_XGEMM(scipy_zgemm_64_, int64_t);
/* scipy's own names, with 32-bit integers (the scipy-openblas library of scipy's wheels) */
TILEBLAS_F77_XGEMM(scipy_cgemm_, int);
TILEBLAS_F77_XGEMM(scipy_zgemm_, int);
TILEBLAS_F77_XGEMM(scipy_sgemm_, int);
TILEBLAS_F77_XGEMM(scipy_dgemm_, int);
#undef TILEBLAS_F77_XGEMM
#define TILEBLAS_CBLAS_XGEMM32(name)                                                                                \
    void name(int Order, int TransA, int TransB, int M, int N, int K, const void *alpha, const void *A, int lda,    \
              const void *B, int ldb, const void *beta, void *C, int ldc)
TILEBLAS_CBLAS_XGEMM32(scipy_cblas_cgemm);
TILEBLAS_CBLAS_XGEMM32(scipy_cblas_zgemm);
#undef TILEBLAS_CBLAS_XGEMM32
void scipy_cblas_sgemm(int Order, int TransA, int TransB, int M, int N, int K, float alpha, const float *A, int lda,
                       const float *B, int ldb, float beta, float *C, int ldc);
void scipy_cblas_dgemm(int Order, int TransA, int TransB, int M, int N, int K, double alpha, const double *A,
                       int lda, const double *B, int ldb, double beta, double *C, int ldc);
#define TILEBLAS_CBLAS_XGEMM64(name)                                                                                \
    void name(int Order, int TransA, int TransB, int64_t M, int64_t N, int64_t K, const void *alpha, const void *A, \
              int64_t lda, const void *B, int64_t ldb, const void *beta, void *C, int64_t ldc)
TILEBLAS_CBLAS_XGEMM64(cblas_cgemm64_);
TILEBLAS_CBLAS_XGEMM64(cblas_zgemm64_);
TILEBLAS_CBLAS_XGEMM64(scipy_cblas_cgemm64_);
TILEBLAS_CBLAS_XGEMM64(scipy_cblas_zgemm64_);
#undef TILEBLAS_CBLAS_XGEMM64
void dgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k, const double *alpha,
            const double *a, const int *lda, const double *b, const int *ldb, const double *beta, double *c,
            const int *ldc);
void sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k, const float *alpha,
            const float *a, const int *lda, const float *b, const int *ldb, const float *beta, float *c,
            const int *ldc);
/* ILP64: the same with 64-bit integers (the CBLAS enums stay int) */
void cblas_sgemm64_(int Order, int TransA, int TransB, int64_t M, int64_t N, int64_t K, float alpha,
                    const float *A, int64_t lda, const float *B, int64_t ldb, float beta, float *C, int64_t ldc);
void scipy_cblas_sgemm64_(int Order, int TransA, int TransB, int64_t M, int64_t N, int64_t K, float alpha,
                          const float *A, int64_t lda, const float *B, int64_t ldb, float beta, float *C,
                          int64_t ldc);
void sgemm_64_(const char *transa, const char *transb, const int64_t *m, const int64_t *n, const int64_t *k,
               const float *alpha, const float *a, const int64_t *lda, const float *b, const int64_t *ldb,
               const float *beta, float *c, const int64_t *ldc);
void scipy_sgemm_64_(const char *transa, const char *transb, const int64_t *m, const int64_t *n,
                     const int64_t *k, const float *alpha, const float *a, const int64_t *lda, const float *b,
                     const int64_t *ldb, const float *beta, float *c, const int64_t *ldc);
void cblas_dgemm64_(int Order, int TransA, int TransB, int64_t M, int64_t N, int64_t K, double alpha,
                    const double *A, int64_t lda, const double *B, int64_t ldb, double beta, double *C, int64_t ldc);
void scipy_cblas_dgemm64_(int Order, int TransA, int TransB, int64_t M, int64_t N, int64_t K, double alpha,
                          const double *A, int64_t lda, const double *B, int64_t ldb, double beta, double *C,
                          int64_t ldc);
void dgemm_64_(const char *transa, const char *transb, const int64_t *m, const int64_t *n, const int64_t *k,
               const double *alpha, const double *a, const int64_t *lda, const double *b, const int64_t *ldb,
               const double *beta, double *c, const int64_t *ldc);
void scipy_dgemm_64_(const char *transa, const char *transb, const int64_t *m, const int64_t *n,
                     const int64_t *k, const double *alpha, const double *a, const int64_t *lda, const double *b,
                     const int64_t *ldb, const double *beta, double *c, const int64_t *ldc);
#endif

#ifdef __cplusplus
}
#endif
#endif /* TILEBLAS_H */
