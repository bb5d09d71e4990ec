/* The kernels' launchers and workspace functions, in the order of their names (kernels/list.h), and the device
 * facts their recipes are decided from. */
#include <config.h>
#include <stddef.h>
#include <cuda_runtime_api.h>
#include "kernels.h"
#include "list.h"

#define LAUNCH(name, launch, workspace, types, maths, family, instead) launch,
#define WORKSPACE(name, launch, workspace, types, maths, family, instead) workspace,
const tb_kernel_launch tb_kernel_launches[] = { TB_KERNEL_LIST(LAUNCH) };
const tb_kernel_workspace tb_kernel_workspaces[] = { TB_KERNEL_LIST(WORKSPACE) };

const tb_kernel_prep *tb_kernel_prep_of(int kernel)
{
    static const struct {
        const char *name;
        const tb_kernel_prep *prep;
    } with[] = { { "tc128", &tb_prep_tc128 }, { "tc32", &tb_prep_tc32 }, { "tf32", &tb_prep_tf32 },
#if TB_COMPLEX_KERNELS
                 { "c4m-blocked", &tb_prep_c4m_blocked }, { "c4m-tf32", &tb_prep_c4m_tf32 },
                 { "c4m-tc32", &tb_prep_c4m_tc32 },       { "z4m-dmma", &tb_prep_z4m_dmma }
#endif
    };
    for (size_t i = 0; kernel >= 0 && i < sizeof with / sizeof with[0]; i++)
        if (kernel == tb_kernel_find(with[i].name))
            return with[i].prep;
    return NULL;
}

void tb_kernel_facts(tb_device_facts *f)
{
    int d = 0, major = 0, minor = 0;
    if (cudaGetDevice(&d) != cudaSuccess)
        d = 0;
    *f = (tb_device_facts){ .sms = 132 }; /* where CUDA cannot say: an H100's SMs, no tensor-core kernels */
    if (cudaDeviceGetAttribute(&f->sms, cudaDevAttrMultiProcessorCount, d) != cudaSuccess || f->sms < 1)
        f->sms = 132;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d) == cudaSuccess &&
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d) == cudaSuccess)
        f->cc = 10 * major + minor;
    cudaGetLastError();
    int l2 = 0;
    f->l2_bytes = cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, d) == cudaSuccess ? l2 : -1;
    cudaGetLastError();
    f->tma = tb_tc32_ready();
    for (int s = 0; s < TB_BLOCKED_SHAPE_COUNT; s++)
        f->blocked_per_sm[s] = tb_blocked_per_sm(s);
#if TB_COMPLEX_KERNELS
    tb_cx_facts(f);
#endif
}
