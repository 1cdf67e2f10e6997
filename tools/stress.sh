#!/usr/bin/env bash
# Runs the whole test suite (the library's, then the tools') RUNS times (default 50) while two busy loops keep both
# cores occupied, then TSAN_RUNS times (default 10) under ThreadSanitizer, each run bounded by
# tools/lib.sh's run_bounded; prints the passes, failures and hangs. Builds first (both builds).
# Usage: tools/stress.sh [RUNS] [TSAN_RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib.sh
ensure_swift
ensure_apt_packages libgps-dev libxml2-dev zlib1g-dev libsqlite3-dev pkg-config gpsd gpsd-clients librsvg2-bin
runs=${1:-50}
tsan_runs=${2:-10}
for pkg in . Tools; do
  swift build --package-path "$pkg" --build-tests -Xswiftc -warnings-as-errors >&2
  swift build --package-path "$pkg" --build-tests --sanitize=thread --scratch-path "$pkg/.build-tsan" -Xswiftc -warnings-as-errors >&2
done
logs=$(mktemp -d)
# Two busy loops, one per core, in a process group of their own; stopped however the script ends.
set +m
setsid sh -c 'sh -c "while :; do :; done" & sh -c "while :; do :; done" & wait' &
busy=$!
trap 'kill -KILL -- "-$busy" 2>/dev/null || true' EXIT
tally() { # NAME RUNS COMMAND...
  local name=$1 n=$2 pass=0 fail=0 hang=0 status
  shift 2
  for i in $(seq 1 "$n"); do
    status=0
    run_bounded 1200 "$@" >"$logs/$name-$i.log" 2>&1 || status=$?
    if [ "$status" -eq 0 ]; then pass=$((pass + 1)); elif [ "$status" -eq 124 ]; then hang=$((hang + 1)); else fail=$((fail + 1)); fi
    echo "$name run $i/$n: exit $status ($(grep -Eo 'Test run with [0-9]+ tests.*' "$logs/$name-$i.log" | tail -1))" >&2
  done
  echo "$name: $n runs with both cores busy: $pass passed, $fail failed, $hang hung"
}
both() { swift test --skip-build "$@" && swift test --package-path Tools --skip-build "$@"; }
tsan() { swift test --skip-build --sanitize=thread --scratch-path .build-tsan && swift test --package-path Tools --skip-build --sanitize=thread --scratch-path Tools/.build-tsan; }
tally suite "$runs" both
TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/tools/tsan-suppressions.txt ${TSAN_OPTIONS:-}" tally tsan "$tsan_runs" tsan
echo "logs: $logs"
