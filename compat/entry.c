/* The shared part of every entry point (entry_body.h). */
#include <config.h>
#include "entry_body.h"
#include "util.h"

int tb_entry_whole(const tb_gemm *g)
{
    const tb_abi_ops *abi = (const tb_abi_ops *)g->via;
    const tb_blas_fn *f = tb_cpu_blas(g->entry);
    if (!f->fn)
        return -1;
    abi->reissue(f, g->raw);
    return 0;
}

int tb_entry_part(const tb_gemm *g, const tb_kproblem *p)
{
    const tb_abi_ops *abi = (const tb_abi_ops *)g->via;
    const tb_blas_fn *f = tb_cpu_blas(g->entry);
    if (!f->fn)
        return -1;
    abi->piece(f, p);
    return 0;
}

void tb_entry_checked(tb_entry_id entry, const tb_blas_fn *f, const void *raw, const tb_abi_ops *abi)
{
    tb_gemm g = { .entry = entry, .via = &abi->via, .raw = raw };
    if (tb_in_cpu_blas && f->fn) {
        abi->via.whole(&g);
        return;
    }
    if (abi->problem(raw, f->wide, &g.p)) {
        tb_gemm_run(&g);
    } else if (abi->via.whole(&g) != 0) { /* the BLAS beneath reports it, or computes what it accepts */
        static _Atomic int warned;
        tb_warn_once(&warned, "an invalid call to %s, and no CPU BLAS to report it: nothing done",
                     tb_entries[entry].name);
    }
}
