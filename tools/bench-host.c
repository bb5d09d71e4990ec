/*
 * tileblas-bench --host: whole SGEMM, DGEMM, CGEMM and ZGEMM calls (--type) as a program makes them, on operands in
 * host memory (malloc'd, pageable), timed with the wall clock, side by side on the same data (or, --routine, the
 * rank-k and rank-2k updates SYRK, HERK, SYR2K, HER2K through their Fortran names, on the upper triangle of C, the
 * first character of --trans their op; no bare-fwd):
 *   - OpenBLAS (libopenblas.so.0), the yardstick: the ratios are to it;
 *   - bare-fwd: a function that only passes the call on to OpenBLAS through a pointer, as an interposed library
 *     that did nothing else would: the floor of any library in between, for the calls of a few hundred ns;
 *   - tileblas: the library's own cblas_?gemm (linked into this program), once as the environment routes it
 *     (TILEBLAS_MODE, auto by default; the row's name says where the call went: tb-auto/cpu or tb-auto/gpu) and
 *     once forced to the GPU (tb-gpu) when a device is usable;
 *   - NVBLAS (libnvblas.so, when it can be loaded): its ?gemm_, configured by a file written here (OpenBLAS as its
 *     CPU BLAS, device 0, NVBLAS_AUTOPIN_MEM_ENABLED), unless NVBLAS_CONFIG_FILE names one.
 * Each: one warm-up call (CUDA start-up, staging buffers), then the median of R calls (3 for calls over 0.1
 * TFLOP, 1 over 2 TFLOP), then a quarter of a second idle (bench_settle).  Calls under 1 ms are timed 41 times
 * each (time_batches), those under 20 us in batches of back-to-back calls.  C is refilled before
 * each call or batch: NaN when beta = 0 (so that a result not written shows), the same random C otherwise.
 * Every result (of one call on that C) is compared with OpenBLAS's.
 */
#include <config.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench.h"
#include "env.h"
#include "kernels.h"
#include "tileblas.h"

/* NVBLAS's ?gemm_, through one pointer type (the scalars go by pointer) */
typedef void (*fortran_fn)(const char *, const char *, const int *, const int *, const int *, const void *,
                           const void *, const int *, const void *, const int *, const void *, void *, const int *);

/* A rank-k or rank-2k update's Fortran name (the scalars by pointer; HERK's alpha and beta, and HER2K's beta,
 * real) */
typedef void (*rankk_fn)(const char *, const char *, const int *, const int *, const void *, const void *,
                         const int *, const void *, void *, const int *, size_t, size_t);
typedef void (*rank2k_fn)(const char *, const char *, const int *, const int *, const void *, const void *,
                          const int *, const void *, const int *, const void *, void *, const int *, size_t, size_t);

/* one column-major call on host memory, of type `type` (tb_type's numbers; alpha and beta real); routine: GEMM, or
 * an update of C's upper triangle (m = n; ta its op, B of SYR2K and HER2K shaped as A) through fn[] */
typedef struct call {
    int type;
    tb_routine routine;
    void (*fn[3])(void); /* an update's Fortran name: OpenBLAS's, tileblas's, NVBLAS's (NULL: none) */
    int ta, tb, m, n, k, lda, ldb, ldc;
    double alpha, beta;
    const void *a, *b;
    void *c;
} call;

typedef enum { H_OPENBLAS, H_BARE, H_TILEBLAS, H_NVBLAS } hkind;
typedef struct himpl {
    const char *name;
    hkind kind;
    tileblas_path path; /* for tileblas's own: the path to force (AUTO: the environment's) */
} himpl;

static fortran_fn nvblas[TB_TYPE_COUNT]; /* sgemm_, dgemm_, cgemm_, zgemm_ */
static void *nvblas_lib;

