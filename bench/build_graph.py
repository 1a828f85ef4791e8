#!/usr/bin/python3
"""build_graph.py — where a cold `go build ./cmd/tick` spends its CPU time.

    bench/build_graph.py [-n TOP]

Builds cmd/tick once into an empty build cache (a fresh GOCACHE, deleted
afterwards; the module cache is the machine's) with `go build
-debug-actiongraph`, then sums each action's CPU time (user+sys of the
compiler, assembler, cgo, C compiler and linker runs it records) by group:
Go's standard library, tick's packages, the modules it uses, the link.
Prints the groups and the TOP most expensive packages (docs/benchmarks.md,
"Building tick"). Run it under `nice` on a shared machine: it is a whole
cold build.
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import tempfile

TICK = "github.com/tick-kernel/tick"

# Modules grouped under one name: what tick's use of them pulls in.
GROUPS = [
    ((TICK + "/kernel/session/symbols/std",), "tick: standard library symbol tables"),
    ((TICK,), "tick: its other packages"),
    (("github.com/traefik/yaegi",), "yaegi (interpreter)"),
    (("gonum.org/v1/plot", "codeberg.org/", "git.sr.ht/", "github.com/ajstarks/", "github.com/golang/freetype",
      "golang.org/x/image"), "gonum/plot with its fonts, image, PDF, EPS, SVG, LaTeX backends"),
    (("github.com/yuin/goldmark",), "goldmark (markdown for tick run --html)"),
    (("golang.org/x/tools",), "golang.org/x/tools (export data, astutil)"),
]


def group(pkg, mode, std):
    if mode.startswith("link"):
        return "link"
    if pkg in std:
        return "Go standard library"
    for prefixes, name in GROUPS:
        if pkg.startswith(prefixes):
            return name
    return "other modules (x/text, x/sys, pprof, zmq4, ...)"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=15, help="how many single packages to list")
    args = ap.parse_args()
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    std = set(subprocess.run(["go", "list", "-deps", "-f", "{{if .Standard}}{{.ImportPath}}{{end}}", "./cmd/tick"],
                             cwd=root, check=True, capture_output=True, text=True).stdout.split())
    tmp = tempfile.mkdtemp(prefix="tick-build-graph-")
    try:
        graph = os.path.join(tmp, "actiongraph.json")
        env = dict(os.environ, GOCACHE=os.path.join(tmp, "cache"), GOFLAGS="-buildvcs=false")
        subprocess.run(["go", "build", "-debug-actiongraph=" + graph, "-ldflags=-s -w", "-o", os.path.join(tmp, "tick"),
                        "./cmd/tick"], cwd=root, env=env, check=True)
        with open(graph) as f:
            actions = json.load(f)
    finally:
        subprocess.run(["chmod", "-R", "u+w", tmp])
        shutil.rmtree(tmp)
    groups, pkgs, per = collections.Counter(), collections.defaultdict(set), collections.Counter()
    cgo = 0.0
    for a in actions:
        cpu = (a.get("CmdUser", 0) + a.get("CmdSys", 0)) / 1e9
        if cpu == 0:
            continue
        pkg, mode = a.get("Package", ""), a["Mode"]
        g = group(pkg, mode, std)
        groups[g] += cpu
        pkgs[g].add(pkg)
        per[(pkg, "link" if mode.startswith("link") else "build")] += cpu
        if "cgo" in mode:
            cgo += cpu
    total = sum(groups.values())
    print(f"cold go build ./cmd/tick: {total:.1f} CPU-seconds in the compiler, cgo, C compiler and linker runs "
          f"({cgo:.1f} of them cgo and the C compiler); load at the end {open('/proc/loadavg').read().split()[0]}")
    for g, cpu in groups.most_common():
        print(f"  {cpu:6.1f} s  {100 * cpu / total:3.0f}%  {len(pkgs[g]):3d} packages  {g}")
    print(f"the {args.n} most expensive packages:")
    for (pkg, kind), cpu in per.most_common(args.n):
        print(f"  {cpu:6.1f} s  {kind:5s}  {pkg}")


if __name__ == "__main__":
    main()
