#!/usr/bin/env bash
# test-notebooks.sh — executes every notebook twice and checks both results.
#
# For each notebooks/*.ipynb (the tutorials) and tests/notebooks/*.ipynb:
#   1. `tick run NB -o OUT --html PAGE`: the executed notebook must validate
#      with Debian's nbformat, the page must show every image/png of the
#      notebook, and the input must be left unchanged;
#   2. `jupyter nbconvert --execute` through the installed "tick" kernelspec:
#      the result must validate too, and have the same outputs (by type) as 1.
# Notebooks named error-*.ipynb are expected to fail: without --allow-errors
# both runs must fail; with it they must succeed and record the error.
#
# Then the tutorials (notebooks/0*.ipynb) run again with DEVICE=CL, on
# OpenCL (pocl in CI: scripts/install-deps.sh installs it), `tick run` only
# and checked as in 1: their claims must hold on a device with its own
# memory, queue and clock. 08-devices names CL itself; without an OpenCL
# driver it must stop at its first cell saying what to install (checked
# with $OCL_ICD_VENDORS naming an empty directory). TICK_SKIP_CL=1 (no
# OpenCL here) skips the DEVICE=CL pass and 08-devices.
#
# test.sh runs this with TICK_BIN, TICK_TMP and the JUPYTER_* directories
# set and the kernelspec installed. Alone: build bin/tick, `bin/tick install`,
# then run it (TICK_SKIP_NBCONVERT=1 skips step 2).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
TICK_BIN=${TICK_BIN:-$root/bin/tick}
py=/usr/bin/python3 # Debian's python3 has nbformat; another on PATH may not
out=${TICK_TMP:-$(mktemp -d)}/notebooks
mkdir -p "$out"

if [ ! -x "$TICK_BIN" ]; then
  echo "test-notebooks: $TICK_BIN is not an executable; build it (go build -o bin/tick ./cmd/tick) or set TICK_BIN" >&2
  exit 1
fi

