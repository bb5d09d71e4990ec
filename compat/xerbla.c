/*
 * Default error handlers.  They are weak and called through the dynamic linker, so a program that defines its
 * own xerbla_ or cblas_xerbla gets its own called.  Like OpenBLAS (and unlike the reference, which stops the
 * program), the defaults print the reference message and return: the call does nothing else.
 */
#include <config.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include "blas_abi.h"

TB_EXPORT __attribute__((weak)) void xerbla_(const char *srname, const int *info, size_t len)
{
    size_t n = 0;
    while (n < len && srname[n] && srname[n] != ' ')
        n++;
    fprintf(stderr, " ** On entry to %.*s parameter number %2d had an illegal value\n", (int)n, srname, *info);
}

TB_EXPORT __attribute__((weak)) void cblas_xerbla(int p, const char *rout, const char *form, ...)
{
    va_list ap;
    if (p)
        fprintf(stderr, "Parameter %d to routine %s was incorrect\n", p, rout);
    va_start(ap, form);
    vfprintf(stderr, form, ap);
    va_end(ap);
}
