// Complex products as one real product (the 4M method's four in one), on a real kernel of the same precision: C,
// interleaved complex, seen as a real matrix of 2m rows (real and imaginary parts alternate down a column, as they
// are stored), is Ab B2, with Ab the 2m x 2k real matrix of the blocks [a_re -a_im; a_im a_re] of op(A) and B2 the
// 2k x n matrix of op(B)'s real parts over its imaginary ones (the imaginary parts negated where the op is the
// conjugate transpose).  The real kernel writes C itself, in one launch that converts each operand once; a real
// alpha and beta are the real kernel's, a complex alpha is folded into B2 and a complex beta applied to C first
// (beta = 1 for the kernel); Inf and NaN are handled by fixup below.  Each element of C is a real sum of 2k
// products of parts none larger than |a| |b|, so C is within the complex bound of doc/TESTING.md of the exact
// product on any real kernel held to its type's real bound.  Where op(B)'s op is N the real kernel reads it in place
// (below).  The real forms (4mk + 2kn real numbers at most, leading dimensions padded to multiples of 4 for the real
// kernels' wide loads), a flag, room for a copy of C and the real kernel's own workspace are this kernel's
// workspace; without one the product runs on the naive kernel (kernels/naive.cu), which needs none.  From host
// memory the pipeline has each block of the operands converted once for all its tiles (prepared operands, at the
// end).
#include <stdint.h>
#include "common.cuh"

namespace {

constexpr int SIDE = 32, ROWS = 8; // a block moves a 32 x 32 tile, 8 rows of threads

// Where split puts element (r, c) of op(X): in planes of real and imaginary parts (leading dimension ld): op(B) as
// B2 ...
template <class R>
struct planes {
    R *re, *im;
    int64_t ld;
    __host__ __device__ void operator()(int64_t r, int64_t c, R vr, R vi) const
    {
        re[r + c * ld] = vr, im[r + c * ld] = vi;
    }
};

// ... or as op(B)'s real view would hold it: rows 2r and 2r + 1 ...
template <class R>
struct pairs {
    R *x;
    int64_t ld;
    __host__ __device__ void operator()(int64_t r, int64_t c, R vr, R vi) const
    {
        x[2 * r + c * ld] = vr, x[2 * r + 1 + c * ld] = vi;
    }
};

// ... or as the 2 x 2 real block [vr -vi; vi vr] at rows 2r, 2r + 1 and columns c, k + c of a real matrix (step 1,
// right k: B2 below it), or columns 2c, 2c + 1 (step 2, right 1: op(B) in place): op(A) as Ab
template <class R>
struct blocks {
    R *x;
    int64_t ld, step, right;
    __host__ __device__ void operator()(int64_t r, int64_t c, R vr, R vi) const
    {
        R *l = x + 2 * r + step * c * ld, *rt = l + right * ld;
        l[0] = vr, l[1] = vi, rt[0] = -vi, rt[1] = vr;
    }
};

// op(X) (rows x cols, of interleaved x with leading dimension ld, in elements) to `put`, the imaginary parts negated
// when conj, and each element multiplied by (mr + i mi) when scaled; *flag, where given, set to 1 on meeting an Inf
// or a NaN (fixup below).  Transposed ops go through shared memory, so
// that reads and writes both run along memory.  Each part is read on its own: a caller's complex array need only
// be aligned to its parts.  Column tiles past gridDim.y's limit are covered by striding.
template <class R, class Put>
__global__ void split(const R *__restrict__ x, int64_t ld, int trans, bool conj, int64_t rows, int64_t cols, Put put,
                      bool scaled, R mr, R mi, int *flag)
{
    __shared__ R tr[SIDE][SIDE + 1], ti[SIDE][SIDE + 1];
    const int64_t r0 = (int64_t)blockIdx.x * SIDE;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const R sign = conj ? (R)-1 : (R)1;
    auto store = [&](int64_t r, int64_t c, R vr, R vi) {
        if (flag && (!isfinite(vr) || !isfinite(vi)))
            *flag = 1;
        if (scaled) { // alpha folded into the operand
            const tb_cx<R> v = tb_cx_mul(mr, mi, vr, vi);
            put(r, c, v.re, v.im);
        } else {
            put(r, c, vr, vi);
        }
    };
    for (int64_t c0 = (int64_t)blockIdx.y * SIDE; c0 < cols; c0 += (int64_t)gridDim.y * SIDE) {
        if (!trans) {
            for (int j = ty; j < SIDE; j += ROWS) {
                const int64_t r = r0 + tx, c = c0 + j;
                if (r < rows && c < cols)
                    store(r, c, x[2 * (r + c * ld)], sign * x[2 * (r + c * ld) + 1]);
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
                store(r, c, tr[tx][j], ti[tx][j]);
        }
        __syncthreads(); // the tiles are reused by the next column tile
    }
}

// C = beta C, for a complex beta (the real kernel then adds to C with beta = 1)
template <class R>
__global__ void scale(int64_t m, int64_t n, R br, R bi, R *c, int64_t ldc)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (int64_t j = blockIdx.y; i < m && j < n; j += gridDim.y) {
        R *z = c + 2 * (i + j * ldc);
        const tb_cx<R> v = tb_cx_mul(br, bi, z[0], z[1]);
        z[0] = v.re, z[1] = v.im;
    }
}

// Inf and NaN.  The real form scales by a real alpha part by part and folds a complex alpha into op(B), where the
// CPU BLAS multiplies the complex sum by alpha: the same finite results, but where Inf or NaN enter, the other part
// of an element can differ (an Inf times alpha = 1.5 + 0i has a NaN beside it).  So the splits, and keep over C
// when it is read, flag any Inf or NaN met; keep_all then saves C; and fixup recomputes the elements that came out
// Inf or NaN one by one, as the naive kernel does.  With all finite (flag 0) keep reads C once and keep_all and
// fixup return at once.
template <class R>
__global__ void keep(int64_t m, int64_t n, const R *__restrict__ c, int64_t ldc, int *flag)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (int64_t j = blockIdx.y; i < m && j < n; j += gridDim.y)
        if (!isfinite(c[2 * (i + j * ldc)]) || !isfinite(c[2 * (i + j * ldc) + 1]))
            *flag = 1;
}

