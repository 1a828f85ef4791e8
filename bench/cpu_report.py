#!/usr/bin/python3
"""Turns the lines bench/cpu.sh collected into a Markdown table: the median of
the rounds for each case, size and implementation, tick CPU's ratio to numpy
and to this machine's measured limit (peak FLOP/s with FMA for matmul,
bandwidth for the memory-bound cases larger than the caches; the best sample
of each limit is used).

Usage: bench/cpu_report.py RESULTS
"""
import statistics
import sys
from collections import defaultdict

IMPLS = ["tick CPU", "tick GO", "numpy", "numexpr", "gonum", "OpenBLAS Haswell", "OpenBLAS SkylakeX"]
# Which measured limit each case is held against.
LIMIT = {"matmul f32": ("peak", "fma"), "relu(a*2+1)": ("bandwidth", "copy"), "softmax axis 1": ("bandwidth", "copy"),
         "sum": ("bandwidth", "read"), "max": ("bandwidth", "read"), "sum axis 1": ("bandwidth", "read"),
         "sum axis 0": ("bandwidth", "read")}
LOWER_IS_BETTER = {"us/op", "ns/kernel", "allocs/call"}


def main(path):
    vals = defaultdict(list)
    units, order, meta = {}, [], defaultdict(list)
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            if line.startswith("#"):
                k, _, v = line[1:].partition("\t")
                if v not in meta[k]:
                    meta[k].append(v)
                continue
            parts = line.split("\t")
            if len(parts) != 5:
                continue
            case, size, impl, v, unit = parts
            key = (case, size)
            if key not in order:
                order.append(key)
            vals[(case, size, impl)].append(float(v))
            units[key] = unit
    med = {k: statistics.median(v) for k, v in vals.items()}
    for k in ("cpu", "flags", "device", "numpy", "go", "command"):
        for v in meta.get(k, []):
            print(f"- {k}: {v}")
    print(f"- load (1, 5, 15 min) per round: {'; '.join(v.split(': ', 1)[-1] for v in meta.get('load', []))}")
    # A limit is a ceiling: the best of its samples (every round measures it
    # at its start and end) is the best estimate on a shared machine.
    lim = {(c, i): max(v) for (c, s, i), v in vals.items() if c in ("peak", "bandwidth")}
    print(f"- measured limits (all cores): peak float32 {lim.get(('peak', 'fma'), 0):.0f} GFLOP/s with FMA, "
          f"{lim.get(('peak', 'muladd'), 0):.0f} GFLOP/s with separate multiply and add; "
          f"read {lim.get(('bandwidth', 'read'), 0):.1f} GB/s, copy {lim.get(('bandwidth', 'copy'), 0):.1f} GB/s (read + write bytes)")
    print()
    present = [i for i in IMPLS if any(k[2] == i for k in med)]
    print("| case | size | unit | " + " | ".join(present) + " | CPU vs numpy | CPU vs limit |")
    print("|---" * (len(present) + 5) + "|")
    for case, size in order:
        if case in ("peak", "bandwidth"):
            continue
        unit = units[(case, size)]
        cells = []
        for i in present:
            v = med.get((case, size, i))
            cells.append("-" if v is None else f"{v:.3g}")
        cpu, npy = med.get((case, size, "tick CPU")), med.get((case, size, "numpy"))
        ratio = "-"
        if cpu and npy:
            r = npy / cpu if unit in LOWER_IS_BETTER else cpu / npy
            ratio = f"{r:.2f}×"
        frac = "-"
        out_of_cache = size.endswith("M") or "x" in size  # 16M floats, 4096x4096: far past the caches
        if case == "matmul f32":
            out_of_cache = True
        if cpu and case in LIMIT and LIMIT[case] in lim and out_of_cache:
            frac = f"{100 * cpu / lim[LIMIT[case]]:.0f}%"
        print(f"| {case} | {size} | {unit} | " + " | ".join(cells) + f" | {ratio} | {frac} |")


if __name__ == "__main__":
    main(sys.argv[1])
