/*
 * The body of every exported entry point, whatever its ABI: a call from inside the BLAS beneath (tb_nested), or one
 * whose BLAS could only be guessed, goes straight to the BLAS beneath that caller, untouched and uncounted; a tiny
 * call (lib/decide/tiny.h) goes straight to it too, counted first so that the call to it is the last thing done; any
 * other goes to tb_entry_checked with x, the caller's arguments as a record, and its ABI's tb_abi_ops.  The BLAS
 * beneath is the caller's own (lib/cpu/cpu_blas.h), found from the return address.  In the expansion: p (a tb_kproblem) and f (the BLAS beneath) are in scope; valid is an expression that fills p from the
 * caller's arguments and says whether it may be a tiny call (valid, not a quick return: tb_tiny_valid); call is
 * the BLAS beneath's function type and args the caller's arguments, in parentheses; the record's type comes next,
 * then the ABI's tb_abi_ops, then the record's initialiser.
 */
#ifndef TB_ENTRY_BODY_H
#define TB_ENTRY_BODY_H

#include "core.h"
#include "cpu_blas.h"
#include "tiny.h"

/* What an ABI's file gives the shared code: the way back to the BLAS beneath (lib's tb_reissue), and the whole
 * problem of a record (pointers and scalars too), with 1 when reference BLAS would accept the call. */
typedef struct tb_abi_ops {
    tb_reissue via; /* first: tb_entry_whole and tb_entry_part find the rest from it */
    int (*problem)(const void *raw, int wide, tb_kproblem *p);
    int (*info)(const void *raw, int wide); /* for a record problem() rejects: the argument the reference names */
    void (*reissue)(const tb_blas_fn *f, const void *raw);      /* the record, unchanged, to f */
    void (*piece)(const tb_blas_fn *f, const tb_kproblem *p); /* a column-major problem on host memory, to f */
} tb_abi_ops;

/* The GEMM of each ABI (compat/cblas_gemm.c, fortran_gemm.c): the pieces of other routines' calls that are products
 * go to the GEMM beneath the same caller through them */
TB_HIDDEN extern const tb_abi_ops tb_cblas_gemm_ops, tb_f77_gemm_ops;

/* A CBLAS scalar as the caller passed it, bit for bit: a real one by value, a complex one by pointer */
typedef union tb_cblas_scalar {
    float s;
    double d;
    const void *z;
} tb_cblas_scalar;

/* A scalar argument passed by pointer, of type t (a complex one: its two parts), as the problem holds it */
static inline void tb_read_scalar(tb_type t, const void *v, double *re, double *im)
{
    const float *s = v;
    const double *d = v;
    *re = t == TB_TYPE_S || t == TB_TYPE_C ? s[0] : d[0];
    *im = t == TB_TYPE_C ? s[1] : t == TB_TYPE_Z ? d[1] : 0.0;
}

/* A valid problem's ALPHA and BETA, passed by pointer, read where the BLAS reads them: not when M or N is 0
 * (OpenBLAS and the reference return before; a program may pass NULL), else both (as 0 where unread). */
static inline void tb_read_scalars(tb_kproblem *p, const void *alpha, const void *beta)
{
    p->alpha = p->alpha_im = p->beta = p->beta_im = 0.0;
    if (p->m == 0 || p->n == 0)
        return;
    tb_read_scalar(p->type, alpha, &p->alpha, &p->alpha_im);
    tb_read_scalar(p->type, beta, &p->beta, &p->beta_im);
}

/* The inverse, into buf (16 bytes), for a piece passed back to the BLAS beneath: exact, since the parts came as t */
static inline const void *tb_write_scalar(tb_type t, double re, double im, void *buf)
{
    float *s = buf;
    double *d = buf;
    if (t == TB_TYPE_S || t == TB_TYPE_C)
        s[0] = (float)re, s[1] = (float)im;
    else
        d[0] = re, d[1] = im;
    return buf;
}

/* While the BLAS beneath runs a call that tileblas passed to it: that BLAS's span, and the frame of the pass.  An
 * entry point reached from that span, deeper in the stack, is that BLAS calling a name we export (the reference
 * CBLAS calls sgemm_): it goes straight back, uncounted.  Any other call clears the mark, which an error handler
 * that leaves the BLAS by longjmp (R's) leaves behind. */
typedef struct tb_inside {
    uintptr_t start, end, frame;
} tb_inside;
TB_HIDDEN extern __thread tb_inside tb_inside_blas;

/* Whether the entry point whose frame is `frame` was called, from ret, by the BLAS inside a pass (inline: every
 * call asks) */
