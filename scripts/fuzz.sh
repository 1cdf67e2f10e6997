#!/usr/bin/env bash
# Fuzzes the NMEA framer and decoder with libFuzzer (AddressSanitizer on) for a given time.
# Usage: scripts/fuzz.sh [SECONDS]   (default 600). Crashes land in fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_swift
seconds="${1:-600}"
mkdir -p .build/fuzz fuzz/corpus fuzz/artifacts
echo "==> building the fuzz target (-sanitize=fuzzer,address)" >&2
# The modules NMEA imports, built first as static libraries (without the fuzzer's coverage:
# what is fuzzed is the decoder), then NMEA itself with the fuzz entry point.
common=(-parse-as-library -swift-version 6 -O -g -package-name LocationEmulator -I .build/fuzz -L .build/fuzz)
for module in LocationModel GNSS; do
  swiftc "${common[@]}" -module-name "$module" -emit-module -emit-module-path ".build/fuzz/$module.swiftmodule" \
    -emit-library -static -o ".build/fuzz/lib$module.a" $(find "Sources/$module" -name '*.swift')
done
swiftc "${common[@]}" -module-name NMEA -sanitize=fuzzer,address \
  $(find Sources/NMEA -name '*.swift') fuzz/NMEAFuzz.swift -lGNSS -lLocationServices \
  -o .build/fuzz/nmea-fuzz
echo "==> fuzzing for ${seconds}s" >&2
exec .build/fuzz/nmea-fuzz -max_total_time="$seconds" -max_len=4096 -timeout=10 \
  -artifact_prefix=fuzz/artifacts/ -print_final_stats=1 fuzz/corpus fuzz/seeds
