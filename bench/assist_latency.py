#!/usr/bin/python3
"""Completion and inspection latency of tick and ipykernel (jedi), side by
side in one run, through jupyter_client (Debian's /usr/bin/python3):

  first    kernel start -> first complete_reply, then the first
           inspect_reply, with no cell run (the kernel's first requests);
           "cold" with an empty cache directory (XDG_CACHE_HOME), "warm"
           with the cache the cold start left (once it stopped growing)
  complete complete_request -> complete_reply on a session of --cells cells:
           same-cell names, a call chain, a package not imported, a
           variable's members, session names (median and p99 of --runs
           rounds of all of them)
  inspect  inspect_request -> inspect_reply: a standard function, a user
           function, a variable (median and p99)

Every answer is checked (the expected match or text must be there) before
it is timed. Usage: bench/assist_latency.py [--runs 100] [--cells 100]
[--kernels tick,python3]. Prints a Markdown table for docs/benchmarks.md.
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

from jupyter_client.manager import KernelManager

# kernel -> cell maker, completion requests (code, expected match), inspect
# requests (code, expected text), first requests
SAMPLES = {
    "tick": {
        "cell": lambda i: (f"// f{i} multiplies by {i}.\nfunc f{i}(n int) int {{ return n * {i} }}\n"
                           f"v{i} := f{i}(2)\ntype T{i} struct{{ A, B int }}\np{i} := &T{i}{{1, 2}}"),
        "complete": [("zzqLongName := 3\nzzqLong", "zzqLongName"), ("time.Now().Uni", "Unix"),
                     ("strconv.Ato", "Atoi"), ("p7.", "A"), ("x := f9", "f99")],
        "inspect": [("strings.ToUpper", "ToUpper returns"), ("f42", "f42 multiplies by 42"), ("v42", "= 84")],
        "first": [("strings.ToU", "ToUpper"), ("strings.ToUpper", "ToUpper returns")],
    },
    "python3": {
        "cell": lambda i: (f"def f{i}(n):\n    \"\"\"f{i} multiplies by {i}.\"\"\"\n    return n * {i}\n"
                           f"v{i} = f{i}(2)\nclass T{i}:\n    def __init__(self):\n        self.a, self.b = 1, 2\np{i} = T{i}()"),
        "complete": [("zzq_long_name = 3\nzzq_long", "zzq_long_name"), ("import time\ntime.gmtime().tm_y", "tm_year"),
                     ("import string\nstring.ascii_l", "ascii_letters"), ("p7.", "a"), ("x = f9", "f99")],
        "inspect": [("str.upper", "upper"), ("f42", "f42 multiplies by 42"), ("v42", "84")],
        "first": [("str.upp", "upper"), ("str.upper", "upper")],
    },
}


def reply(kc, msg_id):
    while True:
        m = kc.get_shell_msg(timeout=60)
        if m["parent_header"].get("msg_id") == msg_id:
            return m["content"]


def ask(kc, kind, code):
    t0 = time.perf_counter()
    msg_id = kc.complete(code, len(code)) if kind == "complete" else kc.inspect(code, len(code), 0)
    r = reply(kc, msg_id)
    return time.perf_counter() - t0, r


def ok(kind, code, want, r):
    if kind == "complete":
        good = want in r.get("matches", [])
    else:
        good = r.get("found") and want in r["data"].get("text/plain", "")
    if not good:
        raise SystemExit(f"{kind} {code!r}: {want!r} not in the answer {r}")


def start(name, cache):
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    km = KernelManager(kernel_name=name)
    km.start_kernel(env=env)
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    return km, kc


def stop(km, kc):
    kc.stop_channels()
    km.shutdown_kernel(now=False)


def settle(cache):
    """Wait until the kernel's disk cache stops growing (what it writes in
    the background after its first requests), at most 30 s."""
    def size():
        return sum(len(files) for _, _, files in os.walk(cache))
    last, still, t0 = -1, 0, time.monotonic()
    while still < 4 and time.monotonic() - t0 < 30:
        time.sleep(0.5)
        n = size()
        still = still + 1 if n == last else 0
        last = n


def first_requests(name, cache):
    km, kc = start(name, cache)
    try:
        out = []
        for kind, (code, want) in zip(("complete", "inspect"), SAMPLES[name]["first"]):
            dt, r = ask(kc, kind, code)
            ok(kind, code, want, r)
            out.append(dt)
        settle(cache)
        return out
    finally:
        stop(km, kc)


def p99(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.99 * (len(xs) - 1))))]


def measure(name, runs, cells):
    s = SAMPLES[name]
    cache = tempfile.mkdtemp(prefix="assist-bench-")
    cold = first_requests(name, cache)
    warm = first_requests(name, cache)
    km, kc = start(name, cache)
    try:
        t0 = time.perf_counter()
        for i in range(cells):
            r = kc.execute_interactive(s["cell"](i), timeout=60, output_hook=lambda m: None)
            if r["content"]["status"] != "ok":
                raise SystemExit(f"{name}: cell {i} failed: {r['content']}")
        print(f"{name}: {cells} cells in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        res = {}
        for kind in ("complete", "inspect"):
            for code, want in s[kind]:
                ok(kind, code, want, ask(kc, kind, code)[1])
            times = [ask(kc, kind, code)[0] for _ in range(runs) for code, _ in s[kind]]
            res[kind] = (statistics.median(times), p99(times), len(times))
    finally:
        stop(km, kc)
    return {"cold": cold, "warm": warm, **res}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--cells", type=int, default=100)
    ap.add_argument("--kernels", default="tick,python3")
    args = ap.parse_args()
    print(f"load before: {os.getloadavg()}", file=sys.stderr)
    rows = {name: measure(name, args.runs, args.cells) for name in args.kernels.split(",")}
    print(f"load after: {os.getloadavg()}", file=sys.stderr)
    ms = lambda x: f"{x * 1000:.2f} ms"
    print(f"| kernel | first complete / inspect, cold cache | same, warm cache | "
          f"complete, median / p99 ({args.cells} cells) | inspect, median / p99 |")
    print("|---|---|---|---|---|")
    for name, r in rows.items():
        print(f"| {name} | {ms(r['cold'][0])} / {ms(r['cold'][1])} | {ms(r['warm'][0])} / {ms(r['warm'][1])} | "
              f"{ms(r['complete'][0])} / {ms(r['complete'][1])} ({r['complete'][2]}) | "
              f"{ms(r['inspect'][0])} / {ms(r['inspect'][1])} ({r['inspect'][2]}) |")
    if "tick" in rows and "python3" in rows:
        t, p = rows["tick"], rows["python3"]
        print(f"\nratios ipykernel / tick: complete median {p['complete'][0] / t['complete'][0]:.1f}×, "
              f"inspect median {p['inspect'][0] / t['inspect'][0]:.1f}×, "
              f"first complete (warm) {p['warm'][0] / t['warm'][0]:.1f}×")


if __name__ == "__main__":
    main()
