#!/usr/bin/env bash
# The library stays light: an app package that depends on it (Examples/NearbyPets, by path)
# resolves at most two packages besides ours, and the example app's production code imports the
# app seam and the handler, never the emulator. Fails with what it found otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_swift
echo "==> the dependencies an app package resolves (swift package show-dependencies)" >&2
deps=$(swift package --package-path Examples/NearbyPets show-dependencies --format flatlist)
echo "$deps" | sed 's/^/    /' >&2
count=$(echo "$deps" | grep -c . || true)
# Ours (LocationEmulator) and at most two others.
if [ "$count" -gt 3 ]; then
  echo "check-dependencies: an app package resolves $count packages (at most 3: ours and two others)" >&2
  exit 1
fi
echo "==> check-dependencies: $count packages, ours included" >&2
# The app's production code sees the seam and the handler only.
if grep -rnE '^(public |@_exported |@testable )?import (Emulator|Traces|GPSD|Scenarios)\b' Examples/NearbyPets/Sources; then
  echo "check-dependencies: the example app's production code imports the emulator (only LocationModel, here by its old name LocationServices, and PermissionHandling)" >&2
  exit 1
fi
