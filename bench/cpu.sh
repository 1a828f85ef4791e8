#!/bin/sh
# bench/cpu.sh: tick's CPU and GO devices against numpy (OpenBLAS), numexpr,
# gonum and this machine's measured peak FLOP/s and memory bandwidth,
# interleaved in one run (ROUNDS rounds of: cpubench, tick's matmul without
# FMA, numpy, OpenBLAS with the kernels forced), then a Markdown table of
# medians (docs/benchmarks.md) and, with CHART=file.png, a chart of the
# ratios (bench/cpuchart).
#
#   bench/cpu.sh            # full run, ~10 minutes on 2 cores
#   bench/cpu.sh --quick    # smoke run
#   ROUNDS=5 TICK_MARCH=x86-64-v3 bench/cpu.sh   # AVX2 kernels on an AVX-512 host
#   CHART=docs/images/cpu-bench.png bench/cpu.sh
#
# Installs Debian's python3-numpy, python3-numexpr and OpenBLAS with apt when
# missing (as root). OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are unset for the
# numpy runs so OpenBLAS picks its kernels itself; the table records which.
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
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
# The matmul-only runs (no FMA, OpenBLAS with its kernels forced) are left
# out when -cases names no matmul case.
matmul=1
case "$*" in *-cases*) case "$*" in *matmul*) ;; *) matmul=0 ;; esac ;; esac
{
	echo "#cpu	$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
	echo "#flags	$(grep -m1 -o -w -E 'avx512f|avx2|fma|neon|asimd' /proc/cpuinfo | sort -u | tr '\n' ' ')"
	echo "#cache	$(lscpu | grep -E '^L(1d|2|3) cache' | sed 's/  */ /g' | tr '\n' ';' | sed 's/;$//')"
	echo "#go	$(go version)"
	echo "#command	${TICK_MARCH:+TICK_MARCH=$TICK_MARCH }${ROUNDS:+ROUNDS=$ROUNDS }bench/cpu.sh $*"
	i=1
	while [ $i -le "$ROUNDS" ]; do
		echo "#load	round $i: $(cut -d' ' -f1-3 /proc/loadavg)"
		"$OUT.bin" "$@"
		[ $matmul = 0 ] || TICK_FMA=0 "$OUT.bin" "$@" -matmul-only "tick CPU no FMA"
		env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE $PY bench/cpu_numpy.py "$@" 2>/dev/null
		[ $matmul = 0 ] || for core in Haswell SkylakeX; do
			env -u OPENBLAS_L2_SIZE OPENBLAS_CORETYPE=$core $PY bench/cpu_numpy.py "$@" --matmul-only "OpenBLAS $core" 2>/dev/null
		done
		i=$((i + 1))
	done
} | tee "$OUT"
rm -f "$OUT.bin"
echo
$PY bench/cpu_report.py "$OUT" ${CHART:+--ratios "$OUT.ratios"}
if [ -n "${CHART:-}" ]; then
	go run ./bench/cpuchart -o "$CHART" "$OUT.ratios"
	echo "chart: $CHART"
fi
