#!/usr/bin/python3
"""Turns the lines bench/cpu.sh collected into the Markdown tables of
docs/benchmarks.md.

Every figure in a round is a median over samples (bench/cpubench/timing.go,
the same in cpu_numpy.py). For each case the tables give the median over
rounds and, in parentheses, the range (min–max) over rounds. Ratios are
computed within each round (the two sides ran minutes apart at most, under
the round's load), then summarized the same way:

- speed vs numpy / OpenBLAS: anchor time ÷ tick time, with the same number
  of threads on both sides (tick 1T against numpy's single-threaded
  reductions; tick 2T against OpenBLAS 2T); tick 2T against numpy 1T is
  shown too, labelled so;
- % of limit: tick's throughput over the limit measured in the same round
  with the same threads: read bandwidth for reductions, copy bandwidth for
  the relu chain and softmax (8 bytes per element: read once, written
  once), the FMA peak on the widest vectors for matmul; bandwidths at the
  case's size (4K in L1, 256K in L2, 16M in memory);
- GO ÷ CPU: the GO device's speed relative to the CPU device's (2T both).

Then the issue's targets, each with its measured ratio and whether it was
met. With --ratios FILE it also writes tick CPU 2T's three ratios per case
(vs numpy, vs OpenBLAS, vs limit) for bench/cpuchart.

Usage: bench/cpu_report.py RESULTS [--ratios FILE]
"""
import re
import statistics
import sys
from collections import defaultdict

MATMUL = "matmul"
READ = {"sum", "max", "min", "mean"}


def elems(size):
    """Element count of a size label: 4K, 16M, 512x512, 128x784.784x256."""
    if "." in size or not size[:1].isdigit() or size.isdigit():
        return None
    if "x" in size:
        n = 1
        for p in size.split("x"):
            n *= int(p)
        return n
    return int(size[:-1]) << (10 if size[-1] == "K" else 20)


def size_name(n):
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20}M"
    if n >= 1 << 10 and n % (1 << 10) == 0:
        return f"{n >> 10}K"
    return str(n)


def limit_key(case, size, threads):
    """The limit a case is held against: (case, size, impl) of its line."""
    if case.startswith(MATMUL):
        return ("peak", "-", f"fma {{w}} {threads}")
    n = elems(size)
    if n is None:
        return None
    kind = "read" if case.split()[0] in READ else "copy"
    return ("bandwidth", size_name(n), f"{kind} {threads}")


class Results:
    def __init__(self, path):
        self.rounds = defaultdict(dict)  # round -> (case, size, impl) -> value
        self.work, self.units, self.order, self.meta = {}, {}, [], defaultdict(list)
        r = 0
        for line in open(path):
            line = line.rstrip("\n")
            if not line:
                continue
            if line.startswith("#"):
                k, _, v = line[1:].partition("\t")
                if k == "load":
                    m = re.match(r"round (\d+)", v)
                    r = int(m.group(1)) if m else r + 1
                if v not in self.meta[k]:
                    self.meta[k].append(v)
                continue
            f = line.split("\t")
            if len(f) not in (5, 6):
                continue
            case, size, impl, v, unit = f[:5]
            try:
                self.rounds[r][(case, size, impl)] = float(v)
            except ValueError:
                continue
            self.units[(case, size, impl)] = unit
            if len(f) == 6 and f[5] != "-":
                self.work[(case, size)] = f[5]
            if case not in ("peak", "bandwidth") and (case, size) not in self.order:
                self.order.append((case, size))
        self.widest = "512-bit" if any("512-bit" in k[2] for d in self.rounds.values() for k in d) else "256-bit"

    def values(self, key):
        return [d[key] for d in self.rounds.values() if key in d]

    def per_round(self, f):
        """f(round dict) for every round where it is defined."""
        return [x for x in (f(d) for d in self.rounds.values()) if x is not None]

    def throughput(self, d, case, size, impl):
        """GB/s or GFLOP/s of a timed case in round d."""
        t, w = d.get((case, size, impl)), self.work.get((case, size))
        if not t or not w:
            return None
        return float(w[2:]) / t / 1e3

    def pct_limit(self, case, size, threads):
        lk = limit_key(case, size, threads)
        if lk is None:
            return []
        lk = (lk[0], lk[1], lk[2].replace("{w}", self.widest))
        return self.per_round(lambda d: (lambda x, l: 100 * x / l if x and l else None)(
            self.throughput(d, case, size, f"tick CPU {threads}"), d.get(lk)))

    def speed(self, case, size, tick, anchor):
        """anchor time ÷ tick time, per round."""
        return self.per_round(lambda d: d[(case, size, anchor)] / d[(case, size, tick)]
                              if (case, size, anchor) in d and (case, size, tick) in d else None)


