#!/usr/bin/env bash
# build-tick.sh — builds bin/tick as ./run.sh and ./test.sh use it: the
# commit stamped in (tick version, provenance), without the symbol table and
# DWARF (-s -w: a smaller binary, 33.1 MB on 2026-12-02, and a shorter
# link; stack traces, profiles and plugins use the runtime's own tables,
# not these). When nothing changed since the last build, go build finds
# bin/tick up to date and returns in under a second (docs/benchmarks.md,
# "Building tick"). A first build says why it takes a while: on an empty
# build cache Go compiles its standard library too (it ships none
# compiled), about half of a cold build's CPU time.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bin
commit=$(git rev-parse --short HEAD 2>/dev/null || true)
if [ ! -x bin/tick ]; then # say why a first build is silent for minutes
  echo "building bin/tick: a first build compiles tick, its modules and Go's standard library (Go ships it uncompiled): about 100 CPU-seconds, a minute or more on 2 cores (docs/benchmarks.md, \"Building tick\"); later builds take seconds" >&2
fi
go build -ldflags "-s -w -X github.com/tick-kernel/tick/internal/version.commit=${commit:-unknown}" -o bin/tick ./cmd/tick
