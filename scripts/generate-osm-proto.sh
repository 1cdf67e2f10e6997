#!/usr/bin/env bash
# Generates the Swift code for OpenStreetMap's PBF format (Tools/Sources/Basemap/Proto/osmpbf.proto →
# Tools/Sources/Basemap/Generated/osmpbf.pb.swift) with protoc and swift-protobuf's protoc-gen-swift
# at the version the package depends on. Run once after changing the .proto; the output is
# committed, so building the package never needs the generator (its first build takes about
# 10 minutes here).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_swift
ensure_apt_packages protobuf-compiler
version=1.39.0
src=.build/protoc-gen-swift-$version
if [ ! -x "$src/.build/release/protoc-gen-swift" ]; then
  rm -rf "$src"
  git clone --quiet --depth 1 --branch "$version" https://github.com/apple/swift-protobuf "$src"
  echo "==> building protoc-gen-swift $version (about 10 minutes)" >&2
  (cd "$src" && swift build -c release --product protoc-gen-swift >&2)
fi
mkdir -p Tools/Sources/Basemap/Generated
protoc --plugin=protoc-gen-swift="$src/.build/release/protoc-gen-swift" \
  --proto_path=Tools/Sources/Basemap/Proto --swift_opt=Visibility=Internal \
  --swift_out=Tools/Sources/Basemap/Generated osmpbf.proto
echo "==> wrote Tools/Sources/Basemap/Generated/osmpbf.pb.swift" >&2
