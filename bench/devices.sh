#!/bin/sh
# The several-GPU targets, side by side in one run (in a configured and built tree):
#   sh bench/devices.sh [SHAPE...]      (default 8192 16384; TYPE s, d or sd, default sd; ROUNDS, default 2)
# Whole calls from host memory (`tileblas-bench --host --no-cpu`: OpenBLAS only for the reference) with
# TILEBLAS_DEVICES=0 and with all devices, in turn, ROUNDS times; then each shape's tb-auto median for one device
# and for all, and their ratio.  Then device-pointer calls through the library (tb-call) on device 0 and on device
# 1 (tileblas-bench --device), with cuBLAS on the same device.
set -u
bench=./tools/tileblas-bench
type=${TYPE:-sd}
rounds=${ROUNDS:-2}
[ $# -gt 0 ] || set -- 8192 16384
shapes=
for s in "$@"; do shapes="$shapes --shape $s"; done
out=$(mktemp -d)
r=0
while [ $r -lt "$rounds" ]; do
  r=$((r + 1))
  for devs in 0 all; do
    echo "== round $r: TILEBLAS_DEVICES=$devs"
    # shellcheck disable=SC2086
    TILEBLAS_DEVICES=$devs TILEBLAS_VERBOSE=1 $bench --host --no-cpu --type "$type" $shapes --repeats 5 2>"$out/log" |
      tee -a "$out/$devs"
    grep -c -- '-> gpu devices ' "$out/log" | sed 's/^/   calls spread over several devices: /'
  done
done
echo "== tb-auto TFLOP/s, median of the rounds: one device, all, ratio"
for t in $(echo "$type" | sed 's/./& /g'); do
  for s in "$@"; do
    case $s in *x*) mnk=$s ;; *) mnk=${s}x${s}x${s} ;; esac
    one=$(awk -v t="$t" -v s="$mnk" '$1 == t && $2 == s && $4 ~ /^tb-auto/ {print $6}' "$out/0" | sort -g |
      awk '{v[NR] = $1} END {print NR ? v[int((NR + 1) / 2)] : "-"}')
    all=$(awk -v t="$t" -v s="$mnk" '$1 == t && $2 == s && $4 ~ /^tb-auto/ {print $6}' "$out/all" | sort -g |
      awk '{v[NR] = $1} END {print NR ? v[int((NR + 1) / 2)] : "-"}')
    echo "$t $mnk $one $all" | awk '{printf "%s %-18s %8s %8s %6s\n", $1, $2, $3, $4, ($3 > 0 && $4 > 0) ? sprintf("%.2f", $4 / $3) : "-"}'
  done
done
for d in 0 1; do
  echo "== device-pointer calls on device $d"
  # shellcheck disable=SC2086
  $bench --device $d --no-cpu --type "$type" --kernels call $shapes --repeats 5
done
rm -rf "$out"
