#!/bin/sh
# The house's one direction (Makefile.am's layers): every quoted #include in base/, kernels/, lib/*/ and compat/
# names a header of its own layer or of one the layer may use, and the headers include no circle; then, on the
# objects built, no function of a layer calls into a layer it may not use, and no two modules call each other
# (directly or round a longer circle): a module is one .c (or .cu) file, and it calls another when it uses a
# symbol that one defines.  The cost model and the kernels' defaults have one reader, lib/decide/; the kernels'
# recipes are decided there and asked for by the launches alone.  And the budget of compile-time switches holds.
. "${top_srcdir:-.}/tests/preamble.sh"

# layer: the layers it may use (besides itself)
uses='base:
kernels: base
config: base kernels
obs: base kernels config
cpu: base kernels config obs
decide: base kernels config obs
gpu: base kernels config obs decide
core: base kernels config obs cpu decide gpu
compat: base kernels config obs cpu decide core'

# every source file with its layer: "LAYER PATH"
( cd "$srcdir" && find base include kernels lib compat -type f \( -name '*.[ch]' -o -name '*.cu' -o -name '*.cuh' \) ) |
  awk '{ split($0, p, "/"); l = p[1] == "lib" ? p[2] : p[1] == "include" ? "base" : p[1]; print l, $0 }' \
  | sort -k2 >"$work/files"
[ -s "$work/files" ] || fail "no sources under $srcdir"

# the headers' names are unique: an include names one file
awk '{ n = split($2, p, "/"); name = p[n] } name ~ /\.(h|cuh)$/ { if (seen[name]++) print name }' "$work/files" \
  >"$work/twice"
[ ! -s "$work/twice" ] || fail "headers of the same name in two places" "$work/twice"

# "FROM_LAYER FROM_PATH TO_LAYER TO_PATH" for every quoted include
while read -r layer path; do
  sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$srcdir/$path" | while read -r inc; do
    echo "$layer $path $inc"
  done
done <"$work/files" >"$work/includes"
awk 'NR == FNR { n = split($2, p, "/"); where[p[n]] = $1 " " $2; next }
     { n = split($3, p, "/"); t = where[p[n]]
       if (t == "") { if ($3 != "config.h") print "unknown: " $2 " includes " $3; next }
       print $1, $2, t }' "$work/files" "$work/includes" >"$work/edges"
grep '^unknown: ' "$work/edges" >"$work/unknown" && fail "includes of no file in the tree" "$work/unknown"

echo "$uses" >"$work/uses"
climbs() { # FILE of "FROM_LAYER ... TO_LAYER ..." (fields 1 and $2): the lines that break the rules
  awk -v tl="$2" 'NR == FNR { sub(":", "", $1); ok[$1 " " $1] = 1; known[$1] = 1
                              for (i = 2; i <= NF; i++) ok[$1 " " $i] = 1; next }
                  { if (!known[$1] || !known[$tl]) print "no layer: " $0; else if (!ok[$1 " " $tl]) print }' \
    "$work/uses" "$1"
}
climbs "$work/edges" 3 >"$work/bad"
[ ! -s "$work/bad" ] || fail "includes that climb (FROM_LAYER FILE TO_LAYER HEADER)" "$work/bad"
echo "PASS: $(wc -l <"$work/edges") includes, none climbs"

# a circle of headers (include guards hide one from the compiler)
circle() { # FILE of "A B" edges: prints one circle, if there is one
  awk '{ out[$1] = out[$1] " " $2; node[$1] = node[$2] = 1 }
       function visit(v,    k, n, e, i) {
         state[v] = 1; path[++depth] = v
         n = split(out[v], e, " ")
         for (i = 1; i <= n; i++) {
           if (state[e[i]] == 1) { for (k = 1; k <= depth; k++) if (path[k] == e[i]) break
                                   for (; k <= depth; k++) printf "%s -> ", path[k]; print e[i]; found = 1; return }
           if (!state[e[i]]) { visit(e[i]); if (found) return }
         }
         state[v] = 2; depth--
       }
       END { for (v in node) if (!state[v] && !found) visit(v) }' "$1"
}
awk '$2 ~ /\.(h|cuh)$/ { print $2, $4 }' "$work/edges" >"$work/hedges"
circle "$work/hedges" >"$work/hcircle"
[ ! -s "$work/hcircle" ] || fail "headers that include each other" "$work/hcircle"
echo "PASS: no circle of headers"

