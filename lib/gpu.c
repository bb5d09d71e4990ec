#include <config.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include "gpu.h"

#ifndef HAVE_CUDA

int tb_gpu_usable(const char **why_not)
{
    if (why_not)
        *why_not = "this tileblas was built without CUDA";
    return 0;
}

int tb_gpu_state(const char **text)
{
    *text = "this tileblas was built without CUDA";
    return -1;
}

int tb_gpu_sgemm(const tb_gemm *g, int kernel, const char **err)
{
    (void)g, (void)kernel;
    *err = "this tileblas was built without CUDA";
    return -1;
}

#else /* HAVE_CUDA */

#include <cuda_runtime_api.h>
#include "kernels.h"

/* One device (the first), one stream, three grow-only buffers; GPU calls are serialised by `lock`. */
static struct {
    pthread_once_t once;
    pthread_mutex_t lock;
    _Atomic int usable;
    int initialised;
    char why_not[256];
    char name[320];
    cudaStream_t stream;
    float *buf[3]; /* A, B, C */
    size_t cap[3]; /* bytes */
} gpu = { .once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER };

static void disable(const char *what, cudaError_t e)
{
    snprintf(gpu.why_not, sizeof gpu.why_not, "%s: %s", what, cudaGetErrorString(e));
    atomic_store(&gpu.usable, 0);
}

/* CUDA cannot be used in a child forked after it was initialised: the child's calls go to the CPU. */
static void after_fork_in_child(void)
{
    if (gpu.initialised) {
        snprintf(gpu.why_not, sizeof gpu.why_not, "process forked after CUDA was initialised in its parent");
        atomic_store(&gpu.usable, 0);
    }
    pthread_mutex_init(&gpu.lock, NULL);
}

static void gpu_init(void)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    pthread_atfork(NULL, NULL, after_fork_in_child);
    gpu.initialised = 1;
    if (e != cudaSuccess) {
        disable("no usable CUDA device", e);
        return;
    }
    if (count < 1) {
        snprintf(gpu.why_not, sizeof gpu.why_not, "no CUDA device");
        return;
    }
    struct cudaDeviceProp prop;
    if ((e = cudaSetDevice(0)) != cudaSuccess || (e = cudaGetDeviceProperties(&prop, 0)) != cudaSuccess) {
        disable("cannot open CUDA device 0", e);
        return;
    }
    snprintf(gpu.name, sizeof gpu.name, "%s (sm_%d%d)", prop.name, prop.major, prop.minor);
    if ((e = cudaStreamCreateWithFlags(&gpu.stream, cudaStreamNonBlocking)) != cudaSuccess) {
        disable("cannot create a CUDA stream", e);
        return;
    }
    atomic_store(&gpu.usable, 1);
}

int tb_gpu_usable(const char **why_not)
{
    pthread_once(&gpu.once, gpu_init);
    int ok = atomic_load(&gpu.usable);
    if (!ok && why_not)
        *why_not = gpu.why_not;
    return ok;
}

int tb_gpu_state(const char **text)
{
    if (!gpu.initialised)
        return 0;
    int ok = atomic_load(&gpu.usable);
    *text = ok ? gpu.name : gpu.why_not;
    return ok ? 1 : -1;
}

static void release_buffers(void)
{
    for (int i = 0; i < 3; i++) {
        cudaFree(gpu.buf[i]);
        gpu.buf[i] = NULL;
        gpu.cap[i] = 0;
    }
}

static cudaError_t reserve(int i, size_t bytes)
{
    if (bytes <= gpu.cap[i])
        return cudaSuccess;
    cudaFree(gpu.buf[i]);
    gpu.buf[i] = NULL;
    gpu.cap[i] = 0;
    cudaError_t e = cudaMalloc((void **)&gpu.buf[i], bytes);
    if (e == cudaSuccess)
        gpu.cap[i] = bytes;
    return e;
}

/* Device copies are packed with leading dimensions rounded up to 4 floats, so that every column starts on a
 * 16-byte boundary (the fast kernels' wide loads need it). */
