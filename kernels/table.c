/* The kernels' launchers, in the order of their names (kernels/list.h). */
#include <config.h>
#include "kernels.h"
#include "list.h"

#define LAUNCH(name, launch) launch,
const tb_kernel_launch tb_kernel_launches[] = { TB_KERNEL_LIST(LAUNCH) };
