# The instructions of one function of `cuobjdump -sass` output (the first whose header matches pat), for
# bench/sass-reuse.sh and bench/sass-loop.sh: n of them, instruction i at address A[i], its text T[i] without its
# predicate (one that never runs, @!PT, as NOP); back(i): where the loop that instruction i closes begins (a
# backward branch), or -1.
function hex(h,    v, k) { v = 0; h = tolower(h); sub(/^0x/, "", h)
    for (k = 1; k <= length(h); k++) v = 16 * v + index("0123456789abcdef", substr(h, k, 1)) - 1
    return v }
function back(i,    lo) {
    if (T[i] !~ /^BRA/ || !match(T[i], /0x[0-9a-f]+/)) return -1
    lo = hex(substr(T[i], RSTART, RLENGTH))
    return lo < A[i] ? lo : -1 }
/Function :/ { if (infn) exit; if ($0 ~ pat) infn = 1; next }
infn && match($0, /\/\*[0-9a-f]+\*\//) {
    addr = hex(substr($0, RSTART + 2, RLENGTH - 4))
    text = substr($0, RSTART + RLENGTH); sub(/;.*/, "", text); sub(/^[ \t]+/, "", text)
    if (text ~ /^@!PT[ \t]/) text = "NOP"
    sub(/^@!?U?P[T0-9]+[ \t]+/, "", text)
    n++; A[n] = addr; T[n] = text
}
