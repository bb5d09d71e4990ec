#!/bin/bash
# A change's cost on the GPU host: two builds of tileblas side by side, each type's default kernel timed on the
# device (tileblas-bench --kernels) and whole calls from host memory (--host), the builds alternated twice; then,
# per type and row, the new build's speed over the old one's and their geometric means.
#   bash bench/ab.sh OLD.tar.gz NEW_TREE       (OLD: a `make dist` tarball; NEW_TREE: a built tree, e.g. the one
#                                               .gpu-stage/run leaves; results also in $OUT)
# SHAPES / HOST_SHAPES / REPEATS override the shapes (squares 1024-16384 and ten irregular ones) and samples.
set -u
old_tar=$1 new=$(cd "$2" && pwd)
out=${OUT:-/tmp/ab}
mkdir -p "$out"
t0=$(date +%s)
rm -rf /tmp/ab-old && mkdir -p /tmp/ab-old && tar xzf "$old_tar" -C /tmp/ab-old
(cd /tmp/ab-old/*/ && ./configure -q >/dev/null 2>&1 && make -j"$(nproc)" >/tmp/ab-old.log 2>&1) ||
  { tail -30 /tmp/ab-old.log; exit 1; }
old=$(echo /tmp/ab-old/*/)
echo "old built in $(($(date +%s) - t0)) s" | tee "$out/ab.txt"
shapes=${SHAPES:-1024 2048 4096 8192 16384 1000x3000x500 4097x4097x4097 777x5555x1234 8192x64x8192 64x8192x8192
  3000x3000x100 12000x1000x2000 2048x2048x16384 5000x7000x3000 1536x1536x1536}
host_shapes=${HOST_SHAPES:-1024 4096 8192 1000x3000x500 12000x1000x2000}
args() { for s in $1; do printf -- '--shape %s ' "$s"; done; }
for round in 1 2; do
  for v in new old; do
    dir=$new; [ $v = old ] && dir=$old
    for t in s d c z; do
      k=$(case $t in s) echo tc32 ;; d) echo dmma ;; c) echo c4m-tc32 ;; z) echo z4m-dmma ;; esac)
      # shellcheck disable=SC2046
      (cd "$dir" && tools/tileblas-bench --type $t $(args "$shapes") --kernels $k --repeats "${REPEATS:-5}" \
        --no-cpu) >"$out/dev-$t-$v-$round.txt" 2>&1
    done
    # shellcheck disable=SC2046
    (cd "$dir" && tools/tileblas-bench --host --type sdcz $(args "$host_shapes") --repeats "${REPEATS:-5}" \
      --no-cpu) >"$out/host-$v-$round.txt" 2>&1
    echo "round $round $v done at $(($(date +%s) - t0)) s" | tee -a "$out/ab.txt"
  done
done
# rows "type shape trans impl ms": the best of the two rounds per build, new/old speed per row, geometric means
rows() { cat "$out"/$1-*-$2-*.txt 2>/dev/null "$out"/$1-$2-*.txt 2>/dev/null |
  awk 'NF >= 7 && $4 != "cuBLAS" && $4 != "OpenBLAS" && $5 + 0 > 0 { k = $1 " " $2 " " $3 " " $4
       if (!(k in b) || $5 < b[k]) b[k] = $5 } END { for (k in b) print k, b[k] }' | sort; }
for kind in dev host; do
  join -j1 <(rows $kind new | awk '{ print $1 "_" $2 "_" $3 "_" $4, $5 }' | sort) \
    <(rows $kind old | awk '{ print $1 "_" $2 "_" $3 "_" $4, $5 }' | sort) |
    awk -v kind=$kind '{ r = $3 / $2; printf "%s %-40s new %10.4f old %10.4f ms  speed %.3f\n", kind, $1, $2, $3, r
         t = substr($1, 1, 1); s[t] += log(r); n[t]++ }
         END { for (t in s) printf "%s %s: geometric mean speed new/old %.4f over %d rows\n", kind, t, exp(s[t] / n[t]), n[t] }'
done | tee -a "$out/ab.txt"
