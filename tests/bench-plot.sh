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
# a PNG name is data, never a command: no shell between tileblas-bench and gnuplot
odd="it's \$(touch ran) \`touch ran2\`.png"
(cd "$work" && "$bench" --plot-csv "$csv" "$odd") || { echo "FAIL: --plot-csv with an odd name exited $?"; exit 1; }
[ -e "$work/ran" ] || [ -e "$work/ran2" ] && { echo "FAIL: the PNG's name was run as a command"; exit 1; }
[ -s "$work/$odd" ] && echo "PASS: a name with quotes, \$(...) and backquotes is just a name" ||
  { echo "FAIL: no PNG under the odd name"; ls "$work"; exit 1; }
# --help and --version: on stdout, exit 0 (both tools)
for tool in "$bench" "${top_builddir:-.}/tools/tileblas-calibrate"; do
  "$tool" --help >"$work/help" && grep -q '^usage:' "$work/help" || { echo "FAIL: $tool --help"; exit 1; }
  "$tool" --version >"$work/version" && grep -q '^tileblas-[a-z]* [0-9]' "$work/version" ||
    { echo "FAIL: $tool --version"; exit 1; }
done
echo "PASS: --help and --version of tileblas-bench and tileblas-calibrate"
