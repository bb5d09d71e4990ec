#!/bin/sh
# Rebuild the block128 kernel with other tile depths / blocks per SM and time each, side by side with cuBLAS.
#   sh bench/variants.sh "BK MINB" ... -- [kernel-bench arguments]    (run in a configured build tree)
# Each variant is compiled with -DTB_BLOCK128_BK=BK -DTB_BLOCK128_MINB=MINB; the tree is left with the last one.
set -u
variants=
while [ $# -gt 0 ] && [ "$1" != -- ]; do variants="$variants $(echo "$1" | tr ' ' ':')"; shift; done
[ $# -gt 0 ] && shift
for v in $variants; do
  bk=${v%%:*} minb=${v##*:}
  rm -f kernels/block128.lo kernels/.libs/block128.o
  make -s -j"$(nproc)" NVCCFLAGS="-DTB_BLOCK128_BK=$bk -DTB_BLOCK128_MINB=$minb" bench/kernel-bench >/dev/null 2>&1 ||
    { echo "variant BK=$bk MINB=$minb: build failed"; continue; }
  echo "== block128 with BK=$bk, MINB=$minb"
  for trans in NN TN; do ./bench/kernel-bench --kernels block128 --trans $trans "$@"; done
done
