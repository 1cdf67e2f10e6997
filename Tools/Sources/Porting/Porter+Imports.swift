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
    var edited = Set<ImportFix>()
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
      let fixes = Set(build.errors.compactMap { ImportFix($0, hasCoreLocation: hasCoreLocation) }).subtracting(edited)
      guard !fixes.isEmpty || removedLinuxMain else { break }
      // In place first, then at the end, then lines removed: each error's line is still the file's.
      for fix in fixes.sorted(by: { ($0.kind.order, $0.file, $0.kind.detail) < ($1.kind.order, $1.file, $1.kind.detail) }) {
        let file = URL(fileURLWithPath: fix.file)
        var lines = read(file).components(separatedBy: "\n")
        switch fix.kind {
        case .foundationSubmodule(let number, let submodule):
          guard lines.indices.contains(number - 1) else { continue }
          let before = lines[number - 1]
          lines[number - 1] = before.replacingOccurrences(of: submodule, with: "Foundation")
          report.edits.append(
            PortEdit(kind: .foundationSubmodule, file: relative(file, to: twin), line: number, before: before, after: lines[number - 1]))
        case .module(let module):
          report.edits.append(
            PortEdit(kind: .foundationModule, file: relative(file, to: twin), line: lines.count, before: "", after: "import \(module)"))
          lines = (lines.joined(separator: "\n") + SourceEdits.foundationModuleImport(module)).components(separatedBy: "\n")
        case .removeFrameworks:
          for line in SourceEdits.frameworkImports(lines.joined(separator: "\n")).reversed() {
            report.edits.append(
              PortEdit(kind: .frameworkImport, file: relative(file, to: twin), line: line, before: lines[line - 1], after: ""))
            lines.remove(at: line - 1)
          }
        }
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
      }
      edited.formUnion(fixes)
      build = try await Self.build(twin, options)
    }
    return build
  }
}

/// One import edit a compiler error calls for in one file, made once per port.
private struct ImportFix: Hashable {
  enum Kind: Hashable {
    /// `import Foundation.X` on this line made `import Foundation`.
    case foundationSubmodule(line: Int, submodule: String)
    /// A module imported at the file's end: corelibs' FoundationNetworking or FoundationXML, or
    /// CoreLocation for AppleCompat's runtime functions.
    case module(String)
    /// Every `import UIKit`/`AppKit`/`SwiftUI` of the file removed.
    case removeFrameworks

    /// The order of the edits in a round: an edit in place and one at the end leave the other
    /// errors' lines where they were; removing lines comes last.
    var order: Int {
      switch self {
      case .foundationSubmodule: 0
      case .module: 1
      case .removeFrameworks: 2
      }
    }

    /// What sorts the edits of one kind in one file.
    var detail: String {
      switch self {
      case .foundationSubmodule(let line, let submodule): "\(line)\n\(submodule)"
      case .module(let module): module
      case .removeFrameworks: ""
      }
    }
  }

  var file: String
  var kind: Kind

  /// The edit `error` calls for, if any; AppleCompat's runtime functions only in a file whose
  /// target has this library's CoreLocation.
  init?(_ error: Porter.CompilerError, hasCoreLocation: (String) -> Bool) {
    file = error.file
    if SourceEdits.isMissingFramework(error.message) {
      kind = .removeFrameworks
    } else if let submodule = SourceEdits.missingFoundationSubmodule(error.message) {
      kind = .foundationSubmodule(line: error.line, submodule: submodule)
    } else if let module = SourceEdits.missingFoundationModule(error.message) {
      kind = .module(module)
    } else if SourceEdits.isAppleCompatName(error.message), hasCoreLocation(error.file) {
      kind = .module("CoreLocation")
    } else {
      return nil
    }
  }
}
