/* What the differential tests' programs (tests/diff-blas.c, diff-rankk.c) share: the program's own error handlers
 * (with -DOWN_HANDLERS, as numpy and R define them), printing C, and main, which runs case i of cases() with run(i):
 *   PROGRAM list | all | N */
#ifndef TB_TEST_DIFF_H
#define TB_TEST_DIFF_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef OWN_HANDLERS
void xerbla_(const char *name, const blasint *info, size_t len);
void xerbla_(const char *name, const blasint *info, size_t len)
{
    printf("  xerbla_('%.*s', %lld, len %zu)\n", (int)len, name, (long long)*info, len);
}
void cblas_xerbla(blasint p, const char *rout, const char *form, ...);
void cblas_xerbla(blasint p, const char *rout, const char *form, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, form);
    vsnprintf(msg, sizeof msg, form, ap);
    va_end(ap);
    printf("  cblas_xerbla(%lld, '%s', '%s')\n", (long long)p, rout, msg);
}
#endif

/* the n values of x (C), in hexadecimal, eight a line */
static void show(const real *x, int n)
{
    for (int i = 0; i < n; i++)
        printf("%a%c", x[i], i % 8 == 7 ? '\n' : ' ');
    fflush(stdout);
}

static void run(int i);
static int cases(void);

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "all";
    if (!strcmp(what, "list")) {
        printf("%d\n", cases());
        return 0;
    }
    if (!strcmp(what, "all")) {
        for (int i = 0; i < cases(); i++)
            run(i);
    } else {
        const int i = atoi(what);
        if (i < 0 || i >= cases())
            return 2;
        run(i);
    }
    printf("end\n");
    return 0;
}

#endif
