#!/usr/bin/python3
"""What the engine process costs: two tick kernels measured side by side in
one run, in alternating rounds, through jupyter_client (Debian's
/usr/bin/python3):

  execute     execute "1+1" -> execute_reply (median and spread of the runs)
  print       a cell printing --lines lines with fmt.Println -> idle; per line
  interrupt   `for {}`, interrupt_request 300 ms in -> execute_reply
  timeit      the per-loop figure %timeit reports for a 1,000-iteration loop (measured inside
              the engine: the pipe must not change it) and the cell's wall time
  pss         proportional resident memory of the kernel's processes (the
              binary's pages, shared by both, count once)

Usage:
  bench/supervisor_latency.py --before tick-base --after tick [--rounds 5] [--runs 200]

--before and --after name kernelspecs; docs/benchmarks.md ("The engine
process") shows how to install the base commit's binary as one.
Prints a Markdown table and the machine's load.
"""
import argparse
import os
import re
import statistics
import sys
import time

from jupyter_client.manager import KernelManager

from kernel_latency import drain_idle


def drain(kc, msg_id, timeout=120):
    """Wait for the reply and idle of msg_id; return (reply, stream bytes)."""
    reply, idle, nbytes = None, False, 0
    deadline = time.perf_counter() + timeout
    while reply is None or not idle:
        if time.perf_counter() > deadline:
            raise RuntimeError(f"no reply/idle for {msg_id}")
        if reply is None:
            try:
                m = kc.get_shell_msg(timeout=0.001 if not idle else 1)
                if m["parent_header"].get("msg_id") == msg_id:
                    reply = m
            except Exception:
                pass
        while True:
            try:
                m = kc.get_iopub_msg(timeout=0.001)
            except Exception:
                break
            if m["parent_header"].get("msg_id") != msg_id:
                continue
            if m["msg_type"] == "stream":
                nbytes += len(m["content"]["text"])
            if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
                idle = True
    return reply, nbytes


def execute_times(kc, runs):
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        msg_id = kc.execute("1+1")
        while True:
            m = kc.get_shell_msg(timeout=10)
            if m["parent_header"].get("msg_id") == msg_id:
                break
        out.append(time.perf_counter() - t0)
        drain_idle(kc, msg_id)
    return out


def print_time(kc, lines):
    code = f'for i := 0; i < {lines}; i++ {{\n\tfmt.Println(i)\n}}'
    want = sum(len(str(i)) + 1 for i in range(lines))
    t0 = time.perf_counter()
    msg_id = kc.execute(code)
    reply, nbytes = drain(kc, msg_id)
    dt = time.perf_counter() - t0
    if reply["content"]["status"] != "ok" or nbytes != want:
        raise RuntimeError(f"the print cell gave {reply['content']['status']} and {nbytes} of {want} bytes")
    return dt / lines


def interrupt_time(km, kc):
    msg_id = kc.execute("for {\n}")
    time.sleep(0.3)
    t0 = time.perf_counter()
    km.interrupt_kernel()
    while True:
        m = kc.get_shell_msg(timeout=30)
        if m["parent_header"].get("msg_id") == msg_id:
            break
    dt = time.perf_counter() - t0
    drain_idle(kc, msg_id)
    if m["content"]["status"] != "error":
        raise RuntimeError("the spinning cell was not interrupted")
    return dt


UNITS = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def timeit(kc):
    texts = []
    t0 = time.perf_counter()
    kc.execute_interactive("%timeit -n 100 -r 7 for i := 0; i < 1000; i++ { x += i }", timeout=120,
                           output_hook=lambda m: texts.append(m["content"].get("data", {}).get("text/plain", "")
                                                              if m["msg_type"] in ("display_data", "execute_result",
                                                                                   "update_display_data") else
                                                              m["content"].get("text", "")))
    wall = time.perf_counter() - t0
    text = "\n".join(t for t in texts if t)
    m = re.search(r"([\d.]+) (ns|µs|us|ms|s) (±|\[).* per loop", text)
    if not m:
        raise RuntimeError(f"no %timeit headline in {text[:300]!r}")
    return float(m.group(1)) * UNITS[m.group(2)], wall


def rss_of_tree(pid):
    """Proportional resident bytes (PSS: pages both processes map, such as
    the binary's, count half in each) of pid and its descendants."""
    children = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(d))
            except OSError:
                pass
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        todo += children.get(p, [])
        try:
            with open(f"/proc/{p}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


def round_of(name, runs, lines):
    km = KernelManager(kernel_name=name)
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=60)
        kc.execute_interactive('import "fmt"\nx := 0', timeout=60, output_hook=lambda m: None)
        execute_times(kc, 20)  # warm up
        r = {"exec": execute_times(kc, runs), "line": [print_time(kc, lines) for _ in range(3)],
             "intr": [interrupt_time(km, kc) for _ in range(3)]}
        r["timeit"], r["timeit_wall"] = zip(*[timeit(kc) for _ in range(2)])
        r["rss"] = [rss_of_tree(km.provisioner.process.pid)]
        return r
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def spread(xs, unit, scale):
    xs = sorted(xs)
    med = statistics.median(xs)
    q1, q3 = xs[len(xs) // 4], xs[(3 * len(xs)) // 4]
    return f"{med * scale:.3g} {unit} ({q1 * scale:.3g}–{q3 * scale:.3g})"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--lines", type=int, default=100000)
    args = ap.parse_args()
    load0 = os.getloadavg()
    acc = {args.before: {}, args.after: {}}
    for i in range(args.rounds):
        for name in ((args.before, args.after) if i % 2 == 0 else (args.after, args.before)):
            print(f"round {i + 1}: {name}", file=sys.stderr)
            for k, v in round_of(name, args.runs, args.lines).items():
                acc[name].setdefault(k, []).extend(v)
    load1 = os.getloadavg()
    print(f"| kernel | execute `1+1` → reply, median (IQR) of {args.rounds}×{args.runs} | per printed line "
          f"({args.lines:,} lines, {args.rounds}×3 cells) | interrupt → reply ({args.rounds}×3) | "
          f"%timeit loop of 1,000 `x += i` ({args.rounds}×2) | %timeit cell wall time | PSS of the kernel's processes |")
    print("|---|---|---|---|---|---|---|")
    for name in (args.before, args.after):
        a = acc[name]
        print(f"| {name} | {spread(a['exec'], 'ms', 1e3)} | {spread(a['line'], 'µs', 1e6)} | "
              f"{spread(a['intr'], 'ms', 1e3)} | {spread(a['timeit'], 'µs', 1e6)} | "
              f"{spread(a['timeit_wall'], 's', 1)} | {statistics.median(a['rss']) / 2**20:.0f} MiB |")
    b, f = acc[args.before], acc[args.after]
    d = statistics.median(f["exec"]) - statistics.median(b["exec"])
    dl = statistics.median(f["line"]) - statistics.median(b["line"])
    print(f"\nadded per execute: {d * 1e3:+.3f} ms (medians); per printed line: {dl * 1e9:+.0f} ns; "
          f"load {' '.join(f'{x:.2f}' for x in load0)} → {' '.join(f'{x:.2f}' for x in load1)} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
