#!/usr/bin/python3
"""Kernel latency of tick and ipykernel, measured side by side in one run
with jupyter_client (Debian's /usr/bin/python3):

  start    kernel process start -> first kernel_info_reply (median of --starts,
           with the fastest and slowest start)
  execute  execute "1+1" -> execute_reply (median of --runs, with p5-p95, and p99)
  complete complete_request -> complete_reply (median of --runs, with p5-p95)

With --rounds N the kernels are measured in turn N times (tick, python3,
tick, python3, ...) and each cell is the median over rounds with the range
of the rounds' medians. The load average (os.getloadavg) is printed before
and after.

Usage: bench/kernel_latency.py [--runs 500] [--starts 5] [--rounds 1] [--kernels tick,python3]
Prints a Markdown table (paste it into docs/benchmarks.md).
"""
import os
import argparse
import queue
import statistics
import sys
import time

from jupyter_client.manager import KernelManager

SAMPLES = {
    # kernel name -> (code to execute, setup cell, completion request)
    "tick": ("1+1", 'import "fmt"', ("fmt.Pri", 7)),
    "python3": ("1+1", "import os", ("os.pa", 5)),
}


def start_latency(name):
    km = KernelManager(kernel_name=name)
    t0 = time.perf_counter()
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        while True:
            msg_id = kc.kernel_info()
            try:
                while True:
                    m = kc.get_shell_msg(timeout=0.05)
                    if m["parent_header"].get("msg_id") == msg_id:
                        return time.perf_counter() - t0
            except queue.Empty:
                if time.perf_counter() - t0 > 60:
                    raise RuntimeError(f"{name}: no kernel_info_reply within 60 s")
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def drain_idle(kc, msg_id):
    while True:
        m = kc.get_iopub_msg(timeout=10)
        if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "status" \
                and m["content"]["execution_state"] == "idle":
            return


def timed(kc, send, runs, iopub=True):
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        msg_id = send()
        while True:
            m = kc.get_shell_msg(timeout=10)
            if m["parent_header"].get("msg_id") == msg_id:
                break
        out.append(time.perf_counter() - t0)
        if iopub:
            drain_idle(kc, msg_id)
    return out


def check(kc, name, code, comp, cursor):
    """Refuse to time a kernel that does not actually answer correctly."""
    reply = kc.execute_interactive(code, timeout=30, output_hook=lambda m: None)
    if reply["content"]["status"] != "ok":
        raise SystemExit(f"{name}: {code!r} failed: {reply['content']}")
    msg_id = kc.complete(comp, cursor)
    while True:
        m = kc.get_shell_msg(timeout=10)
        if m["parent_header"].get("msg_id") == msg_id:
            break
    if not m["content"]["matches"]:
        print(f"warning: {name} completed {comp!r} with no matches; its timing is of an empty answer", file=sys.stderr)


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def p99(xs):
    return pct(xs, 0.99)


def measure(name, runs, starts):
    code, setup, (comp, cursor) = SAMPLES[name]
    each = [start_latency(name) for _ in range(starts)]
    print(f"{name} starts: " + ", ".join(f"{t * 1000:.0f} ms" for t in each), file=sys.stderr)
    start = statistics.median(each)
    km = KernelManager(kernel_name=name)
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=60)
        kc.execute_interactive(setup, timeout=30, output_hook=lambda m: None)
        check(kc, name, code, comp, cursor)
        timed(kc, lambda: kc.execute(code), 20)  # warm up
        ex = timed(kc, lambda: kc.execute(code), runs)
        co = timed(kc, lambda: kc.complete(comp, cursor), runs)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=False)
    return {"start": start, "start_min": min(each), "start_max": max(each),
            "exec_med": statistics.median(ex), "exec_p99": p99(ex),
            "exec_p5": pct(ex, 0.05), "exec_p95": pct(ex, 0.95),
            "comp_med": statistics.median(co), "comp_p5": pct(co, 0.05), "comp_p95": pct(co, 0.95)}


def load():
    return "load average %.2f %.2f %.2f (1, 5, 15 min)" % os.getloadavg()


def over_rounds(rs):
    """One row from several rounds: each figure's median over the rounds,
    and the range of the rounds' medians."""
    if len(rs) == 1:
        return dict(rs[0])
    out = {}
    for k in rs[0]:
        vals = [r[k] for r in rs]
        out[k] = statistics.median(vals)
        out[k + "_lo"], out[k + "_hi"] = min(vals), max(vals)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=500)
    ap.add_argument("--starts", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--kernels", default="tick,python3")
    args = ap.parse_args()
    names = args.kernels.split(",")
    print(load(), file=sys.stderr)
    print(f"before: {load()}")
    rounds = {name: [] for name in names}
    for rnd in range(args.rounds):
        for name in names:
            print(f"round {rnd + 1}: measuring {name} ... ({load()})", file=sys.stderr)
            rounds[name].append(measure(name, args.runs, args.starts))
    rows = {name: over_rounds(rs) for name, rs in rounds.items()}
    ms = lambda s: f"{s * 1000:.2f} ms"
    one = args.rounds == 1

    def cell(r, k, lo, hi):
        if one:
            return f"{ms(r[k])} ({ms(r[lo])}–{ms(r[hi])})"
        return f"{ms(r[k])} (rounds {ms(r[k + '_lo'])}–{ms(r[k + '_hi'])})"

    spread = "fastest–slowest" if one else f"median of {args.rounds} rounds, their range"
    print(f"| kernel | start → first kernel_info_reply (median of {args.starts}; {spread}) | "
          f"execute `1+1` → reply, median ({'p5–p95' if one else 'rounds'}) / p99 ({args.runs}) | "
          f"complete → reply, median ({'p5–p95' if one else 'rounds'}) ({args.runs}) |")
    print("|---|---|---|---|")
    for name, r in rows.items():
        print(f"| {name} | {cell(r, 'start', 'start_min', 'start_max')} | "
              f"{cell(r, 'exec_med', 'exec_p5', 'exec_p95')} / {ms(r['exec_p99'])} | "
              f"{cell(r, 'comp_med', 'comp_p5', 'comp_p95')} |")
    if "tick" in rows and "python3" in rows:
        t, p = rows["tick"], rows["python3"]
        print(f"\nratios ipykernel / tick: start {p['start'] / t['start']:.1f}×, "
              f"execute median {p['exec_med'] / t['exec_med']:.1f}×, complete median {p['comp_med'] / t['comp_med']:.1f}×")
    print(f"after: {load()}")


if __name__ == "__main__":
    main()
