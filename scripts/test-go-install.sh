#!/usr/bin/env bash
# test-go-install.sh — proves tick installs like a Go tool:
#  1. `go install ./cmd/tick` from the clone;
#  2. `go install github.com/tick-kernel/tick/cmd/tick@VERSION` with the module
#     served by a file-system module proxy (the working tree zipped as a
#     module version), its dependencies from the module cache's download
#     directory (itself a valid proxy), into a throwaway module cache — what a
#     user's `go install …@latest` does, without the network;
#  3. the cross-builds: tick builds for macOS and Windows.
# Each installed binary must run `tick version` and `tick install --prefix`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
t=$(mktemp -d)
cleanup() { chmod -R u+w "$t" 2>/dev/null || true; rm -rf "$t"; }
trap cleanup EXIT

echo "go install ./cmd/tick"
GOBIN=$t/bin1 go install ./cmd/tick
# (Outputs are read whole: grep -q closing a pipe early would kill the writer
# with SIGPIPE, which pipefail reports as a failure.)
out=$("$t/bin1/tick" version)
grep -q '^tick ' <<<"$out" || { echo "the installed tick does not run: $out"; exit 1; }
out=$("$t/bin1/tick" install --prefix "$t/p1")
grep -q 'installed kernelspec' <<<"$out" || { echo "tick install said: $out"; exit 1; }
grep -q "\"$t/bin1/tick\"" "$t/p1/share/jupyter/kernels/tick/kernel.json"

echo "go install github.com/tick-kernel/tick/cmd/tick@v0.0.0-local through a file-system module proxy"
mod=github.com/tick-kernel/tick ver=v0.0.0-local
dl=$t/proxy/$mod/@v
mkdir -p "$dl"
# The module zip: the files git would commit (tracked and new, not ignored),
# under MODULE@VERSION/, as the go command's module zips are laid out.
git ls-files -z --cached --others --exclude-standard | /usr/bin/python3 -c '
import os, sys, zipfile
prefix, out = sys.argv[1], sys.argv[2]
names = [n for n in sys.stdin.buffer.read().decode().split("\0") if n and os.path.isfile(n)]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for n in sorted(names):
        z.write(n, prefix + n)
' "$mod@$ver/" "$dl/$ver.zip"
cp go.mod "$dl/$ver.mod"
printf '{"Version":"%s"}\n' "$ver" > "$dl/$ver.info"
echo "$ver" > "$dl/list"
GOMODCACHE_REAL=$(go env GOMODCACHE)
GOPROXY="file://$t/proxy,file://$GOMODCACHE_REAL/cache/download" GOMODCACHE=$t/modcache GOFLAGS=-mod=mod \
  GONOSUMDB=$mod GOSUMDB=off GOBIN=$t/bin2 \
  go install -trimpath "$mod/cmd/tick@$ver"
out=$("$t/bin2/tick" version)
grep -q '^tick ' <<<"$out" || { echo "the tick installed through the proxy does not run: $out"; exit 1; }
out=$("$t/bin2/tick" install --prefix "$t/p2" --name proxied)
grep -q 'installed kernelspec "proxied"' <<<"$out" || { echo "tick install said: $out"; exit 1; }

echo "cross-builds: darwin/amd64, darwin/arm64, windows/amd64"
for target in darwin/amd64 darwin/arm64 windows/amd64; do
  # (Not -o /dev/null: as root, a cross-build's link replaced the device
  # node with a regular file, and every later use of /dev/null broke.)
  GOOS=${target%/*} GOARCH=${target#*/} go build -o "$t/cross/tick-${target%/*}-${target#*/}" ./cmd/tick
done
GOOS=windows go vet ./...
GOOS=darwin go vet ./...
echo "test-go-install: go install (local and through a module proxy) and cross-builds passed"
