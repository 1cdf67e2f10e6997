#!/usr/bin/env bash
# The whole test suite. Installs what the tests need, runs the checks (formatting, the pages'
# scripts, the module graph against the manifests, the README's quick start against its files),
# then two lanes side by side, both at the normal priority, each building what it tests (warnings
# are errors) in a build folder of its own that compiles the library once:
#   - sanitized: the library and the tools (Tools/) under ThreadSanitizer, then side by side the
#     tools' suite (locemu, gpsd, chromium: real processes), the checks of the locemu binary
#     (fuzzing `locemu serve`'s HTTP API with schemathesis, hostile requests, `locemu sky` against
#     skyfield), and the library's suite;
#   - plain: the library and the example apps (Examples/), then the library's suite, the pool
#     canary's own check, the CoreLocation/MapKit API coverage, the examples' suites, the Combine
#     trait's compat package, and what an app resolves.
# The library runs both ways: plain at full repetition counts with the default traits apps get;
# under ThreadSanitizer at a tenth, for races, with the ServedPhone trait the tools use. The tools
# run under ThreadSanitizer only: their suite is end to end, and a plain run would repeat it
# without the race checks. Builds carry line tables, not full debug info, and index only the test
# targets (what test discovery reads).
# No test asserts how fast anything happens: a wait is a hang guard. Every test run is bounded
# (40 minutes; past it its whole process group is killed and the script fails with a message),
# and runs with the pool canary (Sources/CPoolCanary), which fails the step when a test blocks a
# thread of Swift's cooperative pool. Each lane's log is printed when both have ended; each
# stage's and step's wall and CPU seconds at the end.
# scripts/slow.sh scripts/test.sh: the same on a quarter of this machine (one core, shared with a
# busy loop), as a slow or busy machine would run it.
# LOCEMU_SKIP_TSAN=1: the library plain only, the tools plain.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_swift

