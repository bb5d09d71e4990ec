#!/bin/sh
# How often the FFMAs of a kernel's loops read all three operands from the register file (no hit in the operand
# reuse cache), the count that the FMA order of kernels/blocked.cu is chosen to keep low (doc/NOTES.md).
#   sh bench/sass-reuse.sh FILE.sass [PATTERN]
# FILE.sass: `cuobjdump -sass` output (of tools/tileblas-bench, or of a .cubin from `nvcc -cubin`); PATTERN: a regular
# expression for the function (default: the first function).  Prints, for every loop (a backward branch) with at
# least 256 FFMAs: its address range, instructions, FFMAs, the share of FFMAs with three register-file reads
# ("3-read"), and the share whose register-file reads include two registers of equal parity ("pair"; a likely bank
# conflict).  An operand counts as reused when the FFMA before it in the same slot had the same register marked
# .reuse; any other instruction in between clears that.  cuobjdump need not run on a GPU machine.
set -eu
[ $# -ge 1 ] || { echo "usage: sass-reuse.sh FILE.sass [PATTERN]" >&2; exit 2; }
awk -v pat="${2:-.}" '
function hex(h,    v, k) { v = 0; h = tolower(h); sub(/^0x/, "", h)
    for (k = 1; k <= length(h); k++) v = 16 * v + index("0123456789abcdef", substr(h, k, 1)) - 1
    return v }
/Function :/ { if (infn) exit; if ($0 ~ pat) infn = 1; next }
infn && match($0, /\/\*[0-9a-f]+\*\//) {
    addr = hex(substr($0, RSTART + 2, RLENGTH - 4))
    text = substr($0, RSTART + RLENGTH); sub(/;.*/, "", text); sub(/^[ \t]+/, "", text)
    sub(/^@!?U?P[T0-9]+[ \t]+/, "", text)
    n++; A[n] = addr; T[n] = text
}
END {
    for (i = 1; i <= n; i++) {
        if (T[i] !~ /^BRA/ || !match(T[i], /0x[0-9a-f]+/)) continue
        lo = hex(substr(T[i], RSTART, RLENGTH)); if (lo >= A[i]) continue
        insts = ffma = r3 = pair = 0; split("", prev)
        for (j = 1; j <= n; j++) {
            if (A[j] < lo || A[j] > A[i]) continue
            insts++
            if (T[j] !~ /^FFMA /) { split("", prev); continue }
            ffma++
            ops = T[j]; sub(/^FFMA /, "", ops); m = split(ops, o, /, */)
            reads = 0; split("", seen)
            for (s = 2; s <= 4 && s <= m; s++) {
                reg = o[s]; reuse = (reg ~ /\.reuse/); sub(/\.reuse/, "", reg)
                if (!((s in prev) && prev[s] == reg "+")) {
                    if (reg != "RZ") { reads++; par = substr(reg, 2) % 2; if (par in seen) hit = 1; seen[par] = 1 }
                }
                cur[s] = reg (reuse ? "+" : "")
            }
            if (reads == 3) r3++
            if (hit) pair++
            hit = 0
            for (s = 2; s <= 4; s++) prev[s] = cur[s]
        }
        if (ffma >= 256)
            printf "loop %x-%x: %d instructions, %d FFMA, 3-read %.1f%%, pair %.1f%%\n", lo, A[i], insts, ffma,
                   100 * r3 / ffma, 100 * pair / ffma
    }
}' "$1"