/* the update x through its Fortran name f */
static void update_call(void (*f)(void), const call *x)
{
    const float sa[2] = { (float)x->alpha, 0 }, sb[2] = { (float)x->beta, 0 };
    const double da[2] = { x->alpha, 0 }, db[2] = { x->beta, 0 };
    const int single = x->type == TB_TYPE_S || x->type == TB_TYPE_C;
    const void *pa = single ? (const void *)sa : da, *pb = single ? (const void *)sb : db;
    const int herm = x->routine == TB_ROUTINE_HERK || x->routine == TB_ROUTINE_HER2K;
    const char uplo = 'U', trans = !x->ta ? 'N' : herm ? 'C' : 'T', side = 'L';
    if (x->routine == TB_ROUTINE_SYMM || x->routine == TB_ROUTINE_HEMM) /* the same list's types */
        ((rank2k_fn)f)(&side, &uplo, &x->m, &x->n, pa, x->a, &x->lda, x->b, &x->ldb, pb, x->c, &x->ldc, 1, 1);
    else if (x->routine == TB_ROUTINE_SYR2K || x->routine == TB_ROUTINE_HER2K)
        ((rank2k_fn)f)(&uplo, &trans, &x->n, &x->k, pa, x->a, &x->lda, x->b, &x->ldb, pb, x->c, &x->ldc, 1, 1);
    else
        ((rankk_fn)f)(&uplo, &trans, &x->n, &x->k, pa, x->a, &x->lda, pb, x->c, &x->ldc, 1, 1);
}

static void openblas_call(const call *x)
{
    if (x->routine != TB_ROUTINE_GEMM) {
        update_call(x->fn[0], x);
        return;
    }
    bench_openblas_gemm(x->type, x->ta, x->tb, x->m, x->n, x->k, x->alpha, x->a, x->lda, x->b, x->ldb, x->beta, x->c,
                        x->ldc);
}

/* bare-fwd: a call that only goes on to OpenBLAS through a pointer; not inlined, its call is what it measures */
static void (*volatile bare_target)(const call *) = openblas_call;
static __attribute__((noinline)) void bare_forward(const call *x)
{
    bare_target(x);
}

/* one call and nothing else (for tileblas's own, the thread's forced path is the caller's to set) */
static void call_once(const himpl *im, const call *x)
{
    const float sa[2] = { (float)x->alpha, 0 }, sb[2] = { (float)x->beta, 0 };
    const double da[2] = { x->alpha, 0 }, db[2] = { x->beta, 0 };
    const int single = x->type == TB_TYPE_S || x->type == TB_TYPE_C;
    const void *pa = single ? (const void *)sa : da, *pb = single ? (const void *)sb : db; /* by pointer, as typed */
    const enum CBLAS_TRANSPOSE ta = x->ta ? CblasTrans : CblasNoTrans, tb = x->tb ? CblasTrans : CblasNoTrans;
    switch (im->kind) {
    case H_OPENBLAS:
        openblas_call(x);
        break;
    case H_BARE:
        bare_forward(x);
        break;
    case H_NVBLAS: {
        if (x->routine != TB_ROUTINE_GEMM) {
            update_call(x->fn[2], x);
            break;
        }
        char ca = x->ta ? 'T' : 'N', cb = x->tb ? 'T' : 'N';
        nvblas[x->type](&ca, &cb, &x->m, &x->n, &x->k, pa, x->a, &x->lda, x->b, &x->ldb, pb, x->c, &x->ldc);
        break;
    }
    case H_TILEBLAS:
        if (x->routine != TB_ROUTINE_GEMM)
            update_call(x->fn[1], x);
        else if (x->type == TB_TYPE_Z)
            cblas_zgemm(CblasColMajor, ta, tb, x->m, x->n, x->k, pa, x->a, x->lda, x->b, x->ldb, pb, x->c, x->ldc);
        else if (x->type == TB_TYPE_C)
            cblas_cgemm(CblasColMajor, ta, tb, x->m, x->n, x->k, pa, x->a, x->lda, x->b, x->ldb, pb, x->c, x->ldc);
        else if (x->type == TB_TYPE_D)
            cblas_dgemm(CblasColMajor, ta, tb, x->m, x->n, x->k, x->alpha, x->a, x->lda, x->b, x->ldb, x->beta, x->c,
                        x->ldc);
        else
            cblas_sgemm(CblasColMajor, ta, tb, x->m, x->n, x->k, sa[0], x->a, x->lda, x->b, x->ldb, sb[0], x->c,
                        x->ldc);
        break;
    }
}

