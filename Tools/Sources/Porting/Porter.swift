public import Foundation

/// What to port and how to run it.
public struct PortOptions: Sendable {
  /// A package (its folder, with `Package.swift`); nil for an app's folders (``sources``, ``tests``).
  public var package: URL?
  /// An app's location code and its unit tests (folders of Swift files), for code kept in an
  /// Xcode project: the twin is a package with one library target and one test target.
  public var sources: [URL] = []
  public var tests: [URL] = []
  /// The app's module name, as its tests import it (`@testable import NAME`).
  public var moduleName = "App"
  /// Where to write the twin (kept); a temporary folder, removed after, when nil.
  public var keep: URL?
  /// The LocationEmulator package the twin depends on.
  public var library: URL
  /// A folder for the builds: each package builds in a folder of its own under it for each set
  /// of the library's traits (`PlaceKit+ServedPhone`), kept between ports (the library compiles
  /// once for each); two ports of one package into one folder take turns.
  public var scratchPath: URL?
  /// Whether every package shares one folder under ``scratchPath`` for each set of the library's
  /// traits (`library`, `library+ServedPhone`) instead of one of its own: the library compiles
  /// once for all of them. Only for packages known not to test with `canImport` for one
  /// another's modules, which a shared folder holds (this repository's fixtures).
  public var sharesScratchAcrossPackages = false
  /// The phone under the tests: LOCEMU_* variables for the test process.
  public var environment: [String: String] = [:]
  /// Arguments after `--`, for `swift test`.
  public var testArguments: [String] = []
  /// Whether the twin turns on the library's Combine trait (set by the port when code uses
  /// Combine's types with no `import Combine`, as Apple's Foundation lets it).
  var combineTrait = false
  /// Where progress lines go (the command's standard error).
  public var log: @Sendable (String) -> Void = { _ in }

  public init(package: URL?, library: URL) {
    self.package = package
    self.library = library
  }
}

/// What a port did and found.
public struct PortReport: Sendable {
  public var twin: URL
  public var edits: [PortEdit] = []
  /// Platform conditions extended, then rolled back because the code under them does not
  /// compile on Linux.
  public var rolledBack: [PortEdit] = []
  /// The first compiler error that stopped the port (`file:line: error: …`), when it could not
  /// be ported by the edits it makes.
  public var firstError: String?
  public var passed = 0, failed = 0, skipped = 0
  /// Whether the tests ran, and their exit status.
  public var testsRan = false
  public var testStatus: Int32 = 0
  /// The test run's output, whole.
  public var testOutput = ""
  /// The edits as a patch against the original (`port.patch` in the twin).
  public var patch: URL?

  /// The command's exit status: 0 every test passed; 1 a test failed or the package could not
  /// be ported.
  public var exitStatus: Int32 { firstError != nil || !testsRan || testStatus != 0 || failed > 0 ? 1 : 0 }

  /// The summary the command prints.
  public var summary: String {
    var lines: [String] = []
    if testsRan {
      lines.append("tests: \(passed) passed, \(failed) failed, \(skipped) skipped (swift test exited \(testStatus))")
    } else {
      lines.append("tests: not run")
    }
    lines.append("edits: \(edits.count)")
    for edit in edits { lines.append("  \(edit)") }
    if !rolledBack.isEmpty {
      lines.append("rolled back (the code under them does not compile on Linux): \(rolledBack.count)")
      for edit in rolledBack { lines.append("  \(edit)") }
    }
    if let firstError { lines.append("could not port: \(firstError)") }
    if let patch { lines.append("patch: \(patch.path)") }
    lines.append("twin: \(twin.path)")
    return lines.joined(separator: "\n")
  }
}

/// `locemu port`: an iOS package's (or app's) own tests run on Linux against LocationEmulator's
/// CoreLocation, MapKit, Combine, os, Contacts and simd, with the mechanical edits a porter
/// makes, each listed and kept as a patch. The original is never written.
public enum Porter {
  /// The frameworks LocationEmulator provides on Linux, by module: the product a target that
  /// imports it gets.
  public static let products: [String: String] = [
    "CoreLocation": "CoreLocation", "MapKit": "MapKit", "Combine": "Combine", "os": "os", "Contacts": "Contacts", "simd": "simd",
  ]

