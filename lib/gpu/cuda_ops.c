#include <config.h>
#include "cuda_ops.h"

#ifdef HAVE_CUDA

#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include "hostcopy.h"
#include "kernels.h"
#include "recipes.h"

/* Device buffers kept for the next call: a call of the same shape finds the same sizes. */
#define CACHE 16

/* What the library keeps on each device it uses (by CUDA device number): its streams and events, its buffer
 * cache, its staging slots and its workspace pool.  Each is used by one call at a time (lib/gpu/cuda_gpu.c). */
typedef struct dev_state {
    int ready;
    cudaStream_t q[TB_PIPE_QUEUES];
    cudaEvent_t ev[TB_PIPE_EVENTS];
    struct {
        void *p;
        size_t bytes;
        int used;
    } cache[CACHE];
    tb_pipe_staging st;
    _Atomic(cudaMemPool_t) pool;
} dev_state;
static dev_state devs[TB_MAX_DEVICES];

static dev_state *dev_of(const void *ctx)
{
    return &devs[((const tb_cuda_ctx *)ctx)->device];
}

/* the first failure of this thread's call (calls on device operands run beside the pipeline's, lib/gpu/gpu.c) */
static __thread cudaError_t last;

/* bytes this thread's copies moved between host and device, and its pipelines' times, since last taken */
static __thread double moved;
static __thread tb_pipe_times spent;

void tb_cuda_count_bytes(int64_t rows, int64_t cols, unsigned esize)
{
    moved += (double)rows * (double)cols * esize;
}

void tb_cuda_count_times(const tb_pipe_times *t)
{
    spent.copy_in += t->copy_in, spent.copy_out += t->copy_out, spent.wait += t->wait;
}

void tb_cuda_take_moved(double *bytes, tb_pipe_times *times)
{
    *bytes = moved, *times = spent;
    moved = 0.0;
    spent = (tb_pipe_times){ 0 };
}

/* Note a failed CUDA call; 0 when e is cudaSuccess. */
static int check(cudaError_t e)
{
    if (e != cudaSuccess && last == cudaSuccess)
        last = e;
    return e != cudaSuccess;
}

int tb_cuda_ops_init(int device)
{
    dev_state *d = &devs[device];
    if (d->ready)
        return 0;
    cudaError_t e = cudaSuccess;
    for (int q = 0; q < TB_PIPE_QUEUES && !e; q++)
        e = cudaStreamCreateWithFlags(&d->q[q], cudaStreamNonBlocking);
    for (int i = 0; i < TB_PIPE_EVENTS && !e; i++)
        e = cudaEventCreateWithFlags(&d->ev[i], cudaEventDisableTiming);
    d->ready = e == cudaSuccess;
    return (int)e;
}

/* the simulated fault of this thread's call; the calls of the process are counted for TILEBLAS_FAULT=lost:N */
static __thread struct {
    tb_fault kind;
    long n, ops, calls;
    int fired;
} fault;
static _Atomic long fault_calls;

static tb_gpu_settings settings;

void tb_cuda_configure(const tb_gpu_settings *s)
{
    settings = *s;
    tb_copy_threads_told(s->copy_threads, s->say);
}

const tb_gpu_settings *tb_cuda_settings(void)
{
    return &settings;
}

void tb_cuda_fault_call(void)
{
    fault.kind = settings.fault, fault.n = settings.fault_n, fault.ops = 0, fault.fired = 0;
    fault.calls = fault.kind == TB_FAULT_LOST ? atomic_fetch_add(&fault_calls, 1) + 1 : 0;
}

static cudaError_t fault_of(int op)
{
    switch (fault.kind) {
    case TB_FAULT_OOM:
        return op == TB_OP_ALLOC ? cudaErrorMemoryAllocation : cudaSuccess;
    case TB_FAULT_LAUNCH:
        return op == TB_OP_LAUNCH ? cudaErrorLaunchFailure : cudaSuccess;
    case TB_FAULT_ERROR:
        return ++fault.ops == fault.n ? cudaErrorUnknown : cudaSuccess;
    case TB_FAULT_LOST:
        return fault.calls >= fault.n ? cudaErrorDevicesUnavailable : cudaSuccess;
    default:
        return cudaSuccess;
    }
}

int tb_cuda_fault(int op)
{
    cudaError_t e = fault_of(op);
    fault.fired |= e != cudaSuccess;
    return (int)e;
}

int tb_cuda_fault_fired(void)
{
    return fault.fired;
}

/* 1, with the error noted, when a simulated fault fails this operation */
static int injected(int op)
{
    cudaError_t e = (cudaError_t)tb_cuda_fault(op);
    return e != cudaSuccess && check(e);
}

