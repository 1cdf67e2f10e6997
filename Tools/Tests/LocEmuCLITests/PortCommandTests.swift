import Foundation
import Testing
import ToolsTestSupport

/// `locemu port` as a user runs it: the binary, a fixture package (the Porting tests' own), a
/// trace replayed on a phone of a `locemu serve` the command starts, and the options' checks.
@Suite("locemu port, the command")
struct PortCommandTests {
  static let fixture = repositoryFile("Tools/Tests/PortingTests/Fixtures/EditKinds")
  static let scratch = repositoryFile(".build-port")

  @Test("PORT-20: --trace replays a trace on a served phone that the package's own test's CLLocationManager reads")
  func traceOnAServedPhone() async throws {
    // A real build of the fixture and its tests: the hang guard is far above a slow machine's few minutes.
    let run = try await DecodeCommandTests.run(
      [
        "port", Self.fixture, "--scratch-path", Self.scratch, "--permission", "whenInUse", "--trace",
        repositoryFile("traces/city-walk.nmea"),
      ],
      bound: .seconds(3600))
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    #expect(run.stdout.contains("tests: 3 passed, 0 failed, 0 skipped"), "\(run.stdout)")
    #expect(run.stdout.contains("Sources/PlaceKit/Haptics.swift:3: UIKit/AppKit/SwiftUI import: import UIKit"))
    // The build folder a user gets: the package's own, for its traits.
    #expect(FileManager.default.fileExists(atPath: Self.scratch + "/PlaceKit+ServedPhone/debug"))
  }

  @Test("PORT-21: bad options are refused with a one-line reason and status 64; a missing package, 2")
  func options() async throws {
    let noPackage = try await DecodeCommandTests.run(["port"])
    #expect(noPackage.status == 64 && noPackage.stderr.contains("give a package's PATH"))
    let badLocation = try await DecodeCommandTests.run(["port", Self.fixture, "--location", "north"])
    #expect(badLocation.status == 64 && badLocation.stderr.contains("--location north: LAT,LON"))
    let both = try await DecodeCommandTests.run(["port", Self.fixture, "--trace", "a.nmea", "--server", "http://127.0.0.1:1"])
    #expect(both.status == 64)
    let missing = try await DecodeCommandTests.run(["port", "/nonexistent/package"])
    #expect(missing.status == 2 && missing.stderr.contains("no Package.swift"), "\(missing.stderr)")
  }
}
