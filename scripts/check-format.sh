#!/usr/bin/env bash
# The code is formatted as .swift-format says (swift-format, which comes with the toolchain):
# every Swift file of the repository but generated code and `locemu port`'s fixtures (packages in
# the shapes foreign code has, formatted as such code is). Fails with the places that are not.
# To format them: swift format format --in-place --configuration .swift-format FILE...
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_swift
mapfile -t files < <(git ls-files '*.swift' | grep -v '/Generated/' | grep -v '^Tools/Tests/PortingTests/Fixtures/')
echo "==> swift format lint --strict (${#files[@]} files)" >&2
swift format lint --strict --configuration .swift-format "${files[@]}"
