#!/usr/bin/env bash
# The main job on bundled data: builds locemu (release) and runs the lost-pets map features on
# the emulated phone, on a virtual clock (instant, deterministic): a walk along Helsinki's real
# streets as the GPS, announcements around it as the backend, the city's OpenStreetMap extract
# over GSHHG's land and sea (data/shoreline) as the map; the app asks for permission at 1 s,
# the user allows; the map preview loads with its pins (written to preview.svg and
# preview.png); a tap opens the fullscreen map (fullscreen.svg and fullscreen.png, drawn at
# street zoom where the extract fills the frame), back returns.
# Any arguments replace the default ones given to locemu (then it is built whole, with its servers).
#
# For the demo, locemu is built with only what the demo runs, as fast as it builds: without the
# Tools package's Servers trait (no `serve`, `serve-announcements`, `feed`: no SwiftNIO, no
# Hummingbird), in its own build folder (Tools/.build-demo), as the debug build (the job itself
# takes under a second on a virtual clock) without debug information (-gnone). --release first
# builds the optimized, statically linked locemu, with every command, that the benchmarks use.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
build=(--package-path Tools -Xswiftc -gnone)
if [ "${1:-}" = --release ]; then
  build=("${LOCEMU_RELEASE[@]}")
  shift
elif [ $# -eq 0 ]; then
  build+=(--disable-default-traits --scratch-path Tools/.build-demo)
fi
ensure_swift
# librsvg2-bin: rsvg-convert turns the map snapshots into the PNGs the job promises.
ensure_apt_packages libgps-dev libxml2-dev zlib1g-dev libsqlite3-dev pkg-config librsvg2-bin libjs-leaflet "${LOCEMU_RELEASE_APT[@]}"
echo "==> building locemu (${build[*]})" >&2
swift build "${build[@]}" --product locemu >&2
bin="$(swift build "${build[@]}" --show-bin-path)/locemu"
if [ $# -gt 0 ]; then
  echo "==> locemu $*" >&2
  exec "$bin" "$@"
fi
# The basemap of the bundled Helsinki extract (a fraction of a second), then the job.
basemap="$(swift build "${build[@]}" --show-bin-path)/helsinki.basemap"
echo "==> locemu basemap build data/helsinki/Helsinki.osm.pbf $basemap" >&2
"$bin" basemap build data/helsinki/Helsinki.osm.pbf "$basemap"
set -- preview --virtual-time --trace traces/helsinki-walk.nmea --announcements traces/helsinki-announcements.json \
  --basemap data/shoreline/gulf-of-finland.basemap --basemap "$basemap" --snapshot preview.svg \
  --snapshot-fullscreen fullscreen.svg --snapshot-fullscreen-zoom 16 \
  --at 1=authorize --at 4=tap --at 4.1=tap --at 6=back --duration 8
echo "==> locemu ${*/$basemap/BASEMAP}" >&2
"$bin" "$@"
rsvg-convert -o preview.png preview.svg
rsvg-convert -o fullscreen.png fullscreen.svg
echo "==> preview.svg and preview.png (the landing page's map preview), fullscreen.svg and fullscreen.png (the fullscreen map)" >&2
