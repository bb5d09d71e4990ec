# Sourced by the shell tests: where things are, a scratch directory removed at exit, and fail().
#   builddir, srcdir: the build and source trees (automake's harness passes top_builddir and top_srcdir)
#   asan: the ASan runtime to preload in the sanitizer build (empty otherwise)
#   lib: what to put in LD_PRELOAD for tileblas (the ASan runtime first, where there is one)
#   work: the scratch directory
#   calls FILE: "CALLS ON_GPU" from the summary at exit in FILE; routine_calls ROUTINE FILE [PREFIX], gemm_calls
#   s|d|c|z FILE [PREFIX]: the same for one routine's names, as dsyrk, or one type's GEMM (those that start with PREFIX)
#   auto_then_gpu COUNTER LABEL N CMD...: CMD under tileblas in auto mode, then forced on the GPU where one is usable
#   (COUNTER FILE: "CALLS ON_GPU" of the calls that count, in the summary in FILE): N calls in each, all N on the GPU
set -u
builddir=${top_builddir:-.}
srcdir=${top_srcdir:-.}
asan=${ASAN_PRELOAD:-}
lib="${asan:+$asan }$builddir/.libs/libtileblas.so"
# the sanitizer build: what the program itself leaks at exit is not ours to report
[ -z "$asan" ] || export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $1"; shift; [ $# = 0 ] || cat "$@"; exit 1; }
calls() { sed -n 's/^tileblas:  total: \([0-9]*\) calls, \([0-9]*\) on the GPU.*/\1 \2/p' "$1"; }
# routine_calls ROUTINE FILE [PREFIX]: "CALLS ON_GPU" of one routine's entry points alone (dgemm, csyrk: a
# program's work in the others is apart), or of those of them whose names start with PREFIX; gemm_calls s|d|c|z
# FILE [PREFIX]: those of one type's GEMM
gemm_calls() { routine_calls "$1gemm" "$2" "${3:-}"; }
routine_calls() {
  awk -v name="$1" -v prefix="${3:-}" '/^tileblas:  [a-z_0-9]*:$/ { s = index($2, name) > 0 && index($2, prefix) == 1 }
       s && /^tileblas:   (GPU|CPU|quick return) / { for (i = 3; i <= NF; i++) if ($i == "calls") c = $(i - 1)
                                                    n += c; if ($2 == "GPU") g += c }
       END { print n + 0, g + 0 }' "$2"
}

auto_then_gpu() {
  counter=$1 label=$2 n=$3
  shift 3
  LD_PRELOAD=$lib TILEBLAS_SUMMARY=1 "$@" >"$work/auto" 2>"$work/auto.err" ||
    fail "$label: under tileblas, auto mode" "$work/auto" "$work/auto.err"
  counts=$($counter "$work/auto.err")
  [ "${counts% *}" = "$n" ] || fail "$label: auto mode: $n calls, tileblas saw ${counts% *}" "$work/auto.err"
  echo "PASS: $label: auto mode: $n calls, ${counts#* } of them on the GPU, within the bound: $(cat "$work/auto")"
  if grep -q '^tileblas:  GPU: none usable' "$work/auto.err"; then
    echo "SKIP: $label: GPU path (no usable GPU)"
    return 0
  fi
  LD_PRELOAD=$lib TILEBLAS_SUMMARY=1 TILEBLAS_MODE=gpu "$@" >"$work/gpu" 2>"$work/gpu.err" ||
    fail "$label: under tileblas, GPU path" "$work/gpu" "$work/gpu.err"
  [ "$($counter "$work/gpu.err")" = "$n $n" ] || fail "$label: GPU path: not all $n on the GPU" "$work/gpu.err"
  echo "PASS: $label: GPU path: $n calls on the GPU, within the bound: $(cat "$work/gpu")"
}
