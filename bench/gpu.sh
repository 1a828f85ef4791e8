#!/bin/sh
# bench/gpu.sh: tick's CL device on a GPU's OpenCL driver, beside tick's CPU
# device and pyopencl on the same GPU, ROUNDS rounds alternately, with the
# load before each run (docs/benchmarks.md, "OpenCL on a GPU"):
#   - per kernel of a JIT replay of ten 256-element launches, launch+finish
#     and enqueue only, tick against pyopencl on the same kernel (as cl.sh);
#   - throughput, synchronized per call, by the host's clock and by the
#     GPU's (profiling events): an elementwise chain at 16M, a sum at 16M,
#     matmul 1024, copies of 64 MiB each way; the same on tick's CPU device.
#
#   bench/gpu.sh [ROUNDS [CALLS]]       (defaults: 3 rounds, 2000 calls per sample)
#   GPU=CL:N bench/gpu.sh               pick the device (default: the first GPU)
#
# It needs a GPU's OpenCL driver (NVIDIA, AMD ROCm, Intel compute-runtime:
# `clinfo -l` must list a GPU) and /usr/bin/python3 with pyopencl and numpy.
# Without a GPU it says so and exits 2: pocl's OpenCL on the CPU is what
# bench/cl.sh measures, and its figures are not a GPU's. TICK_GPU_ANY=1 runs
# the suite on any OpenCL device (to check the script; figures labelled by
# the device line, never a GPU's).
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-3}
calls=${2:-2000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/clbench" ./bench/clbench
devs=$("$tmp/clbench" -list) || { echo "bench/gpu.sh: no OpenCL device (see the message above)" >&2; exit 2; }
gpu=${GPU:-$(printf '%s\n' "$devs" | awk -F'\t' '$2 ~ /, gpu\)$/ {print $1; exit}')}
if [ -z "$gpu" ]; then
	if [ "${TICK_GPU_ANY:-}" = 1 ]; then
		gpu=CL:0
	else
		echo "bench/gpu.sh: no GPU among the OpenCL devices:" >&2
		printf '%s\n' "$devs" | sed 's/^/  /' >&2
		echo "install the GPU's OpenCL driver (clinfo -l lists it), or set GPU=CL:N; pocl on the CPU is bench/cl.sh's" >&2
		exit 2
	fi
fi
index=${gpu#CL:}
[ "$index" != "$gpu" ] || index=0
echo "#device	$(printf '%s\n' "$devs" | awk -F'\t' -v d="$gpu" '$1 == d')"
echo "#driver	$(clinfo 2>/dev/null | grep -m1 'Platform Version' | sed 's/  */ /g')"
"$tmp/clbench" -device "$gpu" -kernel "$tmp/kernel" -calls 10 -samples 1 >/dev/null
for r in $(seq "$rounds"); do
	echo "#load	round $r tick $gpu: $(cut -d' ' -f1-3 /proc/loadavg)"
	"$tmp/clbench" -device "$gpu" -calls "$calls"
	echo "#load	round $r pyopencl: $(cut -d' ' -f1-3 /proc/loadavg)"
	CL_DEVICE_INDEX=$index /usr/bin/python3 bench/cl_pyopencl.py "$tmp/kernel" "$calls"
	echo "#load	round $r suite on $gpu: $(cut -d' ' -f1-3 /proc/loadavg)"
	"$tmp/clbench" -suite -device "$gpu" -samples 7
	echo "#load	round $r suite on CPU: $(cut -d' ' -f1-3 /proc/loadavg)"
	"$tmp/clbench" -suite -device CPU -samples 7
done
