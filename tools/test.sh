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
# Each stage's time, printed at the end (also when a stage fails): wall seconds, and the CPU
# seconds its processes used (user + system, of the children this script waited for), which shows
# how much of a stage's wall time the machine's cores sat idle.
STAGE_TIMES=() STAGE_NAME="" STAGE_START=$SECONDS STAGE_CPU=0
children_cpu_seconds() { # this shell's reaped children: user + system, in whole seconds
  local stat
  stat=$(< "/proc/$$/stat")
  stat=${stat##*) }
  read -r -a fields <<< "$stat"
  echo $(((fields[13] + fields[14]) / $(getconf CLK_TCK)))
}
end_stage() {
  local cpu
  cpu=$(children_cpu_seconds)
  if [ -n "$STAGE_NAME" ]; then
    STAGE_TIMES+=("$(printf '%6ds %6ds cpu  %s' $((SECONDS - STAGE_START)) $((cpu - STAGE_CPU)) "$STAGE_NAME")")
  fi
  STAGE_NAME="" STAGE_CPU=$cpu
}
stage() {
  end_stage
  STAGE_NAME="$1" STAGE_START=$SECONDS
  echo "==> $1" >&2
}
print_stage_times() {
  end_stage
  echo "==> stage times (total $SECONDS s)" >&2
  printf '%s\n' "${STAGE_TIMES[@]}" >&2
}
trap print_stage_times EXIT
stage "installing what the tests need"
ensure_swift
# librsvg2-bin: rsvg-convert renders the map snapshots in the snapshot tests.
# chromium + chromium-driver: the web pages of `locemu serve` are tested in a real headless browser;
# libjs-leaflet: the map page (/map) loads Debian's Leaflet from the server.
# time: GNU time measures a command's peak memory in the bounded-input tests.
# nodejs: `node --check` reads the web pages' scripts (Tools/Sources/PhoneServer/Page).
ensure_apt_packages libgps-dev libxml2-dev zlib1g-dev libsqlite3-dev pkg-config gpsd gpsd-clients librsvg2-bin chromium chromium-driver libjs-leaflet time nodejs
stage "formatting, the pages' scripts and the module graph"
tools/check-format.sh
for script in Tools/Sources/PhoneServer/Page/*.js; do node --check "$script"; done
# The module graph: imports against the manifests, and docs/Architecture.md against both.
tools/check-architecture.py
stage "the library: building (debug, warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors
stage "the library: running its tests"
run_bounded 1200 swift test --skip-build
stage "the tools (Tools/): building (debug, warnings are errors)"
swift build --package-path Tools --build-tests -Xswiftc -warnings-as-errors
stage "the tools: running their tests (end to end: locemu, gpsd, chromium)"
run_bounded 1200 swift test --package-path Tools --skip-build
stage "fuzzing locemu serve's API from openapi.yaml (schemathesis)"
tools/fuzz-serve.sh 20
stage "hostile requests against locemu serve (tools/hostile-serve.py)"
run_bounded 600 python3 tools/hostile-serve.py "$(swift build --package-path Tools --show-bin-path)/locemu"
stage "locemu sky against an independent implementation (tools/check-sky.sh: skyfield's SGP4, rtklib's TLEs)"
run_bounded 600 tools/check-sky.sh "$(swift build --package-path Tools --show-bin-path)/locemu"
stage "the example app (Examples/NearbyPets): its own package, tested on the library's public API"
run_bounded 1200 swift test --package-path Examples/NearbyPets -Xswiftc -warnings-as-errors
stage "the lost-pets app written the iOS way (Examples/LostPets): import CoreLocation, MapKit, Combine"
run_bounded 1200 swift test --package-path Examples/LostPets -Xswiftc -warnings-as-errors
stage "iOS location code in the shapes apps write it (Examples/CoreLocationCompat), compiled unchanged"
run_bounded 1200 swift test --package-path Examples/CoreLocationCompat -Xswiftc -warnings-as-errors
stage "the README's quick start (Examples/QuickStart): its Package.swift, app code and test, as the README shows them"
tools/check-readme-snippets.sh
run_bounded 1200 swift test --package-path Examples/QuickStart -Xswiftc -warnings-as-errors
stage "CoreLocation/MapKit declarations against Apple's (tools/data/apple-corelocation-mapkit-api.tsv)"
tools/corelocation-api-coverage.sh --at-least 95
stage "what an app resolves (tools/check-dependencies.sh)"
tools/check-dependencies.sh
# The same suites under ThreadSanitizer, in build folders of their own (skip with LOCEMU_SKIP_TSAN=1).
if [ -z "${LOCEMU_SKIP_TSAN:-}" ]; then
  export TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}"
  stage "the library under ThreadSanitizer (.build-tsan): building"
  swift build --build-tests --sanitize=thread --scratch-path .build-tsan -Xswiftc -warnings-as-errors
  stage "the library under ThreadSanitizer: running its tests"
  run_bounded 1200 swift test --skip-build --sanitize=thread --scratch-path .build-tsan
  stage "the tools under ThreadSanitizer (Tools/.build-tsan): building"
  swift build --package-path Tools --build-tests --sanitize=thread --scratch-path Tools/.build-tsan -Xswiftc -warnings-as-errors
  stage "the tools under ThreadSanitizer: running their tests"
  run_bounded 1200 swift test --package-path Tools --skip-build --sanitize=thread --scratch-path Tools/.build-tsan
fi
