#!/bin/sh
# tileblas-bench runs (kernels, the complex types, and --contend beside a busy GPU), checks its results against each other, and writes
# its CSV.  SKIP (77) without a GPU or in a build without CUDA.
set -u
bench=${top_builddir:-.}/tools/tileblas-bench
[ -x "$bench" ] || { echo "SKIP: tileblas-bench is not built (no CUDA)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bench" --shape 64x48x40 --shape 130 --trans NN --trans TN --kernels all --repeats 2 --csv "$work/out.csv" >"$work/out.txt" 2>&1
status=$?
cat "$work/out.txt"
[ $status = 77 ] && exit 77
[ $status = 0 ] || { echo "FAIL: tileblas-bench exited $status"; exit 1; }
# a header and a row per shape x transposes x implementation (6 kernels, cuBLAS if present, OpenBLAS if present)
rows=$(($(wc -l <"$work/out.csv") - 1))
[ "$rows" -ge 24 ] || { echo "FAIL: $rows CSV rows"; cat "$work/out.csv"; exit 1; }
# a TF32 product (kernel tf32, cuBLAS-tf32) is allowed the larger difference tileblas-bench allows it
if awk -F, 'NR > 1 && !($5 > 0 && $7 <= ($3 ~ /tf32/ ? 0.1 : 1e-3)) { bad = 1 } END { exit !bad }' "$work/out.csv"; then
  echo "FAIL: a row without a rate or with a large difference"; cat "$work/out.csv"; exit 1
fi
echo "PASS: $rows rows, all results agree"
# the complex types, every kind of op (the kernels that compute them where they are built, cuBLAS, OpenBLAS)
"$bench" --type cz --shape 70x50x90 --trans CN --trans TC --kernels all --repeats 2 >"$work/complex.txt" 2>&1
status=$?
cat "$work/complex.txt"
[ $status = 0 ] || { echo "FAIL: tileblas-bench --type cz exited $status"; exit 1; }
rows=$(grep -c '^[cz] ' "$work/complex.txt")
[ "$rows" -ge 8 ] || { echo "FAIL: $rows complex rows"; exit 1; }
echo "PASS: complex types, $rows rows, all results agree"
# --contend: a second thread's calls beside a busy GPU, every result compared with OpenBLAS's
"$bench" --contend --big 1024 --shape 300x200x180 --shape 96 --repeats 3 >"$work/contend.txt" 2>&1
status=$?
cat "$work/contend.txt"
[ $status = 0 ] || { echo "FAIL: tileblas-bench --contend exited $status"; exit 1; }
# both shapes: OpenBLAS, tb-auto and tb-gpu, and tb-dev for the one large enough to be looked for on the device
rows=$(grep -c '^[0-9]*x[0-9]*x[0-9]* *\(OpenBLAS\|tb-auto\|tb-gpu\|tb-dev\) ' "$work/contend.txt")
[ "$rows" = 7 ] || { echo "FAIL: $rows rows from --contend, want 7"; exit 1; }
echo "PASS: --contend, $rows rows, all results agree"
