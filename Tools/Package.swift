// swift-tools-version: 6.1
import PackageDescription

// The tools beside the library (the root package, by path): the `locemu` command (its commands a
// library, so tests run them in process; the executable a thin main), the phone server, the
// announcements server, the basemap with its SQLite and Protobuf, and the
// repository's own process and socket helpers for end-to-end tests. Everything heavy lives here
// so that an app package that depends on the library resolves none of it.
let package = Package(
  name: "LocationEmulatorTools",
  products: [
    .executable(name: "locemu", targets: ["locemu"]),
    .library(name: "AnnouncementServer", targets: ["AnnouncementServer"]),
    .library(name: "Basemap", targets: ["Basemap"]),
    // The tests' helpers (locemu's binary, loopback sockets, bounded waits), also for the
    // benchmarks and generators in Benchmarks/, which drive locemu as the tests do.
    .library(name: "ToolsTestSupport", targets: ["ToolsTestSupport"]),
  ],
  // Servers (default): `locemu serve`, `serve-announcements` and `feed`, on SwiftNIO and
  // Hummingbird. Without it (`--disable-default-traits`) locemu has every other command and builds
  // without the HTTP and TCP stack: what scripts/run.sh builds for its demo, a first build in
  // about two thirds of the time.
  traits: [
    .trait(name: "Servers", description: "locemu serve, serve-announcements and feed (SwiftNIO, Hummingbird)"),
    .default(enabledTraits: ["Servers"]),
  ],
  dependencies: [
    // ServedPhone: corelocation-probe's CoreLocation follows a served phone (LOCEMU_SERVER).
    .package(name: "LocationEmulator", path: "..", traits: ["ServedPhone"]),
    // locemu's command line.
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // The phone server and the announcements server (HTTP); no traits: no swift-configuration, no TLS.
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    // The NMEA feeds (TCP) and the servers' event loops.
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    // Servers, phones and feeds as services of one group, with graceful shutdown on SIGINT/SIGTERM.
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    // The basemap: OpenStreetMap's PBF blocks decoded by generated messages (scripts/generate-osm-proto.sh).
    .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    // The basemap file: SQLite with an R*Tree index over the features (and MBTiles files).
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    // Tests read openapi.yaml as YAML (the route-vs-spec check).
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
  ],
  targets: [
    // The system zlib: OpenStreetMap PBF blocks are zlib-compressed (Debian's zlib1g-dev).
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    .target(
      name: "Basemap",
      dependencies: [
        .product(name: "Geo", package: "LocationEmulator"), .product(name: "LocationModel", package: "LocationEmulator"),
        .product(name: "MapRendering", package: "LocationEmulator"), "CZlib",
        .product(name: "SwiftProtobuf", package: "swift-protobuf"), .product(name: "GRDB", package: "GRDB.swift"),
      ],
      exclude: ["Proto"]
    ),
    .target(
      name: "AnnouncementServer",
      dependencies: [
        .product(name: "PetMap", package: "LocationEmulator"), .product(name: "Geo", package: "LocationEmulator"),
        .product(name: "LocationModel", package: "LocationEmulator"),
        .product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
      ]
    ),
    // libcurl loaded on first use (dlopen), for announcements from a backend: linked, its 35
    // libraries would load before main in every locemu command. Its header only at build time
    // (Debian's libcurl4-openssl-dev).
    .target(name: "CLibcurl"),
    // The lost-pets app's map features wired together on a phone (its composition root), for
    // `locemu preview` and for phones `locemu serve` makes with `mapFeatures`.
    .target(
      name: "LostPetsApp",
      dependencies: [
        "CLibcurl",
        .product(name: "Emulator", package: "LocationEmulator"), .product(name: "Geo", package: "LocationEmulator"),
        .product(name: "LocationModel", package: "LocationEmulator"),
        .product(name: "PermissionHandling", package: "LocationEmulator"), .product(name: "PetMap", package: "LocationEmulator"),
        .product(name: "MapRendering", package: "LocationEmulator"), .product(name: "Scenarios", package: "LocationEmulator"),
      ]
    ),
    // `locemu serve`: emulated phones over HTTP (Hummingbird), and NMEA feeds over TCP.
    .target(
      name: "PhoneServer",
      dependencies: [
        .product(name: "GNSSReceiver", package: "LocationEmulator"),
        .product(name: "Emulator", package: "LocationEmulator"), .product(name: "PhoneSources", package: "LocationEmulator"),
        .product(name: "PermissionHandling", package: "LocationEmulator"),
        .product(name: "Scenarios", package: "LocationEmulator"), .product(name: "LocationModel", package: "LocationEmulator"),
        .product(name: "Geo", package: "LocationEmulator"), .product(name: "Traces", package: "LocationEmulator"),
        .product(name: "NMEA", package: "LocationEmulator"), .product(name: "MapRendering", package: "LocationEmulator"), "Basemap",
        .product(name: "LocationEmulatorClient", package: "LocationEmulator"), .product(name: "PetMap", package: "LocationEmulator"),
        "LostPetsApp",
        .product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "UnixSignals", package: "swift-service-lifecycle"),
      ],
      // The web pages' HTML, CSS and JavaScript, as files, compiled into the binary (no bundle
      // to find at run time): WebPage and WorldMapPage put them together.
      resources: [
        .embedInCode("Page/controls.html"), .embedInCode("Page/controls.css"), .embedInCode("Page/controls.js"),
        .embedInCode("Page/map.html"), .embedInCode("Page/map.css"), .embedInCode("Page/map.js"), .embedInCode("Page/shared.js"),
      ]
    ),
    // `locemu port`: an iOS package's own tests on Linux (the twin, its edits, the run); no
    // dependency beyond Foundation, tested in process.
    .target(name: "Porting"),
    .target(
      name: "LocEmuCommands",
      dependencies: [
        .product(name: "NMEA", package: "LocationEmulator"), .product(name: "GNSS", package: "LocationEmulator"),
        .product(name: "GNSSReceiver", package: "LocationEmulator"), .product(name: "Geo", package: "LocationEmulator"),
        .product(name: "LocationModel", package: "LocationEmulator"),
        .product(name: "Traces", package: "LocationEmulator"), .product(name: "GPSD", package: "LocationEmulator"),
        .product(name: "Emulator", package: "LocationEmulator"), .product(name: "PhoneSources", package: "LocationEmulator"),
        .product(name: "PermissionHandling", package: "LocationEmulator"), .product(name: "Scenarios", package: "LocationEmulator"),
        .product(name: "PetMap", package: "LocationEmulator"), .product(name: "MapRendering", package: "LocationEmulator"),
        .product(name: "LocationEmulatorClient", package: "LocationEmulator"),
        "Basemap", "LostPetsApp", "Porting",
        .target(name: "AnnouncementServer", condition: .when(traits: ["Servers"])),
        .target(name: "PhoneServer", condition: .when(traits: ["Servers"])),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Servers"])),
        .product(name: "UnixSignals", package: "swift-service-lifecycle"),
      ]
    ),
    .executableTarget(name: "locemu", dependencies: ["LocEmuCommands"]),
    // A plain program on `import CoreLocation`, driven through a served phone by the end-to-end
    // tests (LOCEMU_SERVER); CoreLocation is a Linux-only product of the library.
    .executableTarget(
      name: "corelocation-probe", dependencies: [.product(name: "CoreLocation", package: "LocationEmulator")],
      path: "Sources/CoreLocationProbe"),
    // The repository's own helpers for end-to-end tests: child processes (locemu, gpsd), free
    // loopback ports, a plain-socket HTTP connection, a bounded real-time wait. Not a product.
    .target(
      name: "ToolsTestSupport",
      dependencies: [
        .product(name: "Geo", package: "LocationEmulator"), .product(name: "LocationModel", package: "LocationEmulator"),
        .product(name: "EmulatorTesting", package: "LocationEmulator"),
      ]),
    .testTarget(
      name: "LocEmuCLITests",
      dependencies: [
        "ToolsTestSupport", .product(name: "EmulatorTesting", package: "LocationEmulator"), "LocEmuCommands", "Basemap",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Traces", package: "LocationEmulator"),
        .product(name: "Geo", package: "LocationEmulator"), .product(name: "LocationModel", package: "LocationEmulator"),
        .product(name: "NMEA", package: "LocationEmulator"),
        .product(name: "LocationEmulatorClient", package: "LocationEmulator"), .product(name: "Emulator", package: "LocationEmulator"),
        .product(name: "PermissionHandling", package: "LocationEmulator"),
      ],
      resources: [.copy("Fixtures")]
    ),
    .testTarget(
      name: "PhoneServerTests",
      dependencies: [
        "PhoneServer", "ToolsTestSupport", .product(name: "Emulator", package: "LocationEmulator"),
        .product(name: "PhoneSources", package: "LocationEmulator"),
        .product(name: "GNSS", package: "LocationEmulator"), .product(name: "GNSSReceiver", package: "LocationEmulator"),
        .product(name: "Scenarios", package: "LocationEmulator"),
        .product(name: "PermissionHandling", package: "LocationEmulator"), .product(name: "Geo", package: "LocationEmulator"),
        .product(name: "LocationModel", package: "LocationEmulator"),
        .product(name: "NMEA", package: "LocationEmulator"), .product(name: "Traces", package: "LocationEmulator"),
        .product(name: "LocationEmulatorClient", package: "LocationEmulator"), .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "PetMap", package: "LocationEmulator"), .product(name: "Yams", package: "Yams"),
      ]
    ),
    .testTarget(
      name: "PortingTests", dependencies: ["Porting", "ToolsTestSupport", .product(name: "EmulatorTesting", package: "LocationEmulator")],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "GPSDFeedTests",
      dependencies: [
        "ToolsTestSupport", .product(name: "EmulatorTesting", package: "LocationEmulator"), "PhoneServer",
        .product(name: "GPSD", package: "LocationEmulator"),
        .product(name: "Geo", package: "LocationEmulator"), .product(name: "LocationModel", package: "LocationEmulator"),
        .product(name: "Traces", package: "LocationEmulator"), .product(name: "GNSSReceiver", package: "LocationEmulator"),
        .product(name: "GNSS", package: "LocationEmulator"),
      ]
    ),
    .testTarget(
      name: "BasemapTests",
      dependencies: [
        "Basemap", "ToolsTestSupport", .product(name: "EmulatorTesting", package: "LocationEmulator"),
        .product(name: "PetMap", package: "LocationEmulator"),
        .product(name: "MapRendering", package: "LocationEmulator"),
        .product(name: "Geo", package: "LocationEmulator"), .product(name: "LocationModel", package: "LocationEmulator"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
      ]
    ),
    .testTarget(
      name: "AnnouncementServerTests",
      dependencies: [
        "ToolsTestSupport", .product(name: "EmulatorTesting", package: "LocationEmulator"), "LostPetsApp",
        .product(name: "PetMap", package: "LocationEmulator"),
        .product(name: "PetMapNetworking", package: "LocationEmulator"), .product(name: "Geo", package: "LocationEmulator"),
        .product(name: "LocationModel", package: "LocationEmulator"),
      ]
    ),
  ]
)

for target in package.targets where target.type != .system && target.name != "CLibcurl" {
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

// scripts/test.sh builds with --disable-index-store (indexing is about an eighth of the compile
// time) and indexes only the test targets, whose index SwiftPM's test discovery on Linux reads.
// Set by scripts/test.sh alone; without it the manifest is as above.
if let store = Context.environment["LOCEMU_TEST_INDEX_STORE"] {
  for target in package.targets where target.type == .test {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-index-store-path", store])]
  }
}
