import Foundation

/// What a port reports: the tests' counts from their output, and the edits as a patch.
extension Porter {
  /// Passed, failed and skipped tests from `swift test`'s output: XCTest's last summary line and
  /// Swift Testing's run line, added.
  static func testCounts(_ output: String) -> (Int, Int, Int) {
    var passed = 0, failed = 0, skipped = 0
    let lines = output.components(separatedBy: "\n")
    if let line = lines.last(where: { $0.contains("Executed ") && $0.contains(" test") }) {
      let executed = Int(SourceEdits.match(#"Executed (\d+) tests?"#, line) ?? "") ?? 0
      let failures = Int(SourceEdits.match(#"(\d+) failures?"#, line) ?? "") ?? 0
      let skips = Int(SourceEdits.match(#"(\d+) tests? skipped"#, line) ?? "") ?? 0
      // XCTest counts failures (assertions), not failed tests: count the failed tests instead.
      let failedTests = Set(lines.filter { $0.contains("' failed (") && $0.hasPrefix("Test Case") }).count
      failed += failures > 0 ? max(failedTests, 1) : 0
      skipped += skips
      passed += executed - skips - (failures > 0 ? max(failedTests, 1) : 0)
    }
    if let line = lines.last(where: { $0.contains("Test run with ") }) {
      let total = Int(SourceEdits.match(#"Test run with (\d+) tests?"#, line) ?? "") ?? 0
      let failedTests = lines.filter { $0.hasPrefix("✘ Test ") && $0.contains(" failed after ") && !$0.contains("Test run with") }.count
      let skippedTests = lines.filter { $0.hasPrefix("➜ Test ") && $0.contains(" skipped") }.count
      failed += failedTests
      skipped += skippedTests
      passed += total - failedTests - skippedTests
    }
    return (max(passed, 0), failed, skipped)
  }

  /// The edits as a unified diff of the original against the twin, for the files edited and the
  /// manifest (`a/` the original, `b/` the twin).
  static func writePatch(original: URL, twin: URL, edits: [PortEdit]) throws -> URL {
    let manifests = ((try? FileManager.default.contentsOfDirectory(atPath: twin.path)) ?? [])
      .filter { $0 == "Package.swift" || ($0.hasPrefix("Package@swift-") && $0.hasSuffix(".swift")) }
    let names = (Set(edits.map(\.file)).union(manifests)).sorted()
    var patch = ""
    for name in names {
      let before = original.appendingPathComponent(name), after = twin.appendingPathComponent(name)
      var diff = unifiedDiff(name: name, old: FileManager.default.fileExists(atPath: before.path) ? read(before) : "", new: read(after))
      // A file the port removed (a stale LinuxMain.swift): patch(1) deletes it.
      if !FileManager.default.fileExists(atPath: after.path) {
        diff = diff.replacingOccurrences(of: "+++ b/\(name)\n", with: "+++ /dev/null\n")
      }
      patch += diff
    }
    let url = twin.appendingPathComponent("port.patch")
    try patch.write(to: url, atomically: true, encoding: .utf8)
    return url
  }

  /// A unified diff of two texts (one hunk per run of changes, three lines of context).
  static func unifiedDiff(name: String, old: String, new: String) -> String {
    func lines(_ text: String) -> [String] {
      guard !text.isEmpty else { return [] }
      var lines = text.components(separatedBy: "\n")
      if text.hasSuffix("\n") { lines.removeLast() }
      return lines
    }
    let a = lines(old), b = lines(new)
    let difference = b.difference(from: a)
    guard !difference.isEmpty else { return "" }
    // Line-by-line alignment from the collection difference.
    var removed = Set<Int>(), inserted = Set<Int>()
    for change in difference {
      switch change {
      case .remove(let offset, _, _): removed.insert(offset)
      case .insert(let offset, _, _): inserted.insert(offset)
      }
    }
    // Walk both, emitting hunks.
    var script: [(Character, String, Int, Int)] = []  // (kind, text, old index, new index)
    var i = 0, j = 0
    while i < a.count || j < b.count {
      if i < a.count, removed.contains(i) {
        script.append(("-", a[i], i, j))
        i += 1
      } else if j < b.count, inserted.contains(j) {
        script.append(("+", b[j], i, j))
        j += 1
      } else {
        if i < a.count { script.append((" ", a[i], i, j)) }
        i += 1
        j += 1
      }
    }
    var out = "--- a/\(name)\n+++ b/\(name)\n"
    var index = 0
    while index < script.count {
      guard script[index].0 != " " else {
        index += 1
        continue
      }
      let start = max(0, index - 3)
      var end = index
      while end < script.count {
        if script[end].0 != " " {
          end += 1
          continue
        }
        let next = script[end...].prefix(7).firstIndex { $0.0 != " " }
        if let next, next - end < 7 { end = next } else { break }
      }
      end = min(script.count, end + 3)
      let hunk = script[start..<end]
      let oldCount = hunk.filter { $0.0 != "+" }.count, newCount = hunk.filter { $0.0 != "-" }.count
      let oldStart = (hunk.first.map { $0.2 } ?? 0) + 1, newStart = (hunk.first.map { $0.3 } ?? 0) + 1
      out += "@@ -\(oldCount == 0 ? oldStart - 1 : oldStart),\(oldCount) +\(newCount == 0 ? newStart - 1 : newStart),\(newCount) @@\n"
      for line in hunk {
        out += "\(line.0)\(line.1)\n"
        // The last line of a text with no final newline, as diff(1) marks it.
        let last = line.0 == "+" ? line.3 == b.count - 1 && !new.hasSuffix("\n") : line.2 == a.count - 1 && !old.hasSuffix("\n")
        if last, line.0 != " " || (!old.hasSuffix("\n") && !new.hasSuffix("\n")) { out += "\\ No newline at end of file\n" }
      }
      index = end
    }
    return out
  }

}
