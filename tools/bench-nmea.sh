#!/usr/bin/env bash
# Decoding benchmark: our decoder against gpsd's gpsdecode on the same generated file,
# then a large file to show that memory stays flat.
# Usage: tools/bench-nmea.sh [BIG_MEGABYTES]   (default 1024; 0 skips the large file)
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib.sh
ensure_swift
ensure_apt_packages gpsd-clients
big="${1:-1024}"
swift build -c release --product nmea-benchmark >&2
bench="$(swift build -c release --show-bin-path)/nmea-benchmark"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "== 1.05 M sentences (GGA, RMC, GSA, 3 x GSV, VTG per epoch)"
"$bench" --keep "$work/million.nmea" | sed 's/^/locemu:    /'
for run in 1 2 3; do "$bench" "$work/million.nmea" | grep -E 'throughput|peak' | sed "s/^/locemu run $run: /"; done
sentences=$(grep -c . "$work/million.nmea")
start=$(date +%s.%N)
gpsdecode < "$work/million.nmea" > /dev/null
end=$(date +%s.%N)
awk -v n="$sentences" -v s="$start" -v e="$end" \
  'BEGIN { printf "gpsdecode: %d sentences in %.3f s, %.0f sentences/s\n", n, e - s, n / (e - s) }'

if [ "$big" -gt 0 ]; then
  echo "== about $big MB: peak RSS must stay flat"
  "$bench" --megabytes "$big" --keep "$work/big.nmea" | head -1 | sed 's/^/locemu:    /'
  "$bench" "$work/big.nmea" | sed 's/^/locemu:    /'
fi