// The flags that say whether C needs fixup: the call's own, or, with prepared operands, op(A)'s, op(B)'s and the
// tile's (any of them set); or all of C is looked at whatever they say (all: then they are neither cleared first
// nor read, which saves a launch)
struct flags {
    const int *f[3];
    bool all;
    __device__ bool any() const
    {
        return all || *f[0] || (f[1] && *f[1]) || (f[2] && *f[2]);
    }
};

// copy of C (m x n, leading dimension ldc) at c0 (leading dimension m) when a flag is set; grid-stride over the
// elements, so that with the flags clear its few blocks return at once
template <class R>
__global__ void keep_all(int64_t m, int64_t n, const R *__restrict__ c, int64_t ldc, R *c0, flags fl)
{
    if (!fl.any())
        return;
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < m * n; e += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = e % m, j = e / m;
        c0[2 * e] = c[2 * (i + j * ldc)], c0[2 * e + 1] = c[2 * (i + j * ldc) + 1];
    }
}

// Each element of p's C that is Inf or NaN in either part, when the flag is set: again, from op(A), op(B) and the
// saved C (c0, when beta is not 0), as the naive kernel computes it (p.a and p.b: the complex operands)
template <class R>
__global__ void fixup(tb_kproblem p, const R *__restrict__ c0, flags fl)
{
    if (!fl.any())
        return;
    const bool reads_c = p.beta != 0.0 || p.beta_im != 0.0;
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < p.m * p.n;
         e += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = e % p.m, j = e / p.m;
        R *z = (R *)p.c + 2 * (i + j * p.ldc);
        if (isfinite(z[0]) && isfinite(z[1]))
            continue;
        if (reads_c)
            z[0] = c0[2 * e], z[1] = c0[2 * e + 1];
        tb_cx_update(z, tb_cx_dot<R>(p, i, j), (R)p.alpha, (R)p.alpha_im, (R)p.beta, (R)p.beta_im);
    }
}

constexpr int GUARDED_BLOCKS = 256; // keep_all's and fixup's grid (grid-stride)

