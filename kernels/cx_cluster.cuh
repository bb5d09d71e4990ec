// cx's slices of k summed inside thread-block clusters (compute capability 9.0): the slices of a tile are one
// cluster, whose blocks add them up through each other's shared memory, rather than a second kernel reading them
// back from a workspace (kernels/cx.cu): the same bits, one launch and no workspace.  And the sums of a block's
// groups of threads (cx_math.cuh's GROUPS) added up in its own shared memory.
#ifndef TB_KERNELS_CX_CLUSTER_CUH
#define TB_KERNELS_CX_CLUSTER_CUH

#include "cx_core.cuh"
#include "tma.cuh"

namespace {

// With M::GROUPS > 1: every group's sums added to group 0's, in the groups' order, through `room` (ROOM numbers of
// shared memory that no copy is filling); every thread of the block calls it. ASYNC: the copy engine fills room
// next, after these reads and writes
template <int ROOM, bool ASYNC, class M, class R>
__device__ __forceinline__ void gather_groups(M &sums, R *room)
{
    if constexpr (M::GROUPS > 1) {
        static_assert((M::GROUPS - 1) * M::E * M::GROUP <= ROOM, "the groups' sums in the stages");
        if (M::group() > 0)
            sums.put(room);
        __syncthreads();
        if (M::group() == 0)
            for (int h = 1; h < M::GROUPS; h++)
                sums.add(room, h);
        if constexpr (ASYNC)
            proxy_fence();
        __syncthreads(); // room read before it is filled again (or cluster_sum writes it)
    }
}

// whether config C's TMA kernels sum their slices in clusters, where they are at most 8 (kernels/cx.cu specializes
// it for a config that does not); the cp.async kernels never do
template <class C>
struct cx_cluster {
    static constexpr bool on = true;
};

// With p.cluster: a tile's sums over the cluster's slices of k into C, in the slices' order (the bits of
// cx_sum_slices). Each block's sums go into its own stages at `tile` (ROOM numbers, free once its loop is done),
// and each block then adds up its share of the tile's elements from every block's; from row r0 and column c0, but
// the first skip_r rows and skip_c columns (another tile's), as store's SKIP.  The stages are filled by the copy
// engine, whose next copies into them must follow these writes.
template <class C, int ROOM, class M, class R>
__device__ __forceinline__ void cluster_sum(const M &sums, const cx_problem<R> &p, R *tile, int64_t r0, int64_t c0,
                                            int skip_r = 0, int skip_c = 0)
{
    static_assert(2 * C::BM * C::BN <= ROOM, "a tile's sums in the stages");
    sums.each([&](int r, int col, R re, R im) {
        tile[2 * (r + col * C::BM)] = re, tile[2 * (r + col * C::BM) + 1] = im;
    });
    cluster_barrier();
    const unsigned rank = cluster_rank(), blocks = cluster_blocks();
    for (int e = threadIdx.x + (int)rank * C::THREADS; e < C::BM * C::BN; e += (int)blocks * C::THREADS) {
        const int r = e % C::BM, col = e / C::BM;
        const int64_t i = r0 + r, j = c0 + col;
        if (i >= p.m || j >= p.n || r < skip_r || col < skip_c)
            continue;
        tb_cx<R> s = { 0, 0 };
        for (unsigned z = 0; z < blocks; z++) { // one read at a time: no registers beyond the products' for them
            const auto v = cluster_load2(tile, cluster_map(smem_addr(tile + 2 * e), z));
            s.re += v.x, s.im += v.y;
        }
        tb_cx_update(p.c + 2 * (i + j * p.ldc), s, p.ar, p.ai, p.br, p.bi);
    }
    proxy_fence(); // the sums written here before the next tile's copies into the stages
    cluster_barrier(); // no block's stages filled again, nor left, while another reads them
}

} // namespace

#endif
