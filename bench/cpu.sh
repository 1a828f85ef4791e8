#!/bin/sh
# bench/cpu.sh: tick's CPU and GO devices against numpy, OpenBLAS (with the
# kernels of the instruction set tick's kernels use) and this machine's
# measured limits, in one run of ROUNDS rounds. A round runs, in an order
# that alternates between rounds: cpubench with 2 threads (the limits, the
# CPU and GO devices), OpenBLAS matmuls and numexpr with 2 threads, cpubench
# with 1 thread (CPU device), numpy and OpenBLAS with 1 thread. Every figure
# is a median over samples (bench/cpubench/timing.go); the report
# (bench/cpu_report.py) gives per case the median over rounds with the
# min–max range, and ratios computed within each round (tick against
# numpy/OpenBLAS with the same number of threads, against the limit measured
# with the same threads and size), then their median and range. With
# CHART=file.png it also draws the ratios (bench/cpuchart).
#
#   bench/cpu.sh                  # full run, ~10 minutes on 2 cores
#   bench/cpu.sh --quick          # smoke run
#   bench/cpu.sh -cases "sum,max,matmul"
#   ROUNDS=5 TICK_MARCH=x86-64-v3 bench/cpu.sh   # AVX2 kernels on an AVX-512 host
#
# OpenBLAS 0.3.21 does not recognize every CPU (on an Intel Xeon of 2023 it
# falls back to its Prescott (SSE3) kernels); the run forces the kernel set
# of the same instruction set as tick's kernels (SkylakeX for AVX-512,
# Haswell for AVX2) unless OPENBLAS_CORETYPE is set, and the table records
# it. Installs Debian's python3-numpy, python3-numexpr and OpenBLAS with apt
# when missing (as root).
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}
PY=/usr/bin/python3
OUT=${OUT:-$(mktemp -t tick-cpubench.XXXXXX)}
need=0
$PY -c 'import numpy, numexpr' 2>/dev/null || need=1
ls -d /usr/lib/*/openblas-pthread >/dev/null 2>&1 || need=1
if [ $need = 1 ]; then
	if [ "$(id -u)" = 0 ]; then
		apt-get install -y python3-numpy python3-numexpr libopenblas0-pthread >/dev/null
	else
		echo "bench/cpu.sh: install python3-numpy python3-numexpr libopenblas0-pthread (apt) first" >&2
	fi
fi
go build -o "$OUT.bin" ./bench/cpubench
. bench/openblas_core.sh
core=$(openblas_core "$OUT.bin")
load() { echo "#load	round $1 $2: $(cut -d' ' -f1-3 /proc/loadavg)"; }
# Each takes the round number, then the flags given to bench/cpu.sh.
tick2() { r=$1; shift; load $r "tick 2T"; GOMAXPROCS=2 "$OUT.bin" "$@"; }
tick1() { r=$1; shift; load $r "tick 1T"; GOMAXPROCS=1 "$OUT.bin" -devices CPU -limits=false "$@"; }
blas2() {
	r=$1; shift; load $r "numpy 2T"
	env -u OPENBLAS_L2_SIZE OPENBLAS_CORETYPE=$core OPENBLAS_NUM_THREADS=2 $PY bench/cpu_numpy.py --threads 2 --matmul-only "$@"
}
blas1() {
	r=$1; shift; load $r "numpy 1T"
	env -u OPENBLAS_L2_SIZE OPENBLAS_CORETYPE=$core OPENBLAS_NUM_THREADS=1 $PY bench/cpu_numpy.py --threads 1 "$@"
}
{
	echo "#cpu	$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
	echo "#flags	$(grep -m1 -o -w -E 'avx512f|avx2|fma|neon|asimd' /proc/cpuinfo | sort -u | tr '\n' ' ')"
	echo "#cache	$(lscpu | grep -E '^L(1d|2|3) cache' | sed 's/  */ /g' | tr '\n' ';' | sed 's/;$//')"
	echo "#go	$(go version)"
	echo "#commit	$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (modified)')"
	echo "#command	${TICK_MARCH:+TICK_MARCH=$TICK_MARCH }ROUNDS=$ROUNDS bench/cpu.sh $*"
	echo "#openblas	OPENBLAS_CORETYPE=${core:-(auto)}"
	i=1
	while [ $i -le "$ROUNDS" ]; do
		if [ $((i % 2)) = 1 ]; then
			tick2 $i "$@"; blas2 $i "$@"; tick1 $i "$@"; blas1 $i "$@"
		else
			blas1 $i "$@"; tick1 $i "$@"; blas2 $i "$@"; tick2 $i "$@"
		fi
		i=$((i + 1))
	done
} 2>&1 | tee "$OUT"
rm -f "$OUT.bin"
echo
$PY bench/cpu_report.py "$OUT" ${CHART:+--ratios "$OUT.ratios"}
echo "raw results: $OUT"
if [ -n "${CHART:-}" ]; then
	go run ./bench/cpuchart -o "$CHART" "$OUT.ratios"
	echo "chart: $CHART"
fi
