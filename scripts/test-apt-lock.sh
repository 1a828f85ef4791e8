#!/usr/bin/env bash
# test-apt-lock.sh — scripts/install-deps.sh's apt-get waits for a held
# package lock, with a message, and gives up after its bound:
#  1. a process holds /var/lib/apt/lists/lock and /var/lib/dpkg/lock-frontend
#     (the fcntl locks apt and dpkg take) until the test lets it go; then
#     `apt-get-wait.sh update` and `install --no-upgrade` of a package that
#     is installed already (changes nothing, but takes the locks) must say
#     they are waiting, and finish only after the holder has let go (the
#     order of the two events, not a time, is checked);
#  2. with TICK_APT_LOCK_WAIT=2 and the lock held, it must fail and say
#     what to do.
# Needs root (the locks are root's) and apt-get; otherwise it says so and
# passes nothing (exit 0, "skipped" in its last line).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null || ! dpkg -s tmux >/dev/null 2>&1; then
  echo "test-apt-lock: skipped (needs root, apt-get and the tmux package that install-deps.sh installs)"
  exit 0
fi
t=$(mktemp -d)
holder="" releaser=""
cleanup() {
  for p in $holder $releaser; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$t"
}
trap cleanup EXIT
fail() { echo "test-apt-lock: FAIL: $*" >&2; [ ! -f "$t/out" ] || sed 's/^/  | /' "$t/out" >&2; exit 1; }

# hold: takes the locks, writes $t/held, waits for $t/release to appear,
# writes $t/released and lets go (by exiting).
hold() {
  rm -f "$t/held" "$t/release" "$t/released"
  /usr/bin/python3 - "$t" /var/lib/apt/lists/lock /var/lib/dpkg/lock-frontend <<'PY' &
import fcntl, os, sys, time
d, paths = sys.argv[1], sys.argv[2:]
files = [open(p, "a") for p in paths]
for f in files:
    fcntl.lockf(f, fcntl.LOCK_EX)  # blocks while someone else has it
open(os.path.join(d, "held"), "w").close()
while not os.path.exists(os.path.join(d, "release")):
    time.sleep(0.05)
open(os.path.join(d, "released"), "w").close()
PY
  holder=$!
  for _ in $(seq 600); do [ -e "$t/held" ] && return; sleep 0.1; done
  fail "the lock holder did not get the locks in 60 s (another apt-get is running?)"
}

for args in "update -q" "install -y -q --no-upgrade --no-install-recommends tmux"; do
  hold
  # Let go once the waiting message is out (and never before).
  ( for _ in $(seq 1200); do grep -q 'waiting for the package lock' "$t/out" 2>/dev/null && break; sleep 0.1; done
    touch "$t/release" ) &
  releaser=$!
  # shellcheck disable=SC2086
  TICK_APT_RETRY=1 scripts/apt-get-wait.sh $args >"$t/out" 2>&1 || fail "apt-get $args: exit $? after the lock was released"
  wait "$releaser"; releaser=""
  [ -e "$t/released" ] || fail "apt-get $args finished while the lock was still held"
  grep -q 'waiting for the package lock (Could not get lock /var/lib/' "$t/out" || fail "apt-get $args: no message naming the held lock"
  wait "$holder"; holder=""
  echo "test-apt-lock: apt-get $args waited for the held lock, then ran"
done

hold
if TICK_APT_LOCK_WAIT=2 TICK_APT_RETRY=1 scripts/apt-get-wait.sh update -q >"$t/out" 2>&1; then
  fail "apt-get update succeeded while the lock was held"
fi
grep -q 'the package lock was still held after' "$t/out" || fail "giving up does not say why"
touch "$t/release"; wait "$holder"; holder=""
echo "test-apt-lock: gives up after TICK_APT_LOCK_WAIT with a message"
echo "test-apt-lock: 3 checks passed"