/* one call with im's path forced; returns the row's name, for tileblas's own with where the call went */
static const char *run(const himpl *im, const call *x)
{
    tileblas_set_path(im->path);
    call_once(im, x);
    tileblas_set_path(TILEBLAS_PATH_AUTO);
    if (im->kind != H_TILEBLAS)
        return im->name;
    tileblas_call_info info;
    tileblas_last_call(&info);
    if (im->path == TILEBLAS_PATH_AUTO)
        return info.path == TILEBLAS_PATH_GPU ? "tb-auto/gpu" : "tb-auto/cpu";
    return info.path == TILEBLAS_PATH_GPU ? "tb-gpu" : "tb-gpu/cpu"; /* forced, yet on the CPU: the GPU failed */
}

/* How many back-to-back calls one timing takes: about 0.2 ms worth for calls that take under 20 us
 * (the fastest of five of im's, after a warm-up), since one is too short for the clock, and a program that makes
 * such calls makes many of them; 1 for calls under 1 ms; 0 for longer ones, timed one implementation after the
 * other.  Chosen with the first implementation (OpenBLAS), the same for the others. */
static int choose_batch(const himpl *im, const call *x, const void *c0, size_t cbytes)
{
    memcpy(x->c, c0, cbytes);
    double one = 1.0;
    for (int i = 0; i < 6; i++) {
        double t0 = bench_now();
        run(im, x);
        double t = bench_now() - t0;
        one = i && t < one ? t : one; /* the first is the warm-up */
        if (t >= (i ? 1e-3 : 0.1))
            break; /* a long call: no need of more */
    }
    return one < 20e-6 ? (int)(200e-6 / (one > 1e-7 ? one : 1e-7)) : one < 1e-3 ? 1 : 0;
}

/* Median milliseconds of one implementation's calls, one at a time; C is left with one call's result.  *name:
 * what the calls said.  Calls that take over a second are timed once, over 0.3 s at most three times. */
static double time_calls(const himpl *im, const call *x, const void *c0, size_t cbytes, int repeats,
                         const char **name)
{
    memcpy(x->c, c0, cbytes);
    const double w0 = bench_now();
    *name = run(im, x); /* the warm-up (the first call loads, resolves and allocates what later ones reuse) */
    const double warm = bench_now() - w0;
    const int runs = warm > 1.0 ? 1 : warm > 0.3 && repeats > 3 ? 3 : repeats;
    double *ms = bench_alloc((size_t)runs * sizeof *ms);
    for (int r = 0; r < runs; r++) {
        memcpy(x->c, c0, cbytes);
        double t0 = bench_now();
        run(im, x);
        ms[r] = 1e3 * (bench_now() - t0);
    }
    double med = bench_median(ms, runs);
    free(ms);
    bench_settle();
    return med;
}

/* Calls under a millisecond: each implementation's 41 batches back to back, as a program that makes such calls
 * makes them, after its warm-up, and a quarter of a second idle before the next implementation's.  Taken in turn
 * instead, round after round, tileblas's GPU calls ran while OpenBLAS's threads still spun after its call just
 * before (they wait about 0.1 s for more work), which slowed them up to 2.6 times (bench/RESULTS.md): a program
 * on tileblas alone meets that only after its own calls that went to the CPU.  The median ms a call of each into
 * ms[], and what its calls said into name[]; the result of each one's warm-up call (from C as given) into
 * result[]. */
static void time_batches(const himpl *impls, int nimpls, const call *x, const void *c0, size_t cbytes, int batch,
                         double *ms, const char **name, void **result)
{
    enum { ROUNDS = 41 };
    double *t = bench_alloc((size_t)nimpls * ROUNDS * sizeof *t);
    for (int i = 0; i < nimpls; i++) {
        if (i)
            bench_settle();
        memcpy(x->c, c0, cbytes);
        name[i] = run(&impls[i], x);
        memcpy(result[i], x->c, cbytes);
        for (int r = 0; r < ROUNDS; r++) {
            memcpy(x->c, c0, cbytes);
            tileblas_set_path(impls[i].path); /* once a batch, as a program would */
            double t0 = bench_now();
            for (int b = 0; b < batch; b++)
                call_once(&impls[i], x);
            t[i * ROUNDS + r] = 1e3 * (bench_now() - t0) / batch;
            tileblas_set_path(TILEBLAS_PATH_AUTO);
        }
    }
    for (int i = 0; i < nimpls; i++)
        ms[i] = bench_median(&t[i * ROUNDS], ROUNDS);
    free(t);
}

