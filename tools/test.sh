#!/usr/bin/env bash
# The whole test suite: installs what the tests need, builds with warnings as errors, runs every
# test, then runs them all again under ThreadSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib.sh
ensure_swift
ensure_apt_packages libgps-dev gpsd gpsd-clients
echo "==> building (debug, warnings are errors)" >&2
swift build --build-tests -Xswiftc -warnings-as-errors
echo "==> running the tests" >&2
swift test --skip-build
# The same suite under ThreadSanitizer, in its own build folder (skip with LOCEMU_SKIP_TSAN=1).
if [ -z "${LOCEMU_SKIP_TSAN:-}" ]; then
  echo "==> building with ThreadSanitizer (.build-tsan)" >&2
  swift build --build-tests --sanitize=thread --scratch-path .build-tsan -Xswiftc -warnings-as-errors
  echo "==> running the tests under ThreadSanitizer" >&2
  TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}" swift test --skip-build --sanitize=thread --scratch-path .build-tsan
fi
