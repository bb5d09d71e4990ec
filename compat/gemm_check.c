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
