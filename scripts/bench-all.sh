#!/usr/bin/env bash
# Every figure the README quotes, from one command on this machine: runs each benchmark with the
# README's arguments, one after another (never two at once: they would share the cores), and
# prints one Markdown table — the date, CPU model and core count above it, then for each
# benchmark the command and its own summary lines — with the decoder's ratio to gpsd's
# gpsdecode from the same run. The benchmarks' whole output (builds included) goes to
# bench-all.log in the working directory.
#
#   scripts/bench-all.sh [--quick]
#
# --quick runs smaller sizes (about 5 minutes after the builds, against about 15): the same
# benchmarks, figures of the same kind, not the README's.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
quick=false
if [ "${1:-}" = "--quick" ]; then quick=true; elif [ $# -gt 0 ]; then sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 64; fi
log="$PWD/bench-all.log"
: > "$log"

if $quick; then
  benches=(
    "decoder against gpsdecode|scripts/bench-nmea.sh 0"
    "CoreLocation delegate calls|scripts/bench-corelocation.sh 200 300"
    "fleet of phones|scripts/bench-fleet.sh 1000 traces/city-walk.nmea"
    "permission fan-out|scripts/bench-permissions.sh 200 2000"
    "served phones under load|scripts/bench-serve.sh --phones 100 --clients 20 --seconds 5"
    "location sources|scripts/bench-sources.sh 0"
    "basemap build and snapshots|scripts/bench-basemap.sh data/helsinki/Helsinki.osm.pbf 3"
    "map features|scripts/bench-petmap.sh 100 100000"
  )
else
  benches=(
    "decoder against gpsdecode|scripts/bench-nmea.sh 0"
    "CoreLocation delegate calls|scripts/bench-corelocation.sh 1000 600"
    "fleet of phones|scripts/bench-fleet.sh 10000 traces/city-walk.nmea"
    "permission fan-out|scripts/bench-permissions.sh 1000 10000"
    "served phones under load|scripts/bench-serve.sh"
    "location sources|scripts/bench-sources.sh 1024"
    "basemap build and snapshots|scripts/bench-basemap.sh"
    "map features|scripts/bench-petmap.sh"
  )
fi

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
cores=$(nproc)
memory=$(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
rows=()
ratio=""
for entry in "${benches[@]}"; do
  name="${entry%%|*}" command="${entry#*|}"
  echo "==> $command" | tee -a "$log" >&2
  start=$(date +%s)
  # Each benchmark's figures are its standard output; its builds and progress go to the log.
  if ! output=$($command 2>>"$log"); then
    output="FAILED (see bench-all.log)"
  fi
  printf '%s\n' "$output" >> "$log"
  seconds=$(( $(date +%s) - start ))
  # The summary lines: the decoder's rounds (in the log) are left out of the table.
  figures=$(printf '%s\n' "$output" | grep -v -e '^==' -e '^$' -e '^locemu round' -e '^gpsdecode round' -e 'generated /tmp' | sed 's/|/\\|/g' | awk 'NR > 1 { printf "<br>" } { printf "%s", $0 }')
  rows+=("| $name | \`$command\` | $figures | $seconds s |")
  if [ "$name" = "decoder against gpsdecode" ]; then
    ours=$(printf '%s\n' "$output" | sed -n 's/.*throughput: best [0-9]* sentences\/s, [0-9.]* MB\/s; median \([0-9]*\) sentences\/s.*/\1/p' | head -1)
    theirs=$(printf '%s\n' "$output" | sed -n 's/^gpsdecode: best [0-9]* sentences\/s, median \([0-9]*\) sentences\/s.*/\1/p' | head -1)
    if [ -n "$ours" ] && [ -n "$theirs" ] && [ "$theirs" -gt 0 ]; then
      ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.1f x gpsdecode (medians: %d against %d sentences/s, same file, same run)", a / b, a, b }')
    fi
  fi
done

echo "## Figures ($(date -u +%Y-%m-%d), $cpu, $cores cores, $memory; release builds; \`scripts/bench-all.sh$($quick && echo ' --quick')\`)"
echo
echo "| benchmark | command | figures | took |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
if [ -n "$ratio" ]; then
  echo
  echo "Decoder: $ratio."
fi
