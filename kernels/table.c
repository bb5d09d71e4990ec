/* The kernels' launchers, workspace and takes functions, in the order of their names (kernels/list.h). */
#include <config.h>
#include <stddef.h>
#include "kernels.h"
#include "list.h"

#define LAUNCH(name, launch, workspace, types, maths, takes, instead) launch,
#define WORKSPACE(name, launch, workspace, types, maths, takes, instead) workspace,
#define TAKES(name, launch, workspace, types, maths, takes, instead) takes,
#define INSTEAD(name, launch, workspace, types, maths, takes, instead) instead,
const tb_kernel_launch tb_kernel_launches[] = { TB_KERNEL_LIST(LAUNCH) };
const tb_kernel_workspace tb_kernel_workspaces[] = { TB_KERNEL_LIST(WORKSPACE) };
static const tb_kernel_takes takers[] = { TB_KERNEL_LIST(TAKES) };
static const char *const instead_of[] = { TB_KERNEL_LIST(INSTEAD) };

int tb_kernel_for(int kernel, const tb_kproblem *p)
{
    while (kernel >= 0 && takers[kernel] && !takers[kernel](p))
        kernel = tb_kernel_find(instead_of[kernel]);
    return kernel;
}

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
