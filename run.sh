#!/usr/bin/env bash
# run.sh — tick's main job on a fresh machine: build tick, then execute the
# first tutorial notebook headless with `tick run`, writing the executed
# notebook and a self-contained HTML page with its plots.
set -euo pipefail
cd "$(dirname "$0")"
nb=${1:-notebooks/01-timing-basics.ipynb}
mkdir -p out
scripts/build-tick.sh
name=$(basename "$nb" .ipynb)
bin/tick run "$nb" -o "out/$name.ipynb" --html "out/$name.html"
echo
echo "executed notebook: $(pwd)/out/$name.ipynb"
echo "HTML page (open it in a browser): $(pwd)/out/$name.html"
