#!/bin/sh
# Eager dispatch overhead, side by side in one run (docs/benchmarks.md,
# "Eager dispatch overhead"): the runtime's eager benchmarks built from a
# base commit and from the working tree, and numpy's x + 1 on 256 float32,
# run alternately for ROUNDS rounds, with the load before each run.
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

bench='Eager(Op|AddSync|Chain3)|JITReplayTutorial|JITReplayKernel'
for r in $(seq "$rounds"); do
	for b in base new; do
		echo "== round $r: $b ($(cut -d' ' -f1-3 /proc/loadavg))"
		(cd "$root/runtime/tensor" && "$tmp/$b.test" -test.run '^$' -test.bench "$bench" -test.benchmem -test.benchtime 20000x) | grep '^Benchmark'
		(cd "$root/runtime/tensor" && "$tmp/$b.test" -test.run '^$' -test.bench 'JITReplayVsEager' -test.benchtime 200x) | grep '^Benchmark'
	done
	echo "== round $r: numpy ($(cut -d' ' -f1-3 /proc/loadavg))"
	numpy_op
done
