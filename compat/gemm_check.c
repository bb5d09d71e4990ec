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

int tb_gemm_valid(const tb_kproblem *p)
{
    int64_t nrowa = p->transa ? p->k : p->m;
    int64_t nrowb = p->transb ? p->n : p->k;
    return p->m >= 0 && p->n >= 0 && p->k >= 0 && p->lda >= max1(nrowa) && p->ldb >= max1(nrowb) &&
           p->ldc >= max1(p->m);
}
