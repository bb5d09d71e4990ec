#!/bin/sh
# The single-precision kernels on one H200, side by side with cuBLAS (FP32 and TF32) in each process: square,
# irregular and thin shapes, the four transposes, sweeps of random shapes, the errors at 4096^3, and whole calls
# from host memory.  Run in a configured and built tree:
#   sh bench/h200-tc32.sh [SEED...]     (the sweeps' seeds, default 777123; the errors' seed is fixed)
# Prints the tables; the caller keeps the log.
set -u
bench=./tools/tileblas-bench
[ $# -gt 0 ] || set -- 777123
echo "== device-resident, the default kernels and cuBLAS"
$bench --no-cpu --type s --repeats 5 --kernels tc32,tf32,blocked,cublas-tf32 --shape 2048 --shape 4096 \
  --shape 8192 --shape 16384 --shape 4097 --shape 5000 --shape 3000x5000x700 --shape 1000x3000x777 \
  --shape 12345x67x890 --shape 777x777x16384 --shape 300x200x8192 --shape 1024 --shape 389x2378x1371 \
  --shape 96x12251x2472 --shape 8192x8192x64 --shape 64x8192x8192 --shape 8192x64x8192
echo "== the transposes"
$bench --no-cpu --type s --repeats 5 --kernels tc32,blocked --shape 4096 --shape 5000 --trans NT --trans TN \
  --trans TT
for seed in "$@"; do
  echo "== sweep, seed $seed"
  $bench --no-cpu --sweep 50 --seed "$seed" --kernels tc32,blocked,cublas-tf32 --repeats 5
done
echo "== errors"
$bench --accuracy --kernels tc32,tf32,blocked --shape 4096 --seed 20261201
echo "== whole calls from host memory"
$bench --host --type s --shape 8192 --shape 16384