/* NVBLAS's sgemm_ and dgemm_ into nvblas[] (NULL when it cannot be loaded); *conf: the configuration file written
 * for it ("" if none) */
static void load_nvblas(char *conf, size_t size)
{
    conf[0] = 0;
    if (!getenv("NVBLAS_CONFIG_FILE")) {
        snprintf(conf, size, "/tmp/tileblas-bench-nvblas.XXXXXX");
        int fd = mkstemp(conf);
        FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!f) {
            conf[0] = 0;
            return;
        }
        fprintf(f, "NVBLAS_LOGFILE /dev/null\nNVBLAS_CPU_BLAS_LIB libopenblas.so.0\nNVBLAS_GPU_LIST 0\n"
                   "NVBLAS_AUTOPIN_MEM_ENABLED\n");
        fclose(f);
        setenv("NVBLAS_CONFIG_FILE", conf, 1);
    }
    void *h = dlopen("libnvblas.so.13", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        h = dlopen("libnvblas.so", RTLD_NOW | RTLD_LOCAL);
    nvblas_lib = h;
    nvblas[0] = h ? (fortran_fn)dlsym(h, "sgemm_") : NULL;
    nvblas[1] = h ? (fortran_fn)dlsym(h, "dgemm_") : NULL;
    nvblas[2] = h ? (fortran_fn)dlsym(h, "cgemm_") : NULL;
    nvblas[3] = h ? (fortran_fn)dlsym(h, "zgemm_") : NULL;
}

/* tileblas's own Fortran names of the updates (linked in), by routine and type */
#define K_(name) void name(const char *, const char *, const int *, const int *, const void *, const void *,      \
                           const int *, const void *, void *, const int *, size_t, size_t);
#define K2_(name) void name(const char *, const char *, const int *, const int *, const void *, const void *,     \
                            const int *, const void *, const int *, const void *, void *, const int *, size_t,      \
                            size_t);
K_(ssyrk_) K_(dsyrk_) K_(csyrk_) K_(zsyrk_) K_(cherk_) K_(zherk_)
K2_(ssyr2k_) K2_(dsyr2k_) K2_(csyr2k_) K2_(zsyr2k_) K2_(cher2k_) K2_(zher2k_)
K2_(ssymm_) K2_(dsymm_) K2_(csymm_) K2_(zsymm_) K2_(chemm_) K2_(zhemm_)
#define F(name) ((void (*)(void))name)
static void (*const own_updates[TB_ROUTINE_COUNT][TB_TYPE_COUNT])(void) = {
    [TB_ROUTINE_SYRK] = { F(ssyrk_), F(dsyrk_), F(csyrk_), F(zsyrk_) },
    [TB_ROUTINE_HERK] = { NULL, NULL, F(cherk_), F(zherk_) },
    [TB_ROUTINE_SYR2K] = { F(ssyr2k_), F(dsyr2k_), F(csyr2k_), F(zsyr2k_) },
    [TB_ROUTINE_HER2K] = { NULL, NULL, F(cher2k_), F(zher2k_) },
    [TB_ROUTINE_SYMM] = { F(ssymm_), F(dsymm_), F(csymm_), F(zsymm_) },
    [TB_ROUTINE_HEMM] = { NULL, NULL, F(chemm_), F(zhemm_) },
};

/* The routine's Fortran name of type t in library h (own: tileblas's), or NULL */
static void (*update_fn(void *h, int own, tb_routine r, int t))(void)
{
    static const char *const names[] = { [TB_ROUTINE_SYRK] = "syrk", [TB_ROUTINE_HERK] = "herk",
                                         [TB_ROUTINE_SYR2K] = "syr2k", [TB_ROUTINE_HER2K] = "her2k",
                                         [TB_ROUTINE_SYMM] = "symm", [TB_ROUTINE_HEMM] = "hemm" };
    if (own)
        return own_updates[r][t];
    char name[16];
    snprintf(name, sizeof name, "%c%s_", "sdcz"[t], names[r]);
    void *f = h ? dlsym(h, name) : NULL;
    void (*fn)(void) = NULL;
    memcpy(&fn, &f, sizeof fn); /* (an object pointer to a function pointer) */
    return fn;
}

