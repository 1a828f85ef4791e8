#!/bin/sh
# bench/streams/kernels.sh [ROUNDS]: tick's own kernels for Sum(0), Max(0)
# and Min(0) of a 4096×4096 float32 matrix, as the CPU device renders and
# compiles them (bench/streams/render, the device's compiler flags), timed
# in one process by bench/streams/streams.c against "one stream" and the
# loop of their layout ("tick's layout"), in the same rounds (default 9;
# medians of 7 passes each). Prints the same table as run.sh.
#
# BASE=COMMIT adds the same three kernels as that commit's renderer writes
# them (base-sum.so, ...; the working tree's bench/streams/render built
# against the commit's runtime): before and after, alternated in one
# process.
#
#   bench/streams/kernels.sh 9
#   BASE=8af3e53 bench/streams/kernels.sh 9
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d -t tick-kernels.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
CC=${CC:-cc}
flags=$(go run ./render -o "$tmp")
libs=""
for f in sum max min; do
	$CC $flags -o "$tmp/$f.so" "$tmp/$f.c"
	libs="$libs $tmp/$f.so"
done
if [ -n "${BASE:-}" ]; then
	mkdir "$tmp/base" "$tmp/basesrc"
	git -C "$(git rev-parse --show-toplevel)" archive "$BASE" | tar -x -C "$tmp/base"
	mkdir -p "$tmp/base/bench/streams" && rm -rf "$tmp/base/bench/streams/render" && cp -r render "$tmp/base/bench/streams/render"
	(cd "$tmp/base" && go run ./bench/streams/render -o "$tmp/basesrc" >/dev/null)
	for f in sum max min; do
		$CC $flags -o "$tmp/base-$f.so" "$tmp/basesrc/$f.c"
		libs="$libs $tmp/base-$f.so"
	done
fi
$CC -O3 -march=native -o "$tmp/streams" streams.c -ldl
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); kernel flags: $flags${BASE:+; base $BASE}"
# shellcheck disable=SC2086 # $libs is a list of paths without spaces (mktemp's)
"$tmp/streams" "${1:-9}" $libs | /usr/bin/python3 summary.py
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
