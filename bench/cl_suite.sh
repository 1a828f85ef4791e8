#!/bin/sh
# bench/cl_suite.sh: the throughput suite on pocl (OpenCL on this machine's
# CPUs) beside tick's CPU device and the copy bandwidths it is judged
# against, alternately, ROUNDS rounds, with the load before each part
# (docs/benchmarks.md, "OpenCL throughput on pocl against the CPU device"):
#   - clbench -suite on CL, then on CPU: elementwise chain 16M (GB/s, read
#     + write), sum 16M, matmul N (GFLOP/s), copies host<->CL;
#   - pyopencl's clEnqueueCopyBuffer of 64 MiB on the same driver (the
#     device's own copy bandwidth, read + write);
#   - bench/cpubench -only limits, its 16M copy lines (the host's copy
#     bandwidth, as bench/cpu.sh measures it: the faster of memcpy and a
#     streaming copy, 1 and 2 threads).
#
#   bench/cl_suite.sh [ROUNDS [SAMPLES [N]]]   (defaults: 3 rounds, 5 samples, matmul 1024)
#   TICK_CL_MATMUL=tiled bench/cl_suite.sh       CL's local-memory tiles (default on pocl: register-blocked)
#
# Needs pocl (or another OpenCL driver), a C compiler for the CPU device and
# /usr/bin/python3 with pyopencl and numpy (scripts/install-deps.sh).
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-3}
samples=${2:-5}
n=${3:-1024}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/clbench" ./bench/clbench
go build -o "$tmp/cpubench" ./bench/cpubench
echo "#env	TICK_CL_MATMUL=${TICK_CL_MATMUL:-} (unset: the device type picks, register-blocked on a CPU device) TICK_FMA=${TICK_FMA:-}"
echo "#driver	$(clinfo 2>/dev/null | grep -m1 'Platform Version' | sed 's/  */ /g')"
load() { echo "#load	round $1 $2: $(cut -d' ' -f1-3 /proc/loadavg)"; }
for r in $(seq "$rounds"); do
	load "$r" "suite on CL"
	"$tmp/clbench" -suite -device CL -samples "$samples" -matmul "$n"
	load "$r" "suite on CPU"
	"$tmp/clbench" -suite -device CPU -samples "$samples" -matmul "$n"
	load "$r" "pyopencl copy buffer"
	/usr/bin/python3 bench/cl_copy_pyopencl.py "$samples"
	load "$r" "host copy (cpubench)"
	"$tmp/cpubench" -only limits | awk -F'\t' '$1 == "bandwidth" && $2 == "16M" && $3 ~ /^copy/'
done
