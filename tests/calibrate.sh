#!/bin/sh
# tileblas-calibrate writes a calibration with every parameter of the cost model, where -o says, and the library
# reads it back (TILEBLAS_CALIBRATION) without a warning and names it in the summary at exit.  Runs without a GPU
# (the GPU parameters then stay built in); SKIP (77) in a build without CUDA (no tileblas-calibrate).
set -u
builddir=${top_builddir:-.}
cal=$builddir/tools/tileblas-calibrate
[ -x "$cal" ] || { echo "SKIP: tileblas-calibrate is not built (no CUDA)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the default place: $XDG_CONFIG_HOME (here unset: ~/.config)/tileblas/calibration, its directories the user's alone
mkdir "$work/home"
HOME=$work/home XDG_CONFIG_HOME= "$cal" --quick >"$work/log" 2>&1 || { echo "FAIL: tileblas-calibrate exited $?"; cat "$work/log"; exit 1; }
cat "$work/log"
[ "$(stat -c %a "$work/home/.config")" = 700 ] && [ "$(stat -c %a "$work/home/.config/tileblas")" = 700 ] ||
  { echo "FAIL: the directories made in the user's place are not the user's alone (0700)"; ls -ld "$work/home/.config" "$work/home/.config/tileblas"; exit 1; }
mkdir "$work/sub" && mv "$work/home/.config/tileblas/calibration" "$work/sub/calibration"
grep -q "^wrote $work/home/.config/tileblas/calibration\$" "$work/log" || { echo "FAIL: not written to the default place"; exit 1; }
for name in gpu_call h2d_a h2d_b d2h gpu_rate gpu_half cpu_call cpu_rate cpu_half gpu_rate_tc gpu_half_tc \
  cpu_rate_c cpu_half_c cpu_rate_z cpu_half_z; do
  awk -v n=$name '$1 == n && $2 + 0 > 0 { found = 1 } END { exit !found }' "$work/sub/calibration" ||
    { echo "FAIL: no positive $name in the calibration"; cat "$work/sub/calibration"; exit 1; }
done
TILEBLAS_CALIBRATION=$work/sub/calibration TILEBLAS_VERBOSE=2 LD_PRELOAD=$builddir/.libs/libtileblas.so \
  "$builddir/examples/sgemm-demo" 100 >"$work/out" 2>"$work/err" || { echo "FAIL: sgemm-demo"; cat "$work/err"; exit 1; }
grep -q "^tileblas:  cost model of auto mode: $work/sub/calibration\$" "$work/err" &&
  ! grep -q "calibration file" "$work/err" || { echo "FAIL: the library did not take the calibration"; cat "$work/err"; exit 1; }
# auto mode logs the model's two predictions with each call it decides
[ "$(grep -c '(predicted gpu [0-9.]* ms, cpu [0-9.]* ms)$' "$work/err")" = 6 ] ||
  { echo "FAIL: predictions not logged"; cat "$work/err"; exit 1; }
"$cal" --bogus >/dev/null 2>&1; [ $? = 2 ] || { echo "FAIL: a bad option is not exit status 2"; exit 1; }
# a command line that cannot be carried out is refused at once, before any measuring (nothing on stdout)
for args in "-o ''" "-o $work/x --stdout" "--stdout -o $work/x" "-o"; do
  eval "\"\$cal\" --quick $args" >"$work/bad.out" 2>"$work/bad.err"
  st=$?
  [ $st = 2 ] && [ ! -s "$work/bad.out" ] && [ ! -e "$work/x" ] ||
    { echo "FAIL: tileblas-calibrate $args: exit $st (2 wanted), before measuring"; cat "$work/bad.out" "$work/bad.err"; exit 1; }
done
echo "PASS: calibration written, complete, and read back by the library"
