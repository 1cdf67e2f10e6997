#!/usr/bin/env bash
# The main job on a bundled trace: builds locemu (release) and runs the lost-pets map features
# on the emulated phone, on a virtual clock (instant, deterministic): the bundled city walk as
# the GPS, the bundled announcements as the backend; the app asks for permission at 1 s, the
# user allows; the map preview loads with its pins (written to preview.svg); a tap opens the
# fullscreen map, back returns.
# Any arguments replace the default ones given to locemu.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib.sh
ensure_swift
ensure_apt_packages libgps-dev libxml2-dev zlib1g-dev libsqlite3-dev pkg-config
echo "==> building locemu (release)" >&2
swift build -c release --product locemu >&2
bin="$(swift build -c release --show-bin-path)/locemu"
if [ $# -eq 0 ]; then
  set -- preview --virtual-time --trace traces/city-walk.nmea --announcements traces/announcements.json \
    --snapshot preview.svg --at 1=authorize --at 4=tap --at 4.1=tap --at 6=back --duration 8
fi
echo "==> locemu $*" >&2
exec "$bin" "$@"
