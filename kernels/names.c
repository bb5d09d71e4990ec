/* The kernels' names and types (kernels/list.h), for TILEBLAS_KERNEL, tileblas_set_kernel(), the reports and the
 * choice of a kernel for a call. */
#include <string.h>
#include <config.h>
#include "kernels.h"
#include "list.h"

#ifdef HAVE_CUDA
#define NAME(name, launch, workspace, types) name,
#define TYPES(name, launch, workspace, types) types,
const char *const tb_kernel_names[] = { TB_KERNEL_LIST(NAME) };
const unsigned tb_kernel_types[] = { TB_KERNEL_LIST(TYPES) };
const int tb_kernel_count = sizeof tb_kernel_names / sizeof tb_kernel_names[0];
#else
const char *const tb_kernel_names[] = { NULL };
const unsigned tb_kernel_types[] = { 0 };
const int tb_kernel_count = 0;
#endif

int tb_kernel_find(const char *name)
{
    for (int i = 0; i < tb_kernel_count; i++)
        if (!strcmp(tb_kernel_names[i], name))
            return i;
    return -1;
}

int tb_kernel_can(int kernel, const tb_kproblem *p)
{
    return kernel >= 0 && kernel < tb_kernel_count && (tb_kernel_types[kernel] & TB_TYPE_BIT(p->type));
}

int tb_kernel_default(tb_type t)
{
    int k = tb_kernel_count - 1;
    while (k >= 0 && !(tb_kernel_types[k] & TB_TYPE_BIT(t)))
        k--;
    return k;
}
