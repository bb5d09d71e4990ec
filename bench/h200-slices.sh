#!/bin/sh
# The blocked kernel's small tile with k split into slices at least TB_SMALL_SLICE deep, for each depth given
# (kernels/blocked.cu rebuilt with it), over the same sweeps of random shapes, side by side with cuBLAS in each
# process.  Run in a configured and built tree:
#   sh bench/h200-slices.sh DEPTH... -- SEED...
# Prints each sweep's summary; the tables go to sweep-DEPTH-SEED.txt in $OUT (or the current directory).  The
# tree is left built with the last depth.
set -u
depths=
while [ $# -gt 0 ] && [ "$1" != -- ]; do depths="$depths $1"; shift; done
[ $# -gt 0 ] && shift
for d in $depths; do
  rm -f kernels/blocked.lo kernels/.libs/blocked.o
  make -s -j"$(nproc)" NVCCFLAGS="-DTB_SMALL_SLICE=$d" tools/tileblas-bench >/dev/null 2>&1 ||
    { echo "TB_SMALL_SLICE=$d: build failed"; continue; }
  for seed in "$@"; do
    out=${OUT:-.}/sweep-$d-$seed.txt
    ./tools/tileblas-bench --no-cpu --sweep 50 --seed "$seed" --kernels blocked --repeats 5 >"$out" 2>&1
    echo "TB_SMALL_SLICE=$d seed $seed: $(grep '^sweep: blocked' "$out")"
  done
done
