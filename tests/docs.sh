#!/bin/sh
# The manuals keep up with the code: every TILEBLAS_* variable the configuration reads (lib/config/env.c: each
# getenv) is in the README's table and in tileblas(7); the README stays a manual (at most 350 lines) and its links
# to files in the tree resolve.
. "${top_srcdir:-.}/tests/preamble.sh"
grep -o 'getenv("TILEBLAS_[A-Z0-9_]*")' "$srcdir/lib/config/env.c" | sed 's/.*"\(.*\)")/\1/' | sort -u >"$work/vars"
[ -s "$work/vars" ] || fail "no TILEBLAS_ variable found in lib/config/env.c"
# the configuration is the only reader of the environment
grep -rln 'getenv(' "$srcdir/base" "$srcdir/lib" "$srcdir/compat" "$srcdir/kernels" | grep -v '/lib/config/' \
  >"$work/readers" && fail "getenv outside lib/config/" "$work/readers"
while read -r v; do
  case $v in TILEBLAS_FAULT | TILEBLAS_RUN_PID) continue ;; esac # for tests and tileblas-run, not for users
  grep -q "\`$v\`" "$srcdir/README.md" || echo "README.md: $v"
  grep -q "^\.B $v\$" "$srcdir/doc/tileblas.7" || echo "doc/tileblas.7: $v"
done <"$work/vars" >"$work/missing"
[ ! -s "$work/missing" ] || fail "variables the manuals do not describe" "$work/missing"
lines=$(wc -l <"$srcdir/README.md")
[ "$lines" -le 350 ] || fail "README.md has $lines lines (a manual: at most 350)"
grep -o '](\([^)#:]*\)[)#]' "$srcdir/README.md" | sed 's/^](//; s/[)#]$//' | sort -u | while read -r f; do
  [ -e "$srcdir/$f" ] || echo "$f"
done >"$work/dead"
[ ! -s "$work/dead" ] || fail "README links to files that are not there" "$work/dead"
echo "PASS: $(wc -l <"$work/vars") variables described, README $lines lines, its links resolve"
