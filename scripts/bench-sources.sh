#!/usr/bin/env bash
# Location-source benchmarks (release build): replay pacing error at 1x and 50x,
# gpsd → GPSDSource latency beside gpspipe -w on the same gpsd, and replay of a
# large NMEA trace and of a large GPX track with flat memory.
# Usage: scripts/bench-sources.sh [BIG_MEGABYTES]   (default 1024; 0 skips the large trace)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_swift
ensure_apt_packages libgps-dev libxml2-dev zlib1g-dev libsqlite3-dev pkg-config gpsd gpsd-clients "${LOCEMU_RELEASE_APT[@]}"
big="${1:-1024}"
swift build --package-path Benchmarks -c release --product source-benchmark >&2
swift build --package-path Benchmarks -c release --product nmea-benchmark >&2
bin="$(swift build "${LOCEMU_RELEASE[@]}" --show-bin-path)"
benchbin="$(swift build --package-path Benchmarks -c release --show-bin-path)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "== replay pacing on the wall clock (target: p99 under 5 ms)"
"$benchbin/source-benchmark" pacing traces/gpsd-corpus/quectel-l76k-nmea.log 1
"$benchbin/source-benchmark" pacing traces/city-walk.nmea 50
echo "== gpsd → client latency, 300 epochs at 10 Hz (target: GPSDSource within 1.2x of gpspipe)"
"$benchbin/source-benchmark" latency 300 100
if [ "$big" -gt 0 ]; then
  echo "== replay of a generated $big MB NMEA trace as fast as possible (memory must stay flat)"
  "$benchbin/nmea-benchmark" --megabytes "$big" --keep "$work/big.nmea" | head -1
  "$benchbin/source-benchmark" replay-memory "$work/big.nmea"
  rm -f "$work/big.nmea"
  echo "== replay of a generated $big MB GPX track as fast as possible (streamed: memory must stay flat)"
  "$benchbin/source-benchmark" make-gpx "$work/big.gpx" "$big"
  "$benchbin/source-benchmark" replay-memory "$work/big.gpx"
fi
