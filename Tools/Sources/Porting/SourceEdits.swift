import Foundation

/// One edit the port made to a file: where, what kind, the line before and after.
public struct PortEdit: Equatable, Sendable, CustomStringConvertible {
  /// The kinds of mechanical edits a porter makes, each named in the summary.
  public enum Kind: String, Sendable, CaseIterable {
    /// `@objc` (or `@objc(name)`, `@objcMembers`) removed: there is no Objective-C runtime.
    case objcAttribute = "@objc"
    /// An `@objc optional` protocol requirement made a requirement with an empty default.
    case optionalRequirement = "@objc optional requirement"
    /// A call of an optional requirement (`delegate?.method?(…)`) made a plain call.
    case optionalCall = "optional-requirement call"
    /// A `#selector` NotificationCenter observer or target-action timer made a block-based one.
    case selectorObserver = "#selector observer"
    /// An `os(iOS)`/`os(macOS)`/`canImport(UIKit)` condition extended with Linux.
    case platformCondition = "platform condition"
    /// `import UIKit`/`AppKit`/`SwiftUI` removed from a file that compiles without it.
    case frameworkImport = "UIKit/AppKit/SwiftUI import"
    /// An XCTest wait given the timeout swift-corelibs-xctest requires.
    case xctestTimeout = "XCTest timeout"
    /// The manifest's tools version raised to one that can name this library (5.2 for
    /// `.package(name:path:)`, 6.1 for its traits), the language mode kept.
    case toolsVersion = "tools version"
    /// A `Tests/LinuxMain.swift` that does not compile removed: it lists tests by hand for
    /// SwiftPM before 5.5, which now finds them itself, and Apple's builds never read it.
    case linuxMain = "stale LinuxMain.swift"
    /// `import FoundationNetworking` or `FoundationXML` added, under `canImport`, at the end of a
    /// file the compiler says needs it: swift-corelibs-foundation keeps `URLSession` and
    /// `XMLParser` in modules of their own, which Apple's Foundation includes. Also
    /// `import CoreLocation` for `objc_sync_enter` or `autoreleasepool`, which this library's
    /// CoreLocation brings (AppleCompat) and Apple's Foundation has.
    case foundationModule = "Foundation module"
    /// `import Foundation.NSUserDefaults` (a submodule of Apple's Foundation) made
    /// `import Foundation`: swift-corelibs-foundation has no submodules.
    case foundationSubmodule = "Foundation submodule import"
  }

  public var kind: Kind
  /// The file, relative to the package.
  public var file: String
  /// The line, 1-based, in the edited file.
  public var line: Int
  public var before: String
  public var after: String

  public init(kind: Kind, file: String, line: Int, before: String, after: String) {
    (self.kind, self.file, self.line, self.before, self.after) = (kind, file, line, before, after)
  }

  public var description: String {
    "\(file):\(line): \(kind.rawValue): \(before.trimmingCharacters(in: .whitespaces)) → \(after.trimmingCharacters(in: .whitespaces))"
  }
}

/// The mechanical edits of a port, on a file's text: each returns the new text and the edits it
/// made (file names are filled in by the caller). Nothing else is changed: where more is needed,
/// the build's first error says so.
public enum SourceEdits {
  /// The timeout the port gives XCTest waits that have none (Apple's default is to wait for good;
  /// swift-corelibs-xctest requires one): long enough that only a hang reaches it.
  public static let xctestTimeout = 600

  /// A requirement of a protocol declared `@objc optional`, and what its empty default returns.
  public struct OptionalRequirement: Equatable, Sendable {
    public var protocolName: String
    public var name: String
    /// The declaration without `@objc optional` (`func name(…) -> T`).
    public var declaration: String
    /// The default's body (`{}` for Void, `{ nil }` for an optional result), nil when none fits.
    public var body: String?
  }

  // MARK: @objc and optional requirements

