# Sourced by the shell tests: where things are, a scratch directory removed at exit, and fail().
#   builddir, srcdir: the build and source trees (automake's harness passes top_builddir and top_srcdir)
#   asan: the ASan runtime to preload in the sanitizer build (empty otherwise)
#   lib: what to put in LD_PRELOAD for tileblas (the ASan runtime first, where there is one)
#   work: the scratch directory
#   calls FILE: "CALLS ON_GPU" from the summary at exit in FILE; gemm_calls s|d|c|z FILE: the same for the sgemm,
#   dgemm, cgemm or zgemm names
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
# gemm_calls s|d|c|z FILE: "CALLS ON_GPU" of one type's entry points alone (a program's work in the other is apart)
gemm_calls() {
  awk -v name="$1gemm" '/^tileblas:  [a-z_0-9]*:$/ { s = index($2, name) > 0 }
       s && /^tileblas:   (GPU|CPU|quick return) / { for (i = 3; i <= NF; i++) if ($i == "calls") c = $(i - 1)
                                                    n += c; if ($2 == "GPU") g += c }
       END { print n + 0, g + 0 }' "$2"
}
