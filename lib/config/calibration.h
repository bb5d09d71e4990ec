/*
 * The cost model's parameters (lib/decide/cost.h uses them): a calibration file that tileblas-calibrate writes,
 * else the built-in defaults (measured on the H200 host, bench/RESULTS.md).
 */
#ifndef TB_CALIBRATION_H
#define TB_CALIBRATION_H

#include <stddef.h>
#include <stdio.h>
#include "base.h"

/* The transfers and fixed costs are the same for every element type (bytes are bytes); the rates are per type
 * (indexed by tb_type: DGEMM runs at half SGEMM's rate on the CPU, and on its own kernel on the GPU), in real
 * flops (tb_type_flops: a complex multiply-add is 8).  A type without a GPU kernel goes to the CPU without the
 * model. */
typedef struct tb_cost_params {
    double gpu_call;                /* seconds of fixed cost per GPU call (launches, synchronisation, staging) */
    double h2d_a;                   /* bytes/s moving op(A) from the program's memory to the device (tiles of A are
                                       strided) */
    double h2d_b;                   /* bytes/s moving op(B), and C when beta != 0 */
    double d2h;                     /* bytes/s moving C back */
    double gpu_rate[TB_TYPE_COUNT]; /* flops/s of the type's GPU kernel on large products */
    double gpu_half[TB_TYPE_COUNT]; /* M, N or K of this size halves the kernel's rate (see tb_cost_predict) */
    double cpu_call;                /* seconds of fixed cost per CPU call */
    double cpu_rate[TB_TYPE_COUNT]; /* flops/s of the CPU BLAS on large products */
    double cpu_half[TB_TYPE_COUNT]; /* as gpu_half, for the CPU BLAS */
    double gpu_rate_tc;             /* single precision on the tensor cores (fp32-tc's and tf32's kernels) */
    double gpu_half_tc;
    double gpu_extra[TB_TYPE_COUNT]; /* seconds a GPU call of the type costs beyond gpu_call: the complex kernels'
                                        further launches (splits, checks, fixup); 0 for the real types */
    double host_copy;                /* bytes/s of the host's staging copies, all devices together (a call spread
                                        over several devices shares them: lib/decide/spread.h) */
    double device_call;              /* seconds each further device adds to a spread call */
} tb_cost_params;

TB_HIDDEN extern const tb_cost_params tb_cost_defaults;

/*
 * A calibration file: lines "name value" (names as the fields above, those of a type's rates with the type's
 * suffix: gpu_rate for single precision, gpu_rate_d for double, gpu_rate_tc for single precision on the tensor
 * cores, cpu_rate_c, gpu_rate_z and the like for the complex types; seconds, bytes/s, flops/s), '#' comments
 * and blank lines.  Fields not in the file keep their value in *c.  Returns 0, or the number of the first line
 * that is not such a line (with a value > 0); *c is then unchanged.
 */
TB_HIDDEN int tb_cost_parse(tb_cost_params *c, const char *text);

/* Reads and parses path, if it is a regular file (opened without blocking): 0, -1 when it cannot be read or is not
 * a regular file (errno set), or tb_cost_parse's line number. */
TB_HIDDEN int tb_cost_load(tb_cost_params *c, const char *path);

/* Writes c in the format tb_cost_parse reads; 0, or -1 on a write error. */
TB_HIDDEN int tb_cost_write(const tb_cost_params *c, FILE *f);

/*
 * Where a calibration is looked for when TILEBLAS_CALIBRATION does not name one, first found first:
 * $XDG_CONFIG_HOME/tileblas/calibration (~/.config/tileblas/calibration when XDG_CONFIG_HOME is unset or not an
 * absolute path), then SYSCONFDIR/tileblas/calibration.  The n-th (0-based) into buf, which is left empty when
 * that place does not apply (no absolute HOME, or a path longer than size); NULL past the last.
 */
TB_HIDDEN const char *tb_cost_path(int n, char *buf, size_t size);

#endif