static inline __attribute__((always_inline)) int tb_nested(const void *ret, const void *frame)
{
    tb_inside *in = &tb_inside_blas;
    if (!in->frame)
        return 0;
    if ((uintptr_t)ret - in->start < in->end - in->start && (uintptr_t)frame < in->frame)
        return 1;
    in->frame = 0;
    return 0;
}

/* expr, a call of the BLAS beneath f, marked as a pass (tb_inside) */
#define TB_PASS(f, expr)                                                                                           \
    do {                                                                                                           \
        const tb_inside saved_ = tb_inside_blas;                                                                   \
        tb_inside_blas = (tb_inside){ (f)->start, (f)->end, (uintptr_t)__builtin_frame_address(0) };               \
        expr;                                                                                                      \
        tb_inside_blas = saved_;                                                                                   \
    } while (0)

/* tb_reissue's whole and part for every ABI: 0, or -1 when there is no BLAS beneath */
TB_HIDDEN int tb_entry_whole(const tb_call *g);
TB_HIDDEN int tb_entry_part(const tb_call *g, const tb_kproblem *p);

/* part for the routines besides GEMM: a piece that is a call of the routine (a square on a triangle's diagonal, or
 * one on its symmetric operand's) to the routine beneath; a product (lib/cpu's pieces off those diagonals) to the
 * GEMM beneath the same caller, under the same kind of name */
TB_HIDDEN int tb_entry_own_part(const tb_call *g, const tb_kproblem *p);

/* how a CBLAS scalar of type t comes: 's' float, 'd' double, 'z' by pointer */
static inline char tb_cblas_kind(tb_type t)
{
    return t == TB_TYPE_S ? 's' : t == TB_TYPE_D ? 'd' : 'z';
}

/* a CBLAS scalar of type t as a problem holds it, and back (buf: 16 bytes, for one passed by pointer) */
static inline void tb_cblas_read(tb_type t, tb_cblas_scalar v, double *re, double *im)
{
    *re = *im = 0.0;
    if (tb_cblas_kind(t) == 'z')
        tb_read_scalar(t, v.z, re, im);
    else
        *re = t == TB_TYPE_D ? v.d : v.s;
}

static inline tb_cblas_scalar tb_cblas_write(tb_type t, double re, double im, void *buf)
{
    tb_cblas_scalar s;
    if (t == TB_TYPE_S)
        s.s = (float)re; /* exact: it came as float */
    else if (t == TB_TYPE_D)
        s.d = re;
    else
        s.z = tb_write_scalar(t, re, im, buf);
    return s;
}

/* a Fortran integer argument, at the width of the BLAS beneath */
static inline int64_t tb_f77_int(const void *p, int wide)
{
    return wide ? *(const int64_t *)p : *(const int *)p;
}

/* Every other call: to the core when valid; else back to the BLAS beneath, or with none, reported as it would.
 * ret: the caller's return address (the BLAS beneath it for the pieces that are products). */
TB_HIDDEN void tb_entry_checked(tb_entry_id entry, const tb_blas_fn *f, const void *ret, const void *raw,
                                const tb_abi_ops *abi);

#define TB_ENTRY_BODY(entry, valid, call, args, record, ops, ...)                                                 \
    const tb_blas_fn *f = tb_cpu_blas(entry, __builtin_return_address(0));                                         \
    tb_kproblem p;                                                                                                 \
    double flops;                                                                                                  \
    if (f->fn && (f->untouched || tb_nested(__builtin_return_address(0), __builtin_frame_address(0)))) {           \
        ((call)f->fn) args;                                                                                        \
        return;                                                                                                    \
    }                                                                                                              \
    if (f->fn && (valid) && (flops = tb_tiny_flops(&p)) > 0.0) {                                                   \
        tb_tiny_done(entry, flops);                                                                                \
        TB_PASS(f, ((call)f->fn) args);                                                                            \
        return;                                                                                                    \
    }                                                                                                              \
    const record x = { __VA_ARGS__ };                                                                              \
    tb_entry_checked(entry, f, __builtin_return_address(0), &x, ops)

/* A routine's rows of base/entries.h (TB_GEMM_ENTRIES, ...) as TB_DEFINE_<ABI>_<type>_<routine>(id, name): the
 * routine's files define those of their ABI, and leave the others' empty. */
#define TB_DEFINE_ENTRY(id, name, abi, width, type, op, fallback) TB_DEFINE_##abi##_##type##_##op(id, name)

#endif
