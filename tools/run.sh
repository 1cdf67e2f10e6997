#!/usr/bin/env bash
# The main job on a bundled trace: builds locemu (release) and replays the bundled city walk
# on a virtual clock (instant, deterministic) as JSON fix records with their replay times.
# Any arguments replace the default ones given to locemu.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib.sh
ensure_swift
ensure_apt_packages libgps-dev
echo "==> building locemu (release)" >&2
swift build -c release --product locemu >&2
bin="$(swift build -c release --show-bin-path)/locemu"
if [ $# -eq 0 ]; then
  set -- replay --virtual-time traces/city-walk.nmea
fi
echo "==> locemu $*" >&2
exec "$bin" "$@"
