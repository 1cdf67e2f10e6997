#!/usr/bin/env bash
# The whole test suite: installs what the tests need, builds with warnings as errors, runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib.sh
ensure_swift
ensure_apt_packages libgps-dev gpsd gpsd-clients
echo "==> building (debug, warnings are errors)" >&2
swift build --build-tests -Xswiftc -warnings-as-errors
echo "==> running the tests" >&2
swift test --skip-build
