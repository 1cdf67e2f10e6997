import Foundation
import Testing

@testable import Porting

/// The port's edits on text, each in the shape real packages have it.
@Suite("locemu port: the edits, on text")
struct SourceEditsTests {
  @Test("PORT-01: @objc goes; an @objc optional requirement gets an empty default and its calls become plain")
  func objcAndOptionalRequirements() {
    let text = """
      @objc public protocol TrackerDelegate: AnyObject {
        func tracker(_ t: Tracker, didFind place: String)
        @objc optional func trackerDidPause(_ t: Tracker)
        @objc optional func tracker(_ t: Tracker, titleFor place: String) -> String?
        @objc optional func trackerCount(_ t: Tracker) -> Int
      }

      @objcMembers final class Tracker: NSObject {
        weak var delegate: TrackerDelegate?
        @objc(pauseNow) func pause() { delegate?.trackerDidPause?(self) }
        func title() -> String? { delegate?.tracker?(self, titleFor: "x") ?? nil }
      }
      """
    let requirements = SourceEdits.optionalRequirements(in: text)
    #expect(requirements.map(\.name) == ["trackerDidPause", "tracker", "trackerCount"])
    #expect(requirements.map(\.body) == ["{}", "{ nil }", nil], "no empty default returns an Int")
    let (edited, edits) = SourceEdits.removeObjC(text, requirements: requirements)
    #expect(!edited.contains("@objc"))
    #expect(edited.contains("weak var delegate: TrackerDelegate?"))
    #expect(edited.contains("func pause() { delegate?.trackerDidPause(self) }"))
    #expect(edited.contains("delegate?.tracker(self, titleFor: \"x\")"))
    #expect(edited.contains("extension TrackerDelegate {\n  public func trackerDidPause(_ t: Tracker) {}"))
    #expect(edited.contains("public func tracker(_ t: Tracker, titleFor place: String) -> String? { nil }"))
    #expect(!edited.contains("func trackerCount(_ t: Tracker) -> Int {"))
    #expect(Set(edits.map(\.kind)) == [.objcAttribute, .optionalRequirement, .optionalCall])
    #expect(edits.first { $0.kind == .optionalCall }?.line == 10)
  }

