// swift-tools-version: 5.9
// A fixture of `locemu port`'s tests: an iOS location package in the shapes the port edits
// (written for these tests, in the shapes real packages have).
import PackageDescription

let package = Package(
  name: "PlaceKit",
  platforms: [.iOS(.v15), .macOS(.v12)],
  products: [.library(name: "PlaceKit", targets: ["PlaceKit"])],
  targets: [
    .target(name: "PlaceKit"),
    .testTarget(name: "PlaceKitTests", dependencies: ["PlaceKit"]),
  ]
)
