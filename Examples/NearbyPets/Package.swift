// swift-tools-version: 6.1
// An app's package that depends on LocationEmulator, as a user's would: a small view model and
// its tests on an emulated phone, through the library's public API only. tools/test.sh builds
// and tests it.
import PackageDescription

let package = Package(
  name: "NearbyPets",
  dependencies: [
    .package(name: "LocationEmulator", path: "../.."),
    // A package that locks with os_unfair_lock under canImport(os), linked here without the os product.
    .package(path: "../GuardedCombine"),
  ],
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
        .product(name: "GuardedLock", package: "GuardedCombine"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
