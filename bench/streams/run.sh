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
${CC:-cc} -O3 -march=native -o "$bin" streams.c
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
"$bin" "${1:-5}" | /usr/bin/python3 -c '
import sys, statistics as st
rows = [l.rstrip("\n").split("\t") for l in sys.stdin][1:]
names = list(dict.fromkeys(r[0] for r in rows))
print("| variant | GB/s, median (range) | % of one stream, median (range) |")
print("|---|---|---|")
for n in names:
    g = [float(r[2]) for r in rows if r[0] == n]
    p = [float(r[3]) for r in rows if r[0] == n]
    print(f"| {n} | {st.median(g):.1f} ({min(g):.1f}-{max(g):.1f}) | {st.median(p):.0f}% ({min(p):.0f}-{max(p):.0f}) |")
'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
