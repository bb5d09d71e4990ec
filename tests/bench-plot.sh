#!/bin/sh
# tileblas-bench --plot-csv draws a PNG chart from a CSV of an earlier run (bench/2026-11-29-h200-default.csv, made
# on the H200).  Needs no GPU; SKIP (77) in a build without CUDA (no tileblas-bench) or without gnuplot.
set -u
bench=${top_builddir:-.}/tools/tileblas-bench
csv=${top_srcdir:-.}/bench/2026-11-29-h200-default.csv
[ -x "$bench" ] || { echo "SKIP: tileblas-bench is not built (no CUDA)"; exit 77; }
command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: no gnuplot (apt-get install gnuplot-nox)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bench" --plot-csv "$csv" "$work/chart.png" || { echo "FAIL: --plot-csv exited $?"; exit 1; }
if head -c 8 "$work/chart.png" | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a'; then
  echo "PASS: chart drawn ($(wc -c <"$work/chart.png") bytes of PNG)"
else
  echo "FAIL: no PNG"; exit 1
fi
"$bench" --plot-csv /nonexistent.csv "$work/x.png" 2>/dev/null
[ $? = 2 ] && echo "PASS: a missing CSV is an error (2)" || { echo "FAIL: missing CSV not reported"; exit 1; }