// The planes' leading dimension for `rows` rows: a multiple of 4, for the real kernels' 16-byte loads
static inline int64_t plane_ld(int64_t rows)
{
    return (rows + 3) & ~(int64_t)3;
}

// The workspace: Ab, B2, the flag, C's copy, then the real kernel's workspace, each 256-byte aligned; offsets in
// bytes
struct layout {
    size_t at[4], real, bytes;
};

static layout place(const size_t *sizes, int count, size_t real_ws)
{
    layout l = {};
    size_t at = 0;
    for (int i = 0; i < count; i++)
        l.at[i] = at, at += (sizes[i] + 255) / 256 * 256;
    l.real = at, l.bytes = at + real_ws;
    return l;
}

template <class R, class Put>
int split_operand(const void *x, int64_t ld, int op, int64_t rows, int64_t cols, Put put, const tb_kproblem *alpha,
                  int *flag, cudaStream_t s)
{
    const dim3 grid((unsigned)((rows + SIDE - 1) / SIDE), tb_grid_y((cols + SIDE - 1) / SIDE)), block(SIDE, ROWS);
    split<R, Put><<<grid, block, 0, s>>>((const R *)x, ld, op != 0, op == 2, rows, cols, put, alpha != NULL,
                                         alpha ? (R)alpha->alpha : (R)1, alpha ? (R)alpha->alpha_im : (R)0, flag);
    return (int)cudaGetLastError();
}

// Where op(B)'s op is N the real kernel reads it in place: read as real, interleaved B is a 2k x n matrix whose rows
// alternate real and imaginary parts (leading dimension 2 ldb), which Ab's blocks in columns 2l, 2l + 1 multiply as
// B2 does; a complex alpha is folded into Ab instead.  Its Inf and NaN are then found by a read of it (keep), or,
// where C is the smaller, not looked for at all: C is saved whenever it is read and fixup looks at all of it (a
// host model of this: bench/complex-model.c).
static inline bool b_in_place(const tb_kproblem *p)
{
    return p->transb == 0;
}

// What fixup's look at all of C costs, in elements read: C, and when C is read its copy too (three passes)
static inline double c_check_cost(const tb_kproblem *p)
{
    return (double)p->m * (double)p->n * (tb_beta_zero(p) ? 1 : 3);
}

// With op(B) in place (here), whether that costs less than reading op(B) for its Inf and NaN
static inline bool b_unscanned(const tb_kproblem *p, bool here)
{
    return here && c_check_cost(p) < (double)p->k * (double)p->n;
}

typedef tb_kernel_launch launcher;

// What a complex product is made of: the real kernel's family (its recipes: kernels/recipe.h), launcher and
// workspace function (R: its element type), and what it can do besides (none, in this base): where it prepares its
// operands itself (kernels.h; tc32), its prepared form; where it reads op(A)'s blocks in place, its launcher for
// that (blocks) with its workspace function (NULL: workspace's); a launcher of the real kernel's product of Ab by a
// transposed op(B) read as its real view (pairs, or NULL) with its workspace function (NULL: workspace's).  Which
// of these runs p, or cx (tb_launch_cx) as complex numbers, is the recipe's (lib/decide/recipes.c).
struct real_kernel {
    static constexpr const tb_kernel_prep *prep = nullptr;
    static constexpr launcher blocks = nullptr, pairs = nullptr;
    static constexpr tb_kernel_workspace pairs_workspace = nullptr;
    static constexpr tb_kernel_workspace blocks_workspace = nullptr;
};

// The complex product on the real kernel K (real_kernel above)
template <class K>
struct four_m {
    typedef typename K::R R;
    static constexpr launcher Launch = K::launch, Blocks = K::blocks, Pairs = K::pairs;
    static constexpr tb_kernel_workspace Workspace = K::workspace;
    static constexpr tb_kernel_workspace PairsWorkspace = K::pairs_workspace ? K::pairs_workspace : K::workspace;
    static constexpr tb_kernel_workspace BlocksWorkspace = K::blocks_workspace ? K::blocks_workspace : K::workspace;
    static constexpr const tb_kernel_prep *P = K::prep;
    static constexpr tb_type REAL = sizeof(R) == 4 ? TB_TYPE_S : TB_TYPE_D;

