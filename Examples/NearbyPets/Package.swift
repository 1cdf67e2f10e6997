// swift-tools-version: 6.1
// An app's package that depends on LocationEmulator, as a user's would: a small view model and
// its tests on an emulated phone, through the library's public API only. scripts/test.sh builds
// and tests it.
import PackageDescription

let package = Package(
  name: "NearbyPets",
  dependencies: [.package(name: "LocationEmulator", path: "../..")],
  targets: [
    .target(
      name: "NearbyPets",
      // Production code: the app seam and the permission handler, never the emulator.
      dependencies: [
        .product(name: "LocationServices", package: "LocationEmulator"),
        .product(name: "PermissionHandling", package: "LocationEmulator"),
      ]
    ),
    .testTarget(
      name: "NearbyPetsTests",
      dependencies: [
        "NearbyPets", .product(name: "Emulator", package: "LocationEmulator"),
        .product(name: "LocationServices", package: "LocationEmulator"),
        .product(name: "PermissionHandling", package: "LocationEmulator"),
        .product(name: "PhoneSources", package: "LocationEmulator"),
        .product(name: "SampleTraces", package: "LocationEmulator"),
        .product(name: "Traces", package: "LocationEmulator"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
