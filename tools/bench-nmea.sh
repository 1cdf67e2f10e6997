#!/usr/bin/env bash
# Decoding benchmark: our decoder against gpsd's gpsdecode on the same generated file,
# then a large file to show that memory stays flat.
# Usage: tools/bench-nmea.sh [BIG_MEGABYTES]   (default 1024; 0 skips the large file)
#
# This 2-core machine's speed varies by up to two times from one moment to the next (the
# other core's load, the host's), so each side is measured several times, interleaved, and
# the best and median are printed. With LOCEMU_BENCH_INSTRUCTIONS=1 it also counts
# instructions per sentence of both under valgrind (callgrind), which does not vary; with
# LOCEMU_BENCH_END_TO_END=1 it builds locemu (release) and times `locemu decode FILE >/dev/null`,
# JSON output included, beside gpsdecode (which prints JSON for every sentence).
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
"$bench" --keep "$work/million.nmea" | head -1 | sed 's/^/locemu:    /'
sentences=$(grep -c . "$work/million.nmea")
# rate COMMAND...: runs the command and prints "SECONDS SENTENCES_PER_SECOND" for the million-sentence file.
rate() {
  local start end
  start=$(date +%s.%N)
  "$@"
  end=$(date +%s.%N)
  awk -v n="$sentences" -v s="$start" -v e="$end" 'BEGIN { printf "%.3f %.0f\n", e - s, n / (e - s) }'
}
gpsdecode_runs=()
for round in 1 2 3; do
  "$bench" --runs 3 "$work/million.nmea" | grep '^run' | sed "s/^run [0-9]*/locemu round $round/"
  read -r seconds per_second < <(rate sh -c 'gpsdecode < "$1" > /dev/null' sh "$work/million.nmea")
  gpsdecode_runs+=("$per_second")
  echo "gpsdecode round $round: $seconds s, $per_second sentences/s"
done
"$bench" --runs 5 "$work/million.nmea" | grep -E 'throughput|peak' | sed 's/^/locemu:    /'
printf '%s\n' "${gpsdecode_runs[@]}" | sort -n | awk '{ r[NR] = $1 } END { printf "gpsdecode: best %d sentences/s, median %d sentences/s (%d runs)\n", r[NR], r[int((NR + 1) / 2)], NR }'

if [ -n "${LOCEMU_BENCH_INSTRUCTIONS:-}" ] && command -v valgrind >/dev/null 2>&1; then
  echo "== instructions per sentence (valgrind --tool=callgrind; gpsdecode on the first 105 000 sentences)"
  head -105000 "$work/million.nmea" > "$work/part.nmea"
  refs() { awk '/refs:/ { gsub(",", "", $NF); print $NF }'; }
  ours=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bench" "$work/million.nmea" 2>&1 >/dev/null | refs)
  theirs=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null gpsdecode < "$work/part.nmea" 2>&1 >/dev/null | refs)
  awk -v a="$ours" -v b="$theirs" -v n="$sentences" \
    'BEGIN { printf "locemu decoder: %.0f instructions/sentence; gpsdecode: %.0f instructions/sentence (%.1f x)\n", a / n, b / 105000, (b / 105000) / (a / n) }'
fi

if [ -n "${LOCEMU_BENCH_END_TO_END:-}" ]; then
  echo "== end to end: locemu decode FILE > /dev/null (one JSON fix record per epoch)"
  swift build -c release --product locemu >&2
  locemu="$(swift build -c release --show-bin-path)/locemu"
  for round in 1 2 3 4 5; do
    read -r seconds per_second < <(rate sh -c '"$1" decode "$2" > /dev/null 2>&1' sh "$locemu" "$work/million.nmea")
    echo "locemu decode round $round: $seconds s, $per_second sentences/s"
  done
fi

if [ "$big" -gt 0 ]; then
  echo "== about $big MB: peak RSS must stay flat"
  "$bench" --megabytes "$big" --keep "$work/big.nmea" | head -1 | sed 's/^/locemu:    /'
  "$bench" "$work/big.nmea" | grep -E 'throughput|peak' | sed 's/^/locemu:    /'
fi
