#!/bin/sh
# tileblas-bench --host: whole calls from host memory through the library's cblas_?gemm of every type, against
# OpenBLAS (and the GPU and NVBLAS where there are some), with beta = 0 and beta != 0 and every transpose, and the
# updates (--routine syrk, herk, syr2k, her2k) of every type they have; each
# result must agree with OpenBLAS's.  Runs without a GPU (the library's calls then stay on the CPU).  SKIP (77) in a
# build without CUDA (no tileblas-bench) or without OpenBLAS.
set -u
bench=${top_builddir:-.}/tools/tileblas-bench
[ -x "$bench" ] || { echo "SKIP: tileblas-bench is not built (no CUDA)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for beta in 0 0.5; do
  "$bench" --host --type sdcz --beta $beta --shape 70x45x33 --shape 200 --trans NN --trans NT --trans TN --trans TT \
    --repeats 2 --csv "$work/out.csv" >"$work/out.txt" 2>&1
  status=$?
  cat "$work/out.txt"
  [ $status = 77 ] && exit 77
  [ $status = 0 ] || { echo "FAIL: tileblas-bench --host --beta $beta exited $status"; exit 1; }
  # per type x shape x transposes: OpenBLAS and tileblas (auto) at least
  rows=$(($(wc -l <"$work/out.csv") - 1))
  [ "$rows" -ge 64 ] || { echo "FAIL: $rows CSV rows"; exit 1; }
  grep -q '^shape,trans,implementation,ms,tflops,ratio_to_openblas,max_rel_diff,type$' "$work/out.csv" ||
    { echo "FAIL: CSV header"; exit 1; }
  for t in s d c z; do
    [ "$(grep -c ",tb-auto/.*,$t\$" "$work/out.csv")" = 8 ] || { echo "FAIL: not 8 tileblas rows of type $t"; exit 1; }
  done
  [ "$(grep -c ',bare-fwd,' "$work/out.csv")" = 32 ] ||
    { echo "FAIL: not one tileblas row and one bare-forward row per call of each type"; exit 1; }
  if awk -F, 'NR > 1 && !($5 > 0 && $7 <= 1e-3) { bad = 1 } END { exit !bad }' "$work/out.csv"; then
    echo "FAIL: a row without a rate or with a large difference"; cat "$work/out.csv"; exit 1
  fi
done
echo "PASS: whole SGEMM, DGEMM, CGEMM and ZGEMM calls agree with OpenBLAS, beta = 0 and 0.5"

# the updates (--routine): their upper triangle agrees with OpenBLAS's, one row per implementation and op
for r in syrk herk syr2k her2k; do
  case $r in her*) types=cz ;; *) types=sdcz ;; esac
  "$bench" --host --routine $r --type $types --beta 0.5 --shape 150x150x40 --trans NN --trans TN --repeats 1 \
    --csv "$work/$r.csv" >"$work/$r.txt" 2>&1 || { cat "$work/$r.txt"; echo "FAIL: --routine $r"; exit 1; }
  want=$((2 * ${#types}))
  [ "$(grep -c ',OpenBLAS,' "$work/$r.csv")" = $want ] && [ "$(grep -c ',tb-auto/' "$work/$r.csv")" = $want ] ||
    { cat "$work/$r.txt"; echo "FAIL: --routine $r: not one OpenBLAS and one tileblas row per type and op"; exit 1; }
  if awk -F, 'NR > 1 && !($5 > 0 && $7 <= 1e-3) { bad = 1 } END { exit !bad }' "$work/$r.csv"; then
    echo "FAIL: --routine $r: a row without a rate or with a large difference"; cat "$work/$r.csv"; exit 1
  fi
done
echo "PASS: --routine syrk, herk, syr2k, her2k: every type's upper triangle agrees with OpenBLAS"
