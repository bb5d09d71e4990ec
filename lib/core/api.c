/* The public tileblas_* functions (include/tileblas.h). */
#include <config.h>
#include <stddef.h>
#include "core.h"
#include "gpu.h"
#include "kernels.h"
#include "route.h"
#include "stats.h"
#include "tileblas.h"

#define STR2(x) #x
#define STR(x) STR2(x)

TB_EXPORT const char *tileblas_version(void)
{
    return STR(TILEBLAS_VERSION_MAJOR) "." STR(TILEBLAS_VERSION_MINOR) "." STR(TILEBLAS_VERSION_PATCH);
}

TB_EXPORT void tileblas_set_path(tileblas_path path)
{
    tb_route_force_path(path == TILEBLAS_PATH_CPU ? TB_PATH_CPU : path == TILEBLAS_PATH_GPU ? TB_PATH_GPU : TB_PATH_NONE);
}

TB_EXPORT int tileblas_set_kernel(const char *name)
{
    int k = name ? tb_kernel_find(name) : -1;
    if (name && k < 0)
        return -1;
    tb_route_force_kernel(k);
    return 0;
}

TB_EXPORT int tileblas_kernel_count(void)
{
    return tb_kernel_count;
}

TB_EXPORT const char *tileblas_kernel_types(int i)
{
    _Static_assert(TB_TYPE_BIT(TB_TYPE_S) == 1 && TB_TYPE_BIT(TB_TYPE_D) == 2 && TB_TYPE_BIT(TB_TYPE_C) == 4 &&
                       TB_TYPE_BIT(TB_TYPE_Z) == 8,
                   "the sets below are by mask");
    static const char *const sets[] = { "",  "s",  "d",  "sd",  "c",  "sc",  "dc",  "sdc",
                                        "z", "sz", "dz", "sdz", "cz", "scz", "dcz", "sdcz" };
    return i >= 0 && i < tb_kernel_count ? sets[tb_kernel_types[i] & 15] : NULL;
}

TB_EXPORT const char *tileblas_kernel_name(int i)
{
    return i >= 0 && i < tb_kernel_count ? tb_kernel_names[i] : NULL;
}

TB_EXPORT int tileblas_gpu_available(const char **why_not)
{
    return tb_gpu_usable(why_not) > 0;
}

TB_EXPORT void tileblas_last_call(tileblas_call_info *info)
{
    tb_stats_last(info);
}

TB_EXPORT void tileblas_get_stats(tileblas_stats *stats)
{
    tb_stats_get(stats);
    tb_core_stats_asked();
}

TB_EXPORT void tileblas_reset_stats(void)
{
    tb_stats_reset();
    tb_core_stats_asked();
}