shopt -s nullglob
nbs=(notebooks/*.ipynb tests/notebooks/*.ipynb)
if [ ${#nbs[@]} -eq 0 ]; then
  echo "test-notebooks: no notebooks to run"
  exit 0
fi

nbconvert=1
if [ "${TICK_SKIP_NBCONVERT:-}" = 1 ]; then
  nbconvert=0
  echo "test-notebooks: TICK_SKIP_NBCONVERT=1: not running notebooks through jupyter nbconvert"
# Read the whole list first: with pipefail, `jupyter ... | grep -q` fails
# whenever grep exits before jupyter has written everything (SIGPIPE).
elif ! { specs=$(jupyter kernelspec list 2>/dev/null) && grep -qE '^\s*tick\s' <<<"$specs"; }; then
  echo "test-notebooks: the \"tick\" kernelspec is not installed; run \`$TICK_BIN install --name tick\` (or set TICK_SKIP_NBCONVERT=1)" >&2
  exit 1
fi

# check MODE FILE...: checks of executed notebooks, with Debian's nbformat.
#   valid NB            nbformat.validate passes
#   has-error/no-error  NB has (no) error output
#   images NB PAGE      every image/png output of NB that a classic front end
#                       shows (no HTML, Markdown, LaTeX or SVG beside it) is an
#                       <img> data: URI in PAGE (HTML outputs may add more)
#   visible NB PAGE     the visible text of PAGE (HTML from tick run --html or
#                       nbconvert --to html) holds every timing output's
#                       headline and every warning, as a reader sees them
#   same-outputs A B    both have the same output types cell by cell
#                       (consecutive streams of one name count once)
check() {
  "$py" - "$@" <<'PY'
import base64, collections, html.parser, sys
import nbformat

mode, files = sys.argv[1], sys.argv[2:]

def load(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    return nb

def outputs(nb):
    return [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]

def shape(nb):
    cells = []
    for c in nb.cells:
        if c.cell_type != "code":
            continue
        seq = []
        for o in c.outputs:
            key = o.output_type + (":" + o.name if o.output_type == "stream" else "")
            if not (seq and seq[-1] == key and o.output_type == "stream"):
                seq.append(key)
        cells.append(seq)
    return cells

RESULT_MIME = "application/vnd.tick.timing.v1+json"

def text(v):
    return "".join(v) if isinstance(v, list) else v

def norm(s):
    return " ".join(s.split())

class Visible(html.parser.HTMLParser):
    """The text a browser shows: everything outside <head>, <style> and <script>."""
    def __init__(self):
        super().__init__()
        self.skip, self.parts = 0, []
    def handle_starttag(self, tag, attrs):
        if tag in ("head", "style", "script"):
            self.skip += 1
    def handle_endtag(self, tag):
        if tag in ("head", "style", "script"):
            self.skip -= 1
    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)

def expected(o):
    """What a reader must see of a timing output: its headline and warnings."""
    block = text(o.data["text/plain"])
    heads = [l for l in block.splitlines() if " per loop (" in l or l.startswith("Wall time:") or l.startswith("statement ")]
    want = [norm(heads[0])] if heads else []
    flat = norm(block)
    for part in flat.split("warning: ")[1:]:
        want.append("warning: " + part.strip())
    return want

class Images(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.pngs = collections.Counter()
    def handle_starttag(self, tag, attrs):
        src = dict(attrs).get("src") or ""
        if tag == "img" and src.startswith("data:image/png;base64,"):
            self.pngs[base64.b64decode(src.split(",", 1)[1])] += 1

nb = load(files[0])
if mode == "valid":
    pass
elif mode in ("has-error", "no-error"):
    errs = [o for o in outputs(nb) if o.output_type == "error"]
    if (mode == "has-error") != bool(errs):
        sys.exit(f"{files[0]}: {len(errs)} error outputs")
elif mode == "images":
    above = ("text/html", "text/markdown", "text/latex", "image/svg+xml")
    want = collections.Counter(base64.b64decode("".join(o.data["image/png"].split()))
                               for o in outputs(nb) if "image/png" in o.get("data", {})
                               and not any(m in o.data for m in above))
    p = Images()
    with open(files[1], encoding="utf-8") as f:
        p.feed(f.read())
    if want - p.pngs:  # HTML outputs may embed more images of their own (%prof)
        sys.exit(f"{files[1]}: {sum(p.pngs.values())} PNG images, notebook has {sum(want.values())} (or they differ)")
elif mode == "visible":
    p = Visible()
    with open(files[1], encoding="utf-8") as f:
        p.feed(f.read())
    page = norm(" ".join(p.parts))
    n = 0
    for o in outputs(nb):
        if RESULT_MIME not in o.get("data", {}):
            continue
        for w in expected(o):
            n += 1
            # the last warning's text runs up to the end of the block
            if w not in page and w.rsplit(" ", 1)[0] not in page:
                sys.exit(f"{files[1]}: a reader does not see {w[:120]!r}")
    if n == 0 and any(RESULT_MIME in o.get("data", {}) for o in outputs(nb)):
        sys.exit(f"{files[1]}: no headline found in the timing outputs")
elif mode == "same-outputs":
    a, b = shape(nb), shape(load(files[1]))
    if a != b:
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                print(f"code cell {i+1}: {x} != {y}", file=sys.stderr)
        sys.exit("outputs differ")
else:
    sys.exit("unknown check " + mode)
PY
}

fail=0 nbfail=0 failures=()
failed() { echo "FAIL: $*" >&2; fail=1; nbfail=1; failures+=("$*"); }

# The command line itself: bad input exits 2 with a message that says what
# is wrong; the default output goes beside the input; -o may name the input.
cli="$out/cli"
mkdir -p "$cli"
expect_status() { # WANT DESCRIPTION COMMAND...
  local want=$1 what=$2 rc=0
  shift 2
  "$@" >"$cli/last.log" 2>&1 || rc=$?
  [ $rc -eq "$want" ] || { failed "$what: exit $rc, want $want"; cat "$cli/last.log" >&2; }
}
echo 'not json' >"$cli/garbage.ipynb"
echo '{"nbformat": 3, "worksheets": []}' >"$cli/old.ipynb"
echo '{"nbformat": 4, "metadata": {}}' >"$cli/nocells.ipynb"
for bad in garbage old nocells; do
  expect_status 2 "tick run on a malformed notebook ($bad)" "$TICK_BIN" run "$cli/$bad.ipynb"
  grep -q "not a notebook tick can run" "$cli/last.log" || failed "$bad: message does not say the file is not a notebook"
  [ ! -e "$cli/$bad.out.ipynb" ] || failed "$bad: an output was written for a malformed notebook"
done
expect_status 2 "tick run on a missing file" "$TICK_BIN" run "$cli/missing.ipynb"
expect_status 2 "tick run with two notebooks" "$TICK_BIN" run tests/notebooks/basics.ipynb tests/notebooks/images.ipynb
expect_status 2 "tick run with an unknown flag" "$TICK_BIN" run --frobnicate tests/notebooks/basics.ipynb
expect_status 0 "tick run -h" "$TICK_BIN" run -h
grep -q "NOTEBOOK.out.ipynb" "$cli/last.log" || failed "tick run -h does not document the default output"
cp tests/notebooks/basics.ipynb "$cli/copy.ipynb"
expect_status 0 "tick run with the default output" "$TICK_BIN" run "$cli/copy.ipynb"
cmp -s tests/notebooks/basics.ipynb "$cli/copy.ipynb" || failed "tick run changed its input"
check valid "$cli/copy.out.ipynb" || failed "default output $cli/copy.out.ipynb is missing or invalid"
expect_status 0 "tick run -o naming the input" "$TICK_BIN" run "$cli/copy.ipynb" --timeout 1m -o "$cli/copy.ipynb"
check valid "$cli/copy.ipynb" || failed "-o naming the input did not write a valid notebook"
cmp -s tests/notebooks/basics.ipynb "$cli/copy.ipynb" && failed "-o naming the input: the input was not replaced"

# Without an OpenCL driver, 08-devices stops at its first cell, naming what
# to install (the loader reads its drivers from $OCL_ICD_VENDORS).
mkdir -p "$cli/no-opencl"
expect_status 1 "08-devices without an OpenCL driver" env OCL_ICD_VENDORS="$cli/no-opencl" \
  "$TICK_BIN" run notebooks/08-devices.ipynb -o "$cli/no-opencl.ipynb"
grep -q "pocl-opencl-icd" "$cli/last.log" || { failed "08-devices without OpenCL does not say what to install"; cat "$cli/last.log" >&2; }

skip_cl=0
if [ "${TICK_SKIP_CL:-}" = 1 ]; then
  skip_cl=1
  echo "test-notebooks: TICK_SKIP_CL=1: not running 08-devices nor the tutorials with DEVICE=CL"
fi

# One tally per notebook: a notebook fails when any of its checks failed.
cli_fail=$fail np=0 nf=0 first=1
tally() { if [ $nbfail -eq 0 ]; then np=$((np + 1)); else nf=$((nf + 1)); fi; }
for nb in "${nbs[@]}"; do
  [ $first = 1 ] || tally
  first=0 nbfail=0
  name=$(basename "$nb" .ipynb)
  if [ $skip_cl = 1 ] && [ "$name" = 08-devices ]; then
    first=1 # nothing to tally
    continue
  fi
  dir="$out/$(dirname "$nb")"
  mkdir -p "$dir"
  tick_nb="$dir/$name.tick.ipynb" page="$dir/$name.html" conv_nb="$dir/$name.nbconvert.ipynb"
  before=$(sha256sum "$nb")
  echo "== $nb"
  allow=()
  if [[ $name == error-* ]]; then
    allow=(--allow-errors)
    set +e
    "$TICK_BIN" run "$nb" -o "$dir/$name.stop.ipynb" --timeout 10m 2>"$dir/$name.stop.log"
    rc=$?
    set -e
    [ $rc -eq 1 ] || failed "$nb: tick run without --allow-errors exited $rc, want 1 (see $dir/$name.stop.log)"
    grep -q "failed:" "$dir/$name.stop.log" || failed "$nb: tick run did not name the failing cell"
  fi

  if "$TICK_BIN" run "$nb" -o "$tick_nb" --html "$page" --timeout 10m "${allow[@]}"; then
    check valid "$tick_nb" || failed "$nb: tick run output does not validate"
    check images "$tick_nb" "$page" || failed "$nb: HTML page lacks images of the notebook"
    check visible "$tick_nb" "$page" || failed "$nb: tick run --html page does not show a timing headline or warning"
    if [ ${#allow[@]} -gt 0 ]; then
      check has-error "$tick_nb" || failed "$nb: expected an error output"
    else
      check no-error "$tick_nb" || failed "$nb: has an error output"
    fi
  else
    failed "$nb: tick run exited $?"
  fi
  [ "$(sha256sum "$nb")" = "$before" ] || failed "$nb: tick run changed the input notebook"

  [ $nbconvert = 1 ] || continue
  if [ ${#allow[@]} -gt 0 ] && jupyter nbconvert --to notebook --execute --ExecutePreprocessor.kernel_name=tick \
      --ExecutePreprocessor.timeout=600 "$nb" --output-dir "$dir" --output "$name.stop" >"$dir/$name.nbconvert-stop.log" 2>&1; then
    failed "$nb: nbconvert --execute without --allow-errors succeeded, want a failure"
  fi
  if jupyter nbconvert --to notebook --execute --ExecutePreprocessor.kernel_name=tick \
      --ExecutePreprocessor.timeout=600 "${allow[@]}" "$nb" --output-dir "$dir" --output "$name.nbconvert" \
      >"$dir/$name.nbconvert.log" 2>&1; then
    check valid "$conv_nb" || failed "$nb: nbconvert output does not validate"
    check same-outputs "$tick_nb" "$conv_nb" || failed "$nb: tick run and nbconvert outputs differ"
    # nbconvert's HTML of the executed notebook (what --to html --execute writes)
    if jupyter nbconvert --to html "$conv_nb" --output-dir "$dir" --output "$name.nbconvert" >>"$dir/$name.nbconvert.log" 2>&1; then
      check visible "$conv_nb" "$dir/$name.nbconvert.html" || failed "$nb: nbconvert's HTML does not show a timing headline or warning"
    else
      failed "$nb: jupyter nbconvert --to html failed (see $dir/$name.nbconvert.log)"
    fi
  else
    failed "$nb: jupyter nbconvert --execute failed:"
    tail -20 "$dir/$name.nbconvert.log" >&2
  fi
done

tally

# The tutorials on the OpenCL device: tick run and its checks.
if [ $skip_cl = 0 ]; then
  for nb in notebooks/0*.ipynb; do
    name=$(basename "$nb" .ipynb)
    [ "$name" != 08-devices ] || continue # names CL itself; ran above
    nbfail=0
    dir="$out/cl"
    mkdir -p "$dir"
    tick_nb="$dir/$name.tick.ipynb" page="$dir/$name.html"
    echo "== $nb with DEVICE=CL"
    if DEVICE=CL "$TICK_BIN" run "$nb" -o "$tick_nb" --html "$page" --timeout 10m; then
      check valid "$tick_nb" || failed "$nb (DEVICE=CL): tick run output does not validate"
      check images "$tick_nb" "$page" || failed "$nb (DEVICE=CL): HTML page lacks images of the notebook"
      check visible "$tick_nb" "$page" || failed "$nb (DEVICE=CL): tick run --html page does not show a timing headline or warning"
      check no-error "$tick_nb" || failed "$nb (DEVICE=CL): has an error output"
      grep -qE '(device:? |on )CL\b' "$tick_nb" || failed "$nb (DEVICE=CL): no output says it ran on CL"
    else
      failed "$nb (DEVICE=CL): tick run exited $?"
    fi
    tally
  done
fi
cli=""
[ "$cli_fail" -eq 0 ] || cli="; the command-line checks FAILED"
# The failures again at the end, where a CI log's tail shows them.
for f in "${failures[@]}"; do echo "test-notebooks: FAILED: $f"; done
echo "test-notebooks: $np notebooks passed, $nf failed$cli (outputs in $out)"
[ $fail -eq 0 ]
