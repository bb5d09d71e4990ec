// The Hopper copy engine (TMA) and the shared-memory barriers (mbarrier) its copies complete on, for the kernels
// that stage their tiles with it (tc32, and cx-dmma's TMA kernels): cuTensorMapEncodeTiled, found through the
// runtime (no link to the driver library), and the PTX forms they use, which need compute capability 9.0; and the
// thread block clusters' launch, barrier and shared-memory reads (cx's slices of k summed in the cluster).
#ifndef TB_KERNELS_TMA_CUH
#define TB_KERNELS_TMA_CUH

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include "common.cuh"   // tb_kernel_device, tb_device_known
#include "cp_async.cuh" // smem_addr

namespace {

__device__ __forceinline__ void bar_init(uint32_t b, int count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(count) : "memory");
}

// the barriers' initialisation made visible to the copy engine (after bar_init, before the first copy)
__device__ __forceinline__ void bar_init_fence()
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

__device__ __forceinline__ void bar_expect(uint32_t b, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes) : "memory");
}

__device__ __forceinline__ void bar_arrive(uint32_t b)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(b) : "memory");
}

__device__ __forceinline__ void bar_wait(uint32_t b, int parity)
{
    uint32_t done;
    do {
        asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done)
                     : "r"(b), "r"(parity)
                     : "memory");
    } while (!done);
}

// the box of map at (x, y) (x along the stored rows, y across them) into shared memory at dst, completing on the
// barrier bar
__device__ __forceinline__ void tma_load(uint32_t dst, const CUtensorMap *map, int x, int y, uint32_t bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
                 "[%4];" ::"r"(dst),
                 "l"((uint64_t)map), "r"(x), "r"(y), "r"(bar)
                 : "memory");
}

// A thread block cluster's barrier: this block's shared-memory writes before it visible to every block of the
// cluster after it (each thread of every block arrives, then waits)
__device__ __forceinline__ void cluster_barrier()
{
    asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// This thread's shared-memory writes ordered before the copy engine's later copies to the same bytes
__device__ __forceinline__ void proxy_fence()
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// This block's rank in its cluster, and the cluster's blocks
__device__ __forceinline__ unsigned cluster_rank()
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}
__device__ __forceinline__ unsigned cluster_blocks()
{
    unsigned n;
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
    return n;
}

// Address a of this block's shared memory in the shared memory of the cluster's block `rank`
__device__ __forceinline__ uint32_t cluster_map(uint32_t a, unsigned rank)
{
    uint32_t at;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(at) : "r"(a), "r"(rank));
    return at;
}

// The two numbers at `at` (cluster_map's) in a cluster's shared memory (the pointer: only their type)
__device__ __forceinline__ double2 cluster_load2(const double *, uint32_t at)
{
    double2 v;
    asm volatile("ld.shared::cluster.v2.f64 {%0, %1}, [%2];" : "=d"(v.x), "=d"(v.y) : "r"(at) : "memory");
    return v;
}
__device__ __forceinline__ float2 cluster_load2(const float *, uint32_t at)
{
    float2 v;
    asm volatile("ld.shared::cluster.v2.f32 {%0, %1}, [%2];" : "=f"(v.x), "=f"(v.y) : "r"(at) : "memory");
    return v;
}

// A launch of grid in clusters of (1, 1, cluster_z) blocks, its cluster attribute in *cluster (which it points to)
static inline cudaLaunchConfig_t cluster_config(dim3 grid, int threads, size_t smem, cudaStream_t st,
                                                unsigned cluster_z, cudaLaunchAttribute *cluster)
{
    cluster->id = cudaLaunchAttributeClusterDimension;
    cluster->val.clusterDim.x = 1, cluster->val.clusterDim.y = 1, cluster->val.clusterDim.z = cluster_z;
    cudaLaunchConfig_t config = {};
    config.gridDim = grid, config.blockDim = dim3((unsigned)threads), config.dynamicSmemBytes = smem;
    config.stream = st, config.attrs = cluster, config.numAttrs = 1;
    return config;
}

// The blocks of `kernel` (`threads` threads, `smem` bytes of dynamic shared memory) that run at once on the current
// device in clusters of (1, 1, s): a cluster's blocks share a GPC, so where s does not divide what a GPC holds,
// fewer than a plain launch keeps (cudaOccupancyMaxActiveClusters); the clusters kept in cache[], `fallback` where
// CUDA cannot say
template <class Kernel>
static inline int64_t tb_cluster_wave(int cache[TB_KERNEL_DEVICES], Kernel kernel, int threads, size_t smem,
                                      unsigned s, int64_t fallback)
{
    const int n = tb_device_fact(cache, [kernel, threads, smem, s](int) {
        cudaLaunchAttribute a;
        const cudaLaunchConfig_t config = cluster_config(dim3(1, 1, s), threads, smem, 0, s, &a);
        int clusters;
        return cudaOccupancyMaxActiveClusters(&clusters, (const void *)kernel, &config) == cudaSuccess && clusters > 0
                   ? clusters
                   : 0;
    });
    return n ? (int64_t)n * s : fallback;
}

// kernel(args...) launched on grid in clusters of (1, 1, cluster_z) blocks; 0 or an error
template <class... Params, class... Args>
static int launch_in_clusters(void (*kernel)(Params...), dim3 grid, int threads, size_t smem, cudaStream_t st,
                              unsigned cluster_z, Args... args)
{
    cudaLaunchAttribute cluster;
    const cudaLaunchConfig_t config = cluster_config(grid, threads, smem, st, cluster_z, &cluster);
    return (int)cudaLaunchKernelEx(&config, kernel, args...);
}

// cuTensorMapEncodeTiled, or NULL where the driver lacks it
inline PFN_cuTensorMapEncodeTiled_v12000 encoder(void)
{
    static PFN_cuTensorMapEncodeTiled_v12000 fn; // a race stores the same pointer twice
    if (!fn) {
        cudaDriverEntryPointQueryResult q;
        void *f = NULL;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q) ==
                cudaSuccess &&
            q == cudaDriverEntryPointSuccess)
            fn = (PFN_cuTensorMapEncodeTiled_v12000)f;
        cudaGetLastError();
    }
    return fn;
}

} // namespace

#endif
