#!/bin/sh
# bench/mlp.sh: one training step of an MLP 784-256-10 (ReLU, softmax
# cross-entropy, Adam), batch 128, float32 — tick's CPU and GO devices (and
# CL when it is registered and available) against the same step in numpy
# with the backward pass written by hand — in one run: ROUNDS rounds of each
# implementation in turn, on the same initial weights and batches, with the
# machine's peak FLOP/s measured before and after (bench/cpubench -cases
# peak). Then a Markdown table of medians over rounds with their range
# (bench/mlp_report.py), for docs/benchmarks.md.
#
#   bench/mlp.sh            # 5 rounds, a few minutes on 2 cores
#   bench/mlp.sh --quick    # smoke run: 2 rounds, fewer samples
set -eu
cd "$(dirname "$0")/.."
PY=/usr/bin/python3
ROUNDS=${ROUNDS:-5}
quick=""
case "${1:-}" in --quick) quick=--quick; ROUNDS=${ROUNDS_QUICK:-2} ;; esac
$PY -c 'import numpy' 2>/dev/null || {
	echo "bench/mlp.sh: needs Debian's python3-numpy (apt-get install python3-numpy)" >&2
	exit 1
}
W=$(mktemp -d -t tick-mlp.XXXXXX)
trap 'rm -rf "$W"' EXIT
go build -o "$W/mlpbench" ./bench/mlpbench
go build -o "$W/cpubench" ./bench/cpubench
$PY bench/mlp_numpy.py --init "$W/data"
devs="CPU GO"
if "$W/mlpbench" -device CL -quick "$W/data" >/dev/null 2>"$W/cl.err"; then
	devs="$devs CL"
fi
{
	echo "#cpu	$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
	echo "#go	$(go version)"
	echo "#numpy	$($PY -c 'import numpy; print(numpy.__version__)')"
	echo "#command	${ROUNDS:+ROUNDS=$ROUNDS }bench/mlp.sh $*"
	case "$devs" in *CL*) ;; *) echo "#skip	CL: $(tail -1 "$W/cl.err")" ;; esac
	"$W/cpubench" -quick -cases peak | grep -E '^peak'
	i=1
	while [ "$i" -le "$ROUNDS" ]; do
		echo "#load	round $i: $(cut -d' ' -f1-3 /proc/loadavg)"
		for d in $devs; do
			"$W/mlpbench" -device "$d" $quick "$W/data"
		done
		$PY bench/mlp_numpy.py "$W/data" $quick
		i=$((i + 1))
	done
	"$W/cpubench" -quick -cases peak | grep -E '^peak'
	echo "#load	end: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$W/out.tsv"
echo
$PY bench/mlp_report.py "$W/out.tsv"
