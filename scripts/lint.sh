#!/usr/bin/env bash
# lint.sh — the kernel's size limits (scripts/limits), then staticcheck and
# deadcode over the whole tree; any finding fails.
# scripts/install-deps.sh installs both with `go install` at the versions
# pinned there. A finding is fixed, not ignored: a //lint:ignore CHECK
# comment on the line says why when the code is right (an intended spin,
# an intended infinite recursion); generated symbol tables that list the
# standard library's deprecated names opt out of that one check in their
# staticcheck.conf.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(go env GOBIN)
bin=${bin:-$(go env GOPATH)/bin}
for tool in staticcheck deadcode; do
  if [ ! -x "$bin/$tool" ]; then echo "lint: $bin/$tool is missing: run scripts/install-deps.sh"; exit 1; fi
done
# The sizes the design keeps (issue 26): kernel/session <= 3,000 lines, no
# kernel package above 3,500, no kernel type with more than 40 methods.
go run ./scripts/limits
echo "staticcheck $("$bin/staticcheck" -version | awk '{print $2}'):"
"$bin/staticcheck" ./...
echo "staticcheck: no findings"
dead=$("$bin/deadcode" -test ./...)
if [ -n "$dead" ]; then
  echo "deadcode: functions no program or test reaches (delete them, or use them):"
  echo "$dead"
  exit 1
fi
echo "deadcode: every function is reached by a program or a test"
