#!/usr/bin/env bash
# The whole test suite: installs what the tests need, builds with warnings as errors, runs every
# test, then runs them all again under ThreadSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib.sh
ensure_swift
# librsvg2-bin: rsvg-convert renders the map snapshots in the snapshot tests.
ensure_apt_packages libgps-dev gpsd gpsd-clients librsvg2-bin
echo "==> building (debug, warnings are errors)" >&2
swift build --build-tests -Xswiftc -warnings-as-errors
# A watchdog: a hung test run fails after 20 minutes with a clear message instead of
# stalling CI (one such hang, all tasks idle and timers never firing, was seen once in 2026-11).
run_tests() {
  local status=0
  timeout --signal=KILL 1200 "$@" || status=$?
  if [ "$status" -eq 137 ]; then echo "tools/test.sh: the test run hung for 20 minutes and was killed" >&2; fi
  return "$status"
}
echo "==> running the tests" >&2
run_tests swift test --skip-build
# The same suite under ThreadSanitizer, in its own build folder (skip with LOCEMU_SKIP_TSAN=1).
if [ -z "${LOCEMU_SKIP_TSAN:-}" ]; then
  echo "==> building with ThreadSanitizer (.build-tsan)" >&2
  swift build --build-tests --sanitize=thread --scratch-path .build-tsan -Xswiftc -warnings-as-errors
  echo "==> running the tests under ThreadSanitizer" >&2
  TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}" run_tests swift test --skip-build --sanitize=thread --scratch-path .build-tsan
fi