void tb_cuda_note_error(int e)
{
    check((cudaError_t)e);
}

int tb_cuda_last_error(void)
{
    cudaError_t e = last;
    last = cudaSuccess;
    return (int)e;
}

size_t tb_cuda_cached_bytes(int device)
{
    const dev_state *d = &devs[device];
    size_t n = 0;
    for (int i = 0; i < CACHE; i++)
        n += d->cache[i].p && !d->cache[i].used ? d->cache[i].bytes : 0;
    return n;
}

void tb_cuda_trim(int device)
{
    dev_state *d = &devs[device];
    for (int i = 0; i < CACHE; i++)
        if (d->cache[i].p && !d->cache[i].used) {
            cudaFree(d->cache[i].p);
            d->cache[i].p = NULL, d->cache[i].bytes = 0;
        }
}

/* The smallest free cached buffer that is big enough; else a new one (dropping a free cached one if the cache is
 * full, and all of them if CUDA is out of memory). */
static int c_alloc(void *ctx, size_t bytes, void **dev)
{
    const tb_cuda_ctx *cc = ctx;
    dev_state *d = dev_of(ctx);
    if (injected(TB_OP_ALLOC))
        return 1;
    int best = -1, empty = -1;
    for (int i = 0; i < CACHE; i++) {
        if (!d->cache[i].p) {
            empty = empty < 0 ? i : empty;
        } else if (!d->cache[i].used && d->cache[i].bytes >= bytes &&
                   (best < 0 || d->cache[i].bytes < d->cache[best].bytes)) {
            best = i;
        }
    }
    if (best < 0) {
        for (int i = 0; i < CACHE && empty < 0; i++)
            if (!d->cache[i].used) {
                cudaFree(d->cache[i].p);
                d->cache[i].p = NULL, d->cache[i].bytes = 0;
                empty = i;
            }
        if (empty < 0)
            return check(cudaErrorMemoryAllocation);
        cudaError_t e = cudaMalloc(&d->cache[empty].p, bytes);
        if (e == cudaErrorMemoryAllocation) {
            cudaGetLastError();
            tb_cuda_trim(cc->device);
            e = cudaMalloc(&d->cache[empty].p, bytes);
        }
        if (check(e)) {
            d->cache[empty].p = NULL;
            return 1;
        }
        d->cache[empty].bytes = bytes;
        best = empty;
    }
    d->cache[best].used = 1;
    *dev = d->cache[best].p;
    return 0;
}

static void c_release(void *ctx, void *dev)
{
    dev_state *d = dev_of(ctx);
    for (int i = 0; i < CACHE; i++)
        if (d->cache[i].p == dev)
            d->cache[i].used = 0;
}

/* a queued copy between pinned host memory and the device, either way */
static int copy2d(const void *ctx, int q, void *dst, int64_t dld, const void *src, int64_t sld, int64_t rows,
                  int64_t cols, unsigned e, enum cudaMemcpyKind kind)
{
    if (injected(TB_OP_OTHER))
        return 1;
    tb_cuda_count_bytes(rows, cols, e);
    return check(cudaMemcpy2DAsync(dst, (size_t)dld * e, src, (size_t)sld * e, (size_t)rows * e, (size_t)cols, kind,
                                   dev_of(ctx)->q[q]));
}

static int c_h2d(void *ctx, int q, void *dev, int64_t dld, const void *host, int64_t hld, int64_t rows, int64_t cols,
                 unsigned e)
{
    return copy2d(ctx, q, dev, dld, host, hld, rows, cols, e, cudaMemcpyHostToDevice);
}

static int c_d2h(void *ctx, int q, void *host, int64_t hld, const void *dev, int64_t dld, int64_t rows, int64_t cols,
                 unsigned e)
{
    return copy2d(ctx, q, host, hld, dev, dld, rows, cols, e, cudaMemcpyDeviceToHost);
}

/* The workspaces that kernels ask for come from a memory pool of the library's own on each device, which keeps up
 * to 1 GiB mapped between calls (a pool that gives its memory back at every synchronisation maps each workspace
 * afresh, which costs more than a small product).  The process's default pools are left as the program set them. */
