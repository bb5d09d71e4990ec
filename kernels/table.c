/* The kernels' launchers, workspace and takes functions, in the order of their names (kernels/list.h). */
#include <config.h>
#include <stddef.h>
#include <string.h>
#include "kernels.h"
#include "list.h"

#define LAUNCH(name, launch, workspace, types, maths, takes, instead) launch,
#define WORKSPACE(name, launch, workspace, types, maths, takes, instead) workspace,
#define TAKES(name, launch, workspace, types, maths, takes, instead) takes,
#define INSTEAD(name, launch, workspace, types, maths, takes, instead) instead,
#define NAME(name, launch, workspace, types, maths, takes, instead) name,
const tb_kernel_launch tb_kernel_launches[] = { TB_KERNEL_LIST(LAUNCH) };
const tb_kernel_workspace tb_kernel_workspaces[] = { TB_KERNEL_LIST(WORKSPACE) };
static const tb_kernel_takes takers[] = { TB_KERNEL_LIST(TAKES) };
static const char *const instead_of[] = { TB_KERNEL_LIST(INSTEAD) };
static const char *const names[] = { TB_KERNEL_LIST(NAME) }; /* the GPU module has no tb_kernel_find */

int tb_kernel_for(int kernel, const tb_kproblem *p)
{
    while (kernel >= 0 && takers[kernel] && !takers[kernel](p)) {
        const int from = kernel;
        kernel = -1;
        for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
            if (!strcmp(names[i], instead_of[from]))
                kernel = i;
    }
    return kernel;
}