static int64_t device_ld(int64_t rows)
{
    return (rows + 3) & ~(int64_t)3;
}

/* Copy a rows x cols column-major block between a host matrix (leading dimension ld) and a device one. */
static cudaError_t upload(float *dev, int64_t dld, const float *host, int64_t ld, int64_t rows, int64_t cols)
{
    return cudaMemcpy2DAsync(dev, (size_t)dld * sizeof(float), host, (size_t)ld * sizeof(float),
                             (size_t)rows * sizeof(float), (size_t)cols, cudaMemcpyDefault, gpu.stream);
}

static cudaError_t download(float *host, int64_t ld, const float *dev, int64_t dld, int64_t rows, int64_t cols)
{
    return cudaMemcpy2DAsync(host, (size_t)ld * sizeof(float), dev, (size_t)dld * sizeof(float),
                             (size_t)rows * sizeof(float), (size_t)cols, cudaMemcpyDefault, gpu.stream);
}

/* Everything up to (not including) the copy of C back to the host, which is the only write to C. */
static cudaError_t compute(const tb_gemm *g, int kernel, const char **stage)
{
    /* tb_sgemm has answered the calls with nothing to multiply: here m, n, k >= 1 and alpha != 0 */
    tb_kproblem p = g->p; /* the same problem, on device copies of the operands (set below) */
    int64_t arows = p.transa ? p.k : p.m, acols = p.transa ? p.m : p.k;
    int64_t brows = p.transb ? p.n : p.k, bcols = p.transb ? p.k : p.n;
    cudaError_t e;

    *stage = "device memory";
    p.lda = device_ld(arows), p.ldb = device_ld(brows), p.ldc = device_ld(p.m);
    if ((e = reserve(0, (size_t)p.lda * acols * sizeof(float))) ||
        (e = reserve(1, (size_t)p.ldb * bcols * sizeof(float))) || (e = reserve(2, (size_t)p.ldc * p.n * sizeof(float))))
        return e;
    p.a = gpu.buf[0], p.b = gpu.buf[1], p.c = gpu.buf[2];

    *stage = "copy to device";
    if ((e = upload(gpu.buf[0], p.lda, g->p.a, g->p.lda, arows, acols)) ||
        (e = upload(gpu.buf[1], p.ldb, g->p.b, g->p.ldb, brows, bcols)))
        return e;
    if (p.beta != 0.0f && (e = upload(gpu.buf[2], p.ldc, g->p.c, g->p.ldc, p.m, p.n)))
        return e;

    *stage = tb_kernel_table[kernel].name;
    if ((e = (cudaError_t)tb_kernel_table[kernel].launch(&p, gpu.stream)))
        return e;
    /* wait here so that a failed kernel is caught before C is written */
    return cudaStreamSynchronize(gpu.stream);
}

int tb_gpu_sgemm(const tb_gemm *g, int kernel, const char **err)
{
    static __thread char msg[320];
    const char *stage = "";
    cudaError_t e;

    if (!tb_gpu_usable(err))
        return -1;
    pthread_mutex_lock(&gpu.lock);
    e = compute(g, kernel, &stage);
    if (e == cudaSuccess) {
        stage = "copy to host";
        e = download(g->p.c, g->p.ldc, gpu.buf[2], device_ld(g->p.m), g->p.m, g->p.n);
        if (e == cudaSuccess)
            e = cudaStreamSynchronize(gpu.stream);
    }
    if (e != cudaSuccess) {
        snprintf(msg, sizeof msg, "%s: %s", stage, cudaGetErrorString(e));
        *err = msg;
        if (e == cudaErrorMemoryAllocation) {
            /* the device is fine, this problem does not fit: free what we hold and let later calls retry */
            release_buffers();
            cudaGetLastError();
        } else {
            disable(stage, e);
        }
    }
    pthread_mutex_unlock(&gpu.lock);
    return e == cudaSuccess ? 0 : -1;
}

#endif /* HAVE_CUDA */