def fmt(xs, kind="x"):
    if not xs:
        return "-"
    m, lo, hi = statistics.median(xs), min(xs), max(xs)
    if kind == "us":
        u, s = ("ms", 1e-3) if m >= 1000 else ("µs", 1)
        return f"{m * s:.3g} {u} ({lo * s:.3g}–{hi * s:.3g})"
    if kind == "%":
        return f"{m:.0f}% ({lo:.0f}–{hi:.0f})"
    if kind == "x":
        return f"{m:.2f}× ({lo:.2f}–{hi:.2f})"
    return f"{m:.3g} ({lo:.3g}–{hi:.3g})"


def header(res):
    for k in ("cpu", "flags", "cache", "device", "numpy", "openblas", "go", "commit", "command"):
        for v in res.meta.get(k, []):
            print(f"- {k}: {v}")
    loads = [v.split(": ", 1) for v in res.meta.get("load", [])]
    print("- load (1, 5, 15 min) before each part of each round: " + "; ".join(f"{a}: {b}" for a, b in loads))
    print()


def limits_table(res):
    keys = sorted({k for d in res.rounds.values() for k in d if k[0] in ("peak", "bandwidth")},
                  key=lambda k: (k[0] != "peak", elems(k[1]) or 0, k[2]))
    if not keys:
        return
    print("| limit | size | measured, median over rounds (range) |")
    print("|---|---|---|")
    for k in keys:
        print(f"| {k[0]} {k[2]} | {k[1]} | {fmt(res.values(k), 'v')} {res.units.get(k, '')} |")
    print()


