#!/usr/bin/python3
"""Soak test of the tick kernel (issue 17), with jupyter_client (Debian's
/usr/bin/python3):

  cells  N trivial cells ("1+1"): median latency of the first and the last
         1,000, their ratio (drift), RSS before and after, and RSS retained
         per cell, also measured after a collection (a cell running
         debug.FreeOSMemory(): what the kernel keeps, not what the
         collector has not yet returned)
  burst  one cell printing MB megabytes: RSS before (idle), at the end of
         the cell, and --settle seconds later; then "1+1" latency again

RSS is the kernel process's VmRSS from /proc. Usage:
  bench/soak.py [--cells 10000] [--burst-mb 300] [--settle 60] [--kernel tick]
(--burst-mb 0: the cells only)
Prints a Markdown table (paste it into docs/benchmarks.md).
"""
import argparse
import os
import queue
import statistics
import sys
import time

from jupyter_client.manager import KernelManager


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def execute(kc, code, timeout=600):
    """Run code; return (seconds to the reply, bytes of stream text)."""
    t0 = time.perf_counter()
    msg_id = kc.execute(code)
    text = 0
    reply_at = None
    idle = False
    deadline = time.monotonic() + timeout
    while reply_at is None or not idle:
        if time.monotonic() > deadline:
            raise RuntimeError(f"{code[:40]!r}: no {'reply' if reply_at is None else 'idle'} within {timeout} s")
        if reply_at is None:
            try:
                m = kc.get_shell_msg(timeout=0.001)
                if m["parent_header"].get("msg_id") == msg_id:
                    reply_at = time.perf_counter()
                    if m["content"]["status"] != "ok":
                        raise RuntimeError(f"{code[:40]!r}: {m['content']}")
            except queue.Empty:
                pass
        try:
            m = kc.get_iopub_msg(timeout=0.001 if reply_at is None else 1)
        except queue.Empty:
            continue
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        if m["msg_type"] == "stream":
            text += len(m["content"]["text"])
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            idle = True
    return reply_at - t0, text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cells", type=int, default=10000)
    ap.add_argument("--burst-mb", type=int, default=300)
    ap.add_argument("--settle", type=float, default=60)
    ap.add_argument("--kernel", default="tick")
    a = ap.parse_args()

    km = KernelManager(kernel_name=a.kernel)
    km.start_kernel()
    pid = km.provisioner.process.pid
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    try:
        for _ in range(200):  # warm up
            execute(kc, "1+1")
        execute(kc, 'import "runtime/debug"')

        def collected():
            execute(kc, "debug.FreeOSMemory()")
            time.sleep(1)
            return rss_mb(pid)

        gc0 = collected()
        time.sleep(1)
        rss0 = rss_mb(pid)
        lat = []
        for i in range(a.cells):
            lat.append(execute(kc, "1+1", timeout=20)[0])
            if (i + 1) % 1000 == 0:
                print(f"soak: {i + 1} cells, RSS {rss_mb(pid):.0f} MB", file=sys.stderr, flush=True)
        time.sleep(1)
        rss1 = rss_mb(pid)
        gc1 = collected()
        k = min(1000, a.cells // 2)
        first, last = statistics.median(lat[:k]) * 1e3, statistics.median(lat[-k:]) * 1e3
        print(f"load {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
        print()
        print("| soak | value |")
        print("|---|---|")
        print(f"| {a.cells:,} cells: median latency, first {k:,} → last {k:,} | {first:.2f} ms → {last:.2f} ms ({last / first:.2f}×) |")
        print(f"| RSS before → after the cells | {rss0:.0f} MB → {rss1:.0f} MB |")
        print(f"| RSS retained per cell | {(rss1 - rss0) * 1024 * 1024 / a.cells:.0f} B |")
        print(f"| after a collection (debug.FreeOSMemory): RSS before → after, per cell | {gc0:.0f} MB → {gc1:.0f} MB, {(gc1 - gc0) * 1024 * 1024 / a.cells:.0f} B |")

        after = statistics.median(execute(kc, "1+1")[0] for _ in range(200)) * 1e3
        print(f"| 1+1 median after the cells | {after:.2f} ms |")
        # The burst inside a function (what the kernel holds), then at top
        # level (the interpreter's global frame keeps top-level values).
        for where, code in () if a.burst_mb <= 0 else (
            ("in a function", f'func() {{ fmt.Print(strings.Repeat("y", {a.burst_mb}<<20)) }}()'),
            ("at top level", f'fmt.Print(strings.Repeat("y", {a.burst_mb}<<20))'),
        ):
            execute(kc, 'import ("fmt"; "strings")')
            time.sleep(2)
            idle = rss_mb(pid)
            t0 = time.perf_counter()
            _, got = execute(kc, code)
            took = time.perf_counter() - t0
            end = rss_mb(pid)
            time.sleep(a.settle)
            settled = rss_mb(pid)
            lat = statistics.median(execute(kc, "1+1")[0] for _ in range(200)) * 1e3
            lost = "" if got == a.burst_mb << 20 else f", LOST {(a.burst_mb << 20) - got} bytes"
            print(f"| {a.burst_mb} MB print {where}: time to idle, bytes arrived | {took:.1f} s, {got / (1 << 20):.0f} MB{lost} |")
            print(f"| RSS idle → end of the burst → {a.settle:.0f} s later | {idle:.0f} MB → {end:.0f} MB → {settled:.0f} MB ({settled / idle:.2f}× idle) |")
            print(f"| 1+1 median after the burst | {lat:.2f} ms |")
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


if __name__ == "__main__":
    main()
