"""bench/streams/summary.py: reads the harness's lines (variant, round,
GB/s, % of one stream; a header first) on standard input and prints, per
variant, the median over rounds of each with the min-max range."""
import statistics as st
import sys

rows = [l.rstrip("\n").split("\t") for l in sys.stdin][1:]
names = list(dict.fromkeys(r[0] for r in rows))
print("| variant | GB/s, median (range) | % of one stream, median (range) |")
print("|---|---|---|")
for n in names:
    g = [float(r[2]) for r in rows if r[0] == n]
    p = [float(r[3]) for r in rows if r[0] == n]
    print(f"| {n} | {st.median(g):.1f} ({min(g):.1f}-{max(g):.1f}) | {st.median(p):.0f}% ({min(p):.0f}-{max(p):.0f}) |")
