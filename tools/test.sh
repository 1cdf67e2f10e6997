#!/usr/bin/env bash
# The whole test suite. Installs what the tests need, runs the checks (formatting, the pages'
# scripts, the module graph against the manifests, the README's quick start against its files),
# then two lanes side by side, each building what it tests in build folders of its own (warnings
# are errors):
#   - end to end: the tools (Tools/) under ThreadSanitizer, then their suite (locemu, gpsd,
#     chromium: real processes), fuzzing `locemu serve`'s HTTP API with schemathesis, hostile
#     requests, and `locemu sky` against skyfield;
#   - in process: three chains side by side, each a build and then what it tests — the library
#     (debug) with its suite and the CoreLocation/MapKit API coverage, the library under
#     ThreadSanitizer with its suite, the example packages (Examples/) with theirs — the builds
#     on the CPU the end-to-end lane leaves idle (SCHED_IDLE, throughout: that lane is the
#     longest chain, and its tests of real processes keep their time bounds only with the CPU
#     they ask for); then what an app resolves.
# The tools run under ThreadSanitizer only: their suite is end to end, so a plain run would repeat
# the same tests without the race checks; the library runs both ways (plain at full repetition
# counts, ThreadSanitizer at a tenth). Builds carry line tables, not full debug info (file:line in
# backtraces and race reports, less compile and link time), and the library's and the tools'
# index only their test targets (what test discovery reads; an eighth less compile time). Every
# test run is bounded: past 20 minutes its whole process group is killed and the script fails
# with a message. Each lane's log
# is printed when both have ended; each stage's and step's wall and CPU seconds at the end.
# LOCEMU_SKIP_TSAN=1: the library plain only, the tools plain.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib.sh
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
ensure_apt_packages libgps-dev libxml2-dev zlib1g-dev libsqlite3-dev libcurl4-openssl-dev pkg-config gpsd gpsd-clients librsvg2-bin chromium chromium-driver libjs-leaflet time nodejs
# schemathesis (PyPI): tools/fuzz-serve.sh installs it when it is missing.

