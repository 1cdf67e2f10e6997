// swift-tools-version:5.2
// A fixture in the shape of older astronomy and geohash packages: a hand-kept LinuxMain.swift that
// no longer compiles (its allTests lists are gone), and test files that import SwiftUI unused.
import PackageDescription

let package = Package(
  name: "Almanac",
  products: [.library(name: "Almanac", targets: ["Almanac"])],
  targets: [
    .target(name: "Almanac"),
    .testTarget(name: "AlmanacTests", dependencies: ["Almanac"]),
  ]
)