#define TB_POOL_KEEP ((uint64_t)1 << 30)
static cudaMemPool_t own_pool(int device)
{
    _Atomic(cudaMemPool_t) *pool = &devs[device].pool; /* made once; a thread that loses the race destroys its own */
    cudaMemPool_t p = atomic_load(pool);
    if (p)
        return p;
    struct cudaMemPoolProps props = { 0 };
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    if (cudaMemPoolCreate(&p, &props) != cudaSuccess) {
        cudaGetLastError();
        return NULL;
    }
    uint64_t keep = TB_POOL_KEEP;
    cudaMemPoolSetAttribute(p, cudaMemPoolAttrReleaseThreshold, &keep);
    cudaMemPool_t none = NULL;
    if (!atomic_compare_exchange_strong(pool, &none, p)) {
        cudaMemPoolDestroy(p);
        p = none;
    }
    return p;
}

/* A workspace of `bytes` from that pool for a launch on stream: NULL when none is needed or none can be had (the
 * kernel then runs without); given back (ws_done) once the launch is queued, for after it on the stream. */
static void *ws_get(int device, size_t bytes, void *stream)
{
    cudaMemPool_t pool = bytes ? own_pool(device) : NULL;
    void *ws = NULL;
    if (pool && cudaMallocFromPoolAsync(&ws, bytes, pool, (cudaStream_t)stream) != cudaSuccess) {
        cudaGetLastError();
        ws = NULL;
    }
    return ws;
}

static void ws_done(void *ws, void *stream)
{
    if (ws)
        cudaFreeAsync(ws, (cudaStream_t)stream);
}

/* Each device's facts, measured the first time it is current (under `facts_lock`), and its decider */
static struct {
    _Atomic int known;
    tb_device_facts facts;
    tb_decider decider;
} deciders[TB_MAX_DEVICES];
static pthread_mutex_t facts_lock = PTHREAD_MUTEX_INITIALIZER;

const tb_decider *tb_cuda_decider(int device)
{
    if (!atomic_load_explicit(&deciders[device].known, memory_order_acquire)) {
        pthread_mutex_lock(&facts_lock);
        if (!atomic_load_explicit(&deciders[device].known, memory_order_relaxed)) {
            tb_kernel_facts(&deciders[device].facts);
            deciders[device].decider = tb_decider_of(&deciders[device].facts);
            atomic_store_explicit(&deciders[device].known, 1, memory_order_release);
        }
        pthread_mutex_unlock(&facts_lock);
    }
    return &deciders[device].decider;
}

/* kernel's recipe for p on `device` */
static tb_recipe recipe_on(int device, int kernel, const tb_kproblem *p)
{
    tb_recipe r;
    tb_decide_recipe(tb_cuda_decider(device), tb_kernel_families[kernel], 0, p, &r);
    return r;
}

size_t tb_cuda_workspace(int device, int kernel, const tb_kproblem *p)
{
    if (!tb_kernel_workspaces[kernel])
        return 0;
    const tb_recipe r = recipe_on(device, kernel, p);
    return tb_kernel_workspaces[kernel](p, &r);
}

size_t tb_cuda_prep_bytes(int device, int kernel, const tb_kproblem *tile, int which, int64_t rows)
{
    const tb_kernel_prep *kp = tb_kernel_prep_of(kernel);
    if (!kp)
        return 0;
    const tb_recipe r = recipe_on(device, kernel, tile);
    return kp->bytes(tile, &r, which, rows);
}

void tb_cuda_describe(int device, int kernel, const tb_kproblem *p, char *buf, size_t size)
{
    const tb_recipe r = recipe_on(device, kernel, p);
    tb_recipe_text(tb_kernel_families[kernel], &r, buf, size);
}

int tb_cuda_kernel_for(int device, int kernel, const tb_kproblem *p)
{
    return tb_decide_kernel(kernel, p, tb_cuda_decider(device));
}

/* kernel on p on stream, a stream of `device` (the current device), as its recipe says, with its workspace from
 * that device's pool */
static int launch_on(int device, int kernel, const tb_kproblem *p, void *stream)
{
    const tb_recipe r = recipe_on(device, kernel, p);
    void *ws = ws_get(device, tb_kernel_workspaces[kernel] ? tb_kernel_workspaces[kernel](p, &r) : 0, stream);
    int e = tb_kernel_launches[kernel](p, &r, ws, stream);
    ws_done(ws, stream);
    return e;
}

int tb_cuda_launch(int kernel, const tb_kproblem *p, void *stream)
{
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= TB_MAX_DEVICES) {
        cudaGetLastError();
        return (int)cudaErrorInvalidDevice;
    }
    return launch_on(device, kernel, p, stream);
}

static int c_gemm(void *ctx, int q, const tb_kproblem *p)
{
    const tb_cuda_ctx *cc = ctx;
    if (injected(TB_OP_LAUNCH))
        return 1;
    return check((cudaError_t)launch_on(cc->device, cc->kernel, p, dev_of(ctx)->q[q]));
}

