#!/bin/sh
# What a kernel's inner loops are made of: for each innermost loop (a backward branch) that holds a math
# instruction (DMMA, HMMA, FFMA, DFMA), its address range, its instruction count and the count of each opcode,
# most first; with -o, also the order of its loads, copies, barriers and MMAs (other instructions as counts between
# them), which shows where a loop's copies sit against its products (doc/NOTES.md compares kernels/cx.cu's
# builds this way).
#   sh bench/sass-loop.sh [-o] FILE.sass [PATTERN]
# FILE.sass: `cuobjdump -sass` output (of a .o from nvcc -c, or a .cubin); PATTERN: a regular expression for the
# function (default: the first).  cuobjdump need not run on a GPU machine.
set -eu
order=0
[ "${1:-}" = -o ] && { order=1; shift; }
[ $# -ge 1 ] || { echo "usage: sass-loop.sh [-o] FILE.sass [PATTERN]" >&2; exit 2; }
lines=$(cat "$(dirname "$0")/sass-lines.awk")
awk -v pat="${2:-.}" -v order="$order" "$lines"'
END {
    for (i = 1; i <= n; i++) # the loops, from LO[i] to A[i]
        if (back(i) >= 0) LO[i] = back(i)
    for (i = 1; i <= n; i++) {
        if (!(i in LO)) continue
        lo = LO[i]; inner = 0
        for (j in LO) if (j != i && LO[j] >= lo && A[j] <= A[i]) inner = 1
        if (inner) continue # the innermost loops only
        insts = math = 0; split("", count); seq = ""; misc = 0
        for (j = 1; j <= n; j++) {
            if (A[j] < lo || A[j] > A[i]) continue
            split(T[j], w, /[ \t]/); op = w[1]; base = op; sub(/\..*/, "", base)
            insts++; count[base]++
            if (base ~ /^(DMMA|HMMA|FFMA|DFMA)$/) math++
            if (base ~ /^(DMMA|HMMA|LDS|LDSM|LDGSTS|LDGDEPBAR|DEPBAR|BAR|BRA)$/) {
                if (misc) seq = seq " [" misc "]"
                seq = seq " " op; misc = 0
            } else misc++
        }
        if (!math) continue
        if (misc) seq = seq " [" misc "]"
        line = sprintf("loop %x-%x: %d instructions:", lo, A[i], insts)
        # opcodes by count, most first
        while (1) { best = ""; for (o in count) if (best == "" || count[o] > count[best]) best = o
            if (best == "") break; line = line " " best " " count[best]; delete count[best] }
        print line
        if (order) print "  order:" seq
    }
}' "$1"
