#!/usr/bin/env bash
# Runs the library's and the tools' suites RUNS times (default 50) while two busy loops keep both
# cores occupied, then TSAN_RUNS times (default 10) under ThreadSanitizer, each run bounded by
# scripts/lib.sh's run_bounded and watched by the pool canary; prints the passes, failures and hangs.
# Builds first, in the test command's build folders with its flags (scripts/lib.sh).
# Usage: scripts/stress.sh [RUNS] [TSAN_RUNS]
# For a machine slower still (one core beside a busy loop): scripts/slow.sh scripts/stress.sh 3 1.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_swift
ensure_apt_packages libgps-dev libxml2-dev zlib1g-dev libsqlite3-dev libcurl4-openssl-dev pkg-config gpsd gpsd-clients librsvg2-bin
runs=${1:-50}
tsan_runs=${2:-10}
test_build_settings
plain_build >&2
sanitized_build >&2
# The tools' plain build, for the plain runs (the test command runs them under ThreadSanitizer only).
swift build --package-path Tools --build-tests --scratch-path Tools/.build "${STRICT[@]}" >&2
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
    LOCEMU_POOL_CANARY="$logs/$name-$i.canary" run_bounded 2400 "$@" > "$logs/$name-$i.log" 2>&1 || status=$?
    scripts/pool-canary-report.sh "$logs/$name-$i.canary" 2>> "$logs/$name-$i.log" || [ "$status" -ne 0 ] || status=1
    if [ "$status" -eq 0 ]; then pass=$((pass + 1)); elif [ "$status" -eq 124 ]; then hang=$((hang + 1)); else fail=$((fail + 1)); fi
    echo "$name run $i/$n: exit $status ($(grep -Eo 'Test run with [0-9]+ tests.*' "$logs/$name-$i.log" | tail -1))" >&2
  done
  echo "$name: $n runs with both cores busy: $pass passed, $fail failed, $hang hung"
}
both() { swift test --skip-build --scratch-path "$PLAIN" && swift test --package-path Tools --skip-build --scratch-path Tools/.build; }
tsan() {
  swift test --skip-build --sanitize=thread --traits ServedPhone --scratch-path "$SANITIZED" \
    && swift test --package-path Tools --skip-build --sanitize=thread --scratch-path "$SANITIZED"
}
tally suite "$runs" both
tally tsan "$tsan_runs" tsan
echo "logs: $logs"
