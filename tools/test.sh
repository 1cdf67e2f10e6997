#!/usr/bin/env bash
# The whole test suite: installs what the tests need; builds the library (the root package) and
# the tools (Tools/) with warnings as errors and runs each one's tests in one process; fuzzes
# `locemu serve`'s HTTP API with schemathesis (tools/fuzz-serve.sh) and sends it hostile
# requests (tools/hostile-serve.py); checks `locemu sky` against skyfield (tools/check-sky.sh); builds and tests the example app packages (NearbyPets, LostPets) against the
# library and checks that it resolves no heavy dependency; checks the formatting; then runs both
# suites again under ThreadSanitizer. Each run is bounded: past 20 minutes its whole process
# group is killed and the script fails with a message.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib.sh
ensure_swift
# librsvg2-bin: rsvg-convert renders the map snapshots in the snapshot tests.
# chromium + chromium-driver: the web pages of `locemu serve` are tested in a real headless browser;
# libjs-leaflet: the map page (/map) loads Debian's Leaflet from the server.
# time: GNU time measures a command's peak memory in the bounded-input tests.
ensure_apt_packages libgps-dev libxml2-dev zlib1g-dev libsqlite3-dev pkg-config gpsd gpsd-clients librsvg2-bin chromium chromium-driver libjs-leaflet time
tools/check-format.sh
# The module graph: imports against the manifests, and docs/Architecture.md against both.
tools/check-architecture.py
echo "==> the library: building (debug, warnings are errors)" >&2
swift build --build-tests -Xswiftc -warnings-as-errors
echo "==> the library: running its tests" >&2
run_bounded 1200 swift test --skip-build
echo "==> the tools (Tools/): building (debug, warnings are errors)" >&2
swift build --package-path Tools --build-tests -Xswiftc -warnings-as-errors
echo "==> the tools: running their tests (end to end: locemu, gpsd, chromium)" >&2
run_bounded 1200 swift test --package-path Tools --skip-build
echo "==> fuzzing locemu serve's API from openapi.yaml (schemathesis)" >&2
tools/fuzz-serve.sh 20
echo "==> hostile requests against locemu serve (tools/hostile-serve.py)" >&2
run_bounded 600 python3 tools/hostile-serve.py "$(swift build --package-path Tools --show-bin-path)/locemu"
echo "==> locemu sky against an independent implementation (tools/check-sky.sh: skyfield's SGP4, rtklib's TLEs)" >&2
run_bounded 600 tools/check-sky.sh "$(swift build --package-path Tools --show-bin-path)/locemu"
echo "==> the example app (Examples/NearbyPets): its own package, tested on the library's public API" >&2
run_bounded 1200 swift test --package-path Examples/NearbyPets -Xswiftc -warnings-as-errors
echo "==> the lost-pets app written the iOS way (Examples/LostPets): import CoreLocation, MapKit, Combine" >&2
run_bounded 1200 swift test --package-path Examples/LostPets -Xswiftc -warnings-as-errors
echo "==> iOS location code in the shapes apps write it (Examples/CoreLocationCompat), compiled unchanged" >&2
run_bounded 1200 swift test --package-path Examples/CoreLocationCompat -Xswiftc -warnings-as-errors
echo "==> the README's quick start (Examples/QuickStart): its Package.swift, app code and test, as the README shows them" >&2
tools/check-readme-snippets.sh
run_bounded 1200 swift test --package-path Examples/QuickStart -Xswiftc -warnings-as-errors
echo "==> CoreLocation/MapKit declarations against Apple's (tools/data/apple-corelocation-mapkit-api.tsv)" >&2
tools/corelocation-api-coverage.sh --at-least 95
tools/check-dependencies.sh
# The same suites under ThreadSanitizer, in build folders of their own (skip with LOCEMU_SKIP_TSAN=1).
if [ -z "${LOCEMU_SKIP_TSAN:-}" ]; then
  export TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}"
  echo "==> the library under ThreadSanitizer (.build-tsan)" >&2
  swift build --build-tests --sanitize=thread --scratch-path .build-tsan -Xswiftc -warnings-as-errors
  run_bounded 1200 swift test --skip-build --sanitize=thread --scratch-path .build-tsan
  echo "==> the tools under ThreadSanitizer (Tools/.build-tsan)" >&2
  swift build --package-path Tools --build-tests --sanitize=thread --scratch-path Tools/.build-tsan -Xswiftc -warnings-as-errors
  run_bounded 1200 swift test --package-path Tools --skip-build --sanitize=thread --scratch-path Tools/.build-tsan
fi
