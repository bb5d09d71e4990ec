/* The kernel table.  Adding a kernel is a new .cu and a row here; the last row is the default (best). */
#include <string.h>
#include <config.h>
#include "kernels.h"

#ifdef HAVE_CUDA
const tb_kernel tb_kernel_table[] = {
    { "naive", tb_launch_naive },     /* one thread per element of C: the lessons' starting point */
    { "tiled16", tb_launch_tiled16 }, /* shared-memory tiles, 16 x 16 */
    { "tiled32", tb_launch_tiled32 }, /* shared-memory tiles, 32 x 32: the lessons' best */
    { "block64", tb_launch_block64 },   /* register-blocked: 64 x 64 per block, 8 x 8 per thread */
    { "block128", tb_launch_block128 }, /* register-blocked: 128 x 128 per block, 8 x 16 per thread */
    { "block256", tb_launch_block256 }, /* register-blocked: 256 x 128 (or 128 x 256) per block, 8 x 16 per thread */
    { "blocked", tb_launch_blocked },   /* the register-blocked tile configuration chosen by shape */
};
const int tb_kernel_count = sizeof tb_kernel_table / sizeof tb_kernel_table[0];
#else
const tb_kernel tb_kernel_table[] = { { NULL, NULL } };
const int tb_kernel_count = 0;
#endif

int tb_kernel_find(const char *name)
{
    for (int i = 0; i < tb_kernel_count; i++)
        if (!strcmp(tb_kernel_table[i].name, name))
            return i;
    return -1;
}

int tb_kernel_default(void)
{
    return tb_kernel_count - 1;
}