stage "formatting, the pages' scripts and the module graph"
tools/check-format.sh
for script in Tools/Sources/PhoneServer/Page/*.js; do node --check "$script"; done
# The module graph: imports against the manifests, and docs/Architecture.md against both.
tools/check-architecture.py
# The README's quick start is Examples/QuickStart's files, byte for byte.
tools/check-readme-snippets.sh

STRICT=(-Xswiftc -warnings-as-errors -Xswiftc -gline-tables-only)
# test_index_store SCRATCH_PATH [PACKAGE_PATH]: the environment setting that indexes only the
# test targets (the manifests' LOCEMU_TEST_INDEX_STORE), for
# `env "$(test_index_store …)" swift build --disable-index-store …`.
test_index_store() { echo "LOCEMU_TEST_INDEX_STORE=$(swift build --package-path "${2:-.}" --scratch-path "$1" --show-bin-path)/index/store"; }
TSAN=(--sanitize=thread)
TOOLS_SCRATCH=Tools/.build-tsan
if [ -n "${LOCEMU_SKIP_TSAN:-}" ]; then TSAN=() TOOLS_SCRATCH=Tools/.build; fi
# Known reports that are not races in the program, each with its reason: tools/tsan-suppressions.txt.
export TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/tools/tsan-suppressions.txt ${TSAN_OPTIONS:-}"
# The example apps that use the library with its default traits share one build folder (what one
# compiles, the next reuses); CoreLocationCompat turns the Combine trait on, which changes every
# module of the library, so it keeps its own.
SHARED_EXAMPLES=(NearbyPets LostPets QuickStart)
EXAMPLES_SCRATCH=Examples/.build

# The library's build also writes its public symbol graphs, which the API coverage reads.
SYMBOL_GRAPHS="$PWD/.build/symbol-graphs"
library_build() {
  mkdir -p "$SYMBOL_GRAPHS"
  env "$(test_index_store .build)" swift build --build-tests --disable-index-store "${STRICT[@]}" -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$SYMBOL_GRAPHS" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public
}
library_under_ThreadSanitizer_build() {
  env "$(test_index_store .build-tsan)" \
    swift build --build-tests --disable-index-store --sanitize=thread --scratch-path .build-tsan "${STRICT[@]}"
}
examples_build() {
  local example
  for example in "${SHARED_EXAMPLES[@]}"; do
    swift build --package-path "Examples/$example" --build-tests --scratch-path "$EXAMPLES_SCRATCH" "${STRICT[@]}"
  done
  swift build --package-path Examples/CoreLocationCompat --build-tests "${STRICT[@]}"
  # The same modules, linked with the Swift runtime and Foundation inside: only a link.
  swift build --package-path Examples/StaticLink --scratch-path "$EXAMPLES_SCRATCH" --static-swift-stdlib "${STRICT[@]}"
}
locemu_binary="$(swift build --package-path Tools "${TSAN[@]}" --scratch-path "$TOOLS_SCRATCH" --show-bin-path)/locemu"

# Priorities. `nice` does not reach the compiler (SwiftPM starts it at nice 0); a scheduling
# policy does. SCHED_IDLE: a process runs only on a core nothing else wants. Used when this shell
# may also take it back (root, or an RLIMIT_NICE that allows nice 0).
may_idle() {
  local probe ok=0
  sleep 5 &
  probe=$!
  { chrt --idle -p 0 "$probe" && chrt --other -p 0 "$probe"; } > /dev/null 2>&1 || ok=1
  kill "$probe" 2> /dev/null
  wait "$probe" 2> /dev/null || true
  return "$ok"
}
# The end-to-end lane: its build first, then tests of real processes, which keep their timing
# best with the CPU the other lane leaves them.
end_to_end_lane() {
  step "tools$([ -n "${LOCEMU_SKIP_TSAN:-}" ] || echo " under ThreadSanitizer"): build" \
    env "$(test_index_store "$TOOLS_SCRATCH" Tools)" \
    swift build --package-path Tools --build-tests --disable-index-store "${TSAN[@]}" --scratch-path "$TOOLS_SCRATCH" "${STRICT[@]}"
  # The other lane's builds still take only the CPU this lane leaves idle: under a CI run's load,
  # when they shared it as equals with this suite, twenty servers under ThreadSanitizer starting
  # at once each took more than a minute to listen.
  step "the tools' suite (end to end: locemu, gpsd, chromium)" \
    run_bounded 1200 swift test --package-path Tools --skip-build "${TSAN[@]}" --scratch-path "$TOOLS_SCRATCH"
  step "fuzzing locemu serve's API from openapi.yaml (schemathesis)" env LOCEMU_BINARY="$locemu_binary" tools/fuzz-serve.sh 20
  step "hostile requests against locemu serve (tools/hostile-serve.py)" \
    run_bounded 600 python3 tools/hostile-serve.py "$locemu_binary"
  step "locemu sky against an independent implementation (tools/check-sky.sh: skyfield's SGP4, rtklib's TLEs)" \
    run_bounded 600 tools/check-sky.sh "$locemu_binary"
}
# A chain's tests run at the normal policy, whatever the other lane's build still does.
normal_priority() { chrt --other -p 0 "$BASHPID" > /dev/null 2>&1 || true; }
# The in-process lane: three chains side by side, each a build then its suites (the library;
# the library under ThreadSanitizer; the example packages), the builds at first on idle CPU
# only; then the API coverage and what an app resolves. A chain's suite runs while the other
# chains still build.
library_chain() {
  step "library build" library_build
  normal_priority
  step "the library's suite" run_bounded 1200 swift test --skip-build
  step "CoreLocation/MapKit declarations against Apple's (tools/data/apple-corelocation-mapkit-api.tsv)" \
    env SYMBOL_GRAPHS="$SYMBOL_GRAPHS" tools/corelocation-api-coverage.sh --at-least 95
}
library_under_ThreadSanitizer_chain() {
  [ -z "${LOCEMU_SKIP_TSAN:-}" ] || return 0
  step "library under ThreadSanitizer build" library_under_ThreadSanitizer_build
  normal_priority
  step "the library's suite under ThreadSanitizer" run_bounded 1200 swift test --skip-build --sanitize=thread --scratch-path .build-tsan
}
# NearbyPets: an app's package tested on the library's public API; LostPets: the lost-pets app
# written the iOS way (import CoreLocation, MapKit, Combine); QuickStart: the README's quick start
# as it shows it; CoreLocationCompat: iOS location code in the shapes apps write it, unchanged;
# StaticLink: a program linked statically, as locemu's release build is, whose clock settles.
examples_chain() {
  step "examples build" examples_build
  normal_priority
  local example
  for example in "${SHARED_EXAMPLES[@]}"; do
    step "Examples/$example" run_bounded 1200 swift test --package-path "Examples/$example" --skip-build --scratch-path "$EXAMPLES_SCRATCH"
  done
  step "Examples/CoreLocationCompat" run_bounded 1200 swift test --package-path Examples/CoreLocationCompat --skip-build
  step "Examples/StaticLink (linked with --static-swift-stdlib, its virtual clock settles iOS code's tasks)" \
    run_bounded 120 "$(swift build --package-path Examples/StaticLink --scratch-path "$EXAMPLES_SCRATCH" --static-swift-stdlib --show-bin-path)/StaticClockCheck"
}
in_process_lane() {
  if may_idle; then chrt --idle -p 0 "$BASHPID"; fi
  side_by_side library_chain library_under_ThreadSanitizer_chain examples_chain
  step "what an app resolves (tools/check-dependencies.sh)" tools/check-dependencies.sh
}
stage "resolving packages, one at a time (the builds then run side by side)"
swift package resolve >&2
[ -n "${LOCEMU_SKIP_TSAN:-}" ] || swift package resolve --scratch-path .build-tsan >&2
swift package resolve --package-path Tools --scratch-path "$TOOLS_SCRATCH" >&2
for example in "${SHARED_EXAMPLES[@]}"; do swift package resolve --package-path "Examples/$example" --scratch-path "$EXAMPLES_SCRATCH" >&2; done
swift package resolve --package-path Examples/CoreLocationCompat >&2
swift package resolve --package-path Examples/StaticLink --scratch-path "$EXAMPLES_SCRATCH" >&2

stage "building and testing in two lanes side by side: end to end, and in process"
job "end to end" end_to_end_lane
job "in process" in_process_lane
join_jobs
