/* The pieces of the routines besides GEMM that the CPU finishes (entry_body.h: tb_entry_own_part), beside the
 * files of each ABI's GEMM, which entry.c must not call (they call it). */
#include <config.h>
#include "entry_body.h"

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
