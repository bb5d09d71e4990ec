/* The kernels' launchers and workspace functions, in the order of their names (kernels/list.h). */
#include <config.h>
#include "kernels.h"
#include "list.h"

#define LAUNCH(name, launch, workspace, types) launch,
#define WORKSPACE(name, launch, workspace, types) workspace,
const tb_kernel_launch tb_kernel_launches[] = { TB_KERNEL_LIST(LAUNCH) };
const tb_kernel_workspace tb_kernel_workspaces[] = { TB_KERNEL_LIST(WORKSPACE) };
