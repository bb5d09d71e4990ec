/* The GPU side (lib/gpu/gpu_module.h): CUDA started once, the devices that TILEBLAS_DEVICES allows, the pipeline
 * for host operands (spread over those devices where that is predicted faster: lib/gpu/cuda_spread.c), calls on
 * device operands in place on the device that holds them. */
#include <config.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cuda_runtime_api.h>
#include "cuda_gpu.h"
#include "cuda_ops.h"
#include "gpu.h"
#include "gpu_module.h"
#include "hostcopy.h"
#include "kernels.h"

/* One device (the first).  Calls that move host memory take the device one at a time, by `lock`: the pipeline
 * keeps the device and the PCIe link busy by itself, and they share its buffers and staging memory.  Calls whose
 * operands are all in device memory share none of that and run beside them, on the default stream. */
static struct {
    pthread_once_t once;
    pthread_mutex_t lock;
    _Atomic int usable;
    _Atomic int exiting;   /* exit() has begun: no new GPU work */
    pthread_t exit_thread; /* the thread that runs exit(), set before `exiting` */
    _Atomic int in_flight; /* calls between begin() and end() */
    pthread_once_t held;   /* the exit guard registered again after the first call */
    int initialised;
    char why_not[256];
    char name[320];
    int devices[TB_MAX_DEVICES]; /* the devices calls may use (CUDA's numbers), the first for calls on one */
    int ndevices;
} gpu = { .once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER, .held = PTHREAD_ONCE_INIT, .ndevices = 1 };

/* Exit with calls in flight.  The CUDA runtime tears itself down from exit handlers it registers when first used,
 * while other threads may still be inside it (they crash or hang there).  Our own handler, registered after the
 * runtime's and so run before it, stops new GPU work (calls from then on run on the CPU, quietly) and waits for
 * the calls in flight to finish.  It is registered again after the first call, in case the runtime registered
 * more on that call's first uses. */
static void exit_guard(void)
{
    gpu.exit_thread = pthread_self();
    atomic_store(&gpu.exiting, 1);
    const struct timespec ms = { 0, 1000000 };
    while (atomic_load(&gpu.in_flight) > 0)
        nanosleep(&ms, NULL);
}

static const char exiting_why[] = "the process is exiting"; /* why the GPU takes no call then */

static void hold_exit(void)
{
    atexit(exit_guard);
}

/* A call enters (0) unless the process is exiting (-1); every entered call ends with end(). */
static int begin(const char **err)
{
    atomic_fetch_add(&gpu.in_flight, 1);
    if (!atomic_load(&gpu.exiting))
        return 0;
    atomic_fetch_sub(&gpu.in_flight, 1);
    *err = exiting_why;
    return -1;
}

static void end(void)
{
    pthread_once(&gpu.held, hold_exit);
    atomic_fetch_sub(&gpu.in_flight, 1);
}

/* The GPU off for good; the first reason is the one kept (calls on device operands may fail beside another). */
static void disable(const char *what, cudaError_t e)
{
    static _Atomic int said;
    if (atomic_exchange(&said, 1))
        return; /* the first turns it off, once its reason is written */
    snprintf(gpu.why_not, sizeof gpu.why_not, "%s: %s", what, cudaGetErrorString(e));
    atomic_store(&gpu.usable, 0);
}

/* The library works on its first device (device 0 unless TILEBLAS_DEVICES says otherwise, in builds that read it),
 * calls on device memory on the device that holds it, and leaves the calling thread's current device as it found
 * it: a program that manages its own devices sees no change.  enter makes `device` current and returns the
 * caller's device, leave restores it (calls spread over several devices make the first one current on the calling
 * thread too). */
static int enter(int device)
{
    int dev = device;
    if (cudaGetDevice(&dev) != cudaSuccess) {
        cudaGetLastError();
        dev = device;
    }
    if (dev != device)
        cudaSetDevice(device);
    return dev;
}

static void leave(int dev)
{
    int now = dev;
    if (cudaGetDevice(&now) != cudaSuccess)
        cudaGetLastError();
    if (now != dev)
        cudaSetDevice(dev);
}

/* CUDA cannot be used in a child forked after it was initialised: the child's calls go to the CPU. */
static void after_fork_in_child(void)
{
    if (gpu.initialised) {
        snprintf(gpu.why_not, sizeof gpu.why_not, "process forked after CUDA was initialised in its parent");
        atomic_store(&gpu.usable, 0);
    }
    pthread_mutex_init(&gpu.lock, NULL);
    atomic_store(&gpu.in_flight, 0); /* the parent's other threads are not here */
}