  @Test("PORT-02: a #selector observer becomes a block-based one, with or without the notification")
  func selectorObservers() {
    let text = """
      center.addObserver(self, selector: #selector(didEnterBackground(_:)), name: UIApplication.didEnterBackgroundNotification, object: nil)
          NotificationCenter.default.addObserver(self, selector: #selector(refresh), name: .refresh, object: store)
      let unrelated = #selector(refresh)
      @objc func refresh() {}
      """
    let (edited, edits) = SourceEdits.selectorObservers(text)
    let lines = edited.components(separatedBy: "\n")
    #expect(
      lines[0]
        == "center.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: nil) { [weak self] notification in self?.didEnterBackground(notification) }"
    )
    #expect(
      lines[1]
        == "    NotificationCenter.default.addObserver(forName: .refresh, object: store, queue: nil) { [weak self] _ in self?.refresh() }")
    #expect(lines[2] == "let unrelated = #selector(refresh)" && edits.count == 2)
  }

  @Test("PORT-03: XCTest waits without a timeout get one; those with one are left")
  func xctestTimeouts() {
    let text = """
      await fulfillment(of: [found])
      await fulfillment(of: [a, b], enforceOrder: true)
      wait(for: [found])
      wait(for: [found], timeout: 5)
      """
    let (edited, edits) = SourceEdits.xctestTimeouts(text)
    #expect(
      edited.components(separatedBy: "\n") == [
        "await fulfillment(of: [found], timeout: 600)", "await fulfillment(of: [a, b], timeout: 600, enforceOrder: true)",
        "wait(for: [found], timeout: 600)", "wait(for: [found], timeout: 5)",
      ])
    #expect(edits.count == 3 && edits.allSatisfy { $0.kind == .xctestTimeout })
  }

  @Test("PORT-04: platform conditions that are false on Linux are found with their extension; framework imports and imports by module")
  func conditionsAndImports() {
    let text = """
      #if os(iOS)
      #elseif os(macOS) // desktop
      #endif
      #if canImport(UIKit) || os(tvOS)
      #endif
      #if os(iOS) || os(Linux)
      #endif
      #if !os(iOS)
      #endif
      @preconcurrency import UIKit
      import struct CoreLocation.CLLocationCoordinate2D
      import os.log
      """
    let found = SourceEdits.platformConditions(text)
    #expect(found.map(\.line) == [1, 2, 4])
    #expect(
      found.map(\.after) == ["#if os(iOS) || os(Linux)", "#elseif os(macOS) || os(Linux)", "#if canImport(UIKit) || os(tvOS) || os(Linux)"])
    #expect(SourceEdits.frameworkImports(text) == [10])
    #expect(SourceEdits.imports(text) == ["UIKit", "CoreLocation", "os"])
  }

  @Test("PORT-05: the patch of an edit applies to the original with patch(1) and gives the edited file")
  func patchApplies() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("port-patch-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let original = folder.appendingPathComponent("a"), twin = folder.appendingPathComponent("b")
    for base in [original, twin] {
      try FileManager.default.createDirectory(at: base.appendingPathComponent("Sources"), withIntermediateDirectories: true)
    }
    let lines = (1...40).map { "let line\($0) = \($0)" }
    var edited = lines
    edited[2] = "let changed = 3"
    edited.remove(at: 20)
    edited.insert("let added = true", at: 30)
    try (lines.joined(separator: "\n") + "\n").write(
      to: original.appendingPathComponent("Sources/File.swift"), atomically: true, encoding: .utf8)
    try (edited.joined(separator: "\n") + "\n").write(
      to: twin.appendingPathComponent("Sources/File.swift"), atomically: true, encoding: .utf8)
    try "// manifest\n".write(to: original.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    try "// manifest\n// added\n".write(to: twin.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    let patch = try Porter.writePatch(
      original: original, twin: twin, edits: [PortEdit(kind: .objcAttribute, file: "Sources/File.swift", line: 3, before: "", after: "")])
    let applied = try await Tool.run("patch", ["-p1", "-d", original.path, "-i", patch.path])
    #expect(applied.status == 0, "\(applied.output)")
    #expect(
      Porter.read(original.appendingPathComponent("Sources/File.swift")) == Porter.read(twin.appendingPathComponent("Sources/File.swift")))
    #expect(Porter.read(original.appendingPathComponent("Package.swift")) == "// manifest\n// added\n")
  }

  @Test("PORT-06: test counts from XCTest's and Swift Testing's summaries")
  func testCounts() {
    let xctest = """
      Test Case 'A.testOne' passed (0.001 seconds)
      Test Case 'A.testTwo' failed (0.002 seconds)
      Test Suite 'All tests' failed at 2026-11-28 13:00:00.000.
      \t Executed 5 tests, with 1 test skipped and 2 failures (0 unexpected) in 0.003 (0.003) seconds
      """
    #expect(Porter.testCounts(xctest) == (3, 1, 1))
    let testing = """
      ✘ Test "one" failed after 0.001 seconds with 1 issue.
      ✔ Test "two" passed after 0.001 seconds.
      ✘ Test run with 2 tests in 1 suite failed after 0.002 seconds with 1 issue.
      """
    #expect(Porter.testCounts(testing) == (1, 1, 0))
  }

  @Test(
    "PORT-05: the compiler's words for URLSession's and XMLParser's modules, and for a Foundation submodule, name them; other errors none"
  )
  func foundationModules() {
    let moved = "'URLSession' is unavailable: This type has moved to the FoundationNetworking module. Import that module to use it."
    #expect(SourceEdits.missingFoundationModule(moved) == "FoundationNetworking")
    #expect(SourceEdits.missingFoundationModule("cannot find type 'XMLParserDelegate' in scope") == "FoundationXML")
    #expect(SourceEdits.missingFoundationModule("cannot find 'XMLParser' in scope") == "FoundationXML")
    #expect(SourceEdits.missingFoundationModule("cannot find type 'HTTPURLResponse' in scope") == "FoundationNetworking")
    #expect(SourceEdits.missingFoundationModule("cannot find type 'UIView' in scope") == nil)
    #expect(SourceEdits.missingFoundationModule("cannot find type 'XMLThing' in scope") == nil)
    #expect(SourceEdits.missingFoundationSubmodule("no such module 'Foundation.NSUserDefaults'") == "Foundation.NSUserDefaults")
    #expect(SourceEdits.missingFoundationSubmodule("no such module 'UIKit'") == nil)
    #expect(SourceEdits.isMissingFramework("no such module 'UIKit.UIDevice'") && SourceEdits.isMissingFramework("no such module 'SwiftUI'"))
    #expect(!SourceEdits.isMissingFramework("no such module 'UIKitExtras'"))
    #expect(SourceEdits.frameworkImports("import Foundation\nimport UIKit.UIDevice\n") == [2])
    #expect(SourceEdits.isAppleCompatName("cannot find 'objc_sync_enter' in scope"))
    #expect(!SourceEdits.isAppleCompatName("cannot find 'objc_getClass' in scope"))
    let added = SourceEdits.foundationModuleImport("FoundationXML")
    #expect(added.hasPrefix("\n#if canImport(FoundationXML)\n  import FoundationXML") && added.hasSuffix("#endif\n"))
  }

  @Test("PORT-06: a target-action #selector timer becomes a block-based timer calling the same method, with or without the timer")
  func selectorTimers() {
    let source = """
      final class Service: NSObject {
        var timer: Timer?
        func start() {
          timer = Timer.scheduledTimer(timeInterval: interval, target: self, selector: #selector(didTimeOut), userInfo: nil, repeats: false)
          tick = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(tick(_:)), userInfo: nil, repeats: true)
          other = Timer.scheduledTimer(timeInterval: 1, target: other, selector: #selector(tick(_:)), userInfo: nil, repeats: true)
        }
        @objc private func didTimeOut() {}
        @objc private func tick(_ timer: Timer) {}
      }
      """
    let (text, edits) = SourceEdits.selectorTimers(source)
    #expect(edits.map(\.line) == [4, 5])
    #expect(
      text.contains(
        "timer = Timer.scheduledTimer(withTimeInterval: interval, repeats: false) { [weak self] _ in self?.didTimeOut() }"))
    #expect(text.contains("tick = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { [weak self] timer in self?.tick(timer) }"))
    #expect(text.contains("target: other"), "a timer whose target is another object is left")
  }
}
