#!/usr/bin/env bash
# The bundled Helsinki walk and drive (traces/helsinki-walk.nmea, traces/helsinki-drive.nmea),
# made along the real streets of the bundled OpenStreetMap extract (data/helsinki): the walk
# from the Central Railway Station to the Market Square on footways and streets at 1.4 m/s,
# with 12 s without a fix under the station's roof; the drive across the centre on the streets
# cars use at 30 km/h, with 8 s without a fix in an underpass. Deterministic: the same files
# every run.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_swift
ensure_apt_packages libgps-dev libxml2-dev zlib1g-dev libsqlite3-dev pkg-config
swift build --package-path Tools --product locemu >&2
swift build --package-path Benchmarks --product make-city-traces >&2
bin="$(swift build --package-path Tools --show-bin-path)"
benchbin="$(swift build --package-path Benchmarks --show-bin-path)"
map=$(mktemp --suffix=.basemap)
trap 'rm -f "$map"' EXIT
"$bin/locemu" basemap build data/helsinki/Helsinki.osm.pbf "$map"
"$benchbin/make-city-traces" "$map" traces/helsinki-walk.nmea 60.1712,24.9418 60.1676,24.9515 walk 2026-05-16T10:00:00Z 40 12
"$benchbin/make-city-traces" "$map" traces/helsinki-drive.nmea 60.1775,24.9385 60.1650,24.9500 drive 2026-05-16T11:00:00Z 60 8
