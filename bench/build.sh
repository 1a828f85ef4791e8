#!/usr/bin/env bash
# bench/build.sh — how long `go build ./cmd/tick` takes and how big the
# binary is, for two commits side by side (docs/benchmarks.md, "Building
# tick").
#
#   bench/build.sh [-n ROUNDS] [-flags LDFLAGS] [-floor] BASE [TREE]
#
# BASE and TREE are commits (TREE: HEAD). Each is exported with git archive
# into a temporary directory; then, ROUNDS times (3), alternately for BASE
# and TREE:
#   cold  `go build` with an empty build cache (GOCACHE in a fresh directory;
#         the module cache is the machine's: downloads are not timed), as on
#         a fresh machine: the standard library is compiled too;
#   warm  the same build again with that cache, the binary removed: only the
#         link (what a rebuild after a change costs, less the changed
#         packages);
#   noop  once more, the binary in place: what ./run.sh costs when nothing
#         changed.
# Each line gives wall time, CPU time (user+sys, from /usr/bin/time) and the
# 1-minute load before the build; the summary gives medians with min–max
# of wall and CPU time.
# -flags passes -ldflags (run.sh builds with "-s -w"). -floor adds, each
# round, a cold build of "std": a program that only imports the standard
# library packages TREE's cmd/tick depends on (the same packages compiled,
# none of tick's or its modules'): the floor of a cold build, since Go
# ships no compiled standard library.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=3 flags="" floor=""
while [ $# -gt 0 ]; do
  case $1 in
    -n) rounds=$2; shift 2 ;;
    -flags) flags=$2; shift 2 ;;
    -floor) floor=1; shift ;;
    -*) echo "usage: bench/build.sh [-n ROUNDS] [-flags LDFLAGS] [-floor] BASE [TREE]" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "usage: bench/build.sh [-n ROUNDS] [-flags LDFLAGS] [-floor] BASE [TREE]" >&2; exit 2; }
base=$(git rev-parse --short "$1") tree=$(git rev-parse --short "${2:-HEAD}")
t=$(mktemp -d)
trap 'chmod -R u+w "$t" 2>/dev/null; rm -rf "$t"' EXIT
for c in "$base" "$tree"; do
  mkdir -p "$t/src-$c" && git archive "$c" | tar -x -C "$t/src-$c"
  (cd "$t/src-$c" && go mod download)
done
if [ -n "$floor" ]; then # the standard library packages of TREE's cmd/tick, imported by an empty program
  mkdir -p "$t/src-std"
  printf 'module floor\n\ngo 1.26.0\n' >"$t/src-std/go.mod"
  { echo 'package main'; echo 'import ('
    (cd "$t/src-$tree" && go list -deps -f '{{if .Standard}}{{.ImportPath}}{{end}}' ./cmd/tick) |
      grep -v -e internal -e '^vendor/' -e '^unsafe$' -e '^C$' | sed 's/.*/\t_ "&"/'
    echo ')'; echo 'func main() {}'; } >"$t/src-std/main.go"
  mkdir -p "$t/src-std/cmd/tick" && mv "$t/src-std/main.go" "$t/src-std/cmd/tick/"
fi
echo "go build ./cmd/tick, -ldflags '$flags'; $(go version | cut -d' ' -f3); $(nproc) CPUs; base $base, tree $tree; $rounds rounds"
results=$t/results
build() { # COMMIT KIND GOCACHE
  local c=$1 kind=$2 cache=$3 load wall cpu
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f '%e %U %S' -o "$t/time" env GOCACHE="$cache" GOFLAGS=-buildvcs=false \
    go build -ldflags "$flags" -o "$t/tick-$c" ./cmd/tick 2>"$t/err" || { cat "$t/err" >&2; exit 1; }
  read -r wall u s <"$t/time"
  cpu=$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.1f", u+s}')
  printf '%-6s %-5s wall %7.1f s  cpu %7.1f s  size %5.1f MB  load %s\n' "$c" "$kind" "$wall" "$cpu" \
    "$(awk -v b="$(stat -c %s "$t/tick-$c")" 'BEGIN{printf "%.1f", b/1e6}')" "$load"
  echo "$c $kind $wall $cpu $(stat -c %s "$t/tick-$c")" >>"$results"
}
for r in $(seq "$rounds"); do
  for c in "$base" "$tree" ${floor:+std}; do
    cache=$t/cache-$c-$r
    ( cd "$t/src-$c"
      build "$c" cold "$cache"
      rm -f "$t/tick-$c"; build "$c" warm "$cache"
      build "$c" noop "$cache" )
    rm -rf "$cache"
  done
done
echo
echo "medians (min–max) over $rounds rounds; load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
for c in "$base" "$tree" ${floor:+std}; do
  for kind in cold warm noop; do
    awk -v c="$c" -v k="$kind" '$1==c && $2==k {w[n+0]=$3; u[n+0]=$4; n++; size=$5}
      function med(a, n,  i, j, t) { for (i=0;i<n;i++) for (j=i+1;j<n;j++) if (a[j]<a[i]) {t=a[i];a[i]=a[j];a[j]=t}
        return n%2 ? a[(n-1)/2] : (a[n/2-1]+a[n/2])/2 }
      END { mw=med(w,n); lo=w[0]; hi=w[n-1]; mu=med(u,n)
        printf "%-6s %-5s wall %6.1f s (%.1f–%.1f)  cpu %6.1f s (%.1f–%.1f)  size %.1f MB\n", c, k, mw, lo, hi, mu, u[0], u[n-1], size/1e6 }' "$results"
  done
done
