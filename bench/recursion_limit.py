#!/usr/bin/python3
"""Runaway recursion through a closure, as issue 25 found it: h(n) for each
depth given, in one kernel, with the time each cell took to answer.

Usage: bench/recursion_limit.py KERNEL DEPTHS TIMEOUT
  e.g. bench/recursion_limit.py tick 10,1000,4999,5001,4999,5001 300
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "jupyter"))
from jupyter_client.manager import start_new_kernel  # noqa: E402
from tickenv import run  # noqa: E402


def main():
    name, depths, timeout = sys.argv[1], [int(x) for x in sys.argv[2].split(",")], int(sys.argv[3])
    km, kc = start_new_kernel(kernel_name=name, startup_timeout=30)
    try:
        run(kc, "var h func(int) int\nh = func(n int) int { if n == 0 { return 0 }; return h(n-1) + 1 }")
        for d in depths:
            t = time.monotonic()
            try:
                reply, outs = run(kc, f"h({d})", timeout=timeout)
                status = reply["content"]["status"]
                said = [o["content"]["data"]["text/plain"] for o in outs if o["msg_type"] == "execute_result"] + \
                       [o["content"]["evalue"][:120] for o in outs if o["msg_type"] == "error"]
            except AssertionError:
                status, said = "no reply", []
            print(f"h({d}) {status} in {time.monotonic() - t:.2f} s: {said}", flush=True)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


if __name__ == "__main__":
    main()
