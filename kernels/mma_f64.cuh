// The FP64 tensor cores' product (DMMA), shared by the kernels that use it (dmma.cu, cx.cu).
#ifndef TB_KERNELS_MMA_F64_CUH
#define TB_KERNELS_MMA_F64_CUH

// D = A * B + D for one 16 x 8 x 8 tile; the fragments are those of mma.m16n8k8 f64: with g = lane / 4 and
// t = lane % 4, a = A(g, t), A(g+8, t), A(g, t+4), A(g+8, t+4); b = B(t, g), B(t+4, g);
// d = D(g, 2t), D(g, 2t+1), D(g+8, 2t), D(g+8, 2t+1).  Rows and k are only names here: each kernel maps them onto its
// tile's rows and k so that its reads from shared memory are few and meet no bank twice.
__device__ __forceinline__ void mma16x8x8(double (&d)[4], const double (&a)[4], const double (&b)[2])
{
#if __CUDA_ARCH__ >= 900
    asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
        : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
#elif __CUDA_ARCH__ >= 800
    // m8n8k4: a = A(g, t), b = B(t, g), d = D(g, 2t), D(g, 2t+1): the top and bottom halves, k in two steps
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
        : "+d"(d[0]), "+d"(d[1]) : "d"(a[0]), "d"(b[0]));
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
        : "+d"(d[0]), "+d"(d[1]) : "d"(a[2]), "d"(b[1]));
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
        : "+d"(d[2]), "+d"(d[3]) : "d"(a[1]), "d"(b[0]));
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
        : "+d"(d[2]), "+d"(d[3]) : "d"(a[3]), "d"(b[1]));
#else
    __trap(); // no FP64 tensor cores before sm_80
#endif
}

// D = A * B + D for one 16 x 8 x 16 tile (Hopper): the fragments of m16n8k16 f64 are two m16n8k8 ones in a row,
// a[0..3] and b[0..1] for k 0..7 and a[4..7], b[2..3] for k 8..15 (a[q] = A(g + 8 (q & 1), t + 4 (q >> 1)))
__device__ __forceinline__ void mma16x8x16(double (&d)[4], const double (&a)[8], const double (&b)[4])
{
#if __CUDA_ARCH__ >= 900
    asm("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, "
        "{%12, %13, %14, %15}, {%0, %1, %2, %3};\n"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
        : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]), "d"(b[0]),
          "d"(b[1]), "d"(b[2]), "d"(b[3]));
#else
    const double a0[4] = { a[0], a[1], a[2], a[3] }, a1[4] = { a[4], a[5], a[6], a[7] };
    const double b0[2] = { b[0], b[1] }, b1[2] = { b[2], b[3] };
    mma16x8x8(d, a0, b0);
    mma16x8x8(d, a1, b1);
#endif
}

#endif
