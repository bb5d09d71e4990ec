/*
 * The vocabulary every layer shares: visibility, element types, the single-precision math, the operations on an
 * operand (transpose, triangle, side, diagonal), the routines, where a call ran and what it was predicted to take.
 * Imports nothing of the project (base/ is the bottom layer: tests/layers.sh).
 */
#ifndef TB_BASE_H
#define TB_BASE_H

#define TB_HIDDEN __attribute__((visibility("hidden")))
#define TB_EXPORT __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

/* Element types; the sizes are the bytes of one element.  The complex types (C, Z: single and double precision)
 * are stored interleaved, real part first, as BLAS has them. */
typedef enum tb_type { TB_TYPE_S = 0, TB_TYPE_D, TB_TYPE_C, TB_TYPE_Z, TB_TYPE_COUNT } tb_type;
#define TB_TYPE_BIT(t) (1u << (t))
static inline int tb_type_complex(tb_type t)
{
    return t == TB_TYPE_C || t == TB_TYPE_Z;
}
static inline unsigned tb_type_size(tb_type t)
{
    return t == TB_TYPE_S ? 4 : t == TB_TYPE_Z ? 16 : 8;
}
/* the real type of t's precision (S for C, D for Z) */
static inline tb_type tb_real_type(tb_type t)
{
    return t == TB_TYPE_C ? TB_TYPE_S : t == TB_TYPE_Z ? TB_TYPE_D : t;
}
/* real flops of one multiply-add of two elements: 2, or 8 for complex ones (the count BLAS benchmarks use) */
static inline double tb_type_flops(tb_type t)
{
    return tb_type_complex(t) ? 8.0 : 2.0;
}

/* The arithmetic of single-precision products (TILEBLAS_MATH): FP32's accuracy on the tensor cores (fp32-tc), FP32
 * on the FP32 units (fp32), or TF32 (tf32: inputs rounded to 11 bits, for programs that accept it).  Double
 * precision has one, FP64. */
typedef enum tb_math { TB_MATH_FP32_TC = 0, TB_MATH_FP32, TB_MATH_TF32, TB_MATH_COUNT } tb_math;
#define TB_MATH_BIT(m) (1u << (m))
TB_HIDDEN extern const char *const tb_math_names[]; /* by tb_math */

/* What is done to an operand, as the BLAS character arguments say it (values are the kernels' transa/transb) */
typedef enum tb_trans { TB_NOTRANS = 0, TB_TRANS = 1, TB_CONJTRANS = 2 } tb_trans;
typedef enum tb_uplo { TB_UPPER = 0, TB_LOWER } tb_uplo;
typedef enum tb_side { TB_LEFT = 0, TB_RIGHT } tb_side;
typedef enum tb_diag { TB_NONUNIT = 0, TB_UNIT } tb_diag;

/* The routines whose calls tileblas takes (base/entries.h lists their entry points): the product (GEMM), the
 * rank-k and rank-2k updates of one triangle of C (SYRK, SYR2K, and HERK, HER2K for the complex types), and the
 * product with a symmetric operand stored as one triangle (SYMM, and HEMM's Hermitian one) */
typedef enum tb_routine {
    TB_ROUTINE_GEMM = 0,
    TB_ROUTINE_SYRK,
    TB_ROUTINE_HERK,
    TB_ROUTINE_SYR2K,
    TB_ROUTINE_HER2K,
    TB_ROUTINE_SYMM,
    TB_ROUTINE_HEMM,
    TB_ROUTINE_COUNT
} tb_routine;
TB_HIDDEN extern const char *const tb_routine_names[]; /* by tb_routine, upper case: "GEMM", ... */

/* Where a call ran; values match tileblas_path */
typedef enum tb_path { TB_PATH_NONE = 0, TB_PATH_CPU = 1, TB_PATH_GPU = 2 } tb_path;

/* Most CUDA devices the library uses (TILEBLAS_DEVICES), and so most a call is spread over */
#define TB_MAX_DEVICES 16

/* Predicted seconds on each path */
typedef struct tb_cost {
    double gpu, cpu;
} tb_cost;

#ifdef __cplusplus
}
#endif
#endif
