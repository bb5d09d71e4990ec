#!/bin/sh
# Sweeps of random shapes for each compile-time variant of a kernel's file (kernels/$FILE.cu, FILE blocked by
# default), side by side with cuBLAS in each process, over the same seeds.  Run in a configured and built tree:
#   sh bench/sweep-variants.sh "FLAGS"... -- SEED...
# FLAGS: nvcc options, e.g. "-Xptxas -O2", or a -D definition that a change under test reads; "" for the file as
# it is.  KERNELS (default blocked) chooses what is timed, TYPE (as tileblas-bench --type) the types, SWEEP
# (default 50) the shapes a sweep.  Prints each sweep's
# summary; the tables go to sweep-N-SEED.txt (N: the variant's place in the list) in $OUT, or the current
# directory.  The tree is left built with the last variant.
set -u
n=0
while [ $# -gt 0 ] && [ "$1" != -- ]; do n=$((n + 1)); eval "flags_$n=\$1"; shift; done
[ $# -gt 0 ] && shift
file=${FILE:-blocked}
i=0
while [ $i -lt $n ]; do
  i=$((i + 1))
  eval "flags=\$flags_$i"
  rm -f "kernels/$file.lo" "kernels/.libs/$file.o"
  make -s -j"$(nproc)" NVCCFLAGS="$flags" tools/tileblas-bench >/dev/null 2>&1 || { echo "$flags: build failed"; continue; }
  for seed in "$@"; do
    out=${OUT:-.}/sweep-$i-$seed.txt
    ./tools/tileblas-bench --no-cpu --sweep "${SWEEP:-50}" --seed "$seed" ${TYPE:+--type "$TYPE"} --kernels "${KERNELS:-blocked}" --repeats 5 >"$out" 2>&1
    echo "[$flags] seed $seed:"
    grep '^sweep: ' "$out" | grep -v cuBLAS
  done
done
