/* The kernels' names, types, maths and families (kernels/list.h), for TILEBLAS_KERNEL, tileblas_set_kernel(), the
 * reports and the choice of a kernel for a call. */
#include <pthread.h>
#include <string.h>
#include <config.h>
#include "kernels.h"
#include "list.h"

#ifdef HAVE_CUDA
#define NAME(name, launch, workspace, types, maths, family, instead) name,
#define TYPES(name, launch, workspace, types, maths, family, instead) types,
#define MATHS(name, launch, workspace, types, maths, family, instead) maths,
#define FAMILY(name, launch, workspace, types, maths, family, instead) TB_FAMILY_##family,
#define INSTEAD(name, launch, workspace, types, maths, family, instead) instead,
const char *const tb_kernel_names[] = { TB_KERNEL_LIST(NAME) };
const unsigned tb_kernel_types[] = { TB_KERNEL_LIST(TYPES) };
const unsigned tb_kernel_maths[] = { TB_KERNEL_LIST(MATHS) };
const tb_family tb_kernel_families[] = { TB_KERNEL_LIST(FAMILY) };
const char *const tb_kernel_instead[] = { TB_KERNEL_LIST(INSTEAD) };
const int tb_kernel_count = sizeof tb_kernel_names / sizeof tb_kernel_names[0];
#else
const char *const tb_kernel_names[] = { NULL };
const unsigned tb_kernel_types[] = { 0 };
const unsigned tb_kernel_maths[] = { 0 };
const tb_family tb_kernel_families[] = { TB_FAMILY_NONE };
const char *const tb_kernel_instead[] = { NULL };
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

/* TB_KERNEL_DEFAULTS as table indices (-1: none), worked out once */
static int defaults[TB_TYPE_COUNT][TB_MATH_COUNT];
static pthread_once_t defaults_once = PTHREAD_ONCE_INIT;

static void find_defaults(void)
{
    for (int t = 0; t < TB_TYPE_COUNT; t++)
        for (int m = 0; m < TB_MATH_COUNT; m++)
            defaults[t][m] = -1;
#define DEFAULT(type, math, name) defaults[TB_TYPE_##type][TB_MATH_##math] = tb_kernel_find(name);
    TB_KERNEL_DEFAULTS(DEFAULT)
#undef DEFAULT
}

int tb_kernel_default(tb_type t, tb_math m)
{
    pthread_once(&defaults_once, find_defaults);
    return defaults[t][m];
}

const char *tb_kernel_math_name(int kernel, tb_type t)
{
    if (t == TB_TYPE_D || t == TB_TYPE_Z)
        return "fp64";
    if (kernel >= 0 && kernel < tb_kernel_count)
        for (int m = 0; m < TB_MATH_COUNT; m++)
            if (tb_kernel_maths[kernel] == TB_MATH_BIT(m))
                return tb_math_names[m];
    return tb_math_names[TB_MATH_FP32];
}
