#!/bin/sh
# Rebuild the register-blocked kernels with other tile depths / blocks per SM and time each, side by side with cuBLAS.
#   sh bench/variants.sh "BK MINB" ... -- [kernel-bench arguments]    (run in a configured build tree)
# Each variant is compiled with -DTB_BLOCKED_BK=BK -DTB_BLOCKED_MINB=MINB; the tree is left with the last one.
set -u
variants=
while [ $# -gt 0 ] && [ "$1" != -- ]; do variants="$variants $(echo "$1" | tr ' ' ':')"; shift; done
[ $# -gt 0 ] && shift
for v in $variants; do
  bk=${v%%:*} minb=${v##*:}
  rm -f kernels/blocked.lo kernels/.libs/blocked.o
  make -s -j"$(nproc)" NVCCFLAGS="-DTB_BLOCKED_BK=$bk -DTB_BLOCKED_MINB=$minb" bench/kernel-bench >/dev/null 2>&1 ||
    { echo "variant BK=$bk MINB=$minb: build failed"; continue; }
  echo "== blocked kernels with BK=$bk, MINB=$minb"
  for trans in NN TN; do ./bench/kernel-bench --kernels "${KERNELS:-block128}" --trans $trans "$@"; done
done
