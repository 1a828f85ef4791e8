#!/usr/bin/python3
"""Turns the lines bench/cpu.sh collected into a Markdown table: for each case,
size and implementation the median over the rounds, and tick CPU's ratios
computed within each round, then their median: to numpy (same round) and to
this machine's limit measured in that round (peak FLOP/s with FMA for matmul,
the FMA peak per CPU-second for matmul per CPU-second (cpubench/cputime.go),
bandwidth for the memory-bound cases larger than the caches; each round
measures the limits before and after each group of cases and keeps the best
sample).

With --ratios FILE it also writes tick CPU's three ratios per case and size
as tab-separated lines (case, size, vs numpy, vs OpenBLAS, vs limit; "-"
where there is none), with the run's description in "#" lines, for
bench/cpuchart.

Usage: bench/cpu_report.py RESULTS [--ratios FILE]
"""
import statistics
import sys
from collections import defaultdict

IMPLS = ["tick CPU", "tick CPU no FMA", "tick GO", "numpy", "numexpr", "gonum", "OpenBLAS Haswell", "OpenBLAS SkylakeX"]
# Which measured limit each case is held against.
LIMIT = {"matmul f32": ("peak", "fma"), "matmul f32 per CPU-s": ("peak", "fma per CPU-s"), "relu(a*2+1)": ("bandwidth", "copy"), "softmax axis 1": ("bandwidth", "copy"),
         "sum": ("bandwidth", "read"), "max": ("bandwidth", "read"), "min": ("bandwidth", "read"),
         "sum axis 1": ("bandwidth", "read"), "sum axis 0": ("bandwidth", "read"), "max axis 1": ("bandwidth", "read")}
LOWER_IS_BETTER = {"us/op", "ns/kernel", "allocs/call"}


def out_of_cache(case, size):
    return case.startswith("matmul f32") or size.endswith("M") or "x" in size


def main(path, ratios_path=None):
    rounds = defaultdict(lambda: defaultdict(list))  # round -> (case, size, impl) -> values
    units, order, meta = {}, [], defaultdict(list)
    r = 0
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            if line.startswith("#"):
                k, _, v = line[1:].partition("\t")
                if k == "load":
                    r += 1
                if v not in meta[k]:
                    meta[k].append(v)
                continue
            parts = line.split("\t")
            if len(parts) != 5:
                continue
            case, size, impl, v, unit = parts
            if (case, size) not in order:
                order.append((case, size))
            rounds[r][(case, size, impl)].append(float(v))
            units[(case, size)] = unit
    # Per round: limits are the best sample, results the one value.
    per = {}
    for rr, vals in rounds.items():
        per[rr] = {k: (max(v) if k[0] in ("peak", "bandwidth") else statistics.median(v)) for k, v in vals.items()}
    keys = {k for d in per.values() for k in d}
    med = {k: statistics.median([d[k] for d in per.values() if k in d]) for k in keys}

    def ratio(f):
        xs = [x for x in (f(d) for d in per.values()) if x is not None]
        return statistics.median(xs) if xs else None

    for k in ("cpu", "flags", "cache", "device", "numpy", "go", "command"):
        for v in meta.get(k, []):
            print(f"- {k}: {v}")
    print(f"- load (1, 5, 15 min) per round: {'; '.join(v.split(': ', 1)[-1] for v in meta.get('load', []))}")
    lim = lambda c, i: med.get((c, "-", i), 0)
    print(f"- measured limits (all cores; median over rounds of each round's best sample): peak float32 "
          f"{lim('peak', 'fma'):.0f} GFLOP/s with FMA, {lim('peak', 'muladd'):.0f} GFLOP/s with separate multiply "
          f"and add; read {lim('bandwidth', 'read'):.1f} GB/s, copy {lim('bandwidth', 'copy'):.1f} GB/s "
          f"(read + write bytes), at 16M float32")
    print()
    present = [i for i in IMPLS if any(k[2] == i for k in keys)]
    # Against OpenBLAS kernels for the same instruction set: AVX-512 kernels
    # (SkylakeX) only when tick's kernels are AVX-512 too.
    blas_sets = ["numpy", "OpenBLAS Haswell"]
    if any("AVX-512" in v for v in meta.get("device", [])):
        blas_sets.append("OpenBLAS SkylakeX")
    print("| case | size | unit | " + " | ".join(present) + " | CPU vs numpy | CPU vs OpenBLAS (same ISA) | CPU vs limit |")
    print("|---" * (len(present) + 6) + "|")
    rows = []
    for case, size in order:
        if case in ("peak", "bandwidth"):
            continue
        unit = units[(case, size)]
        cells = ["-" if med.get((case, size, i)) is None else f"{med[(case, size, i)]:.3g}" for i in present]

        def vs_numpy(d):
            c, n = d.get((case, size, "tick CPU")), d.get((case, size, "numpy"))
            if not c or not n:
                return None
            return n / c if unit in LOWER_IS_BETTER else c / n

        def vs_limit(d):
            c = d.get((case, size, "tick CPU"))
            if not c or case not in LIMIT or not out_of_cache(case, size):
                return None
            l = d.get((LIMIT[case][0], "-", LIMIT[case][1]))
            return c / l if l else None
        def vs_blas(d):  # the fastest OpenBLAS kernel set of tick's vector ISA, same round
            c = d.get((case, size, "tick CPU"))
            bl = [d.get((case, size, i)) for i in blas_sets]
            bl = [x for x in bl if x]
            return c / max(bl) if c and bl and case == "matmul f32" else None
        a, b, o = ratio(vs_numpy), ratio(vs_limit), ratio(vs_blas)
        rows.append((case, size, a, o, b))
        print(f"| {case} | {size} | {unit} | " + " | ".join(cells) +
              f" | {'-' if a is None else f'{a:.2f}×'} | {'-' if o is None else f'{o:.2f}×'} | {'-' if b is None else f'{100 * b:.0f}%'} |")


    if ratios_path:
        with open(ratios_path, "w") as f:
            for k in ("cpu", "device", "command"):
                for v in meta.get(k, []):
                    f.write(f"#{k}\t{v}\n")
            f.write(f"#load\t{'; '.join(v.split(': ', 1)[-1] for v in meta.get('load', []))}\n")
            for case, size, a, o, b in rows:
                f.write("\t".join([case, size] + ["-" if x is None else f"{x:.4g}" for x in (a, o, b)]) + "\n")


if __name__ == "__main__":
    args = sys.argv[1:]
    out = None
    if "--ratios" in args:
        i = args.index("--ratios")
        out = args[i + 1]
        del args[i:i + 2]
    main(args[0], out)
