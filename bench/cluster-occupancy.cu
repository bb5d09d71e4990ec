// How many thread-block clusters of 1 x 1 x s blocks (s = 1..8) of cx's kernels fit on the device at once
// (cudaOccupancyMaxActiveClusters), beside the blocks an SM: whether a launch in clusters keeps the slots a plain
// launch fills.  Build and run on the GPU host from the source tree:
//   nvcc -gencode=arch=compute_90,code=sm_90 -std=c++17 -O3 -Iinclude -Ikernels bench/cluster-occupancy.cu -o co && ./co
#include "../kernels/cx.cu"
#include <stdio.h>

template <class K>
static void probe(const char *name, K kernel, int threads, size_t smem)
{
    if (smem > 48 * 1024)
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem);
    printf("%-12s %d threads, %zu bytes: %d blocks an SM, %d on the device; clusters (blocks):", name, threads, smem,
           per_sm, per_sm * tb_sm_count());
    for (unsigned s = 1; s <= 8; s++) {
        cudaLaunchAttribute a;
        const cudaLaunchConfig_t cfg = cluster_config(dim3(1024, 1, s), threads, smem, 0, s, &a);
        int n = -1;
        const cudaError_t e = cudaOccupancyMaxActiveClusters(&n, (void *)kernel, &cfg);
        printf(" %u: %d (%d)%s", s, n, n * (int)s, e ? cudaGetErrorString(e) : "");
    }
    printf("\n");
}

template <class C>
static void probe_tma(const char *name)
{
    probe(name, cx_tma_kernel<C, 0, 0>, C::THREADS, cx_tma<C, 0, 0>::SMEM);
}

int main()
{
    probe_tma<z_dmma>("z 32x32 tma");
    probe_tma<z_dmma_narrow>("z 64x16 tma");
    probe_tma<z_dmma_span>("z 32x80 tma");
    probe_tma<z_dmma_span48>("z 32x48 tma");
    probe("c cp.async", cx_kernel<float, c_small, 3, 3, true>, c_small::THREADS, c_simt::dyn());
    return 0;
}
