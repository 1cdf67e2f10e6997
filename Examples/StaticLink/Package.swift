// swift-tools-version: 6.1
// A program linked with --static-swift-stdlib (the Swift runtime and Foundation inside the
// executable, as `locemu`'s release build is): its virtual clock must still settle the tasks iOS
// code starts, which rests on the Swift runtime's task hooks. scripts/test.sh links it statically
// and runs it.
import PackageDescription

let package = Package(
  name: "StaticLink",
  dependencies: [.package(name: "LocationEmulator", path: "../..")],
  targets: [
    .executableTarget(
      name: "StaticClockCheck",
      dependencies: [
        .product(name: "CoreLocation", package: "LocationEmulator", condition: .when(platforms: [.linux])),
        .product(name: "Emulator", package: "LocationEmulator"),
        .product(name: "LocationModel", package: "LocationEmulator"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
