/* Where operands live (devptr.h): the CUDA driver's own answer, once the driver is in the process. */
#define _GNU_SOURCE
#include <config.h>
#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "devptr.h"

/* cuPointerGetAttributes and the values it uses, from the driver API (cuda.h), declared here so that no CUDA
 * header or library is needed: the driver is looked up in the process, never loaded by this file. */
typedef int (*get_attributes_fn)(unsigned count, const int *attributes, void **data, unsigned long long ptr);
enum { ATTR_MEMORY_TYPE = 2, ATTR_IS_MANAGED = 8, ATTR_DEVICE_ORDINAL = 9, MEMORYTYPE_DEVICE = 2 };

static _Atomic(get_attributes_fn) get_attributes;
static _Atomic unsigned long long libraries_seen; /* dl_iterate_phdr's count of loads at the last look */

static int count_loads(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    *(unsigned long long *)data = info->dlpi_adds;
    return 1; /* the first object tells it */
}

/* the driver's function, once libcuda is in the process; dlopen(RTLD_NOLOAD) only when a library was loaded since
 * the last look (it costs microseconds) */
static get_attributes_fn driver(void)
{
    get_attributes_fn f = atomic_load_explicit(&get_attributes, memory_order_acquire);
    if (f)
        return f;
    unsigned long long adds = 0;
    dl_iterate_phdr(count_loads, &adds);
    if (adds == atomic_exchange(&libraries_seen, adds))
        return NULL;
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD); /* kept open: f stays valid */
    f = h ? (get_attributes_fn)dlsym(h, "cuPointerGetAttributes") : NULL;
    if (f)
        atomic_store_explicit(&get_attributes, f, memory_order_release);
    return f;
}

static tb_where where(get_attributes_fn f, const void *p, int *device)
{
    const int attributes[3] = { ATTR_MEMORY_TYPE, ATTR_IS_MANAGED, ATTR_DEVICE_ORDINAL };
    unsigned type = 0, managed = 0;
    int ordinal = 0;
    void *data[3] = { &type, &managed, &ordinal };
    /* host memory the driver does not know gives an error or a host type: both mean the host */
    if (f(3, attributes, data, (unsigned long long)(uintptr_t)p) != 0)
        return TB_ON_HOST;
    if (managed)
        return TB_MANAGED;
    if (type != MEMORYTYPE_DEVICE)
        return TB_ON_HOST;
    *device = *device == TB_NO_DEVICE || *device == ordinal ? ordinal : TB_MIXED_DEVICES;
    return TB_ON_DEVICE;
}

int tb_operands_where(const tb_call *g, tb_where w[3], int *device)
{
    w[0] = w[1] = w[2] = TB_ON_HOST;
    *device = TB_NO_DEVICE;
    get_attributes_fn f = driver();
    if (!f)
        return 0;
    const void *p[3] = { g->p.a, g->p.b, g->p.c };
    int n = 0;
    for (int i = 0; i < 3; i++)
        n += (w[i] = where(f, p[i], device)) != TB_ON_HOST;
    return n;
}