    // The recipe of the real kernel for q, its operands in `form` (r: the complex kernel's, for its decider)
    static tb_recipe real_recipe(const tb_recipe *r, const tb_kproblem *q, int form = 0)
    {
        tb_recipe x;
        r->decider->recipe(r->decider, K::family, form, q, &x);
        return x;
    }

    // the forms of Blocks' operands: op(A) as blocks, a transposed op(B) as pairs
    static int blocks_form(const tb_kproblem *q)
    {
        return TB_FORM_BLOCKS | (q->transb ? TB_FORM_PAIRS : 0);
    }

    // The recipe's choices (kernels/recipe.h): p computed as complex numbers (direct); op(A)'s blocks read in place,
    // where the kernel runs on its own (prepared operands, from host memory, are Ab); op(B) read in place, beside
    // op(A) as the recipe says, beside Ab where its op is N (interleaved B read as real is B2 up to the order of
    // Ab's columns); a transposed op(B) read as pairs beside Ab
    static bool direct(const tb_recipe *r)
    {
        return r->direct;
    }
    static bool a_in_place(const tb_recipe *r)
    {
        return Blocks && !r->direct && r->a_here;
    }
    static bool b_here(const tb_kproblem *p, const tb_recipe *r, bool a_here)
    {
        return a_here ? r->b_here : b_in_place(p);
    }
    static bool b_pairs(const tb_recipe *r)
    {
        return Pairs && !r->direct && r->b_pairs;
    }

    // p's real NN product Ab B2, or Ab op(B) with op(B) in place (b_here), or op(A)'s blocks in place (a_here, its
    // op kept: tb_launch_dmma_blocks) by op(B) in place (its op kept) or in pairs: a set by the caller unless in
    // place, and b too
    static tb_kproblem real_problem(const tb_kproblem *p, const tb_recipe *r, bool a_here = false, bool pairs = false)
    {
        tb_kproblem q = {};
        q.type = REAL, q.n = p->n;
        q.m = 2 * p->m, q.k = 2 * p->k, q.lda = plane_ld(2 * p->m), q.ldb = plane_ld(2 * p->k);
        if (a_here)
            q.a = p->a, q.lda = 2 * p->lda, q.transa = p->transa;
        if (b_here(p, r, a_here) || pairs)
            q.b = p->b, q.ldb = 2 * p->ldb, q.transb = p->transb;
        q.c = p->c, q.ldc = 2 * p->ldc;
        q.alpha = p->alpha_im != 0.0 ? 1.0 : p->alpha, q.beta = p->beta_im != 0.0 ? 1.0 : p->beta;
        return q;
    }

    // the real product's form, and its recipe
    static int real_form(const tb_kproblem *q, bool a_here, bool pairs)
    {
        return a_here ? blocks_form(q) : pairs ? TB_FORM_PAIRS : 0;
    }

    static layout layout_of(const tb_kproblem *p, const tb_recipe *r)
    {
        const bool a_here = a_in_place(r), pairs = !a_here && b_pairs(r);
        const tb_kproblem q = real_problem(p, r, a_here, pairs);
        const tb_recipe rq = real_recipe(r, &q, real_form(&q, a_here, pairs));
        const size_t real_ws = (a_here ? BlocksWorkspace : pairs ? PairsWorkspace : Workspace)(&q, &rq);
        const size_t ab = a_here ? 0 : sizeof(R) * (size_t)(q.lda * q.k);
        const size_t b2 = b_here(p, r, a_here) || pairs ? 0 : sizeof(R) * (size_t)(q.ldb * q.n);
        const size_t sizes[4] = { ab, b2, sizeof(int), c_copy(p) };
        return place(sizes, 4, real_ws);
    }

    static size_t c_copy(const tb_kproblem *p)
    {
        return 2 * sizeof(R) * (size_t)(p->m * p->n);
    }

    static size_t workspace(const tb_kproblem *p, const tb_recipe *r)
    {
        return direct(r) ? tb_workspace_cx(p, r) : layout_of(p, r).bytes;
    }

