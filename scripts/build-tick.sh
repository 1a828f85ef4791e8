#!/usr/bin/env bash
# build-tick.sh — builds bin/tick as ./run.sh and ./test.sh use it: the
# commit stamped in (tick version, provenance), without the symbol table and
# DWARF (-s -w: a smaller binary, 33.1 MB on 2026-12-02, and a shorter
# link; stack traces, profiles and plugins use the runtime's own tables,
# not these). When nothing changed since the last build, go build finds
# bin/tick up to date and returns in under a second (docs/benchmarks.md,
# "Building tick").
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bin
commit=$(git rev-parse --short HEAD 2>/dev/null || true)
go build -ldflags "-s -w -X github.com/tick-kernel/tick/internal/version.commit=${commit:-unknown}" -o bin/tick ./cmd/tick
