#!/bin/sh
# bench/cpu_ab.sh: tick's CPU and GO devices at a base commit and in the
# working tree, run alternately in one run (ROUNDS rounds, the order
# swapped every round, the load recorded before each run); then per case
# the median of each side's per-round figures (each a median over samples,
# bench/cpubench/timing.go) with their range, and new ÷ base computed per
# round (median and range). For a change that should not change speed, or
# to show what one did.
#
# Both sides are timed by the working tree's bench/cpubench (copied into
# the base's tree and built against the base's runtime), so a difference
# is the runtime's, not the harness's; when it does not build there (an
# API the base lacks), the base's own cpubench is used and the output says
# so.
#
# With ANCHOR=1 each round also runs numpy/OpenBLAS (bench/cpu_numpy.py)
# with GOMAXPROCS threads (OpenBLAS with the kernels of tick's ISA, as
# bench/cpu.sh sets them), and the table gives, per round, anchor ÷ base
# and anchor ÷ new (above 1: tick is faster): the before and after against
# numpy in one run. Run 1-thread comparisons with GOMAXPROCS=1.
#
#   bench/cpu_ab.sh [BASE_COMMIT [ROUNDS]] [-- cpubench flags]
#   bench/cpu_ab.sh main 5 -- -cases "relu(a*2+1),sum,matmul"
#   GOMAXPROCS=1 ANCHOR=1 bench/cpu_ab.sh main 5 -- -devices CPU -cases "softmax axis 1"
set -eu
base=${1:-main}
rounds=${2:-3}
[ $# -ge 2 ] && shift 2 || shift $#
[ "${1:-}" = "--" ] && shift
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$root" archive "$base" | tar -x -C "$tmp"
rm -rf "$tmp/bench/cpubench.base" && mv "$tmp/bench/cpubench" "$tmp/bench/cpubench.base"
cp -r "$root/bench/cpubench" "$tmp/bench/cpubench"
if (cd "$tmp" && go build -o "$tmp/base" ./bench/cpubench) 2>"$tmp/err"; then
	echo "#harness	the working tree's bench/cpubench on both sides"
else
	echo "#harness	the base's own bench/cpubench (the working tree's does not build there: $(head -1 "$tmp/err"))"
	(cd "$tmp" && go build -o "$tmp/base" ./bench/cpubench.base)
fi
(cd "$root" && go build -o "$tmp/new" ./bench/cpubench)
sides="base new"
anchor=${ANCHOR:-0}
threads=${GOMAXPROCS:-$(nproc)}
if [ "$anchor" = 1 ]; then
	sides="base new anchor"
	. "$root/bench/openblas_core.sh"
	core=$(openblas_core "$tmp/new")
	echo "#anchor	bench/cpu_numpy.py --threads $threads, OPENBLAS_CORETYPE=${core:-(auto)}"
fi
run() {
	case $1 in
	anchor) env -u OPENBLAS_L2_SIZE ${core:+OPENBLAS_CORETYPE=$core} OPENBLAS_NUM_THREADS=$threads /usr/bin/python3 "$root/bench/cpu_numpy.py" --threads "$threads" "$@" ;;
	*) b=$1; shift; "$tmp/$b" -limits=false "$@" ;;
	esac
}
for r in $(seq "$rounds"); do
	order=$sides
	[ $((r % 2)) = 0 ] && order=$(echo "$sides" | tr ' ' '\n' | tac | tr '\n' ' ')
	for b in $order; do
		echo "#load	round $r $b: $(cut -d' ' -f1-3 /proc/loadavg)"
		run "$b" "$@" | sed "s/^/$b	r$r	/"
	done
done | tee "$tmp/out"
/usr/bin/python3 - "$tmp/out" <<'PY'
import statistics, sys
rows, anchor = {}, {}
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if len(f) < 7 or f[0].startswith("#") or f[2].startswith("#"):
        continue
    side, rnd, case, size, impl, val, unit = f[:7]
    if side == "anchor":
        anchor.setdefault((case, size, unit), {})[rnd] = (impl, float(val))
        continue
    if not impl.startswith("tick "):
        continue
    rows.setdefault((case, size, impl, unit), {}).setdefault(side, {})[rnd] = float(val)
fmt = lambda v, unit: f"{statistics.median(v):.3g} ({min(v):.3g}–{max(v):.3g}) {unit}"
ratio = lambda r: f"{statistics.median(r):.2f} ({min(r):.2f}–{max(r):.2f})" if r else "-"
print()
head = "| case | size | device | base median (range) | new median (range) | new ÷ base per round (time: above 1 is slower), median (range) |"
if anchor:
    head += " anchor median (range) | anchor ÷ base | anchor ÷ new |"
print(head)
print("|---" * (head.count("|") - 1) + "|")
for (case, size, impl, unit), s in rows.items():
    if "base" not in s or "new" not in s:
        continue
    r = [s["new"][k] / s["base"][k] for k in s["new"] if k in s["base"] and s["base"][k]]
    line = (f"| {case} | {size} | {impl[5:]} | {fmt(list(s['base'].values()), unit)} | {fmt(list(s['new'].values()), unit)} "
            f"| {ratio(r)} |")
    if anchor:
        a = anchor.get((case, size, unit), {})
        if a and unit in ("us", "ms", "ns", "s"):
            av = {k: v for k, (_, v) in a.items()}
            name = next(iter(a.values()))[0]
            line += (f" {name}: {fmt(list(av.values()), unit)} | {ratio([av[k] / s['base'][k] for k in av if k in s['base']])} "
                     f"| {ratio([av[k] / s['new'][k] for k in av if k in s['new']])} |")
        else:
            line += " - | - | - |"
    print(line)
PY