    static int launch(const tb_kproblem *p, const tb_recipe *r, void *ws, void *stream)
    {
        if (direct(r)) // without a workspace too: k is then not split
            return tb_launch_cx(p, r, ws, stream);
        if (!ws) // the device has no room for the real forms: the naive kernel, slow but needing none
            return tb_launch_naive(p, r, NULL, stream);
        const layout l = layout_of(p, r);
        void *real_ws = l.bytes > l.real ? (char *)ws + l.real : NULL;
        return one(p, r, (char *)ws, l, real_ws, (cudaStream_t)stream);
    }

    // Whether every Inf or NaN of C is recomputed (fixup), as if the operands had one: non-finite scalars
    static bool odd_scalars(const tb_kproblem *p)
    {
        return !isfinite(p->alpha) || !isfinite(p->alpha_im) || !isfinite(p->beta) || !isfinite(p->beta_im);
    }

    // the complex alpha folded into an operand (op(B)'s B2, or Ab with op(B) in place), or NULL for a real one
    static const tb_kproblem *folded(const tb_kproblem *p)
    {
        return p->alpha_im != 0.0 ? p : NULL;
    }

    // Ab's blocks beside op(B) read in place (here), or beside B2
    static blocks<R> ab_put(const tb_kproblem *p, bool here, R *ab, int64_t ld)
    {
        return here ? blocks<R>{ ab, ld, 2, 1 } : blocks<R>{ ab, ld, 1, p->k };
    }

    // op(A) in place: op(B) in place or converted to pairs, alpha folded in; each operand not converted read for
    // its Inf and NaN, unless a look at all of C costs less
    static int blocks_in_place(const tb_kproblem *p, const tb_recipe *r, char *w, const layout &l, void *real_ws,
                               cudaStream_t s)
    {
        tb_kproblem q = real_problem(p, r, true);
        R *b2 = (R *)(w + l.at[1]), *c0 = (R *)(w + l.at[3]);
        int *flag = (int *)(w + l.at[2]);
        const bool bh = b_here(p, r, true);
        const double scans = (double)p->m * (double)p->k + (bh ? (double)p->k * (double)p->n : 0.0);
        const bool check_all = odd_scalars(p) || c_check_cost(p) < scans;
        if (!bh)
            q.b = b2;
        int e = check_all ? 0 : (int)cudaMemsetAsync(flag, 0, sizeof(int), s);
        if (!e && !bh)
            e = split_operand<R>(p->b, p->ldb, p->transb, p->k, p->n, pairs<R>{ b2, q.ldb }, folded(p), flag, s);
        if (!e && !check_all)
            e = scan_op(p->a, p->lda, p->transa, p->m, p->k, flag, s);
        if (!e && !check_all && bh)
            e = scan_op(p->b, p->ldb, p->transb, p->k, p->n, flag, s);
        const tb_recipe rq = real_recipe(r, &q, blocks_form(&q));
        if (!e)
            e = with_c(p, flags{ { flag, NULL, NULL }, check_all }, flag, c0, s,
                       [&] { return Blocks(&q, &rq, real_ws, s); });
        return e;
    }

    static int one(const tb_kproblem *p, const tb_recipe *r, char *w, const layout &l, void *real_ws, cudaStream_t s)
    {
        if (a_in_place(r))
            return blocks_in_place(p, r, w, l, real_ws, s);
        const bool pairs = b_pairs(r), in_place = b_in_place(p) || pairs;
        tb_kproblem q = real_problem(p, r, false, pairs);
        R *ab = (R *)(w + l.at[0]), *b2 = (R *)(w + l.at[1]), *c0 = (R *)(w + l.at[3]);
        int *flag = (int *)(w + l.at[2]);
        q.a = ab;
        if (!in_place)
            q.b = b2;
        // all of C checked with non-finite scalars, or with op(B) in place and unscanned
        const bool check_all = odd_scalars(p) || b_unscanned(p, in_place);
        int e = check_all ? 0 : (int)cudaMemsetAsync(flag, 0, sizeof(int), s);
        if (!e)
            e = split_operand<R>(p->a, p->lda, p->transa, p->m, p->k, ab_put(p, in_place, ab, q.lda),
                                 in_place ? folded(p) : NULL, flag, s);
        if (!e && !in_place)
            e = split_operand<R>(p->b, p->ldb, p->transb, p->k, p->n, planes<R>{ b2, b2 + p->k, q.ldb }, folded(p),
                                 flag, s);
        if (!e && in_place && !b_unscanned(p, in_place))
            e = scan_op(p->b, p->ldb, p->transb, p->k, p->n, flag, s);
        const tb_recipe rq = real_recipe(r, &q, pairs ? TB_FORM_PAIRS : 0);
        if (!e)
            e = with_c(p, flags{ { flag, NULL, NULL }, check_all }, flag, c0, s,
                       [&] { return pairs ? Pairs(&q, &rq, real_ws, s) : Launch(&q, &rq, real_ws, s); });
        return e;
    }

