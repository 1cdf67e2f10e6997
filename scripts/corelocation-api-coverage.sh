#!/usr/bin/env bash
# How many of Apple's CoreLocation and MapKit declarations (iOS 18 SDK, as listed in
# scripts/data/apple-corelocation-mapkit-api.tsv) the Linux modules declare, per group.
# Usage: scripts/corelocation-api-coverage.sh [--missing] [--at-least PERCENT]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_swift
# It fails on the C module-map target (CoreLocationModuleMap, which has no Swift symbols) after
# writing the Swift modules' graphs; the script checks that those are newer than the sources.
# SYMBOL_GRAPHS=DIR: graphs a build already wrote (scripts/test.sh's library build emits them with
# -emit-symbol-graph), read instead of dumping them again.
if [ -z "${SYMBOL_GRAPHS:-}" ]; then
  swift package dump-symbol-graph --minimum-access-level public >/dev/null 2>&1 || true
fi
exec python3 scripts/corelocation-api-coverage.py "$@"