# experiments do not live on main: at most 10 compile-time switches (#ifndef TB_X, then #define TB_X VALUE) in
# kernels/, none elsewhere
( cd "$srcdir" && find base lib compat kernels -type f \( -name '*.[ch]' -o -name '*.cu' -o -name '*.cuh' \) |
  xargs awk 'prev != "" && $1 == "#define" && $2 == prev && NF > 2 { print FILENAME ": " prev }
             { prev = $1 == "#ifndef" && $2 ~ /^TB_/ ? $2 : "" }' ) | sort >"$work/switches"
grep -v '^kernels/' "$work/switches" >"$work/outside" && fail "compile-time switches outside kernels/" "$work/outside"
n=$(wc -l <"$work/switches")
[ "$n" -le 10 ] || fail "$n compile-time switches in kernels/ (at most 10)" "$work/switches"
echo "PASS: $n compile-time switches in kernels/, none elsewhere"

# launchers do not classify shapes: the arithmetic of the shape rules (kernels/recipe.h: waves, fill, slices) is
# not used in kernels/, whose launchers take the recipes lib/decide/recipes.c decides
( cd "$srcdir" && grep -l 'tb_fill_slices\|tb_fill(\|tb_waves(' kernels/*.cu kernels/*.cuh ) >"$work/classify" &&
  fail "launchers that choose by shape (lib/decide/recipes.c's job)" "$work/classify"
echo "PASS: launchers take their recipes (no shape rule's arithmetic in kernels/)"

# the objects: libtool's PIC ones of the library's layers and the GPU module's, "LAYER MODULE OBJECT"
find "$builddir/base" "$builddir/kernels" "$builddir/lib" "$builddir/compat" -path '*/.libs/*' -name 'lib*_la-*.o' \
  2>/dev/null | sed "s|^$builddir/||" | sort | awk '{ split($0, p, "/"); l = p[1] == "lib" ? p[2] : p[1]
  m = p[length(p)]; sub(/^lib[a-z_]*_la-/, "", m); sub(/\.o$/, "", m); print l, m, $0 }' >"$work/objects"
if ! command -v nm >/dev/null || [ ! -s "$work/objects" ]; then
  echo "SKIP (objects): no nm, or nothing built under $builddir"
  exit 0
fi
while read -r layer module object; do
  nm "$builddir/$object" | awk -v l="$layer" -v m="$module" \
    '$1 == "U" { print "U", l, m, $2 } NF == 3 && $2 ~ /^[TDBRV]$/ { print "D", l, m, $3 }'
done <"$work/objects" >"$work/symbols"
awk '$1 == "D" { def[$4] = $2 " " $3; next } { t = def[$4]; if (t != "") print $2, $3, t, $4 }' \
  "$work/symbols" "$work/symbols" | awk '$2 != $4' | sort -u >"$work/calls"
climbs "$work/calls" 3 >"$work/bad"
[ ! -s "$work/bad" ] || fail "calls that climb (FROM_LAYER MODULE TO_LAYER MODULE SYMBOL)" "$work/bad"
# one place decides: the cost model and the kernels' defaults are read in lib/decide/ alone
awk '$5 ~ /^(tb_cost_(predict|predict_cpu|kernel|link)|tb_spread_(plan|predict)|tb_kernel_default)$/ && $1 != "decide"' \
  "$work/calls" >"$work/deciders"
[ ! -s "$work/deciders" ] || fail "the cost model or the kernels' defaults read outside lib/decide/" "$work/deciders"
# and the kernels' recipes are asked for by the GPU side's launches alone (lib/gpu/cuda_ops.c)
awk '$5 ~ /^tb_decide_(recipe|kernel)$/ && $1 != "decide" && $2 != "cuda_ops"' "$work/calls" >"$work/recipes"
[ ! -s "$work/recipes" ] || fail "recipes decided outside lib/decide/ and the launches" "$work/recipes"
# the GPU side reads no configuration: lib/gpu/gpu.c, the library's loader, tells it (tb_gpu_settings)
awk '$5 ~ /^tb_config_/ && $1 == "gpu" && $2 != "gpu"' "$work/calls" >"$work/configured"
[ ! -s "$work/configured" ] || fail "the GPU side reading the configuration itself" "$work/configured"
awk '{ print $2, $4 }' "$work/calls" | sort -u >"$work/medges"
circle "$work/medges" >"$work/mcircle"
if [ -s "$work/mcircle" ]; then
  echo "calls on the circle:"; awk 'NR == FNR { n = split($0, c, " -> "); for (i = 1; i < n; i++) on[c[i] " " c[i + 1]] = 1; next }
    on[$2 " " $4]' "$work/mcircle" "$work/calls"
  fail "modules that call each other" "$work/mcircle"
fi
echo "PASS: $(wc -l <"$work/objects") objects, $(wc -l <"$work/medges") calls between modules; none climbs, no circle"
