// swift-tools-version: 5.9
// A fixture of `locemu port`'s tests: a view controller, which no library gives Linux.
import PackageDescription

let package = Package(name: "Screen", targets: [.target(name: "Screen")])
