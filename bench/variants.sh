#!/bin/sh
# Rebuild a kernel's file with other compile-time settings and time each, side by side with cuBLAS.
#   sh bench/variants.sh "FLAGS" ... -- SHAPE...    (run in a configured build tree; SHAPE: N or MxNxK)
# FLAGS: nvcc options for kernels/$FILE.cu (FILE: blocked by default), e.g. "-Xptxas -O2" or a -D definition that
# a change under test on a branch reads; "" for the file as it is.  KERNELS
# (default block256), TRANS (default "NN TN") and TYPE (s, d, c, z or several, as tileblas-bench --type; default s)
# choose what is timed; FILE=complex times the complex kernels (KERNELS=c4m-tc32,z4m-dmma TYPE=cz, TRANS with C).
# The tree is left built with the last variant.  Piped into bench/ratios.sh: a table a build.
set -u
n=0
while [ $# -gt 0 ] && [ "$1" != -- ]; do n=$((n + 1)); eval "flags_$n=\$1"; shift; done
[ $# -gt 0 ] && shift
i=0
while [ $i -lt $n ]; do
  i=$((i + 1))
  eval "flags=\$flags_$i"
  file=${FILE:-blocked}
  rm -f "kernels/$file.lo" "kernels/.libs/$file.o"
  make -s -j"$(nproc)" NVCCFLAGS="$flags" tools/tileblas-bench >/dev/null 2>&1 || { echo "variant $flags: build failed"; continue; }
  echo "== kernels/$file.cu built with: $flags"
  t=
  for trans in ${TRANS:-NN TN}; do t="$t --trans $trans"; done
  shapes=
  for s in "$@"; do shapes="$shapes --shape $s"; done
  # shellcheck disable=SC2086
  ./tools/tileblas-bench --type "${TYPE:-s}" --no-cpu --kernels "${KERNELS:-block256}" $t $shapes
done
