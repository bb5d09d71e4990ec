// Shared memory filled by cp.async (Ampere and later): no registers between the load and the store, and the copies
// of the tiles ahead in flight while this one is multiplied.  Each thread's copies are committed in groups, and a
// wait leaves the newest groups in flight.  Used by the kernels that stage tiles this way (dmma, cx); smem_addr
// also by those that fill them by TMA (tma.cuh).
#ifndef TB_KERNELS_CP_ASYNC_CUH
#define TB_KERNELS_CP_ASYNC_CUH

namespace {

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

// BYTES (4, 8 or 16) at src to dst through L1, or zeros there where not ok (a source size of 0: nothing is read)
template <int BYTES>
__device__ __forceinline__ void copy_async(void *dst, const void *src, bool ok)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(smem_addr(dst)), "l"(src), "n"(BYTES),
                 "r"(ok ? BYTES : 0));
}

// SIZE (8 or 16) bytes at src to dst, 16 past L1 (.cg), or zeros there where not valid (ignore-src: nothing is
// read); for copies that are wholly inside an operand or wholly outside it (dmma)
template <int SIZE>
__device__ __forceinline__ void copy_async_ignore(void *dst, const void *src, bool valid)
{
    if (SIZE == 16)
        asm volatile("{\n .reg .pred p;\n setp.eq.u32 p, %2, 0;\n"
                     " cp.async.cg.shared.global [%0], [%1], 16, p;\n}\n" ::"r"(smem_addr(dst)),
                     "l"(src), "r"((unsigned)valid)
                     : "memory");
    else
        asm volatile("{\n .reg .pred p;\n setp.eq.u32 p, %2, 0;\n"
                     " cp.async.ca.shared.global [%0], [%1], 8, p;\n}\n" ::"r"(smem_addr(dst)),
                     "l"(src), "r"((unsigned)valid)
                     : "memory");
}

// the copies issued since the last commit, one group
__device__ __forceinline__ void copies_commit()
{
    asm volatile("cp.async.commit_group;\n" ::);
}

// all but the newest `pending` groups of copies done (this thread's)
template <int pending>
__device__ __forceinline__ void copies_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(pending));
}

} // namespace

#endif
