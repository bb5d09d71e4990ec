/* Elements of either precision, read and written as doubles (exact for floats): es is the element size, 4 or 8.
 * And elements of any type (tt_xget, tt_xput), as complex numbers (a real type's imaginary part is 0). */
#ifndef TB_TEST_ELEMENTS_H
#define TB_TEST_ELEMENTS_H

#include <complex.h>
#include <stddef.h>
#include "kernels.h"

static inline double tt_get(const void *x, size_t i, size_t es)
{
    return es == 8 ? ((const double *)x)[i] : ((const float *)x)[i];
}

static inline void tt_put(void *x, size_t i, size_t es, double v)
{
    if (es == 8)
        ((double *)x)[i] = v;
    else
        ((float *)x)[i] = (float)v;
}

static inline long double complex tt_xget(const void *x, size_t i, tb_type t)
{
    switch (t) {
    case TB_TYPE_S: return ((const float *)x)[i];
    case TB_TYPE_D: return ((const double *)x)[i];
    case TB_TYPE_C: return ((const float complex *)x)[i];
    default: return ((const double complex *)x)[i];
    }
}

static inline void tt_xput(void *x, size_t i, tb_type t, double complex v)
{
    switch (t) {
    case TB_TYPE_S: ((float *)x)[i] = (float)creal(v); break;
    case TB_TYPE_D: ((double *)x)[i] = creal(v); break;
    case TB_TYPE_C: ((float complex *)x)[i] = (float complex)v; break;
    default: ((double complex *)x)[i] = v; break;
    }
}

/* op(X)(r, c) of a column-major matrix of type t, conjugated for op 2 */
static inline long double complex tt_op_at(const void *x, size_t ld, int op, size_t r, size_t c, tb_type t)
{
    const long double complex v = tt_xget(x, op ? c + r * ld : r + c * ld, t);
    return op == 2 ? conjl(v) : v;
}

/* The bound of doc/TESTING.md's factor for depth k: 2 (k + 2), or 2 sqrt(2) (2k + 2) for the complex types */
static inline double tt_bound_factor(tb_type t, long long k)
{
    return tb_type_complex(t) ? 2.0 * 1.4142135623730951 * (2.0 * (double)k + 2.0) : 2.0 * ((double)k + 2.0);
}

#endif
