/* The shared part of every entry point (entry_body.h). */
#include <config.h>
#include "entry_body.h"
#include "util.h"

__thread tb_inside tb_inside_blas;

int tb_entry_whole(const tb_call *g)
{
    const tb_abi_ops *abi = (const tb_abi_ops *)g->via;
    if (!g->beneath->fn)
        return -1;
    abi->reissue(g->beneath, g->raw);
    return 0;
}

int tb_entry_part(const tb_call *g, const tb_kproblem *p)
{
    const tb_abi_ops *abi = (const tb_abi_ops *)g->via;
    if (!g->beneath->fn)
        return -1;
    abi->piece(g->beneath, p);
    return 0;
}

void tb_entry_checked(tb_entry_id entry, const tb_blas_fn *f, const void *ret, const void *raw, const tb_abi_ops *abi)
{
    tb_call g = { .entry = entry, .via = &abi->via, .raw = raw, .beneath = f, .ret = ret };
    if (abi->problem(raw, f->wide, &g.p))
        tb_call_run(&g);
    else if (f->fn)
        abi->reissue(f, raw); /* the BLAS beneath reports it, or computes what it accepts */
    else
        tb_cpu_report_invalid(entry, f->wide, abi->info(raw, f->wide));
}
