import Foundation
import Testing
import ToolsTestSupport

@testable import Porting

/// `locemu port` on whole packages: each fixture (written here in the shapes real packages have)
/// is ported, built against this repository and tested, all in one build folder so that the
/// library compiles once (`sharesScratchAcrossPackages`: no fixture tests `canImport` for
/// another's modules; `locemu port`'s own test keeps the folder of its own a user gets). Real
/// builds: serialized, each bounded by a hang guard far above what a slow machine needs (a first
/// port on one core under load: about 10 minutes).
@Suite("locemu port: packages and an app, ported, built and tested", .serialized)
struct PortTests {
  static let scratch = repositoryRoot.appendingPathComponent(".build-port")
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

  func port(_ fixture: String?, environment: [String: String], app: (sources: String, tests: String)? = nil) async throws -> PortReport {
    var options = PortOptions(package: fixture.map { Self.fixtures.appendingPathComponent($0) }, library: repositoryRoot)
    if let app {
      options.sources = [Self.fixtures.appendingPathComponent(app.sources)]
      options.tests = [Self.fixtures.appendingPathComponent(app.tests)]
    }
    options.scratchPath = Self.scratch
    options.sharesScratchAcrossPackages = true
    options.environment = environment
    let keep = FileManager.default.temporaryDirectory.appendingPathComponent("port-twin-\(UUID().uuidString)")
    options.keep = keep
    let ported = options
    return try await bounded("porting \(fixture ?? "an app")", .seconds(3600)) { try await Porter.port(ported) }
  }

