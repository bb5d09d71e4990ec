// kernels/cx.cu's copies of op(A)'s and op(B)'s tiles into shared memory, by cp.async from where they are stored.
#ifndef TB_KERNELS_CX_COPY_CUH
#define TB_KERNELS_CX_COPY_CUH

#include <stdint.h>
#include "cp_async.cuh"

namespace {

// One operand's copies of a tile: element e = t + s THREADS (thread t, its copy s) of the tile's `rows` x BK (op(A):
// along C's rows; op(B): along its columns), read where it is stored.  along_k: the stored matrix runs along k
// (op(A) transposed, op(B) not); then e's row is e / BK and its k e % BK, else e % ROWS and e / ROWS.  THREADS being
// a multiple of both, a thread's copies differ only by a fixed step in the row (along_k) or in k (otherwise).
// WIDE: an element in one copy (its parts aligned together), else a part at a time.  The state is kept small, as
// registers bound the blocks an SM: one pointer that moves a tile along k at each copy(), the copies' rows inside
// the matrix as a mask made once, and k checked against what is left of the slice.  ROW: a shared row's parts;
// ALONG: along_k known when compiled (0 or 1), or 2, chosen at run time.
template <class R, int LOADS, int ROWS, int BK, int THREADS, bool WIDE, int ROW, int ALONG>
struct cx_loads {
    static_assert(THREADS % BK == 0 && THREADS % ROWS == 0, "loads a fixed step apart");
    static_assert(LOADS <= 32, "a bit a copy");
    const R *at;            // copy 0's element in the next tile to copy, parts interleaved
    int64_t next, step;     // parts from one copy to the next, and from one tile to the next
    unsigned rows_in;       // bit s: copy s's row is inside the matrix
    int l, store, gap;      // copy 0's k in a tile; its place in a shared tile, and the next copy's from it
    bool along_k;

    __device__ bool along() const
    {
        return ALONG == 2 ? along_k : ALONG == 1;
    }
    // from one copy's place in a shared tile to the next's
    static __host__ __device__ constexpr int gap_for(bool along)
    {
        return along ? 2 * (THREADS / BK) : ROW * (THREADS / ROWS);
    }

    // x from row r0 and k k0 on; rows: the matrix's rows (or columns) past r0; x_along: along_k at run time
    __device__ void init(const R *x, int64_t ld, bool x_along, int64_t r0, int64_t k0, int64_t rows)
    {
        const int t = (int)threadIdx.x;
        along_k = x_along;
        const bool along = this->along();
        const int row = along ? t / BK : t % ROWS;
        l = along ? t % BK : t / ROWS;
        const int64_t r = r0 + row;
        at = x + 2 * (along ? r * ld + k0 + l : r + (k0 + l) * ld);
        step = along ? 2 * BK : 2 * BK * ld;
        next = along ? 2 * ld * (THREADS / BK) : 2 * ld * (THREADS / ROWS);
        store = l * ROW + 2 * row;
        gap = gap_for(along);
        rows_in = 0;
#pragma unroll
        for (int s = 0; s < LOADS; s++)
            rows_in |= (unsigned)(row + (along ? s * (THREADS / BK) : 0) < rows) << s;
    }

    // the copies of the next tile into `tile`, zeros outside the matrix (its k up to `left` inside the slice); any:
    // a valid address where nothing is read
    __device__ void copy(R *tile, int64_t left, const R *any)
    {
#pragma unroll
        for (int s = 0; s < LOADS; s++) {
            const int kk = along() ? l : l + s * (THREADS / ROWS);
            const bool ok = (rows_in >> s & 1) && kk < left;
            const R *e = ok ? at + s * next : any;
            R *d = tile + store + s * (ALONG == 2 ? gap : gap_for(ALONG));
            if (WIDE) {
                copy_async<2 * sizeof(R)>(d, e, ok);
            } else {
                copy_async<sizeof(R)>(d, e, ok);
                copy_async<sizeof(R)>(d + 1, e + 1, ok);
            }
        }
        at += step;
    }
};

} // namespace

#endif
