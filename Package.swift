// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "LocationEmulator",
  products: [
    .library(name: "NMEA", targets: ["NMEA"]),
    .library(name: "Geo", targets: ["Geo"]),
    .library(name: "Traces", targets: ["Traces"]),
    .executable(name: "locemu", targets: ["locemu"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
  ],
  targets: [
    .target(name: "NMEA"),
    .target(name: "Geo"),
    .target(name: "Traces", dependencies: ["NMEA", "Geo"]),
    .executableTarget(
      name: "locemu",
      dependencies: [
        "NMEA", "Geo", "Traces",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(name: "nmea-benchmark", dependencies: ["NMEA", "Traces"], path: "Sources/NMEABenchmark"),
    .testTarget(
      name: "NMEATests",
      dependencies: ["NMEA", "Geo", "Traces"],
      resources: [.copy("Fixtures")]
    ),
    .testTarget(name: "LocEmuCLITests", resources: [.copy("Fixtures")]),
  ]
)

for target in package.targets where target.type != .system {
  var settings = target.swiftSettings ?? []
  settings.append(contentsOf: [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
  ])
  target.swiftSettings = settings
}
package.swiftLanguageModes = [.v6]
