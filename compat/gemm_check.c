#include <config.h>
#include "gemm_check.h"

int tb_fortran_trans(char t)
{
    switch (t) {
    case 'N': case 'n': return 0;
    case 'T': case 't': case 'C': case 'c': return 1;
    default: return -1;
    }
}

static int64_t max1(int64_t x) { return x > 1 ? x : 1; }

int tb_gemm_check_dims(const tb_gemm *g)
{
    int64_t nrowa = g->p.transa ? g->p.k : g->p.m;
    int64_t nrowb = g->p.transb ? g->p.n : g->p.k;
    /* reference order: the lowest-numbered bad parameter wins */
    if (g->p.m < 0) return 3;
    if (g->p.n < 0) return 4;
    if (g->p.k < 0) return 5;
    if (g->p.lda < max1(nrowa)) return 8;
    if (g->p.ldb < max1(nrowb)) return 10;
    if (g->p.ldc < max1(g->p.m)) return 13;
    return 0;
}
