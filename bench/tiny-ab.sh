#!/bin/bash
# Tiny calls through two builds of tileblas, timed in turn on the GPU host (the host-memory bench's OpenBLAS and
# tb-auto rows), to tell a change's cost from the machine's spread:
#   bash bench/tiny-ab.sh OLD.tar.gz NEW.tar.gz        (tarballs from `make dist`; results also in $OUT/ab.txt)
set -u
old=$1 new=$2
out=${OUT:-/tmp}
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/ab.txt"
build() { # tarball, directory
  rm -rf "$2" && mkdir -p "$2" && tar xzf "$1" -C "$2" && cd "$2"/*/ && ./configure -q >/dev/null 2>&1 &&
    make -j8 tools/tileblas-bench >"$2.log" 2>&1 && echo "built $2"
}
build "$old" /tmp/ab-old &
build "$new" /tmp/ab-new &
wait
for round in 1 2; do
  for v in old new; do
    echo "== $v (round $round)" | tee -a "$out/ab.txt"
    (cd /tmp/ab-$v/*/ && timeout 60 tools/tileblas-bench --host --type sd --shape 16 --shape 32 --shape 64 \
      --repeats 15 2>&1 | grep -E 'OpenBLAS|tb-auto' | tee -a "$out/ab.txt")
  done
done
