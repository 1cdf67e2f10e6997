#!/usr/bin/env bash
# Fuzzes the NMEA framer and decoder with libFuzzer (AddressSanitizer on) for a given time.
# Usage: tools/fuzz.sh [SECONDS]   (default 600). Crashes land in fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib.sh
ensure_swift
seconds="${1:-600}"
mkdir -p .build/fuzz fuzz/corpus fuzz/artifacts
echo "==> building the fuzz target (-sanitize=fuzzer,address)" >&2
swiftc -module-name NMEA -parse-as-library -swift-version 6 -O -g \
  -sanitize=fuzzer,address \
  $(find Sources/NMEA -name '*.swift') fuzz/NMEAFuzz.swift \
  -o .build/fuzz/nmea-fuzz
echo "==> fuzzing for ${seconds}s" >&2
exec .build/fuzz/nmea-fuzz -max_total_time="$seconds" -max_len=4096 -timeout=10 \
  -artifact_prefix=fuzz/artifacts/ -print_final_stats=1 fuzz/corpus fuzz/seeds
