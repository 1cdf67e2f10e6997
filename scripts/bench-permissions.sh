#!/usr/bin/env bash
# Permission fan-out benchmark (release build): status changes to 1,000 subscribers,
# throughput under a flood and latency when paced.
# Usage: scripts/bench-permissions.sh [SUBSCRIBERS] [CHANGES]   (default 1000 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_swift
ensure_apt_packages libgps-dev libxml2-dev zlib1g-dev libsqlite3-dev pkg-config
swift build --package-path Benchmarks -c release --product permission-benchmark >&2
"$(swift build --package-path Benchmarks -c release --show-bin-path)/permission-benchmark" "${1:-1000}" "${2:-10000}"
