#!/usr/bin/python3
"""Turns bench/mlp.sh's lines into a Markdown table: per implementation the
median over rounds (each round's value is the median of its samples) with
the range over rounds, steps per second, and the share of the machine's
measured FMA peak — per CPU-second (the FLOPs of the step over the CPU time
the process used, against one core's peak per CPU-second: what the load of
other programs does not change) and per wall second (against the peak of
all cores). It also checks that every implementation computed the same
losses (step 1 and step 10) before any time is shown.
"""
import collections
import statistics
import sys

B, IN, HID, OUT = 128, 784, 256, 10
# FLOPs of the step's matrix products: forward x·W1ᵀ and h·W2ᵀ; backward
# dW2 = dᵀ·h, dh = d·W2, dW1 = dzᵀ·x (the input's gradient is not needed).
FLOPS = 2 * B * (IN * HID + HID * OUT) + 2 * B * (IN * HID + 2 * HID * OUT)

rounds = collections.defaultdict(lambda: collections.defaultdict(list))  # impl -> metric -> [per round]
samples = collections.defaultdict(list)
peaks = collections.defaultdict(list)
notes = []
order = []
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if line.startswith("#"):
        notes.append(line.strip()[1:].replace("\t", ": ", 1))
        continue
    if f[0] == "peak":
        peaks[f[2]].append(float(f[3]))
        continue
    if f[0] != "mlp":
        continue
    impl, metric, v = f[1], f[2], float(f[3])
    if impl not in order:
        order.append(impl)
    if metric == "sample_s_per_step":
        samples[impl].append(v)
        continue
    if metric == "cpu_s_per_step":  # the round's samples are complete
        rounds[impl]["round_median"].append(statistics.median(samples[impl]))
        samples[impl] = []
    rounds[impl][metric].append(v)

# Verify: every implementation's losses agree with the first's.
ref = order[0]
for impl in order:
    for k in ("loss1", "loss10"):
        a, b = rounds[ref][k][0], rounds[impl][k][0]
        if abs(a - b) > 1e-3 * abs(a):
            sys.exit("mlp_report: %s's %s is %g, %s's %g: the implementations do not compute the same step" % (impl, k, b, ref, a))

# bench/cpubench's peak lines: "fma 512-bit 1T" (one thread) and "… 2T" (all
# of a 2-core machine's), GFLOP/s by the wall clock; the widest vectors it has.
width = next(w for w in ("fma 512-bit", "fma 256-bit") if peaks.get(w + " 1T"))
one, top = peaks[width + " 1T"], peaks.get(width + " 2T") or peaks[width + " 1T"]
fma_cpu = statistics.median(one)  # one core: GFLOP/s per CPU-second when the thread had its core
fma_wall = statistics.median(top)
print("MLP 784-256-10 training step (ReLU, softmax cross-entropy, Adam), batch 128, float32; "
      "%.1f MFLOP per step in its matrix products" % (FLOPS / 1e6))
print()
print("| implementation | steps/s (wall) | ms per step, wall: median [range over rounds] | CPU-ms per step | GFLOP/s per CPU-second | % of one core's FMA peak per CPU-second | GFLOP/s (wall) | % of the all-core FMA peak (wall) |")
print("|---|---|---|---|---|---|---|---|")
for impl in order:
    r = rounds[impl]
    wall = r["round_median"]
    w, cpu = statistics.median(wall), statistics.median(r["cpu_s_per_step"])
    print("| %s | %.0f | %.2f [%.2f–%.2f] | %.2f | %.1f | %.0f%% | %.1f | %.0f%% |" % (
        impl, 1 / w, 1e3 * w, 1e3 * min(wall), 1e3 * max(wall), 1e3 * cpu,
        FLOPS / cpu / 1e9, 100 * FLOPS / cpu / 1e9 / fma_cpu, FLOPS / w / 1e9, 100 * FLOPS / w / 1e9 / fma_wall))
print()
print("Verified before timing: every implementation's loss after step 1 and step 10 equals %s's (%.5g, %.5g) within 0.1%%." % (
    ref, rounds[ref]["loss1"][0], rounds[ref]["loss10"][0]))
print("Peak (bench/cpubench -cases peak, %s, before and after the rounds, medians of %d): %.0f GFLOP/s on one thread "
      "(range %.0f–%.0f), %.0f GFLOP/s on all threads (range %.0f–%.0f), wall clock; under load the spread is the load's." % (
          width, len(one), fma_cpu, min(one), max(one), fma_wall, min(top), max(top)))
for n in notes:
    print("- " + n)
