#!/usr/bin/env bash
# The basemap's figures (release build): building the bundled Helsinki extract (time, size) and
# drawing snapshots over it at 2, 10 and 50 km radius (render time, SVG size, rsvg-convert time).
# Usage: scripts/bench-basemap.sh [EXTRACT.osm.pbf] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_swift
ensure_apt_packages libgps-dev libxml2-dev zlib1g-dev libsqlite3-dev pkg-config librsvg2-bin
swift build --package-path Benchmarks -c release --product basemap-benchmark >&2
"$(swift build --package-path Benchmarks -c release --show-bin-path)/basemap-benchmark" "${1:-data/helsinki/Helsinki.osm.pbf}" "${2:-20}"