  /// A copy of the fixture, in a temporary folder the caller removes, with the port's patch
  /// applied by patch(1), and patch's run.
  func patched(_ fixture: String, _ report: PortReport) async throws -> (copy: URL, applied: Tool.Result) {
    let patch = try #require(report.patch)
    let copy = FileManager.default.temporaryDirectory.appendingPathComponent("port-original-\(UUID().uuidString)")
    try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent(fixture), to: copy)
    return (copy, try await Tool.run("patch", ["-p1", "-d", copy.path, "-i", patch.path]))
  }

  @Test("PORT-10: every edit kind is made and listed, its patch applies to the original, and the tests pass on the phone set up")
  func editKinds() async throws {
    let report = try await port("EditKinds", environment: ["LOCEMU_PERMISSION": "authorizedWhenInUse", "LOCEMU_LOCATION": "60.17,24.94"])
    defer { try? FileManager.default.removeItem(at: report.twin) }
    #expect(report.firstError == nil, "\(report.summary)")
    #expect(
      report.testsRan && report.testStatus == 0 && report.passed == 3 && report.failed == 0, "\(report.summary)\n\(report.testOutput)")
    let kinds = Set(report.edits.map(\.kind))
    #expect(
      kinds == [
        .objcAttribute, .optionalRequirement, .optionalCall, .selectorObserver, .xctestTimeout, .frameworkImport, .platformCondition,
      ],
      "\(report.summary)")
    #expect(report.edits.contains { $0.kind == .frameworkImport && $0.file == "Sources/PlaceKit/Haptics.swift" && $0.line == 3 })
    #expect(
      report.edits.contains {
        $0.kind == .platformCondition && $0.file == "Sources/PlaceKit/Distance.swift" && $0.after.contains("os(Linux)")
      })
    #expect(report.summary.contains("tests: 3 passed, 0 failed, 0 skipped"))
    // Built in the folder every fixture shares, not in one of the package's own.
    #expect(FileManager.default.fileExists(atPath: Self.scratch.appendingPathComponent("library/debug").path))
    #expect(!FileManager.default.fileExists(atPath: Self.scratch.appendingPathComponent("PlaceKit.lock").path))

    // The patch applies cleanly to a copy of the original and gives the twin's sources.
    let (copy, applied) = try await patched("EditKinds", report)
    defer { try? FileManager.default.removeItem(at: copy) }
    #expect(applied.status == 0, "\(applied.output)")
    for file in ["Sources/PlaceKit/PlaceTracker.swift", "Sources/PlaceKit/Haptics.swift", "Tests/PlaceKitTests/PlaceTrackerTests.swift"] {
      #expect(Porter.read(copy.appendingPathComponent(file)) == Porter.read(report.twin.appendingPathComponent(file)), "\(file)")
    }
    // The original is never written.
    #expect(Porter.read(Self.fixtures.appendingPathComponent("EditKinds/Sources/PlaceKit/Haptics.swift")).contains("import UIKit"))
  }

  @Test(
    "PORT-16: Apple-only Foundation and an older package's Linux support: every unused SwiftUI import, however many builds the compiler needs to name them, URLRequest and XMLParser's modules, objc_sync_enter, a Foundation submodule, a stale LinuxMain.swift"
  )
  func oldLinuxSupport() async throws {
    let report = try await port("OldLinuxSupport", environment: [:])
    defer { try? FileManager.default.removeItem(at: report.twin) }
    #expect(report.firstError == nil, "\(report.summary)")
    #expect(
      report.testsRan && report.testStatus == 0 && report.passed == 6 && report.failed == 0, "\(report.summary)\n\(report.testOutput)")
    let imports = report.edits.filter { $0.kind == .frameworkImport }.map(\.file).sorted()
    #expect(imports == (1...4).map { "Tests/AlmanacTests/DayLengthTests\($0).swift" }, "\(report.summary)")
    #expect(report.edits.contains { $0.kind == .linuxMain && $0.file == "Tests/LinuxMain.swift" }, "\(report.summary)")
    #expect(
      report.edits.contains {
        $0.kind == .foundationSubmodule && $0.file == "Sources/Almanac/Settings.swift" && $0.line == 1 && $0.after == "import Foundation"
      }, "\(report.summary)")
    let modules = report.edits.filter { $0.kind == .foundationModule }.map { "\($0.file) \($0.after)" }.sorted()
    #expect(
      modules.filter { $0.hasPrefix("Sources/") } == [
        "Sources/Almanac/Feed.swift import FoundationNetworking", "Sources/Almanac/Feed.swift import FoundationXML",
        "Sources/Almanac/Once.swift import CoreLocation",
      ],
      "\(report.summary)")
    #expect(!FileManager.default.fileExists(atPath: report.twin.appendingPathComponent("Tests/LinuxMain.swift").path))

    // The patch deletes the stale file from a copy of the original.
    let (copy, applied) = try await patched("OldLinuxSupport", report)
    defer { try? FileManager.default.removeItem(at: copy) }
    #expect(applied.status == 0, "\(applied.output)")
    #expect(!FileManager.default.fileExists(atPath: copy.appendingPathComponent("Tests/LinuxMain.swift").path), "\(applied.output)")
    #expect(Porter.read(copy.appendingPathComponent("Tests/AlmanacTests/DayLengthTests3.swift")).contains("import SwiftUI") == false)
  }

  @Test("PORT-11: a test that fails on the phone it gets fails the port, and shows")
  func failingTest() async throws {
    let report = try await port("Failing", environment: [:])
    defer { try? FileManager.default.removeItem(at: report.twin) }
    #expect(report.testsRan && report.exitStatus == 1 && report.failed == 1 && report.passed == 1, "\(report.summary)")
    #expect(report.testOutput.contains("the app expects Always"))
  }

  @Test("PORT-12: a package that needs UIKit's view controllers cannot be ported: the first error, with its line")
  func cannotPort() async throws {
    let report = try await port("CannotPort", environment: [:])
    defer { try? FileManager.default.removeItem(at: report.twin) }
    #expect(!report.testsRan && report.exitStatus == 1)
    let error = try #require(report.firstError)
    #expect(error.hasPrefix("Sources/Screen/MapScreen.swift:4: error:") && error.contains("UIViewController"), "\(error)")
  }

  @Test("PORT-13: an app's folders (no Package.swift) are ported as a package, and --permission reaches its tests")
  func appFolders() async throws {
    let report = try await port(nil, environment: ["LOCEMU_PERMISSION": "denied"], app: ("App/Sources", "App/Tests"))
    defer { try? FileManager.default.removeItem(at: report.twin) }
    #expect(report.firstError == nil && report.exitStatus == 0 && report.passed == 1, "\(report.summary)\n\(report.testOutput)")
  }
}
