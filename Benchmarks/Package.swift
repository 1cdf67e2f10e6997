// swift-tools-version: 6.1
import PackageDescription

// Benchmarks of the library (path: "..") and the tools (path: "../Tools"), apart from both so
// that neither resolves the benchmark harness. Two kinds:
// - package-benchmark suites (Benchmarks/LocationEmulatorBenchmarks) with thresholds checked by
//   `scripts/bench-check.sh`: the decoder's core, the clock and a fleet's events, fan-out to
//   observers, fix-record JSON, a snapshot's rendering;
// - executables that print the README's figures (scripts/bench-*.sh): whole runs at scale.
let package = Package(
  name: "LocationEmulatorBenchmarks",
  dependencies: [
    .package(name: "LocationEmulator", path: ".."),
    .package(name: "LocationEmulatorTools", path: "../Tools"),
    .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
  ],
  targets: [
    .executableTarget(
      name: "LocationEmulatorBenchmarks",
      dependencies: [
        .product(name: "Benchmark", package: "benchmark"), .product(name: "NMEA", package: "LocationEmulator"),
        .product(name: "Geo", package: "LocationEmulator"), .product(name: "Traces", package: "LocationEmulator"),
        .product(name: "Emulator", package: "LocationEmulator"), .product(name: "PetMap", package: "LocationEmulator"),
        .product(name: "MapRendering", package: "LocationEmulator"), .product(name: "LocationModel", package: "LocationEmulator"),
        .product(name: "PhoneSources", package: "LocationEmulator"),
      ],
      path: "Benchmarks/LocationEmulatorBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    .executableTarget(
      name: "nmea-benchmark",
      dependencies: [.product(name: "NMEA", package: "LocationEmulator"), .product(name: "Traces", package: "LocationEmulator")],
      path: "Sources/NMEABenchmark"
    ),
    .executableTarget(
      name: "permission-benchmark",
      dependencies: [
        .product(name: "Emulator", package: "LocationEmulator"), .product(name: "Geo", package: "LocationEmulator"),
        .product(name: "LocationModel", package: "LocationEmulator"),
      ],
      path: "Sources/PermissionBenchmark"
    ),
    .executableTarget(
      name: "fleet-benchmark",
      dependencies: [
        .product(name: "Emulator", package: "LocationEmulator"), .product(name: "Traces", package: "LocationEmulator"),
        .product(name: "Geo", package: "LocationEmulator"), .product(name: "GNSSReceiver", package: "LocationEmulator"),
        .product(name: "LocationModel", package: "LocationEmulator"), .product(name: "PhoneSources", package: "LocationEmulator"),
      ],
      path: "Sources/FleetBenchmark"
    ),
    .executableTarget(
      name: "corelocation-benchmark",
      dependencies: [
        .product(name: "CoreLocation", package: "LocationEmulator"), .product(name: "Emulator", package: "LocationEmulator"),
        .product(name: "LocationModel", package: "LocationEmulator"),
      ],
      path: "Sources/CoreLocationBenchmark"
    ),
    .executableTarget(
      name: "basemap-benchmark",
      dependencies: [
        .product(name: "Basemap", package: "LocationEmulatorTools"), .product(name: "PetMap", package: "LocationEmulator"),
        .product(name: "MapRendering", package: "LocationEmulator"), .product(name: "LocationModel", package: "LocationEmulator"),
        .product(name: "Geo", package: "LocationEmulator"),
      ],
      path: "Sources/BasemapBenchmark"
    ),
    // The city traces in traces/ (scripts/make-city-traces.sh): streets of a basemap walked and driven.
    .executableTarget(
      name: "make-city-traces",
      dependencies: [
        .product(name: "Basemap", package: "LocationEmulatorTools"), .product(name: "Traces", package: "LocationEmulator"),
        .product(name: "Geo", package: "LocationEmulator"),
        .product(name: "LocationModel", package: "LocationEmulator"),
      ],
      path: "Sources/MakeCityTraces"
    ),
    // Figures for the README (scripts/bench-serve.sh, scripts/bench-sources.sh, scripts/bench-petmap.sh):
    // the real server under load, trace sources against gpsd and gpspipe, the map preview
    // against the real announcements server, with the tools' test helpers.
    .executableTarget(
      name: "serve-benchmark", dependencies: [.product(name: "ToolsTestSupport", package: "LocationEmulatorTools")],
      path: "Sources/ServeBenchmark"),
    .executableTarget(
      name: "source-benchmark",
      dependencies: [
        .product(name: "ToolsTestSupport", package: "LocationEmulatorTools"), .product(name: "Traces", package: "LocationEmulator"),
        .product(name: "GPSD", package: "LocationEmulator"),
        .product(name: "Geo", package: "LocationEmulator"), .product(name: "LocationModel", package: "LocationEmulator"),
      ],
      path: "Sources/SourceBenchmark"
    ),
    .executableTarget(
      name: "petmap-benchmark",
      dependencies: [
        .product(name: "AnnouncementServer", package: "LocationEmulatorTools"),
        .product(name: "ToolsTestSupport", package: "LocationEmulatorTools"), .product(name: "PetMap", package: "LocationEmulator"),
        .product(name: "PetMapNetworking", package: "LocationEmulator"),
        .product(name: "Emulator", package: "LocationEmulator"), .product(name: "PermissionHandling", package: "LocationEmulator"),
        .product(name: "Geo", package: "LocationEmulator"), .product(name: "LocationModel", package: "LocationEmulator"),
        .product(name: "EmulatorTesting", package: "LocationEmulator"),
      ],
      path: "Sources/PetMapBenchmark"
    ),
  ]
)

for target in package.targets {
  var settings = target.swiftSettings ?? []
  settings.append(contentsOf: [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
  ])
  target.swiftSettings = settings
}
package.swiftLanguageModes = [.v6]
