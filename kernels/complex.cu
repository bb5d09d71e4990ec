// Complex products from real ones (the 4M method), on a real kernel of the same precision.  op(A) and op(B),
// interleaved complex on the device, are split into planes of real and imaginary parts (the imaginary ones negated
// where the op is the conjugate transpose), laid out as op(X) itself so that the four real products are NN:
//   T_re = A_re B_re - A_im B_im,   T_im = A_re B_im + A_im B_re,
// then one pass writes C = alpha T + beta C (C unread when beta = 0).  Each part of T is a real sum of 2k products
// none larger than |a| |b|, so T is within the complex bound of doc/TESTING.md of the exact product on any real
// kernel held to its type's real bound.  The planes (2 (mk + kn + mn) real numbers, leading dimensions padded to
// multiples of 4 for the real kernels' wide loads) and the real kernel's own workspace are this kernel's
// workspace; without one it cannot run (it returns cudaErrorMemoryAllocation, and the call goes to the CPU).
#include <stdint.h>
#include "common.cuh"

namespace {

constexpr int SIDE = 32, ROWS = 8; // a block moves a 32 x 32 tile, 8 rows of threads

// op(X) (rows x cols, of interleaved x with leading dimension ld, in elements) into planes re and im (leading
// dimension ldo), the imaginary parts negated when conj.  Transposed ops go through shared memory, so that reads
// and writes both run along memory.  Each part is read on its own: a caller's complex array need only be aligned
// to its parts.  Column tiles past gridDim.y's limit are covered by striding.
template <class R>
__global__ void split(const R *__restrict__ x, int64_t ld, int trans, bool conj, int64_t rows, int64_t cols,
                      R *__restrict__ re, R *__restrict__ im, int64_t ldo)
{
    __shared__ R tr[SIDE][SIDE + 1], ti[SIDE][SIDE + 1];
    const int64_t r0 = (int64_t)blockIdx.x * SIDE;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const R sign = conj ? (R)-1 : (R)1;
    for (int64_t c0 = (int64_t)blockIdx.y * SIDE; c0 < cols; c0 += (int64_t)gridDim.y * SIDE) {
        if (!trans) {
            for (int j = ty; j < SIDE; j += ROWS) {
                const int64_t r = r0 + tx, c = c0 + j;
                if (r < rows && c < cols)
                    re[r + c * ldo] = x[2 * (r + c * ld)], im[r + c * ldo] = sign * x[2 * (r + c * ld) + 1];
            }
            continue;
        }
        for (int j = ty; j < SIDE; j += ROWS) { // element (r, c) of op(X) is X(c, r): contiguous along c
            const int64_t r = r0 + j, c = c0 + tx;
            if (r < rows && c < cols)
                tr[j][tx] = x[2 * (c + r * ld)], ti[j][tx] = sign * x[2 * (c + r * ld) + 1];
        }
        __syncthreads();
        for (int j = ty; j < SIDE; j += ROWS) {
            const int64_t r = r0 + tx, c = c0 + j;
            if (r < rows && c < cols)
                re[r + c * ldo] = tr[tx][j], im[r + c * ldo] = ti[tx][j];
        }
        __syncthreads(); // the tiles are reused by the next column tile
    }
}

// C = alpha (tre + i tim) + beta C, C unread when beta is 0 (both parts); C's parts written one by one, as read
template <class R>
__global__ void merge(int64_t m, int64_t n, R ar, R ai, R br, R bi, R *c, int64_t ldc, const R *__restrict__ tre,
                      const R *__restrict__ tim, int64_t ldt)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m)
        return;
    const bool read_c = br != (R)0 || bi != (R)0;
    for (int64_t j = blockIdx.y; j < n; j += gridDim.y) {
        const R xr = tre[i + j * ldt], xi = tim[i + j * ldt];
        R vr = ar * xr - ai * xi, vi = ar * xi + ai * xr;
        R *z = c + 2 * (i + j * ldc);
        if (read_c) {
            const R zr = z[0], zi = z[1];
            vr += br * zr - bi * zi, vi += br * zi + bi * zr;
        }
        z[0] = vr, z[1] = vi;
    }
}

// The planes' leading dimension for `rows` rows: a multiple of 4, for the real kernels' 16-byte loads
static inline int64_t plane_ld(int64_t rows)
{
    return (rows + 3) & ~(int64_t)3;
}

// The workspace: the real and imaginary planes of op(A), op(B) and T, then the real kernel's workspace, each part
// 256-byte aligned; offsets in bytes
struct layout {
    size_t a[2], b[2], t[2], real, bytes;
};

