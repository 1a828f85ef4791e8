#!/usr/bin/env bash
# test.sh — the whole test suite of tick, on a fresh Debian machine.
#
# Installs what the tests need (Debian's Jupyter packages, npm packages, Go
# modules: scripts/install-deps.sh, which waits for another apt-get to
# finish), then runs the stages listed at the end of this file: gofmt/vet,
# hygiene (go.mod tidy, generated code current), Go unit tests, the race
# detector, fuzz targets, the build without cgo, go install and the
# cross-builds, the Jupyter client suites under tests/jupyter (real clients,
# Notebook 6 in headless Chromium), and the tutorial notebooks.
#
# Every stage runs, whatever the ones before it did; the summary lists each
# stage with what passed and failed in it, and the script exits 1 when
# anything failed. Artifacts (kept after the run, for CI):
#   out/test-logs/NN-stage.log   each stage's full output
#   out/screenshots/*.png        what the browser tests saw (Notebook 6 and
#                                `tick run --html` pages of the magics)
set -uo pipefail
cd "$(dirname "$0")"
root=$(pwd)
started=$SECONDS

logs=$root/out/test-logs
rm -rf "$logs" && mkdir -p "$logs"
export TICK_SCREENSHOTS=$root/out/screenshots
rm -rf "$TICK_SCREENSHOTS" && mkdir -p "$TICK_SCREENSHOTS"

# Keep all Jupyter state in a throwaway directory, never in $HOME. The go
# build and module caches stay the suite's own (XDG_CACHE_HOME below would
# move GOCACHE): compiled-Go tests (tests/jupyter/test_compiled.py) build
# plugins, and share one warm build cache with the Go tests.
GOCACHE="$(go env GOCACHE)" GOMODCACHE="$(go env GOMODCACHE)"
export GOCACHE GOMODCACHE
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export JUPYTER_CONFIG_DIR=$W/config JUPYTER_DATA_DIR=$W/data JUPYTER_RUNTIME_DIR=$W/runtime \
       IPYTHONDIR=$W/ipython XDG_CACHE_HOME=$W/cache XDG_CONFIG_HOME=$W/xdgconf \
       PYDEVD_DISABLE_FILE_VALIDATION=1 TICK_BIN=$root/bin/tick TICK_TMP=$W

# ---------------------------------------------------------------------------
# The machinery: stage NAME COMMAND [ARGS...] runs COMMAND in a subshell
# with `set -euo pipefail` (from the top of the tree), its output shown and
# kept in out/test-logs, and records what passed and failed in it:
#   go test output     packages ("ok"/"FAIL" lines)
#   unittest output    tests ("Ran N tests", failures and errors)
#   test-notebooks     notebooks
#   anything else      one check: the command's exit status (skipped when
#                      it succeeds with a last line "NAME: skipped (why)")
# A stage fails when its command exits non-zero or its log counts a failure.
names=() stagelogs=() results=() passed=() failed=() skipped=() units=() times=()

count() { # LOG RC -> "PASSED FAILED SKIPPED UNIT"
  local log=$1 rc=$2
  if grep -qE '^Ran [0-9]+ tests? in ' "$log"; then
    # unittest: "Ran N tests in …", then "OK (skipped=S)" or "FAILED (failures=F, errors=E, skipped=S)"
    awk '/^Ran [0-9]+ tests? in /{ran=$2} /^(OK|FAILED)( \(|$)/{line=$0}
      END{f=0; s=0; n=split(line, w, /[ (),=]+/)
        for (i=1; i<n; i++) { if (w[i]=="failures"||w[i]=="errors") f+=w[i+1]; if (w[i]=="skipped") s+=w[i+1] }
        print ran-f-s, f, s, "tests"}' "$log"
  elif grep -qE '^test-notebooks: [0-9]+ notebooks passed, [0-9]+ failed' "$log"; then
    sed -nE 's/^test-notebooks: ([0-9]+) notebooks passed, ([0-9]+) failed.*/\1 \2 0 notebooks/p' "$log" | tail -1
  elif grep -qP '^(ok|FAIL)\s+\S+\s' "$log"; then
    echo "$(grep -cP '^ok\s+\S+\s' "$log") $(grep -cP '^FAIL\s+\S+\s' "$log") 0 packages"
  elif [ "$rc" -eq 0 ] && tail -1 "$log" | grep -qE ': skipped \('; then # "NAME: skipped (why)"
    echo "0 0 1 check"
  elif [ "$rc" -eq 0 ]; then
    echo "1 0 0 check"
  else
    echo "0 1 0 check"
  fi
}

