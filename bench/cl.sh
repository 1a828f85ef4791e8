#!/bin/sh
# bench/cl.sh: tick's CL device against pyopencl on the same OpenCL kernel
# and driver, alternately, ROUNDS rounds, with the load before each run
# (docs/benchmarks.md, "OpenCL"): per kernel of a JIT replay of ten
# 256-element launches, launch+finish and enqueue-only, and tick's eager op.
#
#   bench/cl.sh [ROUNDS [CALLS]]      (defaults: 3 rounds, 2000 calls per sample)
#
# Needs an OpenCL driver (pocl-opencl-icd here) and /usr/bin/python3 with
# pyopencl and numpy (scripts/install-deps.sh installs them).
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-3}
calls=${2:-2000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/clbench" ./bench/clbench
"$tmp/clbench" -kernel "$tmp/kernel" -calls 10 -samples 1 >/dev/null
echo "#driver	$(clinfo 2>/dev/null | grep -m1 'Platform Version' | sed 's/  */ /g')"
for r in $(seq "$rounds"); do
	echo "#load	round $r tick: $(cut -d' ' -f1-3 /proc/loadavg)"
	"$tmp/clbench" -calls "$calls"
	echo "#load	round $r pyopencl: $(cut -d' ' -f1-3 /proc/loadavg)"
	/usr/bin/python3 bench/cl_pyopencl.py "$tmp/kernel" "$calls"
done