template <class R>
layout layout_of(const tb_kproblem *p, size_t real_ws)
{
    const size_t a = sizeof(R) * (size_t)(plane_ld(p->m) * p->k), b = sizeof(R) * (size_t)(plane_ld(p->k) * p->n);
    const size_t t = sizeof(R) * (size_t)(plane_ld(p->m) * p->n);
    size_t at = 0;
    auto place = [&at](size_t bytes) {
        const size_t here = at;
        at += (bytes + 255) / 256 * 256;
        return here;
    };
    layout l;
    l.a[0] = place(a), l.a[1] = place(a), l.b[0] = place(b), l.b[1] = place(b), l.t[0] = place(t), l.t[1] = place(t);
    l.real = at, l.bytes = at + real_ws;
    return l;
}

// p's real NN product of the planes' shape (a, b, c and the scalars set by the caller)
tb_kproblem real_problem(const tb_kproblem *p, tb_type real)
{
    tb_kproblem q = {};
    q.type = real, q.m = p->m, q.n = p->n, q.k = p->k, q.lda = plane_ld(p->m), q.ldb = plane_ld(p->k),
    q.ldc = plane_ld(p->m);
    return q;
}

template <class R>
int split_operand(const void *x, int64_t ld, int op, int64_t rows, int64_t cols, R *re, R *im, cudaStream_t s)
{
    const dim3 grid((unsigned)((rows + SIDE - 1) / SIDE), tb_grid_y((cols + SIDE - 1) / SIDE)), block(SIDE, ROWS);
    split<R><<<grid, block, 0, s>>>((const R *)x, ld, op != 0, op == 2, rows, cols, re, im, plane_ld(rows));
    return (int)cudaGetLastError();
}

// The four real products on `real`'s launcher and workspace function (R: its element type)
template <class R, int (*Launch)(const tb_kproblem *, void *, void *), size_t (*Workspace)(const tb_kproblem *)>
struct four_m {
    static constexpr tb_type REAL = sizeof(R) == 4 ? TB_TYPE_S : TB_TYPE_D;

    static size_t workspace(const tb_kproblem *p)
    {
        const tb_kproblem q = real_problem(p, REAL);
        return layout_of<R>(p, Workspace ? Workspace(&q) : 0).bytes;
    }

    static int launch(const tb_kproblem *p, void *ws, void *stream)
    {
        if (!ws)
            return (int)cudaErrorMemoryAllocation;
        const cudaStream_t s = (cudaStream_t)stream;
        tb_kproblem q = real_problem(p, REAL);
        const layout l = layout_of<R>(p, Workspace ? Workspace(&q) : 0);
        char *w = (char *)ws;
        R *ar = (R *)(w + l.a[0]), *ai = (R *)(w + l.a[1]), *br = (R *)(w + l.b[0]), *bi = (R *)(w + l.b[1]);
        R *tr = (R *)(w + l.t[0]), *ti = (R *)(w + l.t[1]);
        void *real_ws = Workspace && Workspace(&q) ? w + l.real : NULL;
        int e = split_operand<R>(p->a, p->lda, p->transa, p->m, p->k, ar, ai, s);
        if (!e)
            e = split_operand<R>(p->b, p->ldb, p->transb, p->k, p->n, br, bi, s);
        // T_re = A_re B_re - A_im B_im, T_im = A_re B_im + A_im B_re
        const struct {
            const R *a, *b;
            R *c;
            double alpha, beta;
        } steps[4] = { { ar, br, tr, 1, 0 }, { ai, bi, tr, -1, 1 }, { ar, bi, ti, 1, 0 }, { ai, br, ti, 1, 1 } };
        for (int i = 0; i < 4 && !e; i++) {
            q.a = steps[i].a, q.b = steps[i].b, q.c = steps[i].c, q.alpha = steps[i].alpha, q.beta = steps[i].beta;
            e = Launch(&q, real_ws, stream);
        }
        if (!e) {
            const dim3 grid((unsigned)((p->m + 127) / 128), tb_grid_y(p->n));
            merge<R><<<grid, 128, 0, s>>>(p->m, p->n, (R)p->alpha, (R)p->alpha_im, (R)p->beta, (R)p->beta_im,
                                          (R *)p->c, p->ldc, tr, ti, q.ldc);
            e = (int)cudaGetLastError();
        }
        return e;
    }
};

typedef four_m<float, tb_launch_blocked, tb_workspace_blocked> c_blocked;
typedef four_m<float, tb_launch_tf32, tb_workspace_tf32> c_tf32;
typedef four_m<float, tb_launch_tc32, tb_workspace_tc32> c_tc32;
typedef four_m<double, tb_launch_dmma, tb_workspace_dmma> z_dmma;

} // namespace

#define TB_FOUR_M(name, T)                                                                                         \
    extern "C" int tb_launch_##name(const tb_kproblem *p, void *ws, void *stream) { return T::launch(p, ws, stream); } \
    extern "C" size_t tb_workspace_##name(const tb_kproblem *p) { return T::workspace(p); }
TB_FOUR_M(c4m_blocked, c_blocked)
TB_FOUR_M(c4m_tf32, c_tf32)
TB_FOUR_M(c4m_tc32, c_tc32)
TB_FOUR_M(z4m_dmma, z_dmma)