static void gpu_init(void)
{
    int count = 0;
    const tb_fault fault = tb_cuda_settings()->fault;
    if (fault == TB_FAULT_NODRIVER || fault == TB_FAULT_NODEVICE) { /* simulated: CUDA is not touched */
        disable(fault == TB_FAULT_NODRIVER ? "no usable CUDA device (simulated: TILEBLAS_FAULT=nodriver)"
                                           : "no usable CUDA device (simulated: TILEBLAS_FAULT=nodevice)",
                fault == TB_FAULT_NODRIVER ? cudaErrorInsufficientDriver : cudaErrorNoDevice);
        return;
    }
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
    gpu.ndevices = tb_cuda_choose_devices(count, gpu.devices);
    tb_copy_threads_for_devices(gpu.ndevices);
    struct cudaDeviceProp prop;
    const int caller = enter(gpu.devices[0]);
    if ((e = cudaGetDeviceProperties(&prop, gpu.devices[0])) != cudaSuccess) {
        disable("cannot open the first CUDA device", e);
    } else if ((e = (cudaError_t)tb_cuda_ops_init(gpu.devices[0])) != cudaSuccess) {
        disable("cannot create CUDA streams and events", e);
    } else {
        snprintf(gpu.name, sizeof gpu.name, "%s (sm_%d%d)", prop.name, prop.major, prop.minor);
        atomic_store(&gpu.usable, 1);
        hold_exit();
    }
    leave(caller);
}

static int usable(const char **why_not)
{
    pthread_once(&gpu.once, gpu_init);
    if (atomic_load(&gpu.exiting)) {
        if (why_not)
            *why_not = exiting_why;
        return pthread_equal(pthread_self(), gpu.exit_thread) ? TB_GPU_EXITING : TB_GPU_EXITING_ELSEWHERE;
    }
    int ok = atomic_load(&gpu.usable);
    if (!ok && why_not)
        *why_not = gpu.why_not;
    return ok;
}

static int state(const char **text)
{
    if (!gpu.initialised)
        return 0;
    int ok = atomic_load(&gpu.usable);
    *text = ok ? gpu.name : gpu.why_not;
    return ok ? 1 : -1;
}

void tb_cuda_call_failed(const char *what, cudaError_t e, int device, const char **err)
{
    static __thread char msg[320];
    snprintf(msg, sizeof msg, "%s%s%s%s", what, e ? ": " : "", e ? cudaGetErrorString(e) : "",
             tb_cuda_fault_fired() ? " (simulated: TILEBLAS_FAULT)" : "");
    *err = msg;
    if (e == cudaSuccess || e == cudaErrorMemoryAllocation) {
        /* the device is fine, this problem does not fit now: let later calls retry */
        tb_cuda_trim(device);
        cudaGetLastError();
    } else {
        disable(what, e);
    }
}

static int gemm(const tb_call *g, int *kernel, const tb_spread *sp, tb_gpu_result *r, const char **err)
{
    r->blocks = 1;
    r->block[0].p = g->p, r->block[0].done = 0, r->block[0].device = -1;
    tb_plan *plan = &r->block[0].plan;
    int64_t *done = &r->block[0].done;
    tb_cuda_one_tile(&g->p, plan);
    if (usable(err) <= 0 || begin(err))
        return -1;
    r->block[0].device = gpu.devices[0];
    pthread_mutex_lock(&gpu.lock);
    if (atomic_load(&gpu.exiting)) { /* waited for the lock while exit began */
        pthread_mutex_unlock(&gpu.lock);
        *err = exiting_why;
        end();
        return -1;
    }
    const int caller = enter(gpu.devices[0]);
    *kernel = tb_cuda_kernel_for(gpu.devices[0], *kernel, &g->p); /* as the device can run it */
    tb_cuda_fault_call();
    const char *what = NULL;
    int rc = -1, failed_on = gpu.devices[0];
    const int spread = sp->count > 1 && sp->count <= gpu.ndevices;
    if (spread)
        rc = tb_cuda_spread_gemm(g, *kernel, sp, gpu.devices, r, &what, &failed_on);
    const tb_pipe_staging *st = NULL;
    tb_cuda_ctx cc;
    tb_devops ops;
    if (!spread && !tb_cuda_prepare(g, *kernel, gpu.devices[0], plan, &st, &cc, &ops, &what)) {
        tb_pipe_times times;
        *done = tb_pipeline_run(g, plan, &ops, st, &times, &what);
        tb_cuda_count_times(&times);
        rc = what ? -1 : 0;
    }
    if (rc)
        tb_cuda_call_failed(what, (cudaError_t)tb_cuda_last_error(), failed_on, err);
    leave(caller);
    pthread_mutex_unlock(&gpu.lock);
    end();
    return rc;
}

/* The device-side problem of gemm_resident: host operands copied into buffers from the cache.  Returns
 * the error (simulated ones included, TILEBLAS_FAULT) with *what naming the step, or cudaSuccess. */
