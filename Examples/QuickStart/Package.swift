// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "QuickStart",
  dependencies: [
    // A clone of LocationEmulator, by its path ("../.." here; yours is where you cloned it).
    .package(name: "LocationEmulator", path: "../..")
  ],
  targets: [
    // The app's code: `import CoreLocation` as on iOS (Apple's framework on Apple platforms).
    .target(
      name: "QuickStart",
      dependencies: [.product(name: "CoreLocation", package: "LocationEmulator", condition: .when(platforms: [.linux]))]
    ),
    // Its tests: the emulated phone (Emulator) and its coordinates (LocationModel).
    .testTarget(
      name: "QuickStartTests",
      dependencies: [
        "QuickStart",
        .product(name: "CoreLocation", package: "LocationEmulator", condition: .when(platforms: [.linux])),
        .product(name: "Emulator", package: "LocationEmulator"),
        .product(name: "LocationModel", package: "LocationEmulator"),
      ]
    ),
  ]
)