  public enum Failure: Error, CustomStringConvertible {
    case cannotRead(String)
    case tool(String)

    public var description: String {
      switch self {
      case .cannotRead(let what): what
      case .tool(let what): what
      }
    }
  }

  /// A target of the package: its name, whether it is a test target, and its folder in the twin.
  struct Target {
    var name: String
    var isTest: Bool
    var folder: URL
  }

  public static func port(_ options: PortOptions) async throws -> PortReport {
    let files = FileManager.default
    let twin = options.keep ?? files.temporaryDirectory.appendingPathComponent("locemu-port-\(UUID().uuidString)")
    if files.fileExists(atPath: twin.path) {
      guard (try? files.contentsOfDirectory(atPath: twin.path))?.isEmpty ?? false else {
        throw Failure.cannotRead("\(twin.path) exists and is not empty: give --keep a new folder")
      }
    }
    try files.createDirectory(at: twin, withIntermediateDirectories: true)
    var report = PortReport(twin: twin)

    // The twin: the package's files, or a package made of the app's folders.
    let original: URL
    let targets: [Target]
    let packageName: String
    if let package = options.package {
      guard files.fileExists(atPath: package.appendingPathComponent("Package.swift").path) else {
        throw Failure.cannotRead("\(package.path): no Package.swift (for an app's folders, use --sources and --tests)")
      }
      original = package
      options.log("reading \(package.path) (swift package dump-package)")
      let dump = try await Tool.run("swift", ["package", "dump-package", "--package-path", package.path])
      guard dump.status == 0 else { throw Failure.tool("swift package dump-package failed:\n\(dump.output)") }
      targets = try Self.targets(fromDump: dump.stdout, in: twin)
      packageName =
        (try? JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])?["name"] as? String ?? package.lastPathComponent
      try copyPackage(package, to: twin)
    } else {
      guard !options.sources.isEmpty else { throw Failure.cannotRead("nothing to port: give a package's PATH, or --sources and --tests") }
      original = twin.appendingPathComponent(".original")
      targets = try makeAppPackage(options, at: twin, original: original)
      packageName = options.moduleName
    }

    var options = options
    // The manifest: LocationEmulator's products for the frameworks each target imports.
    var imports: [String: Set<String>] = [:]
    var usesCombineUnimported = false
    for target in targets {
      imports[target.name] = swiftFiles(in: target.folder).reduce(into: Set()) { found, file in
        let text = read(file)
        let modules = SourceEdits.imports(text)
        found.formUnion(modules)
        // Apple's Foundation makes Combine's ObservableObject and @Published visible: code that
        // uses them with no `import Combine` needs the library's Combine trait.
        if !modules.contains("Combine"), SourceEdits.usesCombine(text) { usesCombineUnimported = true }
      }
    }
    options.combineTrait = usesCombineUnimported
    report.edits += try addLibrary(to: twin, imports: imports, options: options)

    // A build folder of its own for each package and set of the library's traits under the one
    // given: packages built in one folder see each other's modules (a module named CoreLocation
    // or Combine left by the last package's build, made with other traits, is imported under
    // `canImport` by the next one's dependencies before it is rebuilt), and a port with other
    // traits would rebuild the whole library. The same package ported again reuses its folder,
    // one port at a time: the build and the test run that follows it hold the folder's lock.
    var lock: ScratchLock?
    defer { lock?.release() }
    if let shared = options.scratchPath {
      let owner = options.sharesScratchAcrossPackages ? "library" : packageName
      let folder = shared.appendingPathComponent(([owner] + traitNames(options)).joined(separator: "+"))
      options.scratchPath = folder
      lock = try await ScratchLock.acquire(folder) { [log = options.log] path in
        log("waiting for another port building in \(folder.path) (\(path))")
      }
    }