static cudaError_t resident(const tb_call *g, int kernel, const tb_where w[3], const tb_devops *ops, void *tmp[3],
                            const char **what)
{
    tb_kproblem p = g->p;
    const unsigned es = tb_type_size(p.type);
    const void *host[3] = { p.a, p.b, p.c };
    const int64_t ld[3] = { p.lda, p.ldb, p.ldc };
    const int64_t rows[3] = { p.transa ? p.k : p.m, p.transb ? p.n : p.k, p.m };
    const int64_t cols[3] = { p.transa ? p.m : p.k, p.transb ? p.k : p.n, p.n };
    cudaError_t e;
    for (int i = 0; i < 3; i++) {
        if (w[i] != TB_ON_HOST)
            continue;
        *what = "device memory for the operands in host memory";
        if (ops->alloc(ops->ctx, (size_t)(rows[i] * cols[i]) * es, &tmp[i])) {
            e = (cudaError_t)tb_cuda_last_error();
            return e != cudaSuccess ? e : cudaErrorMemoryAllocation;
        }
        *what = "copying an operand to the device";
        if ((e = (cudaError_t)tb_cuda_fault(TB_OP_OTHER)) != cudaSuccess)
            return e;
        if (i == 2 && tb_beta_zero(&p))
            continue; /* C is not read when beta = 0 */
        tb_cuda_count_bytes(rows[i], cols[i], es);
        if ((e = cudaMemcpy2D(tmp[i], (size_t)rows[i] * es, host[i], (size_t)ld[i] * es, (size_t)rows[i] * es,
                              (size_t)cols[i], cudaMemcpyHostToDevice)) != cudaSuccess)
            return e;
    }
    if (tmp[0])
        p.a = tmp[0], p.lda = rows[0];
    if (tmp[1])
        p.b = tmp[1], p.ldb = rows[1];
    if (tmp[2])
        p.c = tmp[2], p.ldc = rows[2];
    /* the default stream: after whatever the program queued there */
    *what = "the kernel launch";
    if ((e = (cudaError_t)tb_cuda_fault(TB_OP_LAUNCH)) != cudaSuccess ||
        (e = (cudaError_t)tb_cuda_launch(kernel, &p, NULL)) != cudaSuccess)
        return e;
    *what = "the product";
    if ((e = (cudaError_t)tb_cuda_fault(TB_OP_OTHER)) != cudaSuccess)
        return e;
    if (!tmp[2])
        return cudaStreamSynchronize(NULL); /* C is in device memory: the call returns once it is computed */
    tb_cuda_count_bytes(rows[2], cols[2], es);
    return cudaMemcpy2D(g->p.c, (size_t)g->p.ldc * es, tmp[2], (size_t)rows[2] * es, (size_t)rows[2] * es,
                        (size_t)cols[2], cudaMemcpyDeviceToHost);
}

static int gemm_resident(const tb_call *g, int *kernel, const tb_where w[3], int *device, const char **err)
{
    if (usable(err) <= 0)
        return -1;
    if (*device == TB_MIXED_DEVICES) {
        *err = "the operands in device memory are on different CUDA devices";
        return -1;
    }
    const int dev = *device >= 0 ? *device : gpu.devices[0];
    *device = dev;
    if (dev >= TB_MAX_DEVICES) {
        *err = "an operand is on a CUDA device beyond the 16 that tileblas can use";
        return -1;
    }
    if (begin(err))
        return -1;
    /* host operands are copied through the device's shared buffer cache; device ones need nothing shared */
    const int shared = w[0] == TB_ON_HOST || w[1] == TB_ON_HOST || w[2] == TB_ON_HOST;
    if (shared)
        pthread_mutex_lock(&gpu.lock);
    const int caller = enter(dev);
    *kernel = tb_cuda_kernel_for(dev, *kernel, &g->p);
    tb_cuda_fault_call();
    tb_devops ops;
    const tb_cuda_ctx cc = { dev, *kernel };
    tb_cuda_ops(&cc, &ops);
    void *tmp[3] = { NULL, NULL, NULL };
    const char *what = NULL;
    cudaError_t e = resident(g, *kernel, w, &ops, tmp, &what);
    for (int i = 0; i < 3; i++)
        if (tmp[i])
            ops.release(ops.ctx, tmp[i]);
    if (e != cudaSuccess) {
        cudaGetLastError();
        if (!shared)
            pthread_mutex_lock(&gpu.lock);
        tb_cuda_call_failed(what, e, dev, err);
    }
    leave(caller);
    if (shared || e != cudaSuccess)
        pthread_mutex_unlock(&gpu.lock);
    end();
    return e != cudaSuccess ? -1 : 0;
}

static int devices(void)
{
    return gpu.ndevices;
}

const tb_gpu_module tb_cuda_gpu = {
    .version = PACKAGE_VERSION,
    .usable = usable,
    .state = state,
    .gemm = gemm,
    .gemm_resident = gemm_resident,
    .devices = devices,
    .take_moved = tb_cuda_take_moved,
    .describe = tb_cuda_describe,
    .configure = tb_cuda_configure,
};
