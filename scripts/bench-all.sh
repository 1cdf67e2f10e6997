#!/usr/bin/env bash
# Every figure this project quotes, from one command: writes the table of docs/Performance.md
# (between its "bench-all" markers) and prints it. One row per measure: the command, this
# project's figures, the peer's in the same run where there is one, their ratio, the machine and
# the date. Nothing else writes figures.
#
#   scripts/bench-all.sh [--quick] [--print]
#
# Comparisons with a peer (gpsd's gpsdecode, GPSBabel) run both commands side by side under
# hyperfine, in rounds that alternate which goes first, and pool the rounds: the median and the
# spread (fastest to slowest) of each side. The other benchmarks run one after another (never two
# at once: they would share the cores) and their own summary lines are the figures. Everything
# they print, builds included, goes to bench-all.log in the working directory.
#
# --quick runs smaller sizes (about 5 minutes after the builds, against about 15): figures of the
# same kind, not the published ones. --print prints the table and leaves docs/Performance.md alone.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
quick=false write=true
for argument in "$@"; do
  case "$argument" in
    --quick) quick=true ;;
    --print) write=false ;;
    *) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 64 ;;
  esac
done
ensure_swift
# hyperfine times the side-by-side comparisons; gpsd-clients and gpsbabel are the peers.
ensure_apt_packages hyperfine gpsd-clients gpsbabel python3 libgps-dev libxml2-dev zlib1g-dev libsqlite3-dev pkg-config \
  "${LOCEMU_RELEASE_APT[@]}"
log="$PWD/bench-all.log"
: > "$log"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if $quick; then
  rounds=2 runs=3
  benches=(
    "decoder in process against gpsdecode|scripts/bench-nmea.sh 0"
    "CoreLocation delegate calls|scripts/bench-corelocation.sh 200 300"
    "fleet of phones|scripts/bench-fleet.sh 1000 traces/city-walk.nmea"
    "permission fan-out|scripts/bench-permissions.sh 200 2000"
    "served phones under load|scripts/bench-serve.sh --phones 100 --clients 20 --seconds 5"
    "location sources|scripts/bench-sources.sh 0"
    "basemap build and snapshots|scripts/bench-basemap.sh data/helsinki/Helsinki.osm.pbf 3"
    "map features|scripts/bench-petmap.sh 100 100000"
  )
else
  rounds=3 runs=5
  benches=(
    "decoder in process against gpsdecode|scripts/bench-nmea.sh 0"
    "CoreLocation delegate calls|scripts/bench-corelocation.sh 1000 600"
    "fleet of phones|scripts/bench-fleet.sh 10000 traces/city-walk.nmea"
    "permission fan-out|scripts/bench-permissions.sh 1000 10000"
    "served phones under load|scripts/bench-serve.sh"
    "location sources|scripts/bench-sources.sh 1024"
    "basemap build and snapshots|scripts/bench-basemap.sh"
    "map features|scripts/bench-petmap.sh"
  )
fi

machine="$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo | sed 's/ [0-9]*-Core Processor//'), $(nproc) cores, $(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
date="$(date -u +%Y-%m-%d)"
rows=()
# row MEASURE COMMAND OURS PEER RATIO: one line of the table (| in a cell escaped).
row() {
  local cells=() cell
  for cell in "$@"; do cells+=("${cell//|/\\|}"); done
  rows+=("| ${cells[0]} | \`${cells[1]}\` | ${cells[2]} | ${cells[3]} | ${cells[4]} | $machine | $date |")
}

echo "==> building the release locemu and the benchmarks" | tee -a "$log" >&2
swift build "${LOCEMU_RELEASE[@]}" --product locemu >>"$log" 2>&1
locemu="$(swift build "${LOCEMU_RELEASE[@]}" --show-bin-path)/locemu"
swift build --package-path Benchmarks -c release --product nmea-benchmark >>"$log" 2>&1
"$(swift build --package-path Benchmarks -c release --show-bin-path)/nmea-benchmark" --keep "$work/million.nmea" >>"$log"
sentences=$(grep -c . "$work/million.nmea")
megabytes=$(( $(stat -c %s "$work/million.nmea") / 1000000 ))

