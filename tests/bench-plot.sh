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
# a name with a newline would end gnuplot's string and start a command: refused, nothing drawn or run
nl="x.png
system('touch $work/ran3')
set output 'y.png"
(cd "$work" && "$bench" --plot-csv "$csv" "$nl") 2>"$work/nl.err"
st=$?
[ $st = 2 ] && [ ! -e "$work/ran3" ] && [ ! -e "$work/y.png" ] ||
  { echo "FAIL: a PNG name with a newline: exit $st (2 wanted), or something ran"; cat "$work/nl.err"; ls "$work"; exit 1; }
"$bench" --plot "$nl" --shape 64 >/dev/null 2>&1; st=$?
[ $st = 2 ] || { echo "FAIL: --plot with a newline in the name: exit $st, not 2 before any timing"; exit 1; }
echo "PASS: a PNG name with a newline is refused (2)"
# what --csv writes for the complex types draws too
printf '%s\n' 'shape,trans,implementation,ms,tflops,vs_cuBLAS,max_rel_diff,type' \
  '64x64x64,CN,cuBLAS,0.010000,0.2,1,0.000e+00,z' '64x64x64,CN,cx-dmma,0.012000,0.17,0.83,1.0e-15,z' \
  '64x64x64,NN,cuBLAS,0.010000,0.2,1,0.000e+00,c' >"$work/complex.csv"
"$bench" --plot-csv "$work/complex.csv" "$work/complex.png" 2>"$work/complex.err" && [ -s "$work/complex.png" ] ||
  { echo "FAIL: --plot-csv of complex rows"; cat "$work/complex.err"; exit 1; }
echo "PASS: --plot-csv draws the complex types' rows"
# shapes and counts are decimal digits alone: what atoi would half-read is refused (2), before any GPU is looked at
for args in "--shape 1e3" "--shape 10x20" "--shape 0" "--shape 64x64x" "--shape 3000000000" "--repeats 3junk" \
  "--repeats 0" "--sweep 2x" "--big 1k"; do
  # shellcheck disable=SC2086
  "$bench" $args >/dev/null 2>&1; st=$?
  [ $st = 2 ] || { echo "FAIL: tileblas-bench $args: exit $st, not 2"; exit 1; }
done
echo "PASS: malformed shapes and counts are refused (2)"
# --help and --version: on stdout, exit 0 (both tools)
for tool in "$bench" "${top_builddir:-.}/tools/tileblas-calibrate"; do
  "$tool" --help >"$work/help" && grep -q '^usage:' "$work/help" || { echo "FAIL: $tool --help"; exit 1; }
  "$tool" --version >"$work/version" && grep -q '^tileblas-[a-z]* [0-9]' "$work/version" ||
    { echo "FAIL: $tool --version"; exit 1; }
done
echo "PASS: --help and --version of tileblas-bench and tileblas-calibrate"
# and their man pages name every option the tools take (roff's \- read as -)
man=${top_srcdir:-.}/doc
for opt in plot-csv help version repeats shape sweep; do
  tr -d '\\' <"$man/tileblas-bench.1" | grep -q -- "--$opt" || { echo "FAIL: tileblas-bench(1) does not name --$opt"; exit 1; }
done
for opt in stdout quick help version; do
  tr -d '\\' <"$man/tileblas-calibrate.1" | grep -q -- "--$opt" ||
    { echo "FAIL: tileblas-calibrate(1) does not name --$opt"; exit 1; }
done
echo "PASS: the man pages name --plot-csv, --help, --version and the other options"
