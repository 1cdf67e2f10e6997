#!/usr/bin/env bash
# Decoding benchmark: our decoder against gpsd's gpsdecode on the same generated file,
# then a large file to show that memory stays flat.
# Usage: scripts/bench-nmea.sh [BIG_MEGABYTES]   (default 1024; 0 skips the large file)
#
# This 2-core machine's speed varies by up to two times from one moment to the next (the
# other core's load, the host's), so each side is measured several times, interleaved, and
# the best and median are printed. With LOCEMU_BENCH_INSTRUCTIONS=1 it also counts
# instructions per sentence of both under valgrind (callgrind), which does not vary. The end-to-end
# part builds locemu (release) and times `locemu decode FILE >/dev/null`, JSON output included,
# interleaved with gpsdecode on the same file (which prints JSON for every sentence).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_swift
ensure_apt_packages gpsd-clients libgps-dev libxml2-dev zlib1g-dev libsqlite3-dev pkg-config "${LOCEMU_RELEASE_APT[@]}"
big="${1:-1024}"
swift build --package-path Benchmarks -c release --product nmea-benchmark >&2
bench="$(swift build --package-path Benchmarks -c release --show-bin-path)/nmea-benchmark"
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

echo "== end to end: locemu decode FILE > /dev/null (one JSON fix record per epoch) against gpsdecode, interleaved"
swift build "${LOCEMU_RELEASE[@]}" --product locemu >&2
locemu="$(swift build "${LOCEMU_RELEASE[@]}" --show-bin-path)/locemu"
ours=() theirs=()
for round in 1 2 3 4 5 6 7; do
  read -r seconds _ < <(rate sh -c '"$1" decode "$2" > /dev/null 2>&1' sh "$locemu" "$work/million.nmea")
  ours+=("$seconds")
  read -r gseconds _ < <(rate sh -c 'gpsdecode < "$1" > /dev/null' sh "$work/million.nmea")
  theirs+=("$gseconds")
  echo "round $round: locemu decode $seconds s, gpsdecode $gseconds s"
done
# best = shortest time; the ratio of bests and of medians (each side's own best and median).
summary() { printf '%s\n' "$@" | sort -n | awk '{ t[NR] = $1 } END { print t[1], t[int((NR + 1) / 2)] }'; }
read -r ours_best ours_median < <(summary "${ours[@]}")
read -r theirs_best theirs_median < <(summary "${theirs[@]}")
awk -v ob="$ours_best" -v om="$ours_median" -v tb="$theirs_best" -v tm="$theirs_median" -v n="$sentences" 'BEGIN {
  printf "locemu decode: best %.3f s (%.1f M sentences/s), median %.3f s\n", ob, n / ob / 1e6, om
  printf "gpsdecode:     best %.3f s, median %.3f s\n", tb, tm
  printf "end to end: %.1f x gpsdecode at best, %.1f x at the median\n", tb / ob, tm / om
}'
# Memory stays flat: the same command on a file four times as long.
cat "$work/million.nmea" "$work/million.nmea" "$work/million.nmea" "$work/million.nmea" > "$work/four.nmea"
for name in million four; do
  /usr/bin/time -f "locemu decode $name.nmea: %e s, peak RSS %M KB" "$locemu" decode "$work/$name.nmea" 2>&1 >/dev/null | tail -1
done
rm -f "$work/four.nmea"

if [ "$big" -gt 0 ]; then
  echo "== about $big MB: peak RSS must stay flat"
  "$bench" --megabytes "$big" --keep "$work/big.nmea" | head -1 | sed 's/^/locemu:    /'
  "$bench" "$work/big.nmea" | grep -E 'throughput|peak' | sed 's/^/locemu:    /'
fi