# compare MEASURE OURS PEER: both commands under hyperfine, $rounds rounds of $runs runs each,
# alternating which goes first; adds a row with each side's median and spread and the ratio of
# the medians.
compare() {
  local measure="$1" ours="$2" peer="$3" round
  echo "==> $measure: $ours against $peer" | tee -a "$log" >&2
  for round in $(seq "$rounds"); do
    if [ $((round % 2)) -eq 1 ]; then
      hyperfine --style basic --warmup 1 --runs "$runs" --export-json "$work/round$round.json" -n ours "$ours" -n peer "$peer" >>"$log" 2>&1
    else
      hyperfine --style basic --warmup 1 --runs "$runs" --export-json "$work/round$round.json" -n peer "$peer" -n ours "$ours" >>"$log" 2>&1
    fi
  done
  local cells
  cells="$(python3 - "$work"/round*.json <<'EOF'
import json, statistics, sys
times = {"ours": [], "peer": []}
for path in sys.argv[1:]:
    for result in json.load(open(path))["results"]:
        times[result["command"]] += result["times"]
def side(t):
    return f"median {statistics.median(t):.3f} s ({min(t):.3f}–{max(t):.3f} s, {len(t)} runs)"
ratio = statistics.median(times["peer"]) / statistics.median(times["ours"])
print(side(times["ours"]), side(times["peer"]), f"**{ratio:.1f} ×** {'faster' if ratio >= 1 else 'as fast'}", sep="\t")
EOF
)"
  rm -f "$work"/round*.json
  local ours_cell peer_cell ratio_cell
  IFS=$'\t' read -r ours_cell peer_cell ratio_cell <<<"$cells"
  row "$measure" "$ours" "$ours_cell" "${peer##*/bin/} — $peer_cell" "$ratio_cell"
}

compare "decode an NMEA log ($sentences sentences, $megabytes MB) to JSON" \
  "$locemu decode $work/million.nmea > /dev/null" "gpsdecode < $work/million.nmea > /dev/null"
compare "convert an NMEA log ($sentences sentences) to GPX" \
  "$locemu convert $work/million.nmea $work/ours.gpx" "gpsbabel -i nmea -f $work/million.nmea -o gpx -F $work/peer.gpx"
# The commands in the table name the file, not this run's temporary folder.
rows=("${rows[@]//$work\//}")
rows=("${rows[@]//$locemu/locemu}")

for entry in "${benches[@]}"; do
  name="${entry%%|*}" command="${entry#*|}"
  echo "==> $command" | tee -a "$log" >&2
  # Each benchmark's figures are its standard output; its builds and progress go to the log.
  if ! output=$($command 2>>"$log"); then
    output="FAILED (see bench-all.log)"
  fi
  printf '%s\n' "$output" >> "$log"
  # The summary lines: the decoder's rounds (in the log) are left out of the table.
  figures=$(printf '%s\n' "$output" | grep -v -e '^==' -e '^$' -e '^locemu round' -e '^gpsdecode round' -e '^round ' -e 'generated /tmp' |
    awk 'NR > 1 { printf "<br>" } { printf "%s", $0 }')
  peer="—" ratio="—"
  if [ "$name" = "decoder in process against gpsdecode" ]; then
    theirs=$(printf '%s\n' "$output" | sed -n 's/^gpsdecode: best [0-9]* sentences\/s, median \([0-9]*\) sentences\/s.*/\1/p' | head -1)
    ours=$(printf '%s\n' "$output" | sed -n 's/.*throughput: best [0-9]* sentences\/s, [0-9.]* MB\/s; median \([0-9]*\) sentences\/s.*/\1/p' | head -1)
    if [ -n "$ours" ] && [ -n "$theirs" ] && [ "$theirs" -gt 0 ]; then
      peer="gpsdecode, same file: median $theirs sentences/s"
      ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "**%.1f ×** faster (medians)", a / b }')
    fi
  fi
  row "$name" "$command" "$figures" "$peer" "$ratio"
done

table="$(
  echo "<!-- bench-all: begin (written by scripts/bench-all.sh$($quick && echo ' --quick'); do not edit) -->"
  echo "| measure | command | this project | peer, same run | ratio | machine | date |"
  echo "|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
  echo "<!-- bench-all: end -->"
)"
printf '%s\n' "$table"
if $write; then
  python3 - docs/Performance.md "$table" <<'EOF'
import re, sys
path, table = sys.argv[1], sys.argv[2]
text = open(path).read()
pattern = re.compile(r"<!-- bench-all: begin.*?<!-- bench-all: end -->", re.S)
if not pattern.search(text):
    sys.exit(f"{path} has no bench-all markers")
open(path, "w").write(pattern.sub(lambda _: table, text))
EOF
  echo "==> wrote the table into docs/Performance.md" >&2
fi
