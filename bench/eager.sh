#!/bin/sh
# Eager dispatch overhead, side by side in one run (docs/benchmarks.md,
# "Eager dispatch overhead"): the runtime's eager benchmarks built from a
# base commit and from the working tree, and numpy's x + 1 on 256 float32,
# run alternately for ROUNDS rounds, with the load before each run; then
# TestEagerLoopRunsInBoundedMemory (40 eager ops on 16M float32, CPU) in a
# process of each build, alternately: its wall time and peak RSS.
#
#   bench/eager.sh [BASE_COMMIT [ROUNDS]]     (default: main, 3 rounds)
#
# The base tree gets this tree's runtime/tensor/eager_bench_test.go, so both
# run the same benchmarks. Needs /usr/bin/python3 with numpy for the numpy
# rows (skipped without it).
set -eu
base=${1:-main}
rounds=${2:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

git -C "$root" archive "$base" | tar -x -C "$tmp"
cp "$root/runtime/tensor/eager_bench_test.go" "$tmp/runtime/tensor/"
(cd "$tmp" && go test -c -o "$tmp/base.test" ./runtime/tensor)
(cd "$root" && go test -c -o "$tmp/new.test" ./runtime/tensor)

numpy_op() {
	/usr/bin/python3 - <<'EOF' 2>/dev/null || echo "numpy: unavailable"
import time, numpy as np
x = np.random.rand(256).astype(np.float32)
best = None
for _ in range(20):
    t0 = time.perf_counter()
    for _ in range(10000):
        x + 1
    d = (time.perf_counter() - t0) / 10000
    best = d if best is None else min(best, d)
print(f"numpy x + 1 (256 float32): {best * 1e9:.0f} ns/op (best of 20 x 10000)")
EOF
}

bench='^Benchmark(Eager(Op|AddSync|Chain3)|JITReplayTutorial|JITReplayKernel)$' # whole names: not BenchmarkEagerOpX
for r in $(seq "$rounds"); do
	for b in base new; do
		echo "== round $r: $b ($(cut -d' ' -f1-3 /proc/loadavg))"
		(cd "$root/runtime/tensor" && "$tmp/$b.test" -test.run '^$' -test.bench "$bench" -test.benchmem -test.benchtime 20000x) | grep '^Benchmark'
		(cd "$root/runtime/tensor" && "$tmp/$b.test" -test.run '^$' -test.bench 'JITReplayVsEager' -test.benchtime 200x) | grep '^Benchmark'
	done
	echo "== round $r: numpy ($(cut -d' ' -f1-3 /proc/loadavg))"
	numpy_op
done

echo "== 40 eager ops on 16M float32 (CPU), one process each: wall, peak RSS, peak buffers"
python3 - "$tmp/base.test" "$tmp/new.test" "$rounds" <<'EOF'
import os, subprocess, sys, time
for r in range(int(sys.argv[3])):
    for b in sys.argv[1:3]:
        load = open("/proc/loadavg").read().split()[0]
        t0 = time.time()
        p = subprocess.Popen([b, "-test.run", "^TestEagerLoopRunsInBoundedMemory$", "-test.v"],
                             stdout=subprocess.PIPE, text=True, cwd=os.path.dirname(b))
        out = p.stdout.read()
        _, _, ru = os.wait4(p.pid, 0)
        peak = [l.strip() for l in out.splitlines() if "peak memory" in l]
        print(f"{os.path.basename(b)}: wall {time.time() - t0:.2f} s, max RSS {ru.ru_maxrss / 1024:.0f} MB, {peak}, load {load}")
EOF
