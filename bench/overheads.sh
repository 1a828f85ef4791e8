#!/bin/sh
# bench/overheads.sh: the runtime's per-call overheads, a base commit against
# the working tree, side by side in one run (docs/benchmarks.md, "Eager
# dispatch overhead" and issue 30's "Overheads"):
#
#   - bench/cpubench's overhead rows ("eager op": x.Add(1).Realize() on 256
#     float32, 100 ops then a synchronize; "JIT replay": a ten-kernel step of
#     256-element kernels replayed 100 times then a synchronize, per kernel),
#     CPU and GO devices, each a median over samples (bench/cpubench);
#   - numpy's x + 1 on 256 float32, timed by bench/cpu_numpy.py the same way;
#   - BenchmarkJITReplayVsEager (eager call of the ten-kernel step against its
#     replay: the "JIT replay vs eager" speedup);
#   - BenchmarkEagerAddSync and BenchmarkEagerOp on CPU and GO (issue 30's
#     eager op: a.Add(b).Realize() on 256 float32 synchronized after each
#     op, and x.Add(1).Realize() with a synchronize every 100 ops), with
#     -benchmem: wall ns/op, the process's CPU ns/op, B/op, allocs/op;
#     EAGER_COUNT (8) samples of EAGER_OPS (20000) ops per round, so the
#     summary's median is over samples, as cpubench's rows are (a mean over
#     one long run counts every time the loaded machine descheduled it);
#   - BenchmarkCPUCompileCold (gcc on a new 256-element elementwise kernel;
#     the tree's build only: the compiler, not tick, is what it times).
#
# base, tree and numpy run alternately for ROUNDS rounds with the load
# average printed before each; the summary gives every row's median over
# rounds with the rounds' min-max.
#
#   bench/overheads.sh [BASE_COMMIT [ROUNDS]]     (default: main, 5 rounds)
#
# Run it under nice on a shared machine (nice -n 10 bench/overheads.sh ...): every
# build and benchmark then runs niced, and the load printed is the machine's.
set -eu
base=${1:-main}
rounds=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PY=/usr/bin/python3

git -C "$root" archive "$base" | tar -x -C "$tmp"
(cd "$tmp" && go build -o "$tmp/base.cpubench" ./bench/cpubench && go test -c -o "$tmp/base.test" ./runtime/tensor)
(cd "$root" && go build -o "$tmp/new.cpubench" ./bench/cpubench && go test -c -o "$tmp/new.test" ./runtime/tensor &&
	go test -c -o "$tmp/render.test" ./runtime/render)

load() { cut -d' ' -f1-3 /proc/loadavg; }
out="$tmp/lines"
: >"$out"
for r in $(seq "$rounds"); do
	for b in base new; do
		echo "== round $r: $b (load $(load))"
		"$tmp/$b.cpubench" -only overheads -limits=false -cases 'eager op,JIT replay' | grep -v '^#' |
			sed "s/^/$b\t/" | tee -a "$out"
		(cd "$root/runtime/tensor" && "$tmp/$b.test" -test.run '^$' -test.bench 'JITReplayVsEager' -test.benchtime 200x) |
			awk -v b="$b" '/^Benchmark/ {for (i = 3; i < NF; i += 2) printf "%s\t%s\t%s\t%s\n", b, $1, $(i+1), $i}' | tee -a "$out"
		(cd "$root/runtime/tensor" && "$tmp/$b.test" -test.run '^$' -test.bench '^BenchmarkEager(AddSync|Op)$' \
			-test.benchtime "${EAGER_OPS:-20000}x" -test.count "${EAGER_COUNT:-8}" -test.benchmem) |
			awk -v b="$b" '/^Benchmark/ {for (i = 3; i < NF; i += 2) printf "%s\t%s\t%s\t%s\n", b, $1, $(i+1), $i}' | tee -a "$out"
	done
	echo "== round $r: numpy (load $(load))"
	if $PY -c 'import numpy' 2>/dev/null; then
		OPENBLAS_NUM_THREADS=1 $PY "$root/bench/cpu_numpy.py" --threads 1 -cases 'eager op' | grep -v '^#' |
			sed "s/^/numpy\t/" | tee -a "$out"
	fi
	echo "== round $r: cold compile (load $(load))"
	(cd "$root/runtime/render" && "$tmp/render.test" -test.run '^$' -test.bench 'CPUCompileCold' -test.benchtime 3x) |
		awk '/^Benchmark/ {for (i = 3; i < NF; i += 2) printf "new\t%s\t%s\t%s\n", $1, $(i+1), $i}' | tee -a "$out"
done
echo "== after (load $(load))"

echo "== summary: median over $rounds rounds, or over every sample for the eager benchmarks (min-max)"
$PY - "$out" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if len(f) == 7:  # build, case, size, impl, value, unit, work (cpubench, cpu_numpy.py)
        key, v = (f[1] + " " + f[2] + " " + f[3].replace("tick ", ""), f[0], f[5]), float(f[4])
    elif len(f) == 4:  # build, benchmark, metric, value (go test -bench)
        key, v = (f[1].split("-")[0], f[0], f[2]), float(f[3])
    else:
        continue
    rows.setdefault(key, []).append(v)
for (what, build, unit), vs in sorted(rows.items()):
    if unit == "ns/op" and "JITReplayVsEager" in what:  # its ns/op is a whole eager call and replay
        continue
    print(f"{what:45s} {build:5s} {statistics.median(vs):10.4g} ({min(vs):.4g}-{max(vs):.4g}) {unit}  n={len(vs)}")
EOF