stage() { # NAME COMMAND [ARGS...]
  local name=$1 n=${#names[@]} t0=$SECONDS rc p f sk unit
  shift
  local log
  log=$logs/$(printf '%02d' $((n + 1)))-$(tr -c 'A-Za-z0-9\n' '-' <<<"$name" | tr -s '-' | sed 's/-$//').log
  echo
  echo "== $name"
  ( set -euo pipefail; cd "$root"; "$@" ) 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  read -r p f sk unit <<<"$(count "$log" "$rc")"
  # A command that failed with nothing counted failed still failed once.
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  names+=("$name") stagelogs+=("$log") passed+=("$p") failed+=("$f") skipped+=("$sk") units+=("$unit") times+=($((SECONDS - t0)))
  if [ "$f" -eq 0 ]; then results+=(ok); else results+=(FAILED); echo "== $name: FAILED (exit $rc; log $log)"; fi
}

summary() {
  local i tp=0 tf=0 ts=0 sf=0 wall=$((SECONDS - started))
  echo
  echo "== summary (logs in out/test-logs, screenshots in out/screenshots)"
  printf '%-60s %-6s %6s %6s %7s %-9s %6s\n' stage result passed failed skipped of time
  for i in "${!names[@]}"; do
    printf '%-60s %-6s %6s %6s %7s %-9s %5ss\n' "${names[$i]}" "${results[$i]}" "${passed[$i]}" "${failed[$i]}" \
      "${skipped[$i]}" "${units[$i]}" "${times[$i]}"
    tp=$((tp + passed[i])) tf=$((tf + failed[i])) ts=$((ts + skipped[i]))
    [ "${results[$i]}" = ok ] || sf=$((sf + 1))
  done
  echo "test.sh: ${#names[@]} stages, $((${#names[@]} - sf)) passed, $sf failed; wall time $((wall / 60))m$((wall % 60))s;" \
    "load at the end $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) on $(nproc 2>/dev/null) CPUs"
  echo "summary: $tp passed, $tf failed, $ts skipped"
  # Why each failed stage failed, last, where a CI log's tail shows it.
  for i in "${!names[@]}"; do
    [ "${results[$i]}" = ok ] && continue
    echo "== why \"${names[$i]}\" failed (its lines that name a failure; whole log: ${stagelogs[$i]}):"
    grep -E -A2 '^\s*--- FAIL|^FAIL|FAILED:|^panic:|: FAIL' "${stagelogs[$i]}" | tail -30 | sed 's/^/  /' || true
  done
  [ "$tf" -eq 0 ]
}

# ---------------------------------------------------------------------------
# Stages with more than one command.

format_vet() {
  local unformatted
  unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
  if [ -n "$unformatted" ]; then echo "gofmt would change:"; echo "$unformatted"; exit 1; fi
  go vet ./...
}

hygiene() {
  if ! go mod tidy -diff; then echo "go.mod/go.sum are not tidy: run go mod tidy"; exit 1; fi
  scripts/check-docs.sh
  tree_state() { git status --porcelain --untracked-files=all; git diff; }
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    local before
    before=$(tree_state | sha256sum)
    go generate ./...
    if [ "$(tree_state | sha256sum)" != "$before" ]; then
      echo "go generate changed files: the generated code is not current (commit what it generates):"; git status --short; exit 1
    fi
  fi
}

fuzz() { # 10 s each: ZMTP framing and handshake before any decoding, wire decoding, cell splitting, notebook reading
  local target name pkg rc=0
  for target in "FuzzScanner ./kernel/zmtp" "FuzzHandshake ./kernel/zmtp" "FuzzDecode ./kernel/wire" \
                "FuzzSplitCell ./kernel/session/cell" "FuzzRead ./notebook"; do
    read -r name pkg <<<"$target"
    fuzz_one "$name" "$pkg" || rc=1
  done
  return $rc
}

# fuzz_one runs one target for 10 s. Go 1.26's fuzz coordinator can fail a
# target that found nothing with a bare "context deadline exceeded" when
# -fuzztime ends while a worker is mid-call (golang/go#75804, fixed in Go 1.27;
# seen here on a loaded machine). That failure writes no failing input, so a
# run that ends that way and left nothing new under testdata/fuzz/NAME is run
# once more; a failure that wrote an input, or fails twice, fails the stage.
fuzz_one() {
  local name=$1 pkg=$2 out corpus before attempt
  out=$(mktemp); corpus="$pkg/testdata/fuzz/$name"
  for attempt in 1 2; do
    before=$(ls "$corpus" 2>/dev/null | sort || true) # no corpus yet: empty
    if go test -run '^$' -fuzz "^$name\$" -fuzztime 10s "$pkg" >"$out" 2>&1; then
      tail -25 "$out"; rm -f "$out"; return 0
    fi
    if [[ $attempt == 1 ]] && grep -q '^    context deadline exceeded$' "$out" &&
       [[ "$(ls "$corpus" 2>/dev/null | sort)" == "$before" ]]; then
      # Indented, so the stage's count (a line starting "FAIL<tab>package")
      # does not count the attempt the second one replaces.
      tail -25 "$out" | sed 's/^/  attempt 1: /'
      echo "fuzz: $name stopped with Go's fuzz-coordinator race (golang/go#75804: \"context deadline exceeded\", no failing input written); running it once more"
      continue
    fi
    tail -25 "$out"
    break
  done
  rm -f "$out"; return 1
}

nocgo() {
  CGO_ENABLED=0 go vet ./...
  CGO_ENABLED=0 go test -count=1 ./runtime/... ./kernel/magic ./kernel/app ./kernel/gocompile
}

build() {
  scripts/build-tick.sh
  bin/tick install --name tick
}

jupyter_clients() {
  # Debian's python3 has the Jupyter packages; another python3 on PATH may not.
  cd tests/jupyter
  /usr/bin/python3 -m unittest -v
}

# ---------------------------------------------------------------------------
# The stages, in order: one line each. Add a stage by adding a line (a
# command, or a function above for more than one command).
stage "install dependencies (scripts/install-deps.sh)"             scripts/install-deps.sh
stage "install-deps waits for a held package lock"                 scripts/test-apt-lock.sh
stage "gofmt / go vet"                                             format_vet
stage "hygiene: go.mod tidy, docs agree, go generate changes nothing" hygiene
stage "staticcheck and deadcode (scripts/lint.sh)"                 scripts/lint.sh
# Package timeouts catch a hung test, not a slow machine: at load 13-24 on 2
# cores (a fresh-clone run, 2026-12-02) runtime/backend/cpu took 774 s and
# runtime/tensor ran past 18 minutes, so 20 minutes would fail a busy machine.
stage "go test"                                                    go test -count=1 -timeout 45m -skip '^TestYaegiCorpus$' ./...
stage "yaegi corpus: tick / plain yaegi / go run (kernel/compat)"  go test -count=1 -timeout 45m -run '^TestYaegiCorpus$' -v ./kernel/compat
# The session's interrupt flag is unsynchronised on purpose (a plain read per
# loop iteration); race builds use a synchronised variant (kernel/session/rt/stopflag_race.go).
stage "race detector (kernel, session, magics, timing, runtime, notebook)" go test -race -count=1 -timeout 45m ./kernel/... ./timing ./runtime/tensor ./notebook
stage "fuzz targets, 10 s each"                                    fuzz
stage "without cgo (no C compiler needed)"                         nocgo
stage "go install (clone and module proxy), cross-builds"          scripts/test-go-install.sh
stage "build bin/tick, install the kernelspec"                     build
stage "Jupyter clients (tests/jupyter)"                            jupyter_clients
stage "notebooks (tick run and nbconvert)"                         scripts/test-notebooks.sh

summary
