#!/usr/bin/env bash
# Checks `locemu sky` (IS-GPS-200 almanac orbits, look angles, DOPs) against an independent
# implementation: skyfield's SGP4 on the GPS TLEs that Debian's rtklib package ships.
# Usage: scripts/check-sky.sh [LOCEMU]   (default: the debug locemu of Tools/)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_apt_packages rtklib python3-numpy
if ! python3 -c 'import skyfield' 2>/dev/null; then
  echo "==> installing skyfield (PyPI)" >&2
  python3 -m pip install --quiet skyfield >&2 || python3 -m pip install --quiet --break-system-packages skyfield >&2
fi
locemu="${1:-$(swift build --package-path Tools --show-bin-path)/locemu}"
tle=/usr/share/rtklib/TLE_20201201txt.txt
[ -f "$tle" ] || { echo "check-sky: $tle is missing (rtklib's TLE file)" >&2; exit 1; }
python3 scripts/check-sky.py "$locemu" "$tle"
