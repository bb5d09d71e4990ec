/* The entry point of the GPU module (lib/gpu/gpu_module.h): its table, which the library configures before use. */
#include <config.h>
#include "gpu_module.h"

const tb_gpu_module *tileblas_gpu_module(void)
{
    return &tb_cuda_gpu;
}