/* the kernel's prepared operands: the plan has them only where it has them (lib/gpu/cuda_gpu.c) */
static int c_prepare(void *ctx, int q, const tb_kproblem *p, int which, void *prep, int64_t prep_rows, int64_t r0)
{
    const tb_cuda_ctx *cc = ctx;
    const tb_kernel_prep *kp = tb_kernel_prep_of(cc->kernel);
    if (injected(TB_OP_LAUNCH))
        return 1;
    if (!kp)
        return check(cudaErrorInvalidValue);
    const tb_recipe r = recipe_on(cc->device, cc->kernel, p);
    return check((cudaError_t)kp->prepare(p, &r, which, prep, prep_rows, r0, dev_of(ctx)->q[q]));
}

static int c_gemm_prepared(void *ctx, int q, const tb_kproblem *p, const void *prep_a, int64_t a_rows, int64_t i0,
                           const void *prep_b, int64_t b_rows, int64_t j0)
{
    const tb_cuda_ctx *cc = ctx;
    const tb_kernel_prep *kp = tb_kernel_prep_of(cc->kernel);
    if (injected(TB_OP_LAUNCH))
        return 1;
    if (!kp)
        return check(cudaErrorInvalidValue);
    cudaStream_t stream = dev_of(ctx)->q[q];
    const tb_recipe r = recipe_on(cc->device, cc->kernel, p);
    void *ws = ws_get(cc->device, kp->workspace(p, &r), stream);
    int e = kp->launch(p, &r, prep_a, a_rows, i0, prep_b, b_rows, j0, ws, stream);
    ws_done(ws, stream);
    return check((cudaError_t)e);
}

static int c_record(void *ctx, int q, int ev)
{
    const dev_state *d = dev_of(ctx);
    if (injected(TB_OP_OTHER))
        return 1;
    return check(cudaEventRecord(d->ev[ev], d->q[q]));
}

static int c_queue_wait(void *ctx, int q, int ev)
{
    const dev_state *d = dev_of(ctx);
    if (injected(TB_OP_OTHER))
        return 1;
    return check(cudaStreamWaitEvent(d->q[q], d->ev[ev], 0));
}

static int c_host_wait(void *ctx, int ev)
{
    const dev_state *d = dev_of(ctx);
    if (injected(TB_OP_OTHER))
        return 1;
    return check(cudaEventSynchronize(d->ev[ev]));
}

static int c_done(void *ctx, int ev)
{
    const dev_state *d = dev_of(ctx);
    if (injected(TB_OP_OTHER))
        return -1;
    cudaError_t e = cudaEventQuery(d->ev[ev]);
    return e == cudaErrorNotReady ? 0 : check(e) ? -1 : 1;
}

void tb_cuda_ops(const tb_cuda_ctx *ctx, tb_devops *ops)
{
    /* the device and kernel travel in the context: nothing shared is written */
    *ops = (tb_devops){ .ctx = (void *)ctx,
                        .alloc = c_alloc,
                        .release = c_release,
                        .h2d = c_h2d,
                        .d2h = c_d2h,
                        .gemm = c_gemm,
                        .prepare = c_prepare,
                        .gemm_prepared = c_gemm_prepared,
                        .record = c_record,
                        .queue_wait = c_queue_wait,
                        .host_wait = c_host_wait,
                        .done = c_done };
}

/* pinned host memory, NULL (the error noted) when it cannot be had */
static void *pinned(size_t bytes)
{
    void *p = NULL;
    return check(cudaHostAlloc(&p, bytes, cudaHostAllocDefault)) ? NULL : p;
}

static void unpinned(void *p)
{
    if (p)
        cudaFreeHost(p);
}

const tb_pipe_staging *tb_cuda_staging(int device, int64_t bytes)
{
    dev_state *cu = &devs[device];
    if (bytes <= cu->st.slot_bytes)
        return &cu->st;
    for (int i = 0; i < TB_PIPE_SLOTS; i++) {
        unpinned(cu->st.in[i]);
        unpinned(cu->st.out[i]);
        cu->st.in[i] = cu->st.out[i] = NULL;
    }
    cu->st.slot_bytes = 0;
    for (int i = 0; i < TB_PIPE_SLOTS; i++)
        if (!(cu->st.in[i] = pinned((size_t)bytes)) || !(cu->st.out[i] = pinned((size_t)bytes)))
            return NULL;
    cu->st.slot_bytes = bytes;
    return &cu->st;
}

#endif /* HAVE_CUDA */
