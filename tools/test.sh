#!/usr/bin/env bash
# The whole test suite: installs what the tests need, builds with warnings as errors, runs every
# test in one process, fuzzes `locemu serve`'s HTTP API with schemathesis (tools/fuzz-serve.sh),
# builds and tests the example app package against the library, then runs
# the suite again under ThreadSanitizer. Each run is bounded: past 20 minutes its whole process
# group is killed and the script fails with a message.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib.sh
ensure_swift
# librsvg2-bin: rsvg-convert renders the map snapshots in the snapshot tests.
# chromium + chromium-driver: the web page of `locemu serve` is tested in a real headless browser.
# time: GNU time measures a command's peak memory in the bounded-input tests.
ensure_apt_packages libgps-dev libxml2-dev zlib1g-dev libsqlite3-dev pkg-config gpsd gpsd-clients librsvg2-bin chromium chromium-driver time
echo "==> building (debug, warnings are errors)" >&2
swift build --build-tests -Xswiftc -warnings-as-errors
echo "==> running the tests" >&2
run_bounded 1200 swift test --skip-build
echo "==> fuzzing locemu serve's API from openapi.yaml (schemathesis)" >&2
tools/fuzz-serve.sh 20
echo "==> hostile requests against locemu serve (tools/hostile-serve.py)" >&2
run_bounded 600 python3 tools/hostile-serve.py "$(swift build --show-bin-path)/locemu"
echo "==> the example app (Examples/NearbyPets): its own package, tested on the library's public API" >&2
run_bounded 1200 swift test --package-path Examples/NearbyPets -Xswiftc -warnings-as-errors
# The same suite under ThreadSanitizer, in its own build folder (skip with LOCEMU_SKIP_TSAN=1).
if [ -z "${LOCEMU_SKIP_TSAN:-}" ]; then
  echo "==> building with ThreadSanitizer (.build-tsan)" >&2
  swift build --build-tests --sanitize=thread --scratch-path .build-tsan -Xswiftc -warnings-as-errors
  echo "==> running the tests under ThreadSanitizer" >&2
  export TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}"
  run_bounded 1200 swift test --skip-build --sanitize=thread --scratch-path .build-tsan
fi
