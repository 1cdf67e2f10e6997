#!/usr/bin/env bash
# locemu serve under load, as clients see it (release build): 1,000 phones, 100 event-stream
# clients, control requests/s with p50/p99 latency from keep-alive connections, and the time
# from a revoke request to its event at a stream client (quiet and under load).
# Usage: scripts/bench-serve.sh [--phones N] [--clients N] [--workers W] [--seconds S]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_swift
ensure_apt_packages libgps-dev libxml2-dev zlib1g-dev libsqlite3-dev pkg-config "${LOCEMU_RELEASE_APT[@]}"
swift build "${LOCEMU_RELEASE[@]}" --product locemu >&2
swift build --package-path Benchmarks -c release --product serve-benchmark >&2
bin="$(swift build "${LOCEMU_RELEASE[@]}" --show-bin-path)"
benchbin="$(swift build --package-path Benchmarks -c release --show-bin-path)"
run_bounded 600 "$benchbin/serve-benchmark" "$bin/locemu" "$@"
