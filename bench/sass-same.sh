#!/bin/sh
# Whether two builds compile to the same machine code, function by function: for each function of two
# `cuobjdump -sass` outputs whose name matches PATTERN, "same", "differs" (with both instruction counts), or in one
# output only; then how many are the same.  Addresses, encodings and spacing are left out of the compare, and so is
# the hash that nvcc puts in the names of an anonymous namespace (it depends on the source's path, so a file built
# from another checkout compares too).  Exit status 0 when every function is in both and the same.
#   sh bench/sass-same.sh A.sass B.sass [PATTERN]
# (Used to check that an option to time leaves the default build's kernels as they were: doc/NOTES.md.)
set -eu
[ $# -ge 2 ] || { echo "usage: sass-same.sh A.sass B.sass [PATTERN]" >&2; exit 2; }
# one line a function: its name, then its instructions (predicates kept) joined by ";"
flat() {
    awk -v pat="${1}" '
        BEGIN { h = "[0-9a-f]"; hash = "_GLOBAL__N__" h "+_[0-9]+_[A-Za-z0-9]+_cu_" h h h h h h h h }
        /Function :/ { name = $3; gsub(hash, "_GLOBAL__N_", name)
                       keep = name ~ pat; if (keep) { order[++n] = name; code[name] = "" } next }
        keep && match($0, /\/\*[0-9a-f]+\*\//) {
            text = substr($0, RSTART + RLENGTH); sub(/;.*/, "", text); gsub(/[ \t]+/, " ", text)
            sub(/^ /, "", text); sub(/ $/, "", text)
            if (text != "") { code[name] = code[name] text ";"; count[name]++ }
        }
        END { for (i = 1; i <= n; i++) print order[i] "\t" count[order[i]] + 0 "\t" code[order[i]] }' "$2"
}
pat=${3:-.}
a=$(mktemp) b=$(mktemp)
trap 'rm -f "$a" "$b"' EXIT
flat "$pat" "$1" >"$a"
flat "$pat" "$2" >"$b"
awk -F '\t' '
    NR == FNR { n[$1] = $2; c[$1] = $3; order[++k] = $1; next }
    { if (!($1 in c)) { print "only in B: " $1; onlyb++; next }
      seen[$1] = 1
      if (c[$1] == $3) { print "same: " $1; same++ }
      else print "differs (" n[$1] " vs " $2 " instructions): " $1 }
    END { for (i = 1; i <= k; i++) if (!(order[i] in seen)) print "only in A: " order[i]
          printf "%d of %d functions the same\n", same, k + onlyb
          exit (same < k + onlyb) }' "$a" "$b"
