#!/usr/bin/env bash
# Map-features benchmark (release build): fix -> map with pins from a local announcements
# server (p50/p99), and 10 km range queries on the file-backed repository (queries/s).
# Usage: scripts/bench-petmap.sh [LOADS] [ANNOUNCEMENTS]   (default 300 1000000)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_swift
ensure_apt_packages libgps-dev libxml2-dev zlib1g-dev libsqlite3-dev pkg-config
swift build --package-path Benchmarks -c release --product petmap-benchmark >&2
"$(swift build --package-path Benchmarks -c release --show-bin-path)/petmap-benchmark" "${1:-300}" "${2:-1000000}"
