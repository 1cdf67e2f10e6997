// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "LocationEmulator",
  products: [
    .library(name: "NMEA", targets: ["NMEA"]),
    .library(name: "Geo", targets: ["Geo"]),
    .library(name: "Traces", targets: ["Traces"]),
    .library(name: "GPSD", targets: ["GPSD"]),
    .library(name: "Emulator", targets: ["Emulator"]),
    .library(name: "PermissionHandling", targets: ["PermissionHandling"]),
    .library(name: "PetMap", targets: ["PetMap"]),
    .library(name: "Basemap", targets: ["Basemap"]),
    .library(name: "AnnouncementServer", targets: ["AnnouncementServer"]),
    .library(name: "PhoneServer", targets: ["PhoneServer"]),
    .library(name: "LocationEmulatorClient", targets: ["LocationEmulatorClient"]),
    .library(name: "LocationTestSupport", targets: ["LocationTestSupport"]),
    .library(name: "SampleTraces", targets: ["SampleTraces"]),
    .executable(name: "locemu", targets: ["locemu"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // The announcements server (locemu serve-announcements); no traits: no swift-configuration, no TLS.
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    // Deque and Heap: the emulator clock's queue of effects and its timers.
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    // `locemu serve` ends its HTTP server with a graceful shutdown it triggers itself.
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    // The basemap: OpenStreetMap's PBF blocks decoded by generated messages (tools/generate-osm-proto.sh).
    .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    // The basemap file: SQLite with an R*Tree index over the features (and MBTiles files).
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
  ],
  targets: [
    .target(name: "NMEA", exclude: ["Geodesy/LICENSE-gpsd"]),
    .target(name: "Geo"),
    // libxml2's streaming reader: GPX of any size in constant memory (Debian's libxml2-dev).
    .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
    .target(name: "Traces", dependencies: ["NMEA", "Geo", "CLibXML2"]),
    .systemLibrary(name: "CGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
    .target(name: "CGPSShim", dependencies: ["CGPS"]),
    .target(name: "GPSD", dependencies: ["CGPSShim", "Geo"]),
    .target(
      name: "Emulator",
      dependencies: [
        "Geo", "Traces", .product(name: "DequeModule", package: "swift-collections"),
        .product(name: "HeapModule", package: "swift-collections"),
      ]
    ),
    .target(name: "PermissionHandling", dependencies: ["Emulator", "Geo"]),
    // The system zlib: OpenStreetMap PBF blocks are zlib-compressed (Debian's zlib1g-dev).
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    .target(
      name: "Basemap",
      dependencies: ["Geo", "CZlib", .product(name: "SwiftProtobuf", package: "swift-protobuf"), .product(name: "GRDB", package: "GRDB.swift")],
      exclude: ["Proto"]
    ),
    .target(name: "PetMap", dependencies: ["Geo", "Emulator", "PermissionHandling", "Basemap"]),
    .target(
      name: "AnnouncementServer",
      dependencies: [
        "PetMap", "Geo", .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"),
      ]
    ),
    // `locemu serve`: emulated phones over HTTP (Hummingbird).
    .target(
      name: "PhoneServer",
      dependencies: [
        "Emulator", "PermissionHandling", "Geo", "Traces", "PetMap", "Basemap", .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "UnixSignals", package: "swift-service-lifecycle"),
      ]
    ),
    // A served phone from another process: LocationServiceProtocol over HTTP (URLSession).
    .target(name: "LocationEmulatorClient", dependencies: ["Emulator", "Geo", "Traces"]),
    .target(name: "LocationTestSupport", dependencies: ["Geo", "Emulator"]),
    // The bundled traces (traces/) as resources of a product, for tests and demos elsewhere.
    .target(
      name: "SampleTraces", dependencies: ["Traces"], path: "traces",
      exclude: ["README.md", "gpsd-corpus", "helsinki-walk.nmea", "helsinki-drive.nmea", "helsinki-announcements.json"],
      sources: ["SampleTraces.swift"],
      resources: [
        .copy("city-walk.nmea"), .copy("old-town-route.gpx"), .copy("drive.nmea"), .copy("drive.gpx"), .copy("tunnel.nmea"),
        .copy("tunnel.gpx"), .copy("announcements.json"),
      ]
    ),
    .executableTarget(
      name: "locemu",
      dependencies: [
        "NMEA", "Geo", "Traces", "GPSD", "Emulator", "PermissionHandling", "PetMap", "AnnouncementServer", "PhoneServer", "LocationEmulatorClient",
        "Basemap",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "UnixSignals", package: "swift-service-lifecycle"),
      ]
    ),
    .executableTarget(name: "nmea-benchmark", dependencies: ["NMEA", "Traces"], path: "Sources/NMEABenchmark"),
    .executableTarget(name: "permission-benchmark", dependencies: ["Emulator", "Geo"], path: "Sources/PermissionBenchmark"),
    .executableTarget(name: "fleet-benchmark", dependencies: ["Emulator", "Traces", "Geo"], path: "Sources/FleetBenchmark"),
    .executableTarget(name: "make-city-traces", dependencies: ["Basemap", "Traces", "Geo"], path: "Sources/MakeCityTraces"),
    .executableTarget(name: "basemap-benchmark", dependencies: ["Basemap", "PetMap", "Geo"], path: "Sources/BasemapBenchmark"),
    .executableTarget(name: "serve-benchmark", dependencies: ["LocationTestSupport"], path: "Sources/ServeBenchmark"),
    .executableTarget(
      name: "source-benchmark", dependencies: ["Traces", "GPSD", "Geo", "LocationTestSupport"], path: "Sources/SourceBenchmark"),
    .testTarget(
      name: "PhoneServerTests",
      dependencies: [
        "PhoneServer", "Emulator", "PermissionHandling", "Geo", "NMEA", "LocationTestSupport",
        .product(name: "Hummingbird", package: "hummingbird"),
      ]
    ),
    .testTarget(
      name: "NMEATests",
      dependencies: ["NMEA", "Geo", "Traces", "LocationTestSupport"],
      resources: [.copy("Fixtures")]
    ),
    .testTarget(name: "GeoTests", dependencies: ["Geo"]),
    .testTarget(name: "EmulatorTests", dependencies: ["Emulator", "Geo", "Traces", "PermissionHandling", "LocationTestSupport"]),
    .testTarget(
      name: "TracesTests",
      dependencies: ["Traces", "Geo", "NMEA", "Emulator", "LocationTestSupport"]
    ),
    .testTarget(name: "GPSDTests", dependencies: ["GPSD", "Geo", "Traces", "LocationTestSupport"]),
    .testTarget(
      name: "PermissionTests",
      dependencies: [
        "Emulator", "PermissionHandling", "Geo", "LocationTestSupport",
      ]
    ),
    .executableTarget(
      name: "petmap-benchmark",
      dependencies: ["PetMap", "AnnouncementServer", "Emulator", "PermissionHandling", "Geo", "LocationTestSupport"],
      path: "Sources/PetMapBenchmark"
    ),
    .testTarget(
      name: "PetMapTests",
      dependencies: [
        "PetMap", "Basemap", "Emulator", "PermissionHandling", "Geo", "LocationTestSupport",
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
      ]
    ),
    .testTarget(
      name: "LocEmuCLITests",
      dependencies: ["LocationTestSupport", "Traces", "Geo", "NMEA", "LocationEmulatorClient", "Emulator", "PermissionHandling"],
      resources: [.copy("Fixtures")]),
  ]
)

for target in package.targets where target.type != .system && target.name != "CGPSShim" {
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
