#!/usr/bin/env bash
# CoreLocation benchmark (release build): 1,000 CLLocationManagers, each on a phone of its own,
# on one virtual clock, walking for 10 minutes; prints delegate calls/s and memory per manager.
# Usage: scripts/bench-corelocation.sh [MANAGERS] [SECONDS]   (default 1000 600)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_swift
ensure_apt_packages libgps-dev libxml2-dev zlib1g-dev libsqlite3-dev pkg-config
swift build --package-path Benchmarks -c release --product corelocation-benchmark >&2
"$(swift build --package-path Benchmarks -c release --show-bin-path)/corelocation-benchmark" "${1:-1000}" "${2:-600}"
