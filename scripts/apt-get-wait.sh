#!/usr/bin/env bash
# apt-get-wait.sh ARGS... — `apt-get ARGS...` that waits for the package
# locks instead of failing when another program holds them (an unattended
# upgrade, another apt-get: a fresh machine often runs one for its first
# minutes). apt-get itself waits for the dpkg lock only when asked
# (-o DPkg::Lock::Timeout), and `apt-get update` never waits for the lists
# lock; so this runs apt-get and, when it stopped on a lock, says who holds
# it and tries again every TICK_APT_RETRY seconds (5) until
# TICK_APT_LOCK_WAIT seconds (600) have passed, then gives up saying so.
# Any other failure is apt-get's own and ends at once, with its status.
# Runs apt-get through sudo when not root.
set -uo pipefail
wait_max=${TICK_APT_LOCK_WAIT:-600}
retry=${TICK_APT_RETRY:-5}
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
apt_get=${TICK_APT_GET:-apt-get}

start=$SECONDS
said=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
while :; do
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" "$apt_get" "$@" >"$log" 2>&1
  rc=$?
  # A lock failure: "Could not get lock /var/lib/dpkg/lock-frontend. It is
  # held by process 123 (apt-get)", "Unable to lock directory
  # /var/lib/apt/lists/", "Unable to acquire the dpkg frontend lock".
  held=$(grep -m1 -E '^E: (Could not get lock|Unable to lock|Unable to acquire the dpkg)' "$log")
  if [ $rc -eq 0 ] || [ -z "$held" ]; then
    cat "$log"
    exit $rc
  fi
  waited=$((SECONDS - start))
  if [ $waited -ge "$wait_max" ]; then
    cat "$log" >&2
    echo "apt-get-wait: the package lock was still held after ${waited} s (TICK_APT_LOCK_WAIT=$wait_max): let the other" \
      "package manager finish (ps -ef | grep -E 'apt|dpkg'), then run this again" >&2
    exit $rc
  fi
  # One line when the wait starts, then one every 30 s: the log says what
  # the script is doing without a line per try.
  if [ $said -eq 0 ] || [ $((waited / 30)) -gt $(((waited - retry) / 30)) ]; then
    echo "apt-get-wait: waiting for the package lock (${held#E: }); ${waited} s so far, giving up after ${wait_max} s" >&2
    said=1
  fi
  sleep "$retry"
done