    // Inf and NaN in a rows x cols interleaved complex matrix set *flag
    static int scan(const void *x, int64_t ld, int64_t rows, int64_t cols, int *flag, cudaStream_t s)
    {
        keep<R><<<dim3((unsigned)((rows + 127) / 128), tb_grid_y(cols)), 128, 0, s>>>(rows, cols, (const R *)x, ld,
                                                                                     flag);
        return (int)cudaGetLastError();
    }

    // the same for op(X) (rows x cols), op its op: the matrix as stored
    static int scan_op(const void *x, int64_t ld, int op, int64_t rows, int64_t cols, int *flag, cudaStream_t s)
    {
        return op ? scan(x, ld, cols, rows, flag, s) : scan(x, ld, rows, cols, flag, s);
    }

    // C's part, around the real product (`product`): where C is read, its Inf and NaN looked for (into c_flag,
    // unless all of C is looked at anyway: fl.all) and C saved if any flag is set, and a complex beta applied;
    // after it, fixup
    template <class Product>
    static int with_c(const tb_kproblem *p, flags fl, int *c_flag, R *c0, cudaStream_t s, Product product)
    {
        const dim3 grid_c((unsigned)((p->m + 127) / 128), tb_grid_y(p->n));
        int e = 0;
        if (!tb_beta_zero(p)) {
            if (!fl.all)
                e = scan(p->c, p->ldc, p->m, p->n, c_flag, s);
            keep_all<R><<<GUARDED_BLOCKS, 256, 0, s>>>(p->m, p->n, (const R *)p->c, p->ldc, c0, fl);
            e = e ? e : (int)cudaGetLastError();
        }
        if (!e && p->beta_im != 0.0) {
            scale<R><<<grid_c, 128, 0, s>>>(p->m, p->n, (R)p->beta, (R)p->beta_im, (R *)p->c, p->ldc);
            e = (int)cudaGetLastError();
        }
        if (!e)
            e = product();
        if (!e) {
            fixup<R><<<GUARDED_BLOCKS, 256, 0, s>>>(*p, c0, fl);
            e = (int)cudaGetLastError();
        }
        return e;
    }

    // --- prepared operands (kernels.h): each row block of op(A) as Ab and each panel of op(B) as B2 (or, in place,
    // as it is), converted once for all their tiles, and prepared further by P where the real kernel has its own.
    // An operand's prepared form: a flag for each block (Inf or NaN met in it; at its first row), its real form
    // (Ab's rows, or B2's columns; none for op(B) in place), then P's form of it.
    // Without P's for a tile (tc32 not taking the plan's tiles) nothing is prepared: the kernel runs per tile.

    struct prep_layout {
        size_t real, parts, bytes; // offsets of the real form and P's form; the whole
        int64_t ld;                // the real form's leading dimension
    };

    // the real form of `rows` rows of op(A) (which 0), or columns of op(B), for tile's real problem qt
    static prep_layout prep_layout_of(const tb_kproblem *tile, const tb_recipe *r, int which, int64_t rows)
    {
        prep_layout l;
        const tb_kproblem qt = real_problem(tile, r);
        l.real = (sizeof(int) * (size_t)rows + 255) / 256 * 256;
        l.ld = which ? qt.ldb : plane_ld(2 * rows);
        const size_t real = which ? (b_in_place(tile) ? 0 : sizeof(R) * (size_t)(l.ld * rows))
                                  : sizeof(R) * (size_t)(l.ld * qt.k);
        l.parts = l.real + (real + 255) / 256 * 256;
        if (P) {
            const tb_recipe rq = real_recipe(r, &qt);
            l.bytes = l.parts + P->bytes(&qt, &rq, which, which ? rows : 2 * rows);
        } else {
            l.bytes = l.parts;
        }
        return l;
    }

