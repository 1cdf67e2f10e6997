// swift-tools-version: 6.1
// The lost-pets app's location code written the iOS way — `import CoreLocation`, `import
// MapKit`, `import Combine`, an actor over CLLocationManager with continuations — as it would be
// in an iOS target, unchanged; on Linux those modules are LocationEmulator's, and the tests run
// the app on an emulated phone on virtual time. scripts/test.sh builds and tests it.
import PackageDescription

var appDependencies: [Target.Dependency] = []
var testDependencies: [Target.Dependency] = [
  "LostPets", .product(name: "GuardedCombine", package: "GuardedCombine"),
  .product(name: "GuardedLocation", package: "GuardedCombine"), .product(name: "GuardedLock", package: "GuardedCombine"),
]
#if os(Linux)
  // On Apple platforms the system's CoreLocation, MapKit and Combine are used.
  appDependencies = [
    .product(name: "CoreLocation", package: "LocationEmulator"), .product(name: "MapKit", package: "LocationEmulator"),
    .product(name: "Combine", package: "LocationEmulator"),
  ]
  testDependencies +=
    appDependencies + [
      .product(name: "Emulator", package: "LocationEmulator"), .product(name: "LocationModel", package: "LocationEmulator"),
    ]
#endif

let package = Package(
  name: "LostPets",
  dependencies: [
    .package(name: "LocationEmulator", path: "../.."),
    // A package that guards `import Combine` with canImport and never names LocationEmulator.
    .package(path: "../GuardedCombine"),
  ],
  targets: [
    .target(name: "LostPets", dependencies: appDependencies),
    .testTarget(name: "LostPetsTests", dependencies: testDependencies),
  ],
  swiftLanguageModes: [.v6]
)
