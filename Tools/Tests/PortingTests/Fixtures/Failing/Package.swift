// swift-tools-version: 5.9
// A fixture of `locemu port`'s tests: a package whose test fails on the phone it gets.
import PackageDescription

let package = Package(
  name: "Failing",
  targets: [.target(name: "Failing"), .testTarget(name: "FailingTests", dependencies: ["Failing"])]
)