    static size_t prep_bytes(const tb_kproblem *tile, const tb_recipe *r, int which, int64_t rows)
    {
        const tb_kproblem qt = real_problem(tile, r);
        const tb_recipe rq = real_recipe(r, &qt);
        if (direct(r) || (P && !P->bytes(&qt, &rq, which, which ? rows : 2 * rows)))
            return 0;
        return prep_layout_of(tile, r, which, rows).bytes;
    }

    // Block p's op(A) (which 0: its m rows, from p->a) or op(B) (its n columns) as rows or columns [r0, ...) of
    // prep, an operand of prep_rows of them
    static int prepare(const tb_kproblem *p, const tb_recipe *r, int which, void *prep, int64_t prep_rows, int64_t r0,
                       void *stream)
    {
        const cudaStream_t s = (cudaStream_t)stream;
        const prep_layout l = prep_layout_of(p, r, which, prep_rows);
        const bool in_place = b_in_place(p);
        int *flag = (int *)prep + r0;
        R *real = (R *)((char *)prep + l.real);
        tb_kproblem q = real_problem(p, r);
        int e = (int)cudaMemsetAsync(flag, 0, sizeof(int), s);
        if (!e && which == 0) {
            q.a = real + 2 * r0, q.lda = l.ld;
            e = split_operand<R>(p->a, p->lda, p->transa, p->m, p->k, ab_put(p, in_place, real + 2 * r0, l.ld),
                                 in_place ? folded(p) : NULL, flag, s);
        } else if (!e && in_place) {
            e = scan_op(p->b, p->ldb, p->transb, p->k, p->n, flag, s);
        } else if (!e) {
            R *b2 = real + r0 * l.ld;
            q.b = b2, q.ldb = l.ld;
            e = split_operand<R>(p->b, p->ldb, p->transb, p->k, p->n, planes<R>{ b2, b2 + p->k, l.ld }, folded(p),
                                 flag, s);
        }
        if (!e && P) {
            const tb_recipe rq = real_recipe(r, &q);
            e = P->prepare(&q, &rq, which, (char *)prep + l.parts, which ? prep_rows : 2 * prep_rows,
                           which ? r0 : 2 * r0, s);
        }
        return e;
    }

    // A tile's workspace: its flag (C's Inf and NaN), C's copy, then the real kernel's
    static layout prep_ws_layout(const tb_kproblem *p, const tb_recipe *r)
    {
        const tb_kproblem q = real_problem(p, r);
        const tb_recipe rq = real_recipe(r, &q);
        const size_t sizes[2] = { sizeof(int), c_copy(p) };
        return place(sizes, 2, P ? P->workspace(&q, &rq) : Workspace(&q, &rq));
    }

    static size_t prep_workspace(const tb_kproblem *p, const tb_recipe *r)
    {
        return direct(r) ? tb_workspace_cx(p, r) : prep_ws_layout(p, r).bytes;
    }

