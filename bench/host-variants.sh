#!/bin/sh
# Whole calls from host memory for each build-time variant of the library's host side, in turn, in one run:
#   sh bench/host-variants.sh "CPPFLAGS"... -- SHAPE...    (run in a configured and built tree; SHAPE: N or MxNxK)
# CPPFLAGS: definitions for lib/, e.g. a -D definition that a change under test reads; "" for the tree as it is.
# Each: `tileblas-bench --host --no-cpu` (OpenBLAS only for the reference) with TILEBLAS_VERBOSE=1, whose lines say
# where each call's host time went; TYPE (s, d or sd; default s) and REPEATS (default 5) choose what runs.  The
# tree is left built as it is.
set -u
n=0
while [ $# -gt 0 ] && [ "$1" != -- ]; do n=$((n + 1)); eval "flags_$n=\$1"; shift; done
[ $# -gt 0 ] && shift
shapes=
for s in "$@"; do shapes="$shapes --shape $s"; done
i=0
while [ $i -lt $n ]; do
  i=$((i + 1))
  eval "flags=\$flags_$i"
  find lib -name "*.c" -exec touch {} +
  make -s -j"$(nproc)" CPPFLAGS="$flags" >/dev/null 2>&1 || { echo "variant $flags: build failed"; continue; }
  echo "== lib/ built with: $flags"
  # shellcheck disable=SC2086
  TILEBLAS_VERBOSE=1 ./tools/tileblas-bench --host --no-cpu --type "${TYPE:-s}" --repeats "${REPEATS:-5}" $shapes 2>&1
done
find lib -name "*.c" -exec touch {} +
make -s -j"$(nproc)" >/dev/null 2>&1
