/* The entry point of the GPU module (lib/gpu/gpu_module.h).  The module's code reads the configuration through
 * tb_config_get() like the library's; here that returns the library's own, handed over on loading. */
#include <config.h>
#include "gpu_module.h"

_Atomic(const tb_config *) tb_config_ready;

const tb_config *tb_config_get_slow(void)
{
    return atomic_load(&tb_config_ready);
}

const tb_gpu_module *tileblas_gpu_module(const tb_config *cfg)
{
    atomic_store(&tb_config_ready, cfg);
    return &tb_cuda_gpu;
}
