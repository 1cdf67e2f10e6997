// swift-tools-version: 6.1
// A library in the shape of many that apps depend on (GRDB, swift-dependencies, combine-schedulers
// and others guard their Combine support the same way): it has no dependency of its own, and
// compiles its Combine code only `#if canImport(Combine)`. On Linux a module named Combine exists
// in a build once LocationEmulator's Combine product or trait is in it, and this package sees it
// without asking; CoreLocationCompat (the trait on) and LostPets (the product, the trait off)
// depend on it, and tools/test.sh rebuilds it after the Combine module exists, so that its
// `import Combine` must resolve from a package that never named LocationEmulator.
import PackageDescription

let package = Package(
  name: "GuardedCombine",
  products: [.library(name: "GuardedCombine", targets: ["GuardedCombine"])],
  targets: [.target(name: "GuardedCombine", swiftSettings: [.swiftLanguageMode(.v5)])]
)