# The CPU seconds (user + system) of the children this shell has reaped: beside a stage's wall
# time it shows how much of it the two cores sat idle.
children_cpu_seconds() { # PID: a shell's own $BASHPID (a command substitution has its own)
  local stat fields
  stat=$(< "/proc/$1/stat")
  stat=${stat##*) }
  read -r -a fields <<< "$stat"
  echo $(((fields[13] + fields[14]) / $(getconf CLK_TCK)))
}
STAGE_TIMES=() STAGE_NAME="" STAGE_START=$SECONDS STAGE_CPU=0
end_stage() {
  local cpu me=$BASHPID
  cpu=$(children_cpu_seconds "$me")
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
JOB_LOGS=$(mktemp -d)
print_stage_times() {
  end_stage
  echo "==> stage times (total $SECONDS s; wall, then CPU: two cores give at most twice the wall)" >&2
  printf '%s\n' "${STAGE_TIMES[@]}" >&2
  [ -f "$JOB_LOGS/steps" ] && cat "$JOB_LOGS/steps" >&2
  # The failures once more, last: a CI log cut to its tail still names them.
  local failures
  failures=$(cat "$JOB_LOGS"/*.log 2> /dev/null \
    | grep -E '^✘ |^[^ ].*: error: |^error: |Fatal error|^Test Case .* failed' | grep -v '^error: failed: ' | awk '!seen[$0]++' | head -40) || true
  if [ -n "$failures" ]; then
    echo "==> what failed (the first 40 lines that say so; the whole logs are above)" >&2
    printf '%s\n' "$failures" >&2
  fi
  # A hang guard's look that woke what it looked at (a lost wakeup below our code): no failure,
  # but said at the end, where a reader of the log sees it.
  local late
  late=$(cat "$JOB_LOGS"/*.log 2> /dev/null | grep -E '^hang guard: ' | head -200) || true
  if [ -n "$late" ]; then
    echo "==> hang guards whose look ended a stall (warnings; the first 200 lines)" >&2
    printf '%s\n' "$late" >&2
  fi
  rm -rf "$JOB_LOGS"
}
trap print_stage_times EXIT

# Lanes: `job NAME FUNCTION` starts FUNCTION in the background with errexit on, its output in a
# log; `join_jobs` waits for all of them, prints each log in the order they started, and fails if
# any failed. Inside a lane, `step NAME COMMAND...` runs COMMAND and records its wall and CPU
# seconds, which the stage times print at the end.
JOB_PIDS=() JOB_NAMES=()
job() {
  local name=$1
  shift
  (set -euo pipefail; "$@") > "$JOB_LOGS/$name.log" 2>&1 &
  JOB_PIDS+=($!) JOB_NAMES+=("$name")
}
join_jobs() {
  local i failed=()
  for i in "${!JOB_PIDS[@]}"; do
    wait "${JOB_PIDS[$i]}" || failed+=("${JOB_NAMES[$i]}")
  done
  for i in "${!JOB_NAMES[@]}"; do
    echo "==> [${JOB_NAMES[$i]}]" >&2
    cat "$JOB_LOGS/${JOB_NAMES[$i]}.log" >&2
  done
  JOB_PIDS=() JOB_NAMES=()
  if [ ${#failed[@]} -gt 0 ]; then
    echo "error: failed: ${failed[*]} (their logs are above)" >&2
    return 1
  fi
}
step() {
  local name=$1 start=$SECONDS me=$BASHPID before status=0
  shift
  before=$(children_cpu_seconds "$me")
  echo "==> $name"
  # In the background and waited for: run as the left of ||, a function would ignore errexit.
  "$@" &
  wait $! || status=$?
  printf '%6ds %6ds cpu    %s%s\n' $((SECONDS - start)) $(($(children_cpu_seconds "$me") - before)) "$name" \
    "$([ "$status" -eq 0 ] || echo " (failed: exit $status)")" >> "$JOB_LOGS/steps"
  return "$status"
}
# Steps side by side inside a lane: `side_by_side FUNCTION...` runs each as a step of its own
# name, each with its own log (printed after all ended, in order), and fails if any failed.
side_by_side() {
  local fn pids=() failed=0 i=0
  for fn in "$@"; do
    (set -euo pipefail; step "${fn//_/ }" "$fn") > "$JOB_LOGS/$fn.log" 2>&1 &
    pids+=($!)
  done
  for fn in "$@"; do
    wait "${pids[$i]}" || failed=1
    cat "$JOB_LOGS/$fn.log"
    i=$((i + 1))
  done
  return "$failed"
}

stage "installing what the tests need"
# librsvg2-bin: rsvg-convert renders the map snapshots in the snapshot tests.
# chromium + chromium-driver: the web pages of `locemu serve` are tested in a real headless browser;
# libjs-leaflet: the map page (/map) loads Debian's Leaflet from the server.
# time: GNU time measures a command's peak memory in the bounded-input tests.
# nodejs: `node --check` reads the web pages' scripts (Tools/Sources/PhoneServer/Page).
# gdb: a hang guard of the tools' tests that fires shows every thread's stack (ThreadDump.swift).
ensure_apt_packages libgps-dev libxml2-dev zlib1g-dev libsqlite3-dev libcurl4-openssl-dev pkg-config gpsd gpsd-clients librsvg2-bin chromium chromium-driver libjs-leaflet time nodejs gdb
# schemathesis (PyPI): scripts/fuzz-serve.sh installs it when it is missing.

stage "formatting, the pages' scripts and the module graph"
# No two paths that differ only by case: a Mac's clone would merge them.
scripts/check-paths.sh
scripts/check-format.sh
for script in Tools/Sources/PhoneServer/Page/*.js; do node --check "$script"; done
# The module graph: imports against the manifests, and docs/Architecture.md against both.
scripts/check-architecture.py
# The README's quick start is Examples/QuickStart's files, byte for byte.
scripts/check-readme-snippets.sh

test_build_settings

# The pool canary (Sources/CPoolCanary): every test process reports a thread of Swift's cooperative
# pool that sits in a blocking system call for 10 s, and `suite` fails the step with the report.
# suite LOG_NAME COMMAND...: runs a test command bounded (40 minutes: a hang guard, far above the
# longest suite on one busy core) with the canary's log, then prints and fails on its reports.
suite() {
  local canary="$JOB_LOGS/canary-$1.log" status=0
  shift
  rm -f "$canary"
  LOCEMU_POOL_CANARY="$canary" run_bounded 2400 "$@" || status=$?
  scripts/pool-canary-report.sh "$canary" || status=1
  return "$status"
}

# The sanitized lane: the library's and the tools' suites under ThreadSanitizer (the tools' suite
# is end to end: locemu, gpsd, chromium; a plain run would repeat its tests without the race
# checks), and beside them locemu serve fuzzed, hostile requests, and locemu sky against skyfield.
sanitized_lane() {
  step "the library and the tools$([ -n "${LOCEMU_SKIP_TSAN:-}" ] || echo " under ThreadSanitizer"): build" sanitized_build
  # The checks of locemu's binary and the library's suite beside the tools' suite (they need no
  # SwiftPM, whose lock on the build folder would make them wait): the tools' suite leaves a core
  # partly idle once the plain lane has ended.
  if [ -n "${LOCEMU_SKIP_TSAN:-}" ]; then
    side_by_side the_tools_suite checks_of_the_locemu_binary
  else
    # Beside locemu: the tools build in the same folder ($TOOLS_SCRATCH is $SANITIZED here).
    library_tests="$(dirname "$locemu_binary")/LocationEmulatorPackageTests.xctest"
    side_by_side the_tools_suite checks_of_the_locemu_binary the_library_suite_under_ThreadSanitizer
  fi
}
# The library's suite under ThreadSanitizer (races; the ServedPhone configuration), beside the
# tools' suite: its test bundle run directly, as swift test runs it (XCTest's tests, then Swift
# Testing's), since a second swift test on one build folder waits for the first's lock. Fails
# unless Swift Testing says it ran tests and they passed.
the_library_suite_under_ThreadSanitizer() {
  local output="$JOB_LOGS/library-tsan-output.log"
  suite library-tsan-xctest "$library_tests"
  suite library-tsan env NO_COLOR=1 "$library_tests" --testing-library swift-testing 2>&1 | tee "$output"
  grep -qE 'Test run with [1-9][0-9]* tests? .*passed' "$output" \
    || { echo "error: the library's suite under ThreadSanitizer did not say that it ran tests and they passed" >&2; return 1; }
}
# End to end: locemu, gpsd, chromium.
the_tools_suite() {
  suite tools swift test --package-path Tools --skip-build "${TSAN[@]}" --scratch-path "$TOOLS_SCRATCH"
}
checks_of_the_locemu_binary() {
  step "fuzzing locemu serve's API from openapi.yaml (schemathesis)" \
    run_bounded 1800 env LOCEMU_BINARY="$locemu_binary" scripts/fuzz-serve.sh 20
  step "hostile requests against locemu serve (scripts/hostile-serve.py)" \
    run_bounded 1800 python3 scripts/hostile-serve.py "$locemu_binary"
  step "locemu sky against an independent implementation (scripts/check-sky.sh: skyfield's SGP4, rtklib's TLEs)" \
    run_bounded 1800 scripts/check-sky.sh "$locemu_binary"
}
# The pool canary catches a test that blocks the pool on purpose (PoolCanaryDemo, kept out of the
# normal run): its report must name the test.
canary_catches_a_blocked_pool() {
  local log="$JOB_LOGS/canary-demo.log" report
  rm -f "$log"
  LOCEMU_POOL_CANARY="$log" LOCEMU_POOL_CANARY_SECONDS=2 LOCEMU_POOL_CANARY_DEMO=1 \
    run_bounded 600 swift test --skip-build --scratch-path "$PLAIN" --filter PoolCanaryDemo > /dev/null
  report=$(scripts/pool-canary-report.sh "$log" 2>&1) && { echo "error: the pool canary reported nothing" >&2; return 1; }
  if ! grep -q "blocksACooperativeThreadOnPurpose" <<< "$report"; then
    printf 'error: the pool canary did not name the test that blocked:\n%s\n' "$report" >&2
    return 1
  fi
  echo "the pool canary named the test that blocked the pool:"
  grep -m1 "blocksACooperativeThreadOnPurpose" <<< "$report"
}
# The plain lane: the library's suite (full repetition counts, the default traits apps get), the
# CoreLocation/MapKit API coverage, the example packages, the Combine-trait compat package, and
# what an app resolves.
# NearbyPets: an app's package tested on the library's public API; LostPets: the lost-pets app
# written the iOS way (import CoreLocation, MapKit, Combine); QuickStart: the README's quick start
# as it shows it; CoreLocationCompat: iOS location code in the shapes apps write it, unchanged;
# StaticLink: a program linked statically, as locemu's release build is, whose clock settles.
# A package that guards `import Combine` with canImport (GuardedCombine, which never names this
# library) compiled in a build that already holds the Combine module: its import must resolve, on
# a rebuild as on the first build (the first may compile it before the Combine module exists).
rebuild_guarded_combine() {
  rm -rf Examples/CoreLocationCompat/.build/*/debug/GuardedCombine.build
  swift build --package-path Examples/CoreLocationCompat --build-tests "${COMPAT_STRICT[@]}"
}
# Warnings as errors, but a capture in a preconcurrency @Sendable handler stays the warning it is on
# iOS (Swift6Shapes: an error there means a declaration of ours is stricter than Apple's).
COMPAT_STRICT=("${STRICT[@]}" -Xswiftc -Wwarning -Xswiftc SendableClosureCaptures)

plain_lane() {
  step "the library and the example apps: build" plain_build
  step "the library's suite" suite library swift test --skip-build --scratch-path "$PLAIN"
  step "the pool canary names a test that blocks the pool" canary_catches_a_blocked_pool
  step "CoreLocation/MapKit declarations against Apple's (scripts/data/apple-corelocation-mapkit-api.tsv)" \
    env SYMBOL_GRAPHS="$SYMBOL_GRAPHS" scripts/corelocation-api-coverage.sh --at-least 90
  # With the plain build's flags, SwiftPM finds the current code built: the digester's dumps only.
  step "the API products against the last release (scripts/check-api.sh; CHANGELOG.md names each break)" \
    run_bounded 1200 scripts/check-api.sh
  step "the documentation site (scripts/docs.sh: docc, warnings as errors; opened in chromium)" \
    env SYMBOL_GRAPHS="$SYMBOL_GRAPHS" scripts/docs.sh --check
  local example
  for example in "${SHARED_EXAMPLES[@]}"; do
    # GuardedCombine compiled after the library's Combine module (the library builds first).
    step "Examples/$example" suite "$example" \
      env LOCEMU_GUARDED_COMBINE_REBUILT=1 swift test --package-path "Examples/$example" --skip-build --scratch-path "$PLAIN"
  done
  step "Examples/StaticLink (linked with --static-swift-stdlib, its virtual clock settles iOS code's tasks)" \
    run_bounded 600 "$(swift build --package-path Examples/StaticLink --scratch-path "$PLAIN" --static-swift-stdlib --show-bin-path)/StaticClockCheck"
  step "Examples/CoreLocationCompat: build (the Combine trait)" \
    swift build --package-path Examples/CoreLocationCompat --build-tests "${COMPAT_STRICT[@]}"
  step "Examples/GuardedCombine built again, now that the Combine module exists (canImport(Combine) is true)" \
    rebuild_guarded_combine
  step "Examples/CoreLocationCompat" suite CoreLocationCompat \
    env LOCEMU_GUARDED_COMBINE_REBUILT=1 swift test --package-path Examples/CoreLocationCompat --skip-build
  step "what an app resolves (scripts/check-dependencies.sh)" scripts/check-dependencies.sh
}
stage "resolving packages, one at a time (the builds then run side by side)"
swift package resolve --scratch-path "$PLAIN" >&2
[ -n "${LOCEMU_SKIP_TSAN:-}" ] || swift package resolve --scratch-path "$SANITIZED" >&2
swift package resolve --package-path Tools --scratch-path "$TOOLS_SCRATCH" >&2
for example in "${SHARED_EXAMPLES[@]}" StaticLink; do swift package resolve --package-path "Examples/$example" --scratch-path "$PLAIN" >&2; done
swift package resolve --package-path Examples/CoreLocationCompat >&2

# Both lanes at the normal priority: on a busy machine the command is slower, never stuck, and no
# test asserts how fast anything happens (scripts/slow.sh runs it all on a quarter of the machine).
stage "building and testing in two lanes side by side: sanitized, and plain"
job "sanitized" sanitized_lane
job "plain" plain_lane
join_jobs
