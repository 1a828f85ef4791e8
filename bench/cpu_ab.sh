#!/bin/sh
# bench/cpu_ab.sh: the bench/cpubench suite (tick's CPU and GO devices)
# built from a base commit and from the working tree, run alternately in one
# run, ROUNDS rounds, with the load before each run; then per case the
# median of each side's per-round results, their range, and new/base.
# For a change that should not change speed (docs/benchmarks.md, "Device
# layer: before and after").
#
#   bench/cpu_ab.sh [BASE_COMMIT [ROUNDS]] [-- cpubench flags]
#   bench/cpu_ab.sh main 5 -- -cases "relu(a*2+1),sum,matmul f32"
#
# cpubench flags are passed to both builds (-quick, -cases); the base must
# have the flags used.
set -eu
base=${1:-main}
rounds=${2:-3}
[ $# -ge 2 ] && shift 2 || shift $#
[ "${1:-}" = "--" ] && shift
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$root" archive "$base" | tar -x -C "$tmp"
(cd "$tmp" && go build -o "$tmp/base" ./bench/cpubench)
(cd "$root" && go build -o "$tmp/new" ./bench/cpubench)
for r in $(seq "$rounds"); do
	for b in base new; do
		echo "#load	round $r $b: $(cut -d' ' -f1-3 /proc/loadavg)"
		"$tmp/$b" "$@" | sed "s/^/$b	/"
	done
done | tee "$tmp/out"
/usr/bin/python3 - "$tmp/out" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if len(f) != 6 or f[1].startswith("#") or not f[1] or f[1] in ("peak", "limit"):
        continue
    side, case, size, impl, val, unit = f
    if not impl.startswith("tick "):
        continue
    rows.setdefault((case, size, impl, unit), {}).setdefault(side, []).append(float(val))
print()
print("| case | size | device | base median (range) | new median (range) | new/base |")
print("|---|---|---|---|---|---|")
for (case, size, impl, unit), s in rows.items():
    if "base" not in s or "new" not in s:
        continue
    b, n = statistics.median(s["base"]), statistics.median(s["new"])
    fmt = lambda v: f"{statistics.median(v):.3g} ({min(v):.3g}–{max(v):.3g}) {unit}"
    ratio = f"{n / b:.2f}" if b else "-"
    print(f"| {case} | {size} | {impl[5:]} | {fmt(s['base'])} | {fmt(s['new'])} | {ratio} |")
PY
