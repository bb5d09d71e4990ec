/* The GPU as the library sees it (gpu.h): the GPU module (gpu_module.h), linked in or loaded on first use. */
#define _GNU_SOURCE
#include <config.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include "gpu.h"
#include "gpu_module.h"

_Atomic int tb_gpu_warned;

#define MODULE "tileblas-gpu.so"

static struct {
    pthread_once_t once;
    _Atomic(const tb_gpu_module *) m; /* set by load() if the module is there */
    _Atomic int tried;                /* load() is done; when m is NULL, why_not says why */
    const tb_gpu_module *linked;      /* tb_gpu_link's */
    char why_not[512];
} gpu = { .once = PTHREAD_ONCE_INIT,
#ifndef HAVE_CUDA
          .tried = 1, .why_not = "this tileblas was built without CUDA"
#endif
};

#ifdef HAVE_CUDA
/* The module's place: installed, $(pkglibdir) beside the library's directory (found from where this library was
 * loaded, so that an installation can move); in the build tree, the library's own directory; for a static
 * library, the configured $(pkglibdir). */
static void *open_module(void)
{
    enum { PATH = 4096 };
    char where[3][PATH], first_error[400] = "";
    int n = 0;
    Dl_info self;
    const char *slash;
    if (dladdr((void *)open_module, &self) && self.dli_fname && (slash = strrchr(self.dli_fname, '/'))) {
        const int dir = (int)(slash - self.dli_fname);
        if (snprintf(where[n], PATH, "%.*s/" PACKAGE "/" MODULE, dir, self.dli_fname) < PATH)
            n++;
        if (snprintf(where[n], PATH, "%.*s/" MODULE, dir, self.dli_fname) < PATH)
            n++;
    }
    snprintf(where[n++], PATH, "%s", TB_PKGLIBDIR "/" MODULE);
    for (int i = 0; i < n; i++) {
        void *h = dlopen(where[i], RTLD_NOW | RTLD_LOCAL);
        if (h)
            return h;
        const char *e = dlerror();
        if (!first_error[0])
            snprintf(first_error, sizeof first_error, "%s", e);
    }
    snprintf(gpu.why_not, sizeof gpu.why_not, "the GPU module cannot be loaded (%s)", first_error);
    return NULL;
}
#endif

void tb_gpu_link(const tb_gpu_module *m)
{
    gpu.linked = m;
}

static const tb_gpu_module *find(void)
{
    if (gpu.linked)
        return gpu.linked;
#ifdef HAVE_CUDA
    void *h = open_module(); /* kept open for the life of the process */
    if (!h)
        return NULL;
    tb_gpu_module_entry entry = (tb_gpu_module_entry)dlsym(h, TB_GPU_MODULE_ENTRY);
    const tb_gpu_module *m = entry ? entry() : NULL;
    if (m && !strcmp(m->version, PACKAGE_VERSION))
        return m;
    snprintf(gpu.why_not, sizeof gpu.why_not, "the GPU module is not tileblas " PACKAGE_VERSION "'s");
#endif
    return NULL;
}

/* What the GPU side is told of the configuration */
static void configure(const tb_gpu_module *m)
{
    const tb_config *cfg = tb_config_get();
    tb_gpu_settings s = { .fault = cfg->fault, .fault_n = cfg->fault_n, .memory_cap = cfg->gpu_memory,
                          .copy_threads = cfg->copy_threads, .say = cfg->verbose >= 1, .devices = cfg->devices };
    memcpy(s.device_list, cfg->device_list, sizeof s.device_list);
    m->configure(&s);
}

static void load(void)
{
    const tb_gpu_module *m = find();
    if (m)
        configure(m);
    atomic_store(&gpu.m, m);
    atomic_store(&gpu.tried, 1);
}

static const tb_gpu_module *module(const char **why_not)
{
    pthread_once(&gpu.once, load);
    const tb_gpu_module *m = atomic_load(&gpu.m);
    if (!m && why_not)
        *why_not = gpu.why_not;
    return m;
}

int tb_gpu_usable(const char **why_not)
{
    const tb_gpu_module *m = module(why_not);
    return m ? m->usable(why_not) : 0;
}

int tb_gpu_state(const char **text)
{
    const tb_gpu_module *m = atomic_load(&gpu.m);
    if (m)
        return m->state(text);
    *text = gpu.why_not;
    return atomic_load(&gpu.tried) ? -1 : 0;
}

int tb_gpu_gemm(const tb_call *g, int *kernel, const tb_spread *sp, tb_gpu_result *r, const char **err)
{
    const tb_gpu_module *m = module(err);
    r->blocks = 0;
    return m ? m->gemm(g, kernel, sp, r, err) : -1;
}

int tb_gpu_devices(void)
{
    const tb_gpu_module *m = module(NULL);
    return m ? m->devices() : 1;
}

int tb_gpu_gemm_resident(const tb_call *g, int *kernel, const tb_where w[3], int *device, const char **err)
{
    const tb_gpu_module *m = module(err);
    return m ? m->gemm_resident(g, kernel, w, device, err) : -1;
}

void tb_gpu_describe(int device, int kernel, const tb_kproblem *p, char *buf, size_t size)
{
    const tb_gpu_module *m = atomic_load(&gpu.m);
    buf[0] = 0;
    if (m && device >= 0 && kernel >= 0)
        m->describe(device, kernel, p, buf, size);
}

void tb_gpu_take_moved(double *bytes, tb_pipe_times *times)
{
    const tb_gpu_module *m = atomic_load(&gpu.m);
    if (m) {
        m->take_moved(bytes, times);
    } else {
        *bytes = 0.0;
        *times = (tb_pipe_times){ 0 };
    }
}
