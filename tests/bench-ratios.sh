#!/bin/sh
# bench/ratios.sh turns tileblas-bench's rows (and bench/variants.sh's, a build a section) into the tables of
# bench/RESULTS.md: checked on a fixed output, so it needs neither a GPU nor a build.
set -u
ratios=${top_srcdir:-.}/bench/ratios.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/in.txt" <<'ROWS'
== kernels/cx.cu built with: 
tileblas-bench: device 0, NVIDIA H100 80GB HBM3 (132 SMs); column-major, alpha = 1, beta = 0
type MxNxK              trans impl                ms   TFLOP/s  x cuBLAS max rel diff
z    2020x40x599        NN    cuBLAS         0.01662     23.29      1.00     0.00e+00
z    2020x40x599        NN    cx-dmma        0.02160     17.93      0.77     4.87e-14
z    2020x40x599        CT    cuBLAS         0.01618     23.92      1.00     0.00e+00
z    2020x40x599        CT    cx-dmma        0.02193     17.65      0.74     4.20e-14
c    64x64x64           NN    cuBLAS         0.00500      0.42      1.00     0.00e+00
c    64x64x64           NN    cuBLAS-sync    0.00900      0.23      0.56     0.00e+00
c    64x64x64           NN    tb-call        0.01000      0.21      0.50     1.00e-07
== kernels/cx.cu built with: -DTB_X=1
z    2020x40x599        NN    cuBLAS         0.01700     22.77      1.00     0.00e+00
z    2020x40x599        NN    cx-dmma        0.01700     22.77      1.00     4.87e-14
ROWS
cat >"$work/want.txt" <<'TABLES'
kernels/cx.cu built with: (nothing); ratios to cuBLAS, cx-dmma / tb-call
| type | shape | NN | CT |
|---|---|---|---|
| z | 2020x40x599 | 0.77 / - | 0.74 / - |
| c | 64x64x64 | - / 0.50 | - / - |
kernels/cx.cu built with: -DTB_X=1; ratios to cuBLAS, cx-dmma
| type | shape | NN |
|---|---|---|
| z | 2020x40x599 | 1.00 |
TABLES
sh "$ratios" <"$work/in.txt" >"$work/got.txt" || { echo "FAIL: bench/ratios.sh exited $?"; exit 1; }
diff "$work/want.txt" "$work/got.txt" || { echo "FAIL: the ratio tables differ"; exit 1; }
echo "PASS: ratio tables, a build a section"
printf '| z | 2020x40x599 | 16.6 / 21.6 | 16.2 / 21.9 |\n' >"$work/want-us.txt"
US=1 sh "$ratios" cuBLAS cx-dmma <"$work/in.txt" | sed -n 4p >"$work/got-us.txt"
diff "$work/want-us.txt" "$work/got-us.txt" || { echo "FAIL: US=1 with the impls named"; exit 1; }
echo "PASS: times in µs, the impls in the order named"
sh "$ratios" </dev/null >/dev/null && { echo "FAIL: no rows is not an error"; exit 1; }
echo "PASS: no rows, exit 1"
