#!/usr/bin/env bash
# test.sh — the whole test suite of tick, on a fresh Debian machine.
# Installs what the tests need (Debian's Jupyter packages, Go modules), then
# runs: gofmt/vet, hygiene (go.mod tidy, generated code current), Go unit
# tests, the race detector on the concurrent packages, the fuzz targets
# for 10 s each, go install and the darwin/windows cross-builds
# (scripts/test-go-install.sh), the Jupyter
# conformance suite and the client scripts under tests/jupyter, and the
# tutorial notebooks.
set -euo pipefail
cd "$(dirname "$0")"
root=$(pwd)

scripts/install-deps.sh
logs=$(mktemp -d)

echo "== gofmt / go vet"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then echo "gofmt would change:"; echo "$unformatted"; exit 1; fi
go vet ./...

echo "== hygiene: go.mod and go.sum tidy, go generate changes nothing"
if ! go mod tidy -diff; then echo "go.mod/go.sum are not tidy: run go mod tidy"; exit 1; fi
tree_state() { git status --porcelain --untracked-files=all; git diff; }
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  before=$(tree_state | sha256sum)
  go generate ./...
  if [ "$(tree_state | sha256sum)" != "$before" ]; then
    echo "go generate changed files: the generated code is not current (commit what it generates):"; git status --short; exit 1
  fi
fi

echo "== go test"
go test -count=1 -timeout 20m ./... 2>&1 | tee "$logs/go.log"

echo "== race detector (the packages that run goroutines: kernel, session, magics, timing, runtime, notebook)"
# The session's interrupt flag is unsynchronised on purpose (a plain read
# per loop iteration); race builds use a synchronised variant
# (kernel/session/stopflag_race.go).
go test -race -count=1 -timeout 20m ./kernel/... ./timing ./runtime/tensor ./notebook 2>&1 | tee "$logs/race.log"

echo "== fuzz targets, 10 s each (ZMTP framing and handshake before any decoding, wire decoding, cell splitting, notebook reading)"
for target in "FuzzScanner ./kernel/zmtp" "FuzzHandshake ./kernel/zmtp" "FuzzDecode ./kernel/wire" \
              "FuzzSplitCell ./kernel/session/cell" "FuzzRead ./notebook"; do
  read -r name pkg <<<"$target"
  go test -run '^$' -fuzz "^$name\$" -fuzztime 10s "$pkg" 2>&1 | tail -3 | tee -a "$logs/fuzz.log"
done

echo "== without cgo (tick must build and its runtime work without a C compiler)"
CGO_ENABLED=0 go vet ./...
CGO_ENABLED=0 go test -count=1 ./runtime/... ./kernel/magic ./kernel/app ./kernel/gocompile 2>&1 | tee "$logs/go-nocgo.log"

echo "== go install (from the clone and through a module proxy) and cross-builds (darwin, windows)"
scripts/test-go-install.sh 2>&1 | grep -v '^go: downloading' | tee "$logs/go-install.log"

echo "== build"
mkdir -p bin
go build -ldflags "-X github.com/tick-kernel/tick/internal/version.commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" -o bin/tick ./cmd/tick

# Keep all Jupyter state in a throwaway directory, never in $HOME. The go
# build and module caches stay the suite's own (XDG_CACHE_HOME below would
# move GOCACHE): compiled-Go tests (tests/jupyter/test_compiled.py) build
# plugins, and share one warm build cache with the Go tests above.
export GOCACHE="$(go env GOCACHE)" GOMODCACHE="$(go env GOMODCACHE)"
W=$(mktemp -d)
trap 'rm -rf "$W" "$logs"' EXIT
export JUPYTER_CONFIG_DIR=$W/config JUPYTER_DATA_DIR=$W/data JUPYTER_RUNTIME_DIR=$W/runtime \
       IPYTHONDIR=$W/ipython XDG_CACHE_HOME=$W/cache XDG_CONFIG_HOME=$W/xdgconf \
       PYDEVD_DISABLE_FILE_VALIDATION=1 TICK_BIN=$root/bin/tick TICK_TMP=$W
bin/tick install --name tick

echo "== Jupyter clients (tests/jupyter)"
# Debian's python3 has the Jupyter packages; another python3 on PATH may not.
cd tests/jupyter
/usr/bin/python3 -m unittest -v 2>&1 | tee "$logs/unittest.log"
cd "$root"

if [ -x scripts/test-notebooks.sh ]; then
  echo "== notebooks"
  scripts/test-notebooks.sh 2>&1 | tee "$logs/notebooks.log"
fi

# One closing line for every layer: Go packages, Jupyter client tests, notebooks.
gopkgs=$(cat "$logs"/go*.log | grep -c '^ok' || true)
pytests=$(sed -n 's/^Ran \([0-9]*\) tests\? in .*/\1/p' "$logs/unittest.log" | tail -1)
nbs=$(sed -n 's/^test-notebooks: \([0-9]*\) notebooks passed.*/\1/p' "$logs/notebooks.log" 2>/dev/null | tail -1)
echo "test.sh: Go packages ${gopkgs}, Jupyter client tests ${pytests:-0}, notebooks ${nbs:-0}"
echo "summary: $((gopkgs + ${pytests:-0} + ${nbs:-0})) passed, 0 failed"