/* bench_max_diff over C's upper triangle (an update's) */
static double upper_diff(const void *c, const void *ref, int64_t n, int64_t ld, size_t es, int parts)
{
    double worst = 0.0;
    for (int64_t j = 0; j < n; j++) {
        const size_t at = (size_t)(j * ld) * es;
        const double d = bench_max_diff((const char *)c + at, (const char *)ref + at, parts * (j + 1), 1, parts * ld,
                                        es / parts);
        worst = isnan(d) || d > worst ? d : worst;
    }
    return worst;
}

int bench_host(const long long (*shapes)[3], int nshapes, const char (*trans)[3], int ntrans, int repeats,
               double beta, const char *types, tb_routine routine, const char *csv, int no_cpu)
{
    if (!bench_openblas_load()) {
        printf("SKIP: OpenBLAS (libopenblas.so.0), the yardstick, is not available\n");
        return 77;
    }
    himpl impls[5];
    int nimpls = 0;
    const int herm = routine == TB_ROUTINE_HERK || routine == TB_ROUTINE_HER2K || routine == TB_ROUTINE_HEMM;
    const int sym = routine == TB_ROUTINE_SYMM || routine == TB_ROUTINE_HEMM, gemm = routine == TB_ROUTINE_GEMM;
    impls[nimpls++] = (himpl){ "OpenBLAS", H_OPENBLAS, TILEBLAS_PATH_AUTO };
    if (!no_cpu && gemm)
        impls[nimpls++] = (himpl){ "bare-fwd", H_BARE, TILEBLAS_PATH_AUTO };
    impls[nimpls++] = (himpl){ "tb-auto", H_TILEBLAS, TILEBLAS_PATH_AUTO };
    const char *why;
    int gpu = tileblas_gpu_available(&why);
    if (gpu)
        impls[nimpls++] = (himpl){ "tb-gpu", H_TILEBLAS, TILEBLAS_PATH_GPU };
    char conf[64] = "";
    if (gpu && !no_cpu)
        load_nvblas(conf, sizeof conf);
    if (nvblas[0] && nvblas[1] && nvblas[2] && nvblas[3])
        impls[nimpls++] = (himpl){ "NVBLAS", H_NVBLAS, TILEBLAS_PATH_AUTO };

    printf("tileblas-bench --host: %s, column-major%s, alpha = 1, beta = %g; operands in malloc'd host memory; wall "
           "clock, median of %d calls after a warm-up; GPU: %s; NVBLAS: %s\n",
           tb_routine_names[routine],
           gemm  ? ""
           : sym ? ", SIDE L, A M x M, its upper triangle (K unused)"
                 : ", C's upper triangle (M x M, N unused)",
           beta, repeats,
           gpu ? "yes" : why, nvblas[0] && nvblas[1] && nvblas[2] && nvblas[3] ? "yes" : "not loaded");
    printf("%-4s %-18s %-5s %-11s %10s %9s %10s %12s\n", "type", "MxNxK", "trans", "impl", "ms", "TFLOP/s",
           "x OpenBLAS", "max rel diff");
    const int ntypes = (int)strlen(types);
    row *rows = bench_alloc((size_t)ntypes * nshapes * ntrans * nimpls * sizeof *rows);
    int nrows = 0, status = 0;
    for (int ty = 0; ty < ntypes; ty++)
        for (int s = 0; s < nshapes; s++)
            for (int t = 0; t < ntrans; t++) {
                call x = { .type = (int)(strchr("sdcz", types[ty]) - "sdcz"), .routine = routine,
                           .ta = trans[t][0] == 'T', .tb = trans[t][1] == 'T', .m = (int)shapes[s][0],
                           .n = (int)shapes[s][1], .k = (int)shapes[s][2], .alpha = 1.0, .beta = beta };
                x.lda = x.ta ? x.k : x.m, x.ldb = x.tb ? x.n : x.k, x.ldc = x.m;
                if (!gemm) { /* an update: C is M x M, op(A) and op(B) M x K, A and B stored alike, one row per op;
                              * SYMM: one row */
                    int seen = 0;
                    for (int u = 0; u < t; u++)
                        seen |= trans[u][0] == trans[t][0];
                    if (seen || (sym && t > 0) || (herm && !tb_type_complex((tb_type)x.type)))
                        continue;
                    if (sym) /* A M x M, B and C M x N, no transposes */
                        x.k = x.m, x.ta = x.tb = 0, x.lda = x.ldb = x.ldc = x.m;
                    else
                        x.n = x.m, x.tb = !x.ta, x.lda = x.ldb = x.ta ? x.k : x.m, x.ldc = x.m;
                    x.fn[0] = update_fn(bench_openblas_lib(), 0, routine, x.type);
                    x.fn[1] = update_fn(NULL, 1, routine, x.type);
                    x.fn[2] = update_fn(nvblas_lib, 0, routine, x.type);
                }
                const size_t es = tb_type_size((tb_type)x.type), parts = tb_type_complex((tb_type)x.type) ? 2 : 1;
                size_t aelems = (size_t)x.lda * (x.ta ? x.m : x.k), belems = (size_t)x.ldb * (x.tb ? x.k : x.n);
                size_t celems = (size_t)x.m * x.n, cbytes = celems * es;
                void *a = bench_alloc(aelems * es), *b = bench_alloc(belems * es);
                void *c0 = bench_alloc(cbytes), *ref = bench_alloc(cbytes);
                x.c = bench_alloc(cbytes), x.a = a, x.b = b;
                bench_fill(a, aelems * parts, es / parts), bench_fill(b, belems * parts, es / parts);
                if (beta == 0.0)
                    memset(c0, 0xff, cbytes);
                else
                    bench_fill(c0, celems * parts, es / parts);
                /* those that have the call (NVBLAS: its name of an update) */
                himpl here[5];
                int nhere = 0;
                for (int i = 0; i < nimpls; i++)
                    if (impls[i].kind != H_NVBLAS || gemm || x.fn[2])
                        here[nhere++] = impls[i];
                /* the batch from OpenBLAS's calls; for calls under 1 ms, every implementation in turn */
                int batch = choose_batch(&here[0], &x, c0, cbytes);
                double ms[5];
                const char *name[5];
                void *result[5];
                for (int i = 0; i < nhere; i++)
                    result[i] = bench_alloc(cbytes);
                if (batch > 0) {
                    time_batches(here, nhere, &x, c0, cbytes, batch, ms, name, result);
                } else {
                    for (int i = 0; i < nhere; i++) {
                        ms[i] = time_calls(&here[i], &x, c0, cbytes, repeats, &name[i]);
                        memcpy(result[i], x.c, cbytes);
                    }
                }
                memcpy(ref, result[0], cbytes);
                /* TILEBLAS_MATH=tf32 makes the library's single-precision products TF32's */
                const double tolerance = es / parts == 4 && tb_config_get()->math == TB_MATH_TF32 ? BENCH_TOLERANCE_TF32
                                                                                        : BENCH_TOLERANCE;
                /* real flops: the product's, or those of the triangle's elements (twice for a rank-2k update) */
                const double flops = gemm || sym ? tb_type_flops((tb_type)x.type) * x.m * (double)x.n * x.k
                                          : tb_type_flops((tb_type)x.type) / 2 * x.m * (x.m + 1.0) * x.k *
                                                (routine == TB_ROUTINE_SYR2K || routine == TB_ROUTINE_HER2K ? 2 : 1);
                const char op[3] = { sym ? '-' : trans[t][0], gemm ? trans[t][1] : ' ', 0 };
                for (int i = 0; i < nhere; i++) {
                    double diff = gemm || sym ? bench_max_diff(result[i], ref, (int64_t)parts * x.m, x.n,
                                                        (int64_t)parts * x.ldc, es / parts) /* complex: by parts */
                                       : upper_diff(result[i], ref, x.m, x.ldc, es, (int)parts);
                    status |= bench_print_row(&rows[nrows++], types[ty], x.m, x.n, x.k, op, name[i], ms[i], ms[0],
                                              diff, tolerance, flops);
                    free(result[i]);
                }
                if (batch > 0)
                    bench_settle();
                free(a), free(b), free(c0), free(ref), free(x.c);
            }
    if (csv)
        bench_write_csv(csv, "ratio_to_openblas", rows, nrows);
    free(rows);
    if (conf[0])
        unlink(conf);
    return status;
}