  /// Finds the `@objc optional` requirements of the protocols in `text`.
  public static func optionalRequirements(in text: String) -> [OptionalRequirement] {
    var found: [OptionalRequirement] = []
    var currentProtocol: String?
    var depth = 0, protocolDepth = 0
    for line in text.components(separatedBy: "\n") {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if currentProtocol == nil,
        let name = match(#"^(?:@objc\S*\s+)?(?:public\s+|internal\s+|fileprivate\s+|private\s+)?(?:@objc\S*\s+)?protocol\s+(\w+)"#, trimmed)
      {
        currentProtocol = name
        protocolDepth = depth
      }
      if let p = currentProtocol, trimmed.hasPrefix("@objc optional ") || trimmed.hasPrefix("optional @objc ") {
        let declaration = trimmed.replacingOccurrences(of: "@objc optional ", with: "").replacingOccurrences(
          of: "optional @objc ", with: "")
        let name = match(#"(?:func|var)\s+(\w+)"#, declaration) ?? ""
        found.append(OptionalRequirement(protocolName: p, name: name, declaration: declaration, body: defaultBody(declaration)))
      }
      depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
      if currentProtocol != nil, depth <= protocolDepth, line.contains("}") { currentProtocol = nil }
    }
    return found
  }

  /// The body of an empty default for `declaration`: `{}` for a function with no result, `{ nil }`
  /// for an optional result or property; nil when no empty default fits (a non-optional result).
  static func defaultBody(_ declaration: String) -> String? {
    if declaration.hasPrefix("var ") {
      guard declaration.contains("?") else { return nil }
      return "{ nil }"
    }
    guard let arrow = declaration.range(of: "->", options: .backwards) else { return "{}" }
    let result = declaration[arrow.upperBound...].trimmingCharacters(in: .whitespaces)
    if result == "Void" || result == "()" { return "{}" }
    return result.hasSuffix("?") ? "{ nil }" : nil
  }

  /// The `@objc optional` requirements of Apple's delegate protocols that this library declares
  /// as plain requirements with defaults (CLLocationManagerDelegate, MKMapViewDelegate,
  /// MKLocalSearchCompleterDelegate): code that calls them as optional (`delegate?.method?(…)`,
  /// a mock manager's) calls them plainly here.
  public static let appleOptionalRequirements: [OptionalRequirement] = [
    "locationManager", "locationManagerDidChangeAuthorization", "locationManagerDidPauseLocationUpdates",
    "locationManagerDidResumeLocationUpdates", "locationManagerShouldDisplayHeadingCalibration", "mapView",
    "mapViewDidChangeVisibleRegion", "mapViewWillStartLoadingMap", "mapViewDidFinishLoadingMap", "mapViewDidFailLoadingMap",
    "mapViewWillStartRenderingMap", "mapViewDidFinishRenderingMap", "mapViewWillStartLocatingUser", "mapViewDidStopLocatingUser",
    "completerDidUpdateResults", "completer",
  ].map { OptionalRequirement(protocolName: "", name: $0, declaration: "", body: nil) }

  /// Removes `@objc` attributes (`@objc optional` in protocols too) and, after each protocol
  /// with optional requirements, adds an extension with their empty defaults; `requirements` are
  /// those of the whole package, whose calls (`?.name?(`) become plain calls.
  public static func removeObjC(_ text: String, requirements: [OptionalRequirement]) -> (String, [PortEdit]) {
    var lines = text.components(separatedBy: "\n")
    var edits: [PortEdit] = []
    let optionalNames = Set(requirements.map(\.name))
    for index in lines.indices {
      let before = lines[index]
      var line = before
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("@objc optional ") || trimmed.hasPrefix("optional @objc ") {
        line = line.replacingOccurrences(of: "@objc optional ", with: "").replacingOccurrences(of: "optional @objc ", with: "")
        if line != before { edits.append(PortEdit(kind: .optionalRequirement, file: "", line: index + 1, before: before, after: line)) }
        lines[index] = line
        continue
      }
      // `@objc`, `@objc(name)`, `@objcMembers` as attributes (not inside a string or comment).
      if !trimmed.hasPrefix("//"), line.contains("@objc") {
        let replaced = line.replacingOccurrences(of: #"@objc(Members)?(\([A-Za-z0-9_:]*\))?\s*"#, with: "", options: .regularExpression)
        if replaced != line, !replaced.trimmingCharacters(in: .whitespaces).isEmpty || trimmed.hasPrefix("@objc") {
          line = replaced
          edits.append(PortEdit(kind: .objcAttribute, file: "", line: index + 1, before: before, after: line))
        }
      }
      for name in optionalNames where line.contains(".\(name)?(") {
        let called = line.replacingOccurrences(of: ".\(name)?(", with: ".\(name)(")
        edits.append(PortEdit(kind: .optionalCall, file: "", line: index + 1, before: line, after: called))
        line = called
      }
      lines[index] = line
    }
    // The defaults, after the protocols declared in this file.
    let here = optionalRequirements(in: text)
    if !here.isEmpty {
      var byProtocol: [String: [OptionalRequirement]] = [:]
      for requirement in here { byProtocol[requirement.protocolName, default: []].append(requirement) }
      for (name, requirements) in byProtocol.sorted(by: { $0.key < $1.key }) {
        let body = requirements.compactMap { r in r.body.map { "  public \(r.declaration) \($0)" } }
        guard !body.isEmpty else { continue }
        let block =
          ["", "// The optional requirements' defaults (added by locemu port: Linux has no optional requirements).", "extension \(name) {"]
          + body + ["}"]
        // Before the empty element a final newline leaves, so that the file still ends with one.
        let at = lines.last == "" ? lines.count - 1 : lines.count
        edits.append(
          PortEdit(
            kind: .optionalRequirement, file: "", line: at + 2, before: "", after: "extension \(name) { … \(body.count) default(s) }"))
        lines.insert(contentsOf: block, at: at)
      }
    }
    return (lines.joined(separator: "\n"), edits)
  }

  // MARK: #selector observers

  /// `center.addObserver(self, selector: #selector(handler(_:)), name: N, object: O)` on one line
  /// becomes `center.addObserver(forName: N, object: O, queue: nil) { [weak self] n in self?.handler(n) }`.
  public static func selectorObservers(_ text: String) -> (String, [PortEdit]) {
    let pattern =
      #"^(\s*)(.*?)\.addObserver\(\s*self\s*,\s*selector:\s*#selector\(([\w.]+)(\((?:_:)?\))?\)\s*,\s*name:\s*(.+?)\s*,\s*object:\s*(.+?)\s*\)\s*$"#
    return rewriteLines(text, pattern) { group in
      let indent = group(1), center = group(2), name = group(5), object = group(6)
      let (method, takesNothing) = selected(group(3), group(4), in: text)
      let body = takesNothing ? "_ in self?.\(method)()" : "notification in self?.\(method)(notification)"
      return "\(indent)\(center).addObserver(forName: \(name), object: \(object), queue: nil) { [weak self] \(body) }"
    }
  }

  /// `Timer.scheduledTimer(timeInterval:target: self, selector: #selector(m), userInfo: nil,
  /// repeats:)` on one line made the block-based timer calling the same method, through
  /// `[weak self]`: the method runs while the object lives (a target-action timer also keeps its
  /// target alive until it is invalidated; the block does not, so the port makes no cycle).
  public static func selectorTimers(_ text: String) -> (String, [PortEdit]) {
    let pattern =
      #"^(.*?)Timer\.scheduledTimer\(\s*timeInterval:\s*(.+?)\s*,\s*target:\s*self\s*,\s*selector:\s*#selector\(([\w.]+)(\((?:_:)?\))?\)\s*,\s*userInfo:\s*nil\s*,\s*repeats:\s*(.+?)\s*\)(.*)$"#
    return rewriteLines(text, pattern) { group in
      let before = group(1), interval = group(2), repeats = group(5), rest = group(6)
      let (method, takesNothing) = selected(group(3), group(4), in: text)
      let body = takesNothing ? "{ [weak self] _ in self?.\(method)() }" : "{ [weak self] timer in self?.\(method)(timer) }"
      return "\(before)Timer.scheduledTimer(withTimeInterval: \(interval), repeats: \(repeats)) \(body)\(rest)"
    }
  }

  /// The method a `#selector(handler)` names, and whether it takes no argument (the observer's
  /// notification, the timer): `handler()` says so, `handler(_:)` says not, and a bare name
  /// leaves it to the method's declaration in `text`.
  static func selected(_ handler: String, _ signature: String, in text: String) -> (method: String, takesNothing: Bool) {
    let method = handler.split(separator: ".").last.map(String.init) ?? handler
    return (method, signature == "()" || (signature.isEmpty && text.range(of: "func \(method)()") != nil))
  }

  /// Each line of `text` that `pattern` matches, replaced by what `rewrite` makes of its groups,
  /// and a ``PortEdit/Kind/selectorObserver`` edit for each.
  static func rewriteLines(_ text: String, _ pattern: String, _ rewrite: (_ group: (Int) -> String) -> String) -> (String, [PortEdit]) {
    var lines = text.components(separatedBy: "\n")
    var edits: [PortEdit] = []
    guard let regex = try? NSRegularExpression(pattern: pattern) else { return (text, []) }
    for index in lines.indices {
      let line = lines[index]
      guard let m = regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else { continue }
      let after = rewrite { i in Range(m.range(at: i), in: line).map { String(line[$0]) } ?? "" }
      lines[index] = after
      edits.append(PortEdit(kind: .selectorObserver, file: "", line: index + 1, before: line, after: after))
    }
    return (lines.joined(separator: "\n"), edits)
  }

  // MARK: XCTest

  /// `fulfillment(of: …)` and `wait(for: …)` with no timeout get ``xctestTimeout``.
  public static func xctestTimeouts(_ text: String) -> (String, [PortEdit]) {
    var lines = text.components(separatedBy: "\n")
    var edits: [PortEdit] = []
    for index in lines.indices {
      let line = lines[index]
      guard line.contains("fulfillment(of:") || line.contains("wait(for:"), !line.contains("timeout:") else { continue }
      guard let call = line.range(of: "fulfillment(of:") ?? line.range(of: "wait(for:") else { continue }
      // The call's closing parenthesis; the timeout goes before `enforceOrder:` or at the end.
      var depth = 0
      var end: String.Index?
      for index in line[call.lowerBound...].indices where line[index] == "(" || line[index] == ")" {
        if line[index] == "(" { depth += 1 }
        if line[index] == ")" {
          depth -= 1
          if depth == 0 {
            end = index
            break
          }
        }
      }
      guard let end else { continue }
      var after = line
      if let order = line.range(of: ", enforceOrder:", range: call.upperBound..<end) {
        after.insert(contentsOf: ", timeout: \(xctestTimeout)", at: order.lowerBound)
      } else {
        after.insert(contentsOf: ", timeout: \(xctestTimeout)", at: end)
      }
      guard after != line else { continue }
      lines[index] = after
      edits.append(PortEdit(kind: .xctestTimeout, file: "", line: index + 1, before: line, after: after))
    }
    return (lines.joined(separator: "\n"), edits)
  }

  // MARK: Platform conditions and framework imports

  /// The lines (1-based) of `#if`/`#elseif` conditions that test `os(iOS)`, `os(macOS)` or
  /// `canImport(UIKit)` and are false on Linux, with the condition extended with Linux.
  public static func platformConditions(_ text: String) -> [(line: Int, before: String, after: String)] {
    var found: [(Int, String, String)] = []
    for (index, line) in text.components(separatedBy: "\n").enumerated() {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      guard trimmed.hasPrefix("#if ") || trimmed.hasPrefix("#elseif "), !trimmed.contains("os(Linux)"),
        trimmed.contains("os(iOS)") || trimmed.contains("os(macOS)") || trimmed.contains("canImport(UIKit)")
      else { continue }
      guard !trimmed.contains("!"), !trimmed.contains("&&") else { continue }  // only plain disjunctions
      let keyword = trimmed.hasPrefix("#if ") ? "#if " : "#elseif "
      let condition = trimmed.dropFirst(keyword.count).split(separator: "//", maxSplits: 1)[0].trimmingCharacters(in: .whitespaces)
      let indent = line.prefix { $0 == " " || $0 == "\t" }
      found.append((index + 1, line, "\(indent)\(keyword)\(condition) || os(Linux)"))
    }
    return found
  }

  /// Whether `text` uses Combine's types that Apple's Foundation makes visible without an import.
  public static func usesCombine(_ text: String) -> Bool {
    match(#"\b(ObservableObject|@Published|AnyCancellable|PassthroughSubject|CurrentValueSubject)\b"#, text) != nil
  }

  /// The names the compiler says are missing in `messages` (`cannot find 'x' in scope`, `… has
  /// no member 'x'`).
  public static func missingNames(_ messages: [String]) -> Set<String> {
    var names: Set<String> = []
    for message in messages {
      for pattern in [#"cannot find '(\w+)' in scope"#, #"cannot find type '(\w+)' in scope"#, #"has no member '(\w+)'"#] {
        if let name = match(pattern, message) { names.insert(name) }
      }
    }
    return names
  }

  /// Whether `text` declares `name` (a function, property, type, case or initializer of that name).
  public static func declares(_ name: String, in text: String) -> Bool {
    match(
      #"(?:func|var|let|case|class|struct|enum|protocol|typealias|actor)\s+("# + NSRegularExpression.escapedPattern(for: name) + #")\b"#,
      text) != nil
  }

  /// Whether a compiler error says a file imports UIKit, AppKit or SwiftUI (or a submodule of
  /// one), which Linux lacks.
  public static func isMissingFramework(_ message: String) -> Bool {
    // The module, or one of its submodules (`import UIKit.UIDevice`).
    ["UIKit", "AppKit", "SwiftUI"].contains { message.contains("no such module '\($0)'") || message.contains("no such module '\($0).") }
  }

  /// The module of swift-corelibs-foundation a compiler error says a file needs, that Apple's
  /// Foundation includes: FoundationNetworking (`URLSession`, `URLRequest`, …) or FoundationXML
  /// (`XMLParser`, its delegate, `XMLDocument`, …); nil for any other error.
  public static func missingFoundationModule(_ message: String) -> String? {
    for module in ["FoundationNetworking", "FoundationXML"] where message.contains("moved to the \(module) module") {
      return module
    }
    let name = match(#"cannot find (?:type )?'(\w+)' in scope"#, message) ?? ""
    if match(#"^(XML(?:Parser|Document|Element|Node|DTD)\w*)$"#, name) != nil { return "FoundationXML" }
    let networking =
      #"^(URLSession\w*|URLRequest|URLResponse|HTTPURLResponse|URLCache|URLCredential\w*|URLProtocol\w*|HTTPCookie\w*|URLAuthenticationChallenge\w*)$"#
    if match(networking, name) != nil { return "FoundationNetworking" }
    return nil
  }

  /// Whether a compiler error says a file lacks a function of Apple's Foundation (its Objective-C
  /// runtime) that this library's AppleCompat supplies through `import CoreLocation`.
  public static func isAppleCompatName(_ message: String) -> Bool {
    match(#"cannot find '(objc_sync_enter|objc_sync_exit|autoreleasepool)' in scope"#, message) != nil
  }

  /// The submodule of Foundation a compiler error says is missing (`Foundation.NSUserDefaults`),
  /// which corelibs lacks; nil for any other error.
  public static func missingFoundationSubmodule(_ message: String) -> String? {
    match(#"no such module '(Foundation\.\w+)'"#, message)
  }

  /// The lines that import `module` at the end of a file, under `canImport`, so that no line
  /// above moves (the port's errors keep their lines in the original).
  public static func foundationModuleImport(_ module: String) -> String {
    let why = module == "CoreLocation" ? "its AppleCompat has what Apple's Foundation does" : "Apple's Foundation includes it"
    return "\n#if canImport(\(module))\n  import \(module)  // added by locemu port: \(why)\n#endif\n"
  }

  /// The lines of `import UIKit`, `import AppKit`, `import SwiftUI` (any form) in `text`.
  public static func frameworkImports(_ text: String) -> [Int] {
    text.components(separatedBy: "\n").enumerated().compactMap { index, line in
      match(
        #"^\s*(?:@\w+\s+)*(?:public\s+|internal\s+|private\s+|fileprivate\s+|package\s+)?import\s+(?:\w+\s+)?(UIKit|AppKit|SwiftUI)\b"#,
        line
      )
      .map { _ in index + 1 }
    }
  }

  /// The modules `text` imports (any import form: `@preconcurrency import`, `import struct M.T`,
  /// `import M.Sub`), by their top-level name.
  public static func imports(_ text: String) -> Set<String> {
    var modules: Set<String> = []
    for line in text.components(separatedBy: "\n") {
      if let module = match(
        #"^\s*(?:@\w+\s+)*(?:public\s+|internal\s+|private\s+|fileprivate\s+|package\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)"#,
        line)
      {
        modules.insert(module)
      }
    }
    return modules
  }

  /// The first capture group of `pattern` in `text`.
  static func match(_ pattern: String, _ text: String) -> String? {
    guard let regex = try? NSRegularExpression(pattern: pattern),
      let m = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)), m.numberOfRanges > 1,
      let range = Range(m.range(at: 1), in: text)
    else { return nil }
    return String(text[range])
  }
}