    // The mechanical edits, every file.
    let all = targets.flatMap { t in swiftFiles(in: t.folder).map { (t, $0) } }
    let requirements = all.flatMap { SourceEdits.optionalRequirements(in: read($0.1)) } + SourceEdits.appleOptionalRequirements
    for (target, file) in all {
      var text = read(file)
      var edits: [PortEdit] = []
      var made: [PortEdit]
      (text, made) = SourceEdits.removeObjC(text, requirements: requirements)
      edits += made
      (text, made) = SourceEdits.selectorObservers(text)
      edits += made
      (text, made) = SourceEdits.selectorTimers(text)
      edits += made
      if target.isTest {
        (text, made) = SourceEdits.xctestTimeouts(text)
        edits += made
      }
      guard !edits.isEmpty else { continue }
      try text.write(to: file, atomically: true, encoding: .utf8)
      let name = relative(file, to: twin)
      report.edits += edits.map {
        var e = $0
        e.file = name
        return e
      }
    }

    // Build; edits decided by compiling: imports and a stale LinuxMain.swift, then platform
    // conditions.
    // A file of a target that has this library's CoreLocation can reach AppleCompat's additions
    // to Foundation through it.
    let withCoreLocation = targets.filter { !(imports[$0.name] ?? []).isDisjoint(with: ["CoreLocation", "MapKit"]) }.map(\.folder.path)
    var build = try await editImports(twin, options: options, report: &report) { file in
      withCoreLocation.contains { file.hasPrefix($0 + "/") }
    }
    build = try await extendPlatformConditions(twin, targets: targets, options: options, report: &report, build: build)
    if let first = build.errors.first {
      let file = relative(URL(fileURLWithPath: first.file), to: twin)
      // The line in the original: the twin lacks the import lines the port removed above it.
      var line = first.line
      for removed in report.edits.filter({ $0.kind == .frameworkImport && $0.file == file }).map(\.line).sorted() where removed <= line {
        line += 1
      }
      report.firstError = "\(file):\(line): error: \(first.message)"
      report.patch = try writePatch(original: original, twin: twin, edits: report.edits)
      return report
    } else if build.status != 0 {
      let errors = build.output.components(separatedBy: "\n").filter { $0.contains("error:") }.prefix(5)
      report.firstError = "the build failed:\n" + (errors.isEmpty ? String(build.output.suffix(2000)) : errors.joined(separator: "\n"))
      return report
    }

