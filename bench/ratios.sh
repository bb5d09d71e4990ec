#!/bin/sh
# tileblas-bench's device-resident rows as tables for bench/RESULTS.md: one row a type and shape, one column an op
# pair, each cell a kernel's ratio to cuBLAS (the "x cuBLAS" column), so that long runs come back as a few lines.
#   sh bench/ratios.sh [IMPL...] < bench-output     (IMPL: the rows' impl names; default all but cuBLAS's own)
# With several IMPLs (or none), a cell holds each one's ratio in the order of the argument list (or of the output),
# separated by " / "; "-" where a row is missing.  A line starting "==" (bench/variants.sh's, one a build) ends
# one table and titles the next.  US=1: each cell the row's time in µs instead (the ratios of the shortest products
# move with cuBLAS's own spread).
awk -v want="$*" -v us="${US:-0}" '
function reset() {
    split("", seen); split("", seenop); split("", seenimpl); split("", r); split("", keys); split("", ops)
    nk = no = 0; ni = split(want, impls, " ")
}
function flush(   head, rule, names, k, o, i, kt, line, cell, v) {
    if (!nk) return
    head = "| type | shape |"; rule = "|---|---|"
    for (o = 1; o <= no; o++) { head = head " " ops[o] " |"; rule = rule "---|" }
    names = impls[1]; for (i = 2; i <= ni; i++) names = names " / " impls[i]
    if (title ~ /:$/) title = title " (nothing)"
    print (title != "" ? title "; " : "") (us ? "µs, " : "ratios to cuBLAS, ") names
    print head; print rule
    for (k = 1; k <= nk; k++) {
        split(keys[k], kt, " "); line = "| " kt[1] " | " kt[2] " |"
        for (o = 1; o <= no; o++) {
            cell = ""
            for (i = 1; i <= ni; i++) {
                v = (keys[k] SUBSEP ops[o] SUBSEP impls[i]) in r ? r[keys[k], ops[o], impls[i]] : "-"
                cell = cell (i > 1 ? " / " : "") v
            }
            line = line " " cell " |"
        }
        print line
    }
    printed = 1
}
BEGIN { reset() }
/^==/ { flush(); reset(); title = $0; sub(/^== */, "", title); sub(/ +$/, "", title); next }
$1 ~ /^[a-z]$/ && $2 ~ /^[0-9]+x[0-9]+x[0-9]+$/ && NF >= 7 {
    key = $1 " " $2
    if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
    if (!($3 in seenop)) { seenop[$3] = 1; ops[++no] = $3 }
    if ($4 !~ /^cuBLAS/ && !want && !($4 in seenimpl)) { seenimpl[$4] = 1; impls[++ni] = $4 }
    r[key, $3, $4] = us ? sprintf("%.1f", $5 * 1000) : $7
}
END { flush(); exit printed ? 0 : 1 }'
