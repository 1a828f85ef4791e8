#!/bin/sh
# bench/streams/run.sh [ROUNDS]: builds and runs bench/streams/streams.c
# (one thread; NOHUGE=1: the matrix on 4 KB pages) and prints, per
# variant, the median over rounds of its read bandwidth and of its share
# of "one stream" in the same round, with the min-max range, and the load
# before and after the run.
set -eu
cd "$(dirname "$0")"
bin=$(mktemp -t tick-streams.XXXXXX)
trap 'rm -f "$bin"' EXIT
${CC:-cc} -O3 -march=native -o "$bin" streams.c -ldl
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
"$bin" "${1:-5}" | /usr/bin/python3 summary.py
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
