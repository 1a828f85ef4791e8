#!/usr/bin/env bash
# check-docs.sh — the figures and lists the README repeats from elsewhere
# agree with their source, so a first reader is not told two things:
#  - the differential corpus figure ("N of M small programs") in README.md
#    is docs/compatibility.md's ("**N of M**");
#  - README.md's and notebooks/README.md's tables list every tutorial
#    notebook, and notebooks/README.md says how many there are.
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0
bad() { echo "check-docs: $*" >&2; fail=1; }

readme=$(grep -oE '[0-9]+ of [0-9]+ small programs' README.md | head -1 | cut -d' ' -f1-3 || true)
compat=$(grep -oE '\*\*[0-9]+ of [0-9]+\*\*' docs/compatibility.md | head -1 | tr -d '*' || true)
[ -n "$compat" ] || bad "docs/compatibility.md gives no '**N of M**' corpus figure"
[ "$readme" = "$compat" ] || bad "README.md says '$readme small programs', docs/compatibility.md '$compat': give the README the current figure"

words=(zero one two three four five six seven eight nine ten eleven twelve)
n=0
for nb in notebooks/*.ipynb; do
  n=$((n + 1))
  name=$(basename "$nb")
  grep -q "$name" README.md || bad "README.md's notebook table lacks $name"
  grep -q "($name)" notebooks/README.md || bad "notebooks/README.md's table lacks $name"
done
word=${words[$n]:-$n}
grep -qi "^${word} notebooks" notebooks/README.md || bad "notebooks/README.md does not say '${word^} notebooks' ($n in notebooks/)"
[ $fail -eq 0 ] && echo "check-docs: README figures and notebook lists agree with their sources"
exit $fail