    // Tile p from the rows of prep_a from i0 and the columns of prep_b from j0 (p's a and b: the complex operands)
    static int prep_launch(const tb_kproblem *p, const tb_recipe *r, const void *prep_a, int64_t a_rows, int64_t i0,
                           const void *prep_b, int64_t b_rows, int64_t j0, void *ws, void *stream)
    {
        const cudaStream_t s = (cudaStream_t)stream;
        if (direct(r)) // a tile of another shape than the one the operands were prepared for
            return tb_launch_cx(p, r, ws, stream);
        if (!ws)
            return tb_launch_naive(p, r, NULL, stream);
        const prep_layout la = prep_layout_of(p, r, 0, a_rows), lb = prep_layout_of(p, r, 1, b_rows);
        const layout l = prep_ws_layout(p, r);
        int *flag = (int *)((char *)ws + l.at[0]);
        R *c0 = (R *)((char *)ws + l.at[1]);
        void *real_ws = l.bytes > l.real ? (char *)ws + l.real : NULL;
        const char *pa = (const char *)prep_a, *pb = (const char *)prep_b;
        tb_kproblem q = real_problem(p, r);
        q.a = (const R *)(pa + la.real) + 2 * i0, q.lda = la.ld;
        if (!b_in_place(p))
            q.b = (const R *)(pb + lb.real) + j0 * lb.ld, q.ldb = lb.ld;
        const bool check_all = odd_scalars(p);
        const tb_recipe rq = real_recipe(r, &q);
        int e = check_all ? 0 : (int)cudaMemsetAsync(flag, 0, sizeof(int), s);
        if (!e)
            e = with_c(p, flags{ { (const int *)pa + i0, (const int *)pb + j0, flag }, check_all }, flag, c0, s, [&] {
                return P ? P->launch(&q, &rq, pa + la.parts, 2 * a_rows, 2 * i0, pb + lb.parts, b_rows, j0, real_ws, s)
                         : Launch(&q, &rq, real_ws, s);
            });
        return e;
    }

    static constexpr tb_kernel_prep fns = { prep_bytes, prepare, prep_workspace, prep_launch };
};

struct blocked_k : real_kernel {
    typedef float R;
    static constexpr tb_family family = TB_FAMILY_BLOCKED;
    static constexpr launcher launch = tb_launch_blocked, pairs = tb_launch_blocked_pairs;
    static constexpr tb_kernel_workspace workspace = tb_workspace_blocked;
    static constexpr tb_kernel_workspace pairs_workspace = tb_workspace_blocked_pairs;
};
struct tf32_k : real_kernel {
    typedef float R;
    static constexpr tb_family family = TB_FAMILY_TF32;
    static constexpr launcher launch = tb_launch_tf32;
    static constexpr tb_kernel_workspace workspace = tb_workspace_tf32;
    static constexpr const tb_kernel_prep *prep = &tb_prep_tf32;
};
struct tc32_k : real_kernel {
    typedef float R;
    static constexpr tb_family family = TB_FAMILY_TC32;
    static constexpr launcher launch = tb_launch_tc32, blocks = tb_launch_tc32_blocks, pairs = tb_launch_tc32_pairs;
    static constexpr tb_kernel_workspace workspace = tb_workspace_tc32;
    static constexpr tb_kernel_workspace pairs_workspace = tb_workspace_tc32_pairs;
    static constexpr tb_kernel_workspace blocks_workspace = tb_workspace_tc32_blocks;
    static constexpr const tb_kernel_prep *prep = &tb_prep_tc32;
};
struct dmma_k : real_kernel {
    typedef double R;
    static constexpr tb_family family = TB_FAMILY_DMMA;
    static constexpr launcher launch = tb_launch_dmma, blocks = tb_launch_dmma_blocks, pairs = tb_launch_dmma_pairs;
    static constexpr tb_kernel_workspace workspace = tb_workspace_dmma;
};
// (c4m-tc32-inplace and z4m-dmma-inplace, which read op(A) in place whatever n, are c4m-tc32 and z4m-dmma with
// the recipes of their own families, kernels/list.h)
typedef four_m<blocked_k> c_blocked;
typedef four_m<tf32_k> c_tf32;
typedef four_m<tc32_k> c_tc32;
typedef four_m<dmma_k> z_dmma;

} // namespace

#define TB_FOUR_M(name, T)                                                                                         \
    extern "C" int tb_launch_##name(const tb_kproblem *p, const tb_recipe *r, void *ws, void *stream)              \
    {                                                                                                              \
        return T::launch(p, r, ws, stream);                                                                        \
    }                                                                                                              \
    extern "C" size_t tb_workspace_##name(const tb_kproblem *p, const tb_recipe *r) { return T::workspace(p, r); } \
    extern "C" const tb_kernel_prep tb_prep_##name = T::fns;
TB_FOUR_M(c4m_blocked, c_blocked)
TB_FOUR_M(c4m_tf32, c_tf32)
TB_FOUR_M(c4m_tc32, c_tc32)
TB_FOUR_M(z4m_dmma, z_dmma)
