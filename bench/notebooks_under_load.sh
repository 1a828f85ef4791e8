#!/bin/sh
# Every shipped notebook run with `tick run` beside CPU hogs (docs/timing.md,
# "Notebooks under load"): each must finish without an error, and a claim
# the load broke must say so in words ("this machine was too busy ...")
# rather than print "ok" beside a contradiction — a failed claim is an
# error (the notebooks panic), so this fails when one is not handled.
#
#   bench/notebooks_under_load.sh [HOGS]     (default 4 busy loops)
#
# Prints, per notebook, the load, the exit status, the "ok:" lines and the
# "too busy" lines. Needs Go; builds bin/tick.
set -eu
hogs=${1:-4}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=$(mktemp -d)
pids=""
cleanup() { for p in $pids; do kill "$p" 2>/dev/null || true; done; rm -rf "$out"; }
trap cleanup EXIT
go build -ldflags "-X github.com/tick-kernel/tick/internal/version.commit=$(git rev-parse --short HEAD 2>/dev/null)" -o bin/tick ./cmd/tick
i=0
while [ "$i" -lt "$hogs" ]; do
	sh -c 'while :; do :; done' &
	pids="$pids $!"
	i=$((i + 1))
done
status=0
for nb in notebooks/0*.ipynb; do
	b=$(basename "$nb" .ipynb)
	load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')
	if bin/tick run "$nb" -o "$out/$b.ipynb" >"$out/$b.log" 2>&1; then
		echo "== $b: ran (load $load, $hogs hogs)"
	else
		echo "== $b: FAILED (load $load, $hogs hogs)"
		tail -5 "$out/$b.log"
		status=1
	fi
	/usr/bin/python3 - "$out/$b.ipynb" <<'PY' || true
import json, sys
nb = json.load(open(sys.argv[1]))
for c in nb["cells"]:
    for o in c.get("outputs", []):
        text = "".join(o.get("text", "")) if o["output_type"] == "stream" else ""
        for line in text.splitlines():
            if line.startswith("ok:") or "too busy" in line:
                print("   ", line[:200])
PY
done
exit $status