    // The tests, on the phone the options set up.
    options.log("testing (swift test)")
    var arguments = ["test", "--skip-build", "--package-path", twin.path]
    if let scratch = options.scratchPath { arguments += ["--scratch-path", scratch.path] }
    let run = try await Tool.run("swift", arguments + options.testArguments, environment: options.environment)
    report.testsRan = true
    report.testStatus = run.status
    report.testOutput = run.output
    (report.passed, report.failed, report.skipped) = testCounts(run.output)
    report.patch = try writePatch(original: original, twin: twin, edits: report.edits)
    return report
  }

  // MARK: The twin

  static func targets(fromDump json: String, in twin: URL) throws -> [Target] {
    guard let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
      let list = object["targets"] as? [[String: Any]]
    else { throw Failure.cannotRead("swift package dump-package gave no targets") }
    return list.compactMap { t in
      guard let name = t["name"] as? String, let type = t["type"] as? String, ["regular", "test", "executable"].contains(type) else {
        return nil
      }
      let path = t["path"] as? String ?? (type == "test" ? "Tests/\(name)" : "Sources/\(name)")
      return Target(name: name, isTest: type == "test", folder: twin.appendingPathComponent(path))
    }
  }

  static func copyPackage(_ package: URL, to twin: URL) throws {
    let files = FileManager.default
    for item in try files.contentsOfDirectory(atPath: package.path)
    where ![".build", ".git", ".swiftpm", "Package.resolved"].contains(item) {
      if item.hasPrefix(".build") { continue }
      try files.copyItem(at: package.appendingPathComponent(item), to: twin.appendingPathComponent(item))
    }
  }

  /// An app's folders as a package: `Sources/NAME` and `Tests/NAMETests`; the originals copied to
  /// `original` in the same layout, for the patch.
  static func makeAppPackage(_ options: PortOptions, at twin: URL, original: URL) throws -> [Target] {
    let files = FileManager.default
    let name = options.moduleName
    let layout = [("Sources/\(name)", options.sources), ("Tests/\(name)Tests", options.tests)]
    for base in [twin, original] {
      for (folder, sources) in layout {
        let destination = base.appendingPathComponent(folder)
        try files.createDirectory(at: destination, withIntermediateDirectories: true)
        for source in sources {
          guard files.fileExists(atPath: source.path) else { throw Failure.cannotRead("\(source.path): no such folder") }
          try files.copyItem(at: source, to: destination.appendingPathComponent(source.lastPathComponent))
        }
      }
    }
    let manifest = """
      // swift-tools-version: 6.1
      // An app's location layer and its unit tests, made a package by `locemu port`.
      import PackageDescription

      let package = Package(
        name: "\(name)",
        targets: [
          .target(name: "\(name)", path: "Sources/\(name)"),
          .testTarget(name: "\(name)Tests", dependencies: ["\(name)"], path: "Tests/\(name)Tests"),
        ],
        swiftLanguageModes: [.v5]
      )

      """
    try manifest.write(to: twin.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    try manifest.write(to: original.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    return [
      Target(name: name, isTest: false, folder: twin.appendingPathComponent("Sources/\(name)")),
      Target(name: "\(name)Tests", isTest: true, folder: twin.appendingPathComponent("Tests/\(name)Tests")),
    ]
  }

  /// Appends to the twin's manifest, on Linux only, the dependency on LocationEmulator and its
  /// products for what each target imports; a manifest older than tools 6.1 is moved to 6.1 with
  /// its language mode kept (Swift 5 unless it says otherwise), for the traits.
  @discardableResult
  static func addLibrary(to twin: URL, imports: [String: Set<String>], options: PortOptions) throws -> [PortEdit] {
    // Every manifest: SwiftPM reads a version-specific one (`Package@swift-6.0.swift`) when the
    // toolchain is new enough, Package.swift otherwise.
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: twin.path)) ?? [])
      .filter { $0 == "Package.swift" || ($0.hasPrefix("Package@swift-") && $0.hasSuffix(".swift")) }.sorted()
    var edits: [PortEdit] = []
    for name in names { edits += try addLibrary(manifest: twin.appendingPathComponent(name), imports: imports, options: options) }
    return edits
  }

  /// The library's traits the twin turns on: ServedPhone when the tests use a served phone
  /// (LOCEMU_SERVER), Combine when the code needs it unimported.
  static func traitNames(_ options: PortOptions) -> [String] {
    (options.environment["LOCEMU_SERVER"] != nil ? ["ServedPhone"] : []) + (options.combineTrait ? ["Combine"] : [])
  }

  static func addLibrary(manifest: URL, imports: [String: Set<String>], options: PortOptions) throws -> [PortEdit] {
    var edits: [PortEdit] = []
    let file = manifest.lastPathComponent
    var text = read(manifest)
    var cases: [String] = []
    for (target, modules) in imports.sorted(by: { $0.key < $1.key }) {
      var wanted = modules.compactMap { products[$0] }.sorted()
      if wanted.contains("MapKit"), !wanted.contains("CoreLocation") { wanted.append("CoreLocation") }
      // A test that drives the phone names the emulator.
      if modules.contains("Emulator") { wanted.append("Emulator") }
      guard !wanted.isEmpty else { continue }
      let list = wanted.map { ".product(name: \"\($0)\", package: \"LocationEmulator\")" }.joined(separator: ", ")
      cases.append("    case \"\(target)\": target.dependencies += [\(list)]")
    }
    let traitNames = traitNames(options)
    if let first = text.components(separatedBy: "\n").first, let version = SourceEdits.match(#"swift-tools-version:\s*(\d+\.\d+)"#, first) {
      let number = Double(version) ?? 0
      if !traitNames.isEmpty, number < 6.1 {
        // The traits need tools 6.1; the language mode stays the old tools' (Swift 5).
        text = text.replacingOccurrences(of: first, with: "// swift-tools-version: 6.1")
        text += "\nif package.swiftLanguageModes == nil { package.swiftLanguageModes = [.v5] }  // the mode of tools \(version)\n"
        edits.append(PortEdit(kind: .toolsVersion, file: file, line: 1, before: first, after: "// swift-tools-version: 6.1"))
      } else if number < 5.2 {
        // `.package(name:path:)` needs tools 5.2; 5.9 keeps every 5.x manifest API and Swift 5.
        text = text.replacingOccurrences(of: first, with: "// swift-tools-version:5.9")
        edits.append(PortEdit(kind: .toolsVersion, file: file, line: 1, before: first, after: "// swift-tools-version:5.9"))
      }
    }
    let traits = traitNames.isEmpty ? "" : ", traits: [\(traitNames.map { "\"\($0)\"" }.joined(separator: ", "))]"
    text += """

      // Added by `locemu port`: on Linux, LocationEmulator's CoreLocation, MapKit, Combine, os,
      // Contacts and simd for the targets that import them (Apple's frameworks elsewhere).
      #if os(Linux)
        package.dependencies.append(.package(name: "LocationEmulator", path: "\(options.library.path)"\(traits)))
        for target in package.targets {
          switch target.name {
      \(cases.map { "  " + $0 }.joined(separator: "\n"))
          default: break
          }
        }
      #endif

      """
    try text.write(to: manifest, atomically: true, encoding: .utf8)
    return edits
  }

  // MARK: Building

  struct CompilerError: Equatable {
    var file: String
    var line: Int
    var message: String
  }

  struct Build {
    var status: Int32
    var output: String
    var errors: [CompilerError]
  }

  static func build(_ twin: URL, _ options: PortOptions) async throws -> Build {
    options.log("building (swift build --build-tests)")
    var arguments = ["build", "--build-tests", "--package-path", twin.path]
    // A build folder shared between ports holds the last package's build manifest: SwiftPM would
    // reuse it for another package (seen: a port built the previous twin's targets).
    if let scratch = options.scratchPath { arguments += ["--scratch-path", scratch.path, "--disable-build-manifest-caching"] }
    let run = try await Tool.run("swift", arguments)
    return Build(status: run.status, output: run.output, errors: compilerErrors(run.output, under: twin))
  }

  /// The compiler's errors in the twin's files, in order, each once.
  static func compilerErrors(_ output: String, under twin: URL) -> [CompilerError] {
    var seen = Set<String>()
    var errors: [CompilerError] = []
    for line in output.components(separatedBy: "\n") {
      guard let m = SourceEdits.match(#"^(/[^:]+:\d+:\d+: error: .*)$"#, line) else { continue }
      let parts = m.split(separator: ":", maxSplits: 4).map(String.init)
      guard parts.count == 5, let number = Int(parts[1]),
        parts[0].hasPrefix(twin.path) || parts[0].hasPrefix(twin.resolvingSymlinksInPath().path)
      else { continue }
      let message = parts[4].replacingOccurrences(of: " error: ", with: "").trimmingCharacters(in: .whitespaces)
      guard seen.insert("\(parts[0]):\(number):\(message)").inserted else { continue }
      errors.append(CompilerError(file: parts[0], line: number, message: message))
    }
    return errors
  }

  /// Extends with Linux every `os(iOS)`/`canImport(UIKit)` condition whose code then compiles,
  /// and any other platform condition (`os(macOS)`) whose block declares a name the compiler says
  /// is missing; each extension whose block then holds an error is rolled back (at most five
  /// rounds each).
  static func extendPlatformConditions(
    _ twin: URL, targets: [Target], options: PortOptions, report: inout PortReport, build first: Build
  ) async throws -> Build {
    var extended: [(file: URL, line: Int, before: String, after: String)] = []
    var build = first
    // Linux plays the iPhone: the iOS branches (`os(iOS)`, `canImport(UIKit)`) are the code the
    // tests are about, so each is taken where it compiles. Without it, an iOS-only delegate
    // method would be left out and the library's default implementation called instead, and a
    // test waiting for that callback would wait for good (seen: SwiftLocation's region tests).
    for target in targets {
      for file in swiftFiles(in: target.folder) {
        let text = read(file)
        var lines = text.components(separatedBy: "\n")
        var changed = false
        for f in SourceEdits.platformConditions(text) where f.before.contains("os(iOS)") || f.before.contains("canImport(UIKit)") {
          lines[f.line - 1] = f.after
          extended.append((file, f.line, f.before, f.after))
          changed = true
        }
        if changed { try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8) }
      }
    }
    if !extended.isEmpty {
      build = try await Self.build(twin, options)
      build = try await rollBackFailing(&extended, twin: twin, options: options, report: &report, build: build)
    }
    // Any other condition (`os(macOS)`) only where its block declares a name the compiler misses.
    for _ in 0..<5 {
      let missing = SourceEdits.missingNames(build.errors.map(\.message))
      guard !missing.isEmpty else { break }
      var added = 0
      for target in targets {
        for file in swiftFiles(in: target.folder) {
          let text = read(file)
          var lines = text.components(separatedBy: "\n")
          var changed = false
          for f in SourceEdits.platformConditions(text) where !extended.contains(where: { $0.file == file && $0.line == f.line }) {
            let block = lines[f.line..<max(f.line, blockEnd(lines, from: f.line) - 1)].joined(separator: "\n")
            guard missing.contains(where: { SourceEdits.declares($0, in: block) }),
              !report.rolledBack.contains(where: { $0.line == f.line && $0.file == relative(file, to: twin) })
            else { continue }
            lines[f.line - 1] = f.after
            extended.append((file, f.line, f.before, f.after))
            changed = true
            added += 1
          }
          if changed { try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8) }
        }
      }
      guard added > 0 else { break }
      build = try await Self.build(twin, options)
      build = try await rollBackFailing(&extended, twin: twin, options: options, report: &report, build: build)
    }
    report.edits += extended.map {
      PortEdit(kind: .platformCondition, file: relative($0.file, to: twin), line: $0.line, before: $0.before, after: $0.after)
    }
    return build
  }

  /// Rolls back each extension whose block holds an error, and builds again, until none does.
  static func rollBackFailing(
    _ extended: inout [(file: URL, line: Int, before: String, after: String)], twin: URL, options: PortOptions,
    report: inout PortReport, build first: Build
  ) async throws -> Build {
    var build = first
    for _ in 0..<5 where !build.errors.isEmpty {
      var undone = 0
      for (index, e) in extended.enumerated().reversed() {
        let lines = read(e.file).components(separatedBy: "\n")
        let end = blockEnd(lines, from: e.line)
        guard
          build.errors.contains(where: {
            URL(fileURLWithPath: $0.file).standardizedFileURL == e.file.standardizedFileURL && $0.line > e.line && $0.line <= end
          })
        else { continue }
        var edited = lines
        edited[e.line - 1] = e.before
        try edited.joined(separator: "\n").write(to: e.file, atomically: true, encoding: .utf8)
        report.rolledBack.append(
          PortEdit(kind: .platformCondition, file: relative(e.file, to: twin), line: e.line, before: e.before, after: e.after))
        extended.remove(at: index)
        undone += 1
      }
      guard undone > 0 else { break }
      build = try await Self.build(twin, options)
    }
    return build
  }

  /// The line (1-based) of the `#elseif`, `#else` or `#endif` that ends the block opened at `line`.
  static func blockEnd(_ lines: [String], from line: Int) -> Int {
    var depth = 0
    for index in line..<lines.count {
      let t = lines[index].trimmingCharacters(in: .whitespaces)
      if t.hasPrefix("#if ") {
        depth += 1
      } else if t.hasPrefix("#endif") {
        if depth == 0 { return index + 1 }
        depth -= 1
      } else if depth == 0, t.hasPrefix("#else") {
        return index + 1
      }
    }
    return lines.count
  }

  // MARK: Files

  static func swiftFiles(in folder: URL) -> [URL] {
    guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
    return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
  }

  static func read(_ file: URL) -> String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }

  static func relative(_ file: URL, to base: URL) -> String {
    let path = file.standardizedFileURL.path, root = base.standardizedFileURL.path
    return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
  }
}
