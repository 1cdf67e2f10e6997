// swift-tools-version: 6.1
// iOS location code in the shapes apps write it, compiled unchanged on Linux against
// LocationEmulator's CoreLocation, MapKit and Combine, and run on emulated phones by the tests:
// ClassicApp is Swift 5 code of the delegate-and-completion-handler era (an ObservableObject
// singleton, a geofence manager, reverse geocoding, retroactive conformances, associated
// objects); ModernApp is Swift 6 code (an async wrapper over the delegate, live updates, CLMonitor,
// service sessions, @Observable); CorpusShapes holds one file in the shape of each failure that
// real open-source location code showed when built against the library. scripts/test.sh builds
// them with warnings as errors.
import PackageDescription

var appDependencies: [Target.Dependency] = []
var osDependency: [Target.Dependency] = []
var testDependencies: [Target.Dependency] = [
  "ClassicApp", "ModernApp", "CorpusShapes", "Swift6Shapes", .product(name: "GuardedCombine", package: "GuardedCombine"),
]
#if os(Linux)
  // On Apple platforms the system's frameworks are used.
  appDependencies = [
    .product(name: "CoreLocation", package: "LocationEmulator"), .product(name: "MapKit", package: "LocationEmulator"),
    .product(name: "Combine", package: "LocationEmulator"),
  ]
  // `import os` for the code that logs, `import simd` for vector helpers (opt-in products: see
  // the library's manifest).
  osDependency = [.product(name: "os", package: "LocationEmulator"), .product(name: "simd", package: "LocationEmulator")]
  testDependencies +=
    appDependencies + [
      .product(name: "Emulator", package: "LocationEmulator"), .product(name: "LocationModel", package: "LocationEmulator"),
    ] + osDependency
#endif

let package = Package(
  name: "CoreLocationCompat",
  // The Combine trait: `import CoreLocation` brings Combine, as Apple's Foundation does (CorpusShapes'
  // LocationStore has ObservableObject with no `import Combine`).
  dependencies: [
    .package(name: "LocationEmulator", path: "../..", traits: ["Combine"]),
    // A package that guards `import Combine` with canImport and never names LocationEmulator.
    .package(path: "../GuardedCombine"),
  ],
  targets: [
    .target(name: "ClassicApp", dependencies: appDependencies, swiftSettings: [.swiftLanguageMode(.v5)]),
    .target(name: "ModernApp", dependencies: appDependencies),
    // One file in the shape of each failure that real open-source code showed (the corpus table
    // in the CoreLocation article), importing only what that code imports.
    .target(name: "CorpusShapes", dependencies: appDependencies + osDependency, swiftSettings: [.swiftLanguageMode(.v5)]),
    // Swift 6 code in the shape of real code that uses Apple's preconcurrency callbacks
    // (`@Sendable` handlers imported from Objective-C): a warning there, and here (the test
    // command builds this package with warnings as errors but for that one group).
    .target(name: "Swift6Shapes", dependencies: appDependencies),
    .testTarget(name: "CompatTests", dependencies: testDependencies),
  ],
  swiftLanguageModes: [.v6]
)
