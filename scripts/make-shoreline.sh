#!/usr/bin/env bash
# Makes a shoreline basemap — land, lakes, islands in lakes and ponds over the sea, for the map
# snapshots of any place on Earth — from GSHHG (the Global Self-consistent Hierarchical
# High-resolution Geography, Wessel & Smith, LGPL), read by GMT from Debian's packages.
#
#   scripts/make-shoreline.sh [--resolution c|l|i|h|f] [--region SOUTH,NORTH,WEST,EAST] OUT
#
# GMT prints the world's shorelines cut at its bins ('gmt coast -Rd -D<res> -W -M'); 'locemu
# basemap shoreline' joins them into polygons and cuts them into 1° cells (a few seconds; the
# whole world at resolution i: about 6 MB). --region keeps only the cells that meet it.
# The bundled files (the world under every map 'locemu serve' draws, the Gulf under Helsinki):
#   scripts/make-shoreline.sh --resolution l data/shoreline/world-low.basemap
#   scripts/make-shoreline.sh --resolution h --region 59,61,22,28 data/shoreline/gulf-of-finland.basemap
# Give the result to 'locemu preview --basemap OUT --basemap CITY' (or 'locemu serve').
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
resolution=i region=()
while [ $# -gt 1 ]; do
  case "$1" in
    --resolution) resolution="$2"; shift 2 ;;
    --region) region=(--region "$2"); shift 2 ;;
    *) break ;;
  esac
done
if [ $# -ne 1 ]; then
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 64
fi
out="$1"
case "$resolution" in
  c|l|i) data=gmt-gshhg-low ;;
  h) data=gmt-gshhg-high ;;
  f) data=gmt-gshhg-full ;;
  *) echo "make-shoreline: --resolution must be c, l, i, h or f" >&2; exit 64 ;;
esac
ensure_swift
ensure_apt_packages gmt "$data" libgps-dev libxml2-dev zlib1g-dev libsqlite3-dev pkg-config "${LOCEMU_RELEASE_APT[@]}"
swift build "${LOCEMU_RELEASE[@]}" --product locemu >&2
bin="$(swift build "${LOCEMU_RELEASE[@]}" --show-bin-path)/locemu"
# GMT leaves its history file in the working directory: run it in a scratch one.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
echo "==> gmt coast -Rd -D$resolution -W -M (GSHHG $(dpkg-query -W -f '${Version}' "$data"))" >&2
(cd "$scratch" && gmt coast -Rd -D"$resolution" -W -M > shore.txt)
echo "==> locemu basemap shoreline --resolution $resolution ${region[*]} $out" >&2
"$bin" basemap shoreline --resolution "$resolution" "${region[@]}" "$scratch/shore.txt" "$out"
