#!/usr/bin/env bash
# Fleet benchmark (release build): 10,000 phones on one virtual clock, each replaying the bundled
# city walk through a permission scenario; prints events/s and resident memory per phone.
# Usage: scripts/bench-fleet.sh [PHONES] [TRACE] [PROFILE]   (default 10000 traces/city-walk.nmea;
# PROFILE, e.g. urban-canyon: the trace is the truth under a seeded receiver of that profile)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_swift
ensure_apt_packages libgps-dev libxml2-dev zlib1g-dev libsqlite3-dev pkg-config
swift build --package-path Benchmarks -c release --product fleet-benchmark >&2
"$(swift build --package-path Benchmarks -c release --show-bin-path)/fleet-benchmark" "${1:-10000}" "${2:-traces/city-walk.nmea}" ${3:+"$3"}
