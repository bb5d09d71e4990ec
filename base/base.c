/* The vocabulary's names (base/base.h). */
#include "base.h"

const char *const tb_math_names[] = { "fp32-tc", "fp32", "tf32" };
const char *const tb_routine_names[] = { "GEMM", "SYRK", "HERK", "SYR2K", "HER2K", "SYMM", "HEMM" };
