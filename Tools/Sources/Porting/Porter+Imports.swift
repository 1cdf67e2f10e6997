import Foundation

extension Porter {
  /// Builds the twin and makes the edits its errors call for, building again after each round
  /// until a build names nothing new: `import UIKit`/`AppKit`/`SwiftUI` removed where the module
  /// is missing (the compiler may stop a target at its first such file: seen in MoonKit's tests,
  /// one file's unused `import SwiftUI` a build); corelibs' own modules for `URLSession` and
  /// `XMLParser` imported; a Foundation submodule import made `import Foundation`; a stale
  /// `Tests/LinuxMain.swift` removed; in a file of a target with this library's CoreLocation
  /// (`hasCoreLocation`), `import CoreLocation` added where an Objective-C runtime function
  /// that AppleCompat supplies is missing (Apple's Foundation has them). Answers the last build.
  static func editImports(
    _ twin: URL, options: PortOptions, report: inout PortReport, hasCoreLocation: (String) -> Bool
  ) async throws -> Build {
    var build = try await Self.build(twin, options)
    var edited = Set<String>()
    while true {
      let linuxMain = twin.appendingPathComponent("Tests/LinuxMain.swift")
      let inLinuxMain = build.errors.contains {
        URL(fileURLWithPath: $0.file).resolvingSymlinksInPath().path == linuxMain.resolvingSymlinksInPath().path
      }
      let removedLinuxMain = inLinuxMain && (try? FileManager.default.removeItem(at: linuxMain)) != nil
      if removedLinuxMain {
        report.edits.append(
          PortEdit(kind: .linuxMain, file: "Tests/LinuxMain.swift", line: 1, before: "Tests/LinuxMain.swift", after: "(removed)"))
      }
      let missing = Set(build.errors.filter { SourceEdits.isMissingFramework($0.message) }.map(\.file)).subtracting(edited)
      let corelibsModules = Set(
        build.errors.compactMap { e in SourceEdits.missingFoundationModule(e.message).map { "\(e.file)\n\($0)" } })
      let runtime = Set(
        build.errors.filter { SourceEdits.isAppleCompatName($0.message) && hasCoreLocation($0.file) }.map { "\($0.file)\nCoreLocation" }
      )
      let splitModules = corelibsModules.union(runtime).subtracting(edited)
      let submodules = Set(
        build.errors.compactMap { e in SourceEdits.missingFoundationSubmodule(e.message).map { "\(e.file)\n\(e.line)\n\($0)" } }
      ).subtracting(edited)
      guard !missing.isEmpty || !splitModules.isEmpty || !submodules.isEmpty || removedLinuxMain else { break }
      for key in submodules.sorted() {
        let parts = key.components(separatedBy: "\n")
        let file = URL(fileURLWithPath: parts[0])
        var lines = read(file).components(separatedBy: "\n")
        guard let number = Int(parts[1]), lines.indices.contains(number - 1) else { continue }
        let before = lines[number - 1]
        lines[number - 1] = before.replacingOccurrences(of: parts[2], with: "Foundation")
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        report.edits.append(
          PortEdit(kind: .foundationSubmodule, file: relative(file, to: twin), line: number, before: before, after: lines[number - 1]))
      }
      edited.formUnion(submodules)
      for key in splitModules.sorted() {
        let parts = key.components(separatedBy: "\n")
        let file = URL(fileURLWithPath: parts[0])
        let text = read(file)
        let line = text.components(separatedBy: "\n").count
        try (text + SourceEdits.foundationModuleImport(parts[1])).write(to: file, atomically: true, encoding: .utf8)
        report.edits.append(
          PortEdit(kind: .foundationModule, file: relative(file, to: twin), line: line, before: "", after: "import \(parts[1])"))
      }
      edited.formUnion(splitModules)
      for path in missing.sorted() {
        let file = URL(fileURLWithPath: path)
        var lines = read(file).components(separatedBy: "\n")
        for line in SourceEdits.frameworkImports(lines.joined(separator: "\n")).reversed() {
          report.edits.append(
            PortEdit(kind: .frameworkImport, file: relative(file, to: twin), line: line, before: lines[line - 1], after: ""))
          lines.remove(at: line - 1)
        }
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
      }
      edited.formUnion(missing)
      build = try await Self.build(twin, options)
    }
    return build
  }
}
