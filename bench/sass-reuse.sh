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
lines=$(cat "$(dirname "$0")/sass-lines.awk")
awk -v pat="${2:-.}" "$lines"'
END {
    for (i = 1; i <= n; i++) {
        if ((lo = back(i)) < 0) continue
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
