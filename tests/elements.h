/* Elements of either precision, read and written as doubles (exact for floats): es is the element size, 4 or 8. */
#ifndef TB_TEST_ELEMENTS_H
#define TB_TEST_ELEMENTS_H

#include <stddef.h>

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

#endif
