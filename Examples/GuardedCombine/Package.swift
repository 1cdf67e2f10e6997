// swift-tools-version: 6.1
// Libraries in the shape of many that apps depend on: GuardedCombine guards its Combine support
// with `#if canImport(Combine)` (GRDB, swift-dependencies, combine-schedulers and others do), and
// GuardedLock locks with `os_unfair_lock` under `#if canImport(os)` (swift-argument-parser does),
// GuardedLocation measures with CoreLocation under `#if canImport(CoreLocation)` (swift-custom-dump
// and others guard their CoreLocation support so);
// neither has a dependency of its own. GuardedLock is linked into LostPets' tests, a program
// that does not depend on LocationEmulator's `os` product, in a build that has its module. On Linux a module named Combine exists
// in a build once LocationEmulator's Combine product or trait is in it, and this package sees it
// without asking; CoreLocationCompat (the trait on) and LostPets (the product, the trait off)
// depend on it, and scripts/test.sh rebuilds it after the Combine module exists, so that its
// `import Combine` must resolve from a package that never named LocationEmulator.
import PackageDescription

let package = Package(
  name: "GuardedCombine",
  products: [
    .library(name: "GuardedCombine", targets: ["GuardedCombine"]), .library(name: "GuardedLock", targets: ["GuardedLock"]),
    .library(name: "GuardedLocation", targets: ["GuardedLocation"]),
  ],
  targets: [
    .target(name: "GuardedCombine", swiftSettings: [.swiftLanguageMode(.v5)]),
    .target(name: "GuardedLock", swiftSettings: [.swiftLanguageMode(.v5)]),
    .target(name: "GuardedLocation", swiftSettings: [.swiftLanguageMode(.v5)]),
  ]
)