def case_table(res, matmul):
    """The elementwise and reduction rows (anchor numpy, 1 thread) or the
    matmul rows (anchor OpenBLAS with 1 and 2 threads)."""
    if matmul:
        anchors = [("OpenBLAS 1T", "tick CPU 1T", "CPU vs OpenBLAS 1T"), ("OpenBLAS 2T", "tick CPU 2T", "CPU vs OpenBLAS 2T")]
        extra, pct = [], "peak"
    else:
        anchors = [("numpy 1T", "tick CPU 1T", "CPU 1T vs numpy (same threads)"), ("numpy 1T", "tick CPU 2T", "CPU 2T vs numpy 1T")]
        extra, pct = ["numexpr 2T"], "limit"
    impls = ["tick CPU 1T", "tick CPU 2T", "tick GO 2T"] + list(dict.fromkeys(a for a, _, _ in anchors)) + extra
    cols = impls + [h for _, _, h in anchors] + [f"CPU 1T % of {pct}", f"CPU 2T % of {pct}", "GO ÷ CPU (2T)"]
    print("| case | size | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 2) + "|")
    for case, size in res.order:
        if case.startswith(MATMUL) != matmul or case in ("eager op", "JIT replay", "tutorial replay"):
            continue
        cells = [fmt(res.values((case, size, i)), "us") for i in impls]
        cells += [fmt(res.speed(case, size, tick, anchor)) for anchor, tick, _ in anchors]
        cells += [fmt(res.pct_limit(case, size, t), "%") for t in ("1T", "2T")]
        cells.append(fmt(res.speed(case, size, "tick GO 2T", "tick CPU 2T")))
        print(f"| {case} | {size} | " + " | ".join(cells) + " |")
    print()


def overheads_table(res):
    print("| case | size | tick CPU 2T | tick GO 2T | tick CPU 1T | numpy 1T |")
    print("|---|---|---|---|---|---|")
    for case, size in res.order:
        if case not in ("eager op", "JIT replay", "tutorial replay"):
            continue
        cells = []
        for impl in ("tick CPU 2T", "tick GO 2T", "tick CPU 1T", "numpy 1T"):
            xs = res.values((case, size, impl))
            cells.append(f"{fmt(xs, 'v')} {res.units.get((case, size, impl), '')}" if xs else "-")
        print(f"| {case} | {size} | " + " | ".join(cells) + " |")
    print()


def check(rows, bound, higher=True):
    """rows: (label, per-round values). Met when every median is on the right
    side of bound; returns (worst label and median, failures)."""
    meds = [(l, statistics.median(xs)) for l, xs in rows if xs]
    if not meds:
        return None, []
    worst = (min if higher else max)(meds, key=lambda x: x[1])
    fails = [(l, m) for l, m in meds if (m < bound if higher else m > bound)]
    return worst, fails


def targets(res):
    reductions = [(c, s) for c, s in res.order if c.split()[0] in READ]
    mm = [(c, s) for c, s in res.order if c == MATMUL]
    items = []
    for t in ("1T", "2T"):
        anchor = "numpy 1T"
        items.append((f"reductions (full, axis 0/1; sum/max/min/mean; 4K/256K/16M) ≥ 1× numpy, tick {t} vs numpy 1T",
                      [(f"{c} {s}", res.speed(c, s, f"tick CPU {t}", anchor)) for c, s in reductions], 1, True, "x"))
    for t in ("1T", "2T"):
        items.append((f"reductions at 16M ≥ 75% of read bandwidth ({t})",
                      [(f"{c} {s}", res.pct_limit(c, s, t)) for c, s in reductions if elems(s) == 16 << 20], 75, True, "%"))
    for t in ("1T", "2T"):
        items.append((f"matmul 64 and 256 ≥ 1× OpenBLAS ({t} both)",
                      [(s, res.speed(c, s, f"tick CPU {t}", f"OpenBLAS {t}")) for c, s in mm if s in ("64", "256")], 1, True, "x"))
        items.append((f"matmul 512–2048 ≥ 0.9× OpenBLAS ({t} both)",
                      [(s, res.speed(c, s, f"tick CPU {t}", f"OpenBLAS {t}")) for c, s in mm if int(s) >= 512], 0.9, True, "x"))
    for t in ("1T", "2T"):
        items.append((f"relu(a*2+1) at 16M ≥ 80% of copy bandwidth ({t})",
                      [(s, res.pct_limit("relu(a*2+1)", s, t)) for c, s in res.order if c == "relu(a*2+1)" and elems(s) == 16 << 20], 80, True, "%"))
        items.append((f"relu(a*2+1) at 256K ≥ 50% of copy bandwidth ({t})",
                      [(s, res.pct_limit("relu(a*2+1)", s, t)) for c, s in res.order if c == "relu(a*2+1)" and elems(s) == 256 << 10], 50, True, "%"))
    items.append(("JIT replay ≤ 150 ns per kernel (CPU 2T)", [("", res.values(("JIT replay", "10x256", "tick CPU 2T")))], 150, False, "ns"))
    items.append(("eager op ≤ 1.2 µs on 256 elements (CPU 2T)", [("", res.values(("eager op", "256", "tick CPU 2T")))], 1.2, False, "µs"))
    items.append(("GO device ≥ 0.5× the CPU device: matmul (2T)",
                  [(f"{c} {s}", res.speed(c, s, "tick GO 2T", "tick CPU 2T")) for c, s in res.order if c.startswith(MATMUL)], 0.5, True, "x"))
    items.append(("GO device ≥ 0.5× the CPU device: reductions (2T)",
                  [(f"{c} {s}", res.speed(c, s, "tick GO 2T", "tick CPU 2T")) for c, s in reductions], 0.5, True, "x"))
    print("| target | worst case (median over rounds) | met? | cases missing it (median) |")
    print("|---|---|---|---|")
    for name, rows, bound, higher, unit in items:
        worst, fails = check(rows, bound, higher)
        if worst is None:
            print(f"| {name} | not measured | - | |")
            continue
        f = (lambda m: f"{m:.0f}%") if unit == "%" else (lambda m: f"{m:.3g} {unit}") if unit in ("ns", "µs") else (lambda m: f"{m:.2f}×")
        print(f"| {name} | {(worst[0] + ': ') if worst[0] else ''}{f(worst[1])} | {'no' if fails else 'yes'} "
              f"| {', '.join(f'{l} {f(m)}' for l, m in fails)} |")
    print()


def write_ratios(res, path):
    with open(path, "w") as f:
        for k in ("cpu", "device", "command"):
            for v in res.meta.get(k, []):
                f.write(f"#{k}\t{v}\n")
        f.write("#load\t" + "; ".join(v.split(": ", 1)[-1] for v in res.meta.get("load", [])) + "\n")
        for case, size in res.order:
            if case in ("eager op", "JIT replay", "tutorial replay"):
                continue
            mm = case.startswith(MATMUL)
            a = res.speed(case, size, "tick CPU 2T", "numpy 1T") if not mm else []
            o = res.speed(case, size, "tick CPU 2T", "OpenBLAS 2T") if mm else []
            b = [x / 100 for x in res.pct_limit(case, size, "2T")]
            f.write("\t".join([case, size] + [f"{statistics.median(x):.4g}" if x else "-" for x in (a, o, b)]) + "\n")


def main(path, ratios_path=None):
    res = Results(path)
    header(res)
    print("### Limits\n")
    limits_table(res)
    print("### Elementwise and reductions (time per call)\n")
    case_table(res, matmul=False)
    print("### Matmul float32 (time per call)\n")
    case_table(res, matmul=True)
    print("### Overheads\n")
    overheads_table(res)
    print("### Targets (issue 30)\n")
    targets(res)
    if ratios_path:
        write_ratios(res, ratios_path)


if __name__ == "__main__":
    args = sys.argv[1:]
    out = None
    if "--ratios" in args:
        i = args.index("--ratios")
        out = args[i + 1]
        del args[i:i + 2]
    main(args[0], out)
