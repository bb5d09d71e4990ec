/* The differential programs' element type and names (tests/diff-blas.c, diff-rankk.c, diff-symm.c): real (float,
 * or double with -DDOUBLE; complex pairs of them with -DCOMPLEX), the prefix P, CBLAS_NAME(r) and F77_NAME(r) for
 * routine r (their 64_ names with -DSUFFIX64), blasint (TB_INT), how CBLAS passes a scalar (SCALAR), and the
 * operands */
#ifndef TB_TEST_DIFF_TYPES_H
#define TB_TEST_DIFF_TYPES_H

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef TB_INT
#define TB_INT int
#endif
typedef TB_INT blasint;

#ifdef DOUBLE
typedef double real;
#ifdef COMPLEX
#define P "z"
#define NAME(cb, r, f) cb##z##r##f
#else
#define P "d"
#define NAME(cb, r, f) cb##d##r##f
#endif
#else
typedef float real;
#ifdef COMPLEX
#define P "c"
#define NAME(cb, r, f) cb##c##r##f
#else
#define P "s"
#define NAME(cb, r, f) cb##s##r##f
#endif
#endif
#ifdef SUFFIX64
#define SUFFIX "64_"
#define CBLAS_NAME(r) NAME(cblas_, r, 64_)
#define F77_NAME(r) NAME(, r, _64_)
#else
#define SUFFIX ""
#define CBLAS_NAME(r) NAME(cblas_, r, )
#define F77_NAME(r) NAME(, r, _)
#endif
#ifdef COMPLEX
#define PARTS 2
typedef const void *scalar_arg; /* CBLAS passes complex scalars by pointer */
#define SCALAR(x) (x)
#else
#define PARTS 1
typedef real scalar_arg;
#define SCALAR(x) ((x)[0])
#endif
/* the operands, 64 elements each */
#define NREAL (64 * PARTS)
static real a[NREAL], b[NREAL], c[NREAL];

/* fresh operands; C holds a NaN in each triangle, which a beta = 0 call must not let through in its own */
static inline void fill(void)
{
    for (int i = 0; i < NREAL; i++) {
        a[i] = (real)((i * 7) % 13) - 6.0f, b[i] = (real)((i * 5) % 11) - 4.5f;
        c[i] = (real)i + 0.5f + (i % 3 ? 0.25f : 0.0f);
    }
    c[1 * PARTS] = NAN;  /* (1, 0) column-major, leading dimension 5 */
    c[11 * PARTS] = NAN; /* (1, 2) */
}

#endif
