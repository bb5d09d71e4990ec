/* The kernels' names (kernels/list.h), for TILEBLAS_KERNEL, tileblas_set_kernel() and the reports. */
#include <string.h>
#include <config.h>
#include "kernels.h"
#include "list.h"

#ifdef HAVE_CUDA
#define NAME(name, launch) name,
const char *const tb_kernel_names[] = { TB_KERNEL_LIST(NAME) };
const int tb_kernel_count = sizeof tb_kernel_names / sizeof tb_kernel_names[0];
#else
const char *const tb_kernel_names[] = { NULL };
const int tb_kernel_count = 0;
#endif

int tb_kernel_find(const char *name)
{
    for (int i = 0; i < tb_kernel_count; i++)
        if (!strcmp(tb_kernel_names[i], name))
            return i;
    return -1;
}

int tb_kernel_default(void)
{
    return tb_kernel_count - 1;
}
