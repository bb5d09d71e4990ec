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

int tb_entry_own_part(const tb_call *g, const tb_kproblem *p)
{
    if (p->part != TB_PART_ALL || p->sym)
        return tb_entry_part(g, p);
    const int gemm = tb_entry_sibling(g->entry, TB_ROUTINE_GEMM);
    if (gemm < 0)
        return -1;
    tb_call product = *g;
    product.entry = (tb_entry_id)gemm;
    product.beneath = tb_cpu_blas(product.entry, g->ret);
    product.via = tb_entries[g->entry].abi == TB_ABI_CBLAS ? &tb_cblas_gemm_ops.via : &tb_f77_gemm_ops.via;
    return tb_entry_part(&product, p);
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
