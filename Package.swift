// swift-tools-version: 6.1
import PackageDescription

// The library that app packages and their tests depend on: the NMEA decoder, geodesy, traces,
// the gpsd client, the emulated phone, the permission handler, the seed's map features, the
// client of a served phone, the bundled traces and a test kit. Its only package dependency is
// swift-collections; the tools (locemu, the phone server, the basemap's database) are the
// package in Tools/, and the micro-benchmarks the one in Benchmarks/.
let package = Package(
  name: "LocationEmulator",
  products: [
    .library(name: "LocationModel", targets: ["LocationModel"]),
    // The old name of LocationModel (until 0.1.0), re-exporting it: deprecated.
    .library(name: "LocationServices", targets: ["LocationServices"]),
    .library(name: "NMEA", targets: ["NMEA"]),
    .library(name: "GNSS", targets: ["GNSS"]),
    .library(name: "GNSSReceiver", targets: ["GNSSReceiver"]),
    .library(name: "Geo", targets: ["Geo"]),
    .library(name: "Traces", targets: ["Traces"]),
    .library(name: "GPSD", targets: ["GPSD"]),
    .library(name: "Emulator", targets: ["Emulator"]),
    .library(name: "PhoneSources", targets: ["PhoneSources"]),
    .library(name: "PermissionHandling", targets: ["PermissionHandling"]),
    .library(name: "Scenarios", targets: ["Scenarios"]),
    .library(name: "MapRendering", targets: ["MapRendering"]),
    .library(name: "PetMap", targets: ["PetMap"]),
    .library(name: "PetMapNetworking", targets: ["PetMapNetworking"]),
    .library(name: "LocationEmulatorClient", targets: ["LocationEmulatorClient"]),
    .library(name: "EmulatorTesting", targets: ["EmulatorTesting"]),
    .library(name: "SampleTraces", targets: ["SampleTraces"]),
  ],
  traits: [
    // Linux only: `import CoreLocation` (and MapKit) also gives Combine (OpenCombine under
    // Combine's name), as Apple's Foundation makes ObservableObject and @Published visible, so an
    // observable location store builds with its iOS imports. Opt-in (`traits: ["Combine"]` on the
    // app's `.package` line): a module named Combine in a build turns `#if canImport(Combine)` on
    // in every package built after it (GRDB, swift-dependencies, combine-schedulers…), which then
    // compile their Combine code against OpenCombine (Plugins/CombineModuleMap lets them import it).
    .trait(name: "Combine", description: "import CoreLocation also gives Combine's ObservableObject and @Published (OpenCombine)"),
    // `import CoreLocation` follows a phone of `locemu serve` when LOCEMU_SERVER is set (a plain
    // HTTP/1.1 client over sockets). Opt-in: an app's tests that drive in-process phones do not
    // compile the client.
    .trait(name: "ServedPhone", description: "import CoreLocation binds to a phone of locemu serve when LOCEMU_SERVER is set"),
    .default(enabledTraits: []),
  ],
  dependencies: [
    // Deque and Heap: the emulator clock's queue of effects and its timers.
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0")
  ],
  targets: [
    // What every layer shares: coordinates, fixes, permission statuses and request results, the
    // seed's LocationServiceProtocol, and the capabilities code on it may use (synchronous
    // observation, a scheduler).
    .target(name: "LocationModel"),
    // LocationModel's name until 0.1.0: a module that only re-exports it (deprecated).
    .target(name: "LocationServices", dependencies: ["LocationModel"]),
    .target(name: "GNSS"),
    .target(name: "GNSSReceiver", dependencies: ["GNSS", "LocationModel", "Traces", "NMEA", "Geo"]),
    .target(name: "NMEA", dependencies: ["LocationModel", "GNSS", "Geo"], exclude: ["Geodesy/LICENSE-gpsd"]),
    .target(name: "Geo", dependencies: ["LocationModel"]),
    // libxml2's streaming reader: GPX of any size in constant memory (Debian's libxml2-dev).
    .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
    .target(name: "Traces", dependencies: ["NMEA", "Geo", "LocationModel", "CLibXML2"]),
    .systemLibrary(name: "CGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
    .target(name: "CGPSShim", dependencies: ["CGPS"]),
    .target(name: "GPSD", dependencies: ["CGPSShim", "Geo", "LocationModel"]),
    // The Swift concurrency runtime's enqueue hooks by reference (a virtual clock settles tasks
    // through them), so that they link in a statically linked executable too.
    .target(name: "CConcurrencyHooks"),
    .target(
      name: "Emulator",
      dependencies: [
        "CConcurrencyHooks", "Geo", "LocationModel", .product(name: "DequeModule", package: "swift-collections"),
        .product(name: "HeapModule", package: "swift-collections"),
      ]
    ),
    // Sources that plug into a phone: trace files (libxml2 for GPX and KML) and a realistic receiver.
    .target(name: "PhoneSources", dependencies: ["Emulator", "Traces", "GNSSReceiver", "LocationModel"]),
    .target(name: "PermissionHandling", dependencies: ["LocationModel", "Geo"]),
    // Scenarios of permission events on a phone, as `locemu permissions` runs them (transcripts).
    .target(name: "Scenarios", dependencies: ["Emulator", "PermissionHandling", "Geo", "LocationModel"]),
    // Maps drawn as SVG: the projection, the layers under a map (tiles, basemaps), pins, the user,
    // a scale bar and a legend. Below the app's features, MapKit's snapshotter and the tools' basemaps.
    .target(name: "MapRendering", dependencies: ["LocationModel", "Geo"]),
    .target(name: "PetMap", dependencies: ["LocationModel", "Geo", "PermissionHandling", "MapRendering"]),
    // The app's announcements from its backend over URLSession. Apart from PetMap: on Linux
    // URLSession is FoundationNetworking over libcurl, whose 35 libraries load before main in
    // every program that links it, and a program that takes its pins otherwise need not.
    .target(name: "PetMapNetworking", dependencies: ["PetMap", "Geo"]),
    // A served phone from another process: LocationServiceProtocol over plain HTTP/1.1 sockets
    // (not URLSession, which brings libcurl and its 35 libraries into every program linking it).
    .target(name: "LocationEmulatorClient", dependencies: ["Emulator", "Geo", "LocationModel"]),
    // For users' tests: recorders of a phone's events and callbacks, a seeded generator.
    // The pool canary (LOCEMU_POOL_CANARY): a thread that reports a test blocking a thread of
    // Swift's cooperative pool; it starts with the test process, only when asked.
    .target(name: "CPoolCanary"),
    .target(name: "EmulatorTesting", dependencies: ["Geo", "LocationModel", "Emulator", "CPoolCanary"]),
    // The bundled traces (traces/) as resources of a product, for tests and demos elsewhere.
    .target(
      name: "SampleTraces", dependencies: ["Traces"], path: "traces",
      exclude: ["README.md", "gpsd-corpus", "helsinki-walk.nmea", "helsinki-drive.nmea", "helsinki-announcements.json"],
      sources: ["SampleTraces.swift"],
      resources: [
        .copy("city-walk.nmea"), .copy("old-town-route.gpx"), .copy("drive.nmea"), .copy("drive.gpx"), .copy("tunnel.nmea"),
        .copy("tunnel.gpx"), .copy("announcements.json"), .copy("helsinki-steps.kml"),
      ]
    ),
    // What the library's test targets share (places, the repository's files, a phone); not a product.
    .target(name: "TestSupport", dependencies: ["Emulator", "LocationModel"], path: "Tests/TestSupport"),
    .testTarget(
      name: "NMEATests",
      dependencies: ["NMEA", "LocationModel", "Traces", "Geo", "EmulatorTesting"],
      resources: [.copy("Fixtures")]
    ),
    .testTarget(name: "GeoTests", dependencies: ["Geo", "LocationModel"]),
    .testTarget(name: "GNSSTests", dependencies: ["GNSS"]),
    .testTarget(name: "GNSSReceiverTests", dependencies: ["GNSSReceiver", "GNSS", "LocationModel", "NMEA", "EmulatorTesting"]),
    .testTarget(
      name: "EmulatorTests",
      dependencies: [
        "TestSupport",
        "Emulator", "PhoneSources", "GNSSReceiver", "Geo", "LocationModel", "Traces", "EmulatorTesting",
      ]
    ),
    .testTarget(
      name: "TracesTests", dependencies: ["TestSupport", "Traces", "Geo", "LocationModel", "NMEA", "Emulator", "EmulatorTesting"]),
    .testTarget(
      name: "PermissionTests",
      dependencies: ["TestSupport", "Emulator", "PermissionHandling", "Scenarios", "Geo", "LocationModel", "EmulatorTesting"]),
    .testTarget(name: "LocationEmulatorClientTests", dependencies: ["LocationEmulatorClient", "TestSupport"]),
    .testTarget(
      name: "PetMapTests",
      dependencies: [
        "TestSupport", "PetMap", "MapRendering", "Emulator", "PermissionHandling", "Geo", "LocationModel", "EmulatorTesting",
      ]),
  ]
)

// Apple's CoreLocation and MapKit, emulated: declared only on Linux, where no system framework
// of those names exists (on Apple platforms the system's must win). Apps' location code builds
// unchanged and runs on an emulated phone; see Sources/CoreLocation/CoreLocation.docc.
#if os(Linux)
  package.products += [
    .library(name: "CoreLocation", targets: ["CoreLocation"]),
    .library(name: "MapKit", targets: ["MapKit"]),
    // Combine for location code that publishes (`ObservableObject`, `@Published`): OpenCombine
    // under Combine's name. Opt-in: an app resolves OpenCombine (a small package with no
    // dependencies of its own) but builds it only when it uses this product.
    .library(name: "Combine", targets: ["Combine"]),
    // `import os` (Logger, OSLog, os_log, OSAllocatedUnfairLock, os_unfair_lock, OSSignposter),
    // which location code often has beside CoreLocation. Opt-in: a target that depends on this
    // product builds the module, and a module named os in a build turns `#if canImport(os)` on
    // in every package built with it; the module declares what such code usually reaches for.
    .library(name: "os", targets: ["os"]),
    // `import Contacts` for the postal addresses location code writes and geocodes
    // (CNPostalAddress, CNPostalAddressFormatter, CLPlacemark.postalAddress). Opt-in, as os is.
    .library(name: "Contacts", targets: ["Contacts"]),
    // `import simd` for the vector types and geometry location code keeps beside CoreLocation
    // (`simd_double3` translations, `simd_length`, `normalize`…). Opt-in, as os is.
    .library(name: "simd", targets: ["simd"]),
  ]
  package.dependencies += [.package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0")]
  // Before every build with the emulator: its C module findable from every target (see the plugin).
  package.targets.first { $0.name == "Emulator" }?.plugins = ["CombineModuleMap"]
  package.targets += [
    // The Apple-only API beside CoreLocation that swift-corelibs-foundation lacks
    // (`NotificationCenter.notifications(named:object:)`, Darwin's `NSEC_PER_SEC`…,
    // `DateComponentsFormatter`); CoreLocation re-exports it.
    .target(name: "AppleCompat"),
    // The os module (messages to standard error with LOCEMU_OS_LOG=LEVEL) and the clang module
    // map that gives it its submodules (`import os.log`, `os.signpost`, `os.lock`).
    .target(name: "osModuleMap"),
    .target(name: "os", dependencies: ["osModuleMap"]),
    .target(name: "Contacts", dependencies: ["CoreLocation"]),
    .target(name: "simd"),
    // The framework's submodules (`import CoreLocation.CLLocation`) as a clang module map.
    .target(name: "CoreLocationModuleMap"),
    .target(
      name: "CoreLocation",
      dependencies: [
        "CoreLocationModuleMap", "AppleCompat", "Emulator", "Geo", "LocationModel",
        .target(name: "LocationEmulatorClient", condition: .when(traits: ["ServedPhone"])),
        // Apple's Foundation makes Combine's ObservableObject and @Published visible; with the
        // trait on, CoreLocation re-exports Combine so that such code builds with the iOS imports.
        .target(name: "Combine", condition: .when(traits: ["Combine"])),
      ],
      // Before every build with CoreLocation, trait on or off: Combine's modules importable, or
      // gone when OpenCombine left the graph (see the plugin).
      plugins: ["CombineModuleMap"]
    ),
    // MapKit's geometry, snapshotter (the project's renderer), annotations and formatter.
    .target(name: "MapKit", dependencies: ["CoreLocation", "Geo", "LocationModel", "MapRendering"]),
    .target(
      name: "Combine",
      dependencies: [
        .product(name: "OpenCombine", package: "OpenCombine"), .product(name: "OpenCombineFoundation", package: "OpenCombine"),
        .product(name: "OpenCombineDispatch", package: "OpenCombine"),
      ],
      plugins: ["CombineModuleMap"]
    ),
    // Every target sees the Combine module once it is built (SwiftPM shares one modules folder),
    // so packages that guard `import Combine` with `canImport` import it too: this makes the C
    // module under OpenCombine findable from any target (see the plugin's comment).
    .plugin(name: "CombineModuleMap", capability: .buildTool()),
    .testTarget(name: "AppleCompatTests", dependencies: ["AppleCompat", "os", "simd"]),
    // The documentation's code, whole: each file is quoted byte for byte by an article or the
    // README (scripts/check-readme-snippets.sh), so a snippet that drifts from the API fails here.
    .testTarget(
      name: "DocumentationTests",
      dependencies: [
        "CoreLocation", "Emulator", "Geo", "LocationEmulatorClient", "PetMap", "PermissionHandling", "NMEA", "LocationModel",
        "EmulatorTesting",
      ]
    ),
    .testTarget(
      name: "CoreLocationTests",
      dependencies: ["CoreLocation", "Contacts", "Emulator", "Geo", "LocationModel", "EmulatorTesting", "TestSupport"]
    ),
    .testTarget(name: "GPSDTests", dependencies: ["GPSD", "Traces", "Geo", "LocationModel", "EmulatorTesting", "TestSupport"]),
    .testTarget(
      name: "MapKitTests",
      dependencies: ["MapKit", "CoreLocation", "MapRendering", "Emulator", "Geo", "LocationModel", "EmulatorTesting", "TestSupport"]
    ),
  ]
#endif

let cTargets = ["CGPSShim", "CConcurrencyHooks", "CPoolCanary", "CoreLocationModuleMap", "osModuleMap"]
for target in package.targets where ![.system, .plugin].contains(target.type) && !cTargets.contains(target.name) {
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
