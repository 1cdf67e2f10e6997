import ArgumentParser
import Emulator
import Foundation
import LocationModel
import Porting

#if canImport(Glibc)
  import Glibc
#endif

extension LocEmu {
  struct Port: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "port",
      abstract: "Run an iOS package's own tests on Linux against LocationEmulator's CoreLocation and MapKit, with every edit listed.",
      discussion: """
        Reads the package at PATH (swift package dump-package) and writes its Linux twin \
        in a scratch folder (--keep DIR keeps it; the original is never written): the same \
        targets, sources and dependencies, with LocationEmulator's CoreLocation, MapKit, \
        Combine, os, Contacts or simd added on Linux to each target that imports them. Then \
        builds it and runs its tests (swift test, with the arguments after --), and prints \
        one summary: tests passed / failed / skipped, the edits made, what it could not port.

        The edits a porter makes, each listed (file:line, before → after) and kept in \
        port.patch in the twin: @objc attributes removed; @objc optional requirements \
        given empty defaults and their calls (delegate?.method?(…)) made plain; #selector \
        NotificationCenter observers and target-action timers made block-based; XCTest \
        waits given a timeout \
        (swift-corelibs-xctest requires one; 600 s); import UIKit, AppKit or SwiftUI \
        removed from a file the compiler says needs none of them; import \
        FoundationNetworking or FoundationXML added (under canImport, at the file's end) \
        where the compiler says URLSession or XMLParser is missing; import Foundation.X made \
        import Foundation; a Tests/LinuxMain.swift \
        that does not compile removed (SwiftPM finds tests itself); os(iOS), os(macOS) and \
        canImport(UIKit) conditions extended with Linux, each kept only if the code under \
        it then compiles (one that fails is rolled back and reported). Nothing else: where \
        more is needed, the port stops and reports the first compiler error with its line.

        The phone under the tests is set up as a simulator's is before a test run: \
        --permission, --accuracy, --services, --location LAT,LON, --prompt-answer; a test \
        that never asks for permission sees notDetermined and no location. --trace FILE \
        (any trace format) replays a trace on a phone of 'locemu serve' started for the \
        run; --server URL uses a running one (driven from outside with 'locemu ctl').

        An app, not a package: --sources DIR… --tests DIR… for the location layer and its \
        unit tests kept in an Xcode project; the twin is a package with one library target \
        (named by --module, as the tests import it) and one test target.

        Example: locemu port ../MyLocationKit --permission whenInUse --location 60.17,24.94

        Exit status: 0 every test passed; 1 a test failed, or the package could not be \
        ported (the first error is printed); 64 bad options; 2 the package cannot be read.
        """
    )

    @Argument(help: ArgumentHelp("The package to port (its folder, with Package.swift).", valueName: "PATH"))
    var path: String?

    @Option(help: ArgumentHelp("An app's source folder (repeatable; with --tests, instead of PATH).", valueName: "DIR"))
    var sources: [String] = []

    @Option(help: ArgumentHelp("An app's test folder (repeatable).", valueName: "DIR"))
    var tests: [String] = []

    @Option(help: ArgumentHelp("The app's module name, as its tests import it (default App).", valueName: "NAME"))
    var module = "App"

    @Option(help: ArgumentHelp("Write the twin here and keep it (a new or empty folder).", valueName: "DIR"))
    var keep: String?

    @Option(
      help: ArgumentHelp(
        "Build folders under DIR, one per package and set of traits, kept between runs (the library compiles once for each); two ports of one package take turns.",
        valueName: "DIR"))
    var scratchPath: String?

    @Option(help: ArgumentHelp("The LocationEmulator package (default: this repository).", valueName: "DIR"))
    var library: String?

    @Option(help: ArgumentHelp("The app's permission: notDetermined (default), whenInUse, always, denied, restricted.", valueName: "STATE"))
    var permission: String?

    @Option(help: ArgumentHelp("Precise location: full (default) or reduced.", valueName: "full|reduced"))
    var accuracy: LocationAccuracyAuthorization?

    @Option(help: ArgumentHelp("Location Services: on (default) or off.", valueName: "on|off"))
    var services: ScenarioOptions.OnOff?

    @Option(help: ArgumentHelp("Where the device stands (a fix every second); none by default.", valueName: "LAT,LON"))
    var location: String?

    @Option(help: ArgumentHelp("How the user answers the prompt (default allowWhileUsing).", valueName: "ANSWER"))
    var promptAnswer: PromptAnswer?

    @Option(help: ArgumentHelp("Replay this trace (any format) on a served phone for the run.", valueName: "FILE"))
    var trace: String?

    @Option(help: ArgumentHelp("Use a phone of this 'locemu serve' (LOCEMU_SERVER).", valueName: "URL"))
    var server: String?

    @Option(help: ArgumentHelp("The served phone's id (default 1).", valueName: "ID"))
    var phone: String?

    @Argument(parsing: .postTerminator, help: ArgumentHelp("Arguments for swift test, after --.", valueName: "SWIFT_TEST_ARGS"))
    var testArguments: [String] = []

    func validate() throws {
      if path == nil, sources.isEmpty { throw ValidationError("give a package's PATH, or an app's --sources and --tests") }
      if path != nil, !sources.isEmpty || !tests.isEmpty { throw ValidationError("PATH and --sources/--tests are two ways: give one") }
      if trace != nil, server != nil { throw ValidationError("--trace starts a served phone; --server uses one: give one") }
      if let permission, Self.status(permission) == nil {
        throw ValidationError("--permission \(permission): one of notDetermined, whenInUse, always, denied, restricted")
      }
      if let location {
        let parts = location.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, abs(parts[0]) <= 90, abs(parts[1]) <= 180 else {
          throw ValidationError("--location \(location): LAT,LON in degrees")
        }
      }
    }

    /// The status `--permission` names: a status's own name, or `whenInUse`/`always` for short.
    static func status(_ name: String) -> LocationPermissionStatus? {
      LocationPermissionStatus(rawValue: ["whenInUse": "authorizedWhenInUse", "always": "authorizedAlways"][name] ?? name)
    }

    /// This repository, from where this file was compiled (the tools live in its Tools/).
    static var repository: URL {
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    }

    func run() async throws {
      let library = URL(fileURLWithPath: library ?? ProcessInfo.processInfo.environment["LOCEMU_LIBRARY"] ?? Self.repository.path)
      var options = PortOptions(package: path.map { URL(fileURLWithPath: $0).standardizedFileURL }, library: library)
      options.sources = sources.map { URL(fileURLWithPath: $0).standardizedFileURL }
      options.tests = tests.map { URL(fileURLWithPath: $0).standardizedFileURL }
      options.moduleName = module
      options.keep = keep.map { URL(fileURLWithPath: $0).standardizedFileURL }
      options.scratchPath = scratchPath.map { URL(fileURLWithPath: $0).standardizedFileURL }
      options.testArguments = testArguments
      options.log = { printError("port: \($0)") }
      var environment: [String: String] = [:]
      if let permission, let status = Self.status(permission) { environment["LOCEMU_PERMISSION"] = status.rawValue }
      if let accuracy { environment["LOCEMU_ACCURACY"] = accuracy.rawValue }
      if let services { environment["LOCEMU_SERVICES"] = services.rawValue }
      if let location { environment["LOCEMU_LOCATION"] = location }
      if let promptAnswer { environment["LOCEMU_PROMPT_ANSWER"] = promptAnswer.rawValue }
      var served: Process?
      if let trace {
        guard FileManager.default.isReadableFile(atPath: trace) else {
          printError("port: cannot read the trace \(trace)")
          throw ExitCode(2)
        }
        let (process, url) = try await startServe(trace: trace, environment: environment)
        served = process
        environment = ["LOCEMU_SERVER": url]
      } else if let server {
        environment = ["LOCEMU_SERVER": server]
      }
      if environment["LOCEMU_SERVER"] != nil, let phone { environment["LOCEMU_PHONE"] = phone }
      options.environment = environment
      defer {
        if let served, served.isRunning { kill(served.processIdentifier, SIGTERM) }
      }
      let report: PortReport
      do {
        // SIGINT or SIGTERM stops the build or the tests it runs, and the served phone.
        let ported = options
        guard let finished = try await untilSignal({ try await Porter.port(ported) }) else {
          printError("port: interrupted")
          throw ExitCode(130)
        }
        report = finished
      } catch let failure as Porter.Failure {
        printError("port: \(failure)")
        throw ExitCode(2)
      }
      if report.testsRan { print(report.testOutput, terminator: report.testOutput.hasSuffix("\n") ? "" : "\n") }
      print(report.summary)
      if options.keep == nil { try? FileManager.default.removeItem(at: report.twin) }
      if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }

    /// Starts `locemu serve` (this program) on a free loopback port with phone 1 replaying the
    /// trace in the state the options give; returns it and its URL once it listens.
    func startServe(trace: String, environment: [String: String]) async throws -> (Process, String) {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
      var arguments = ["serve", "--listen", "127.0.0.1:0", "--trace", trace, "--now"]
      if let permission = environment["LOCEMU_PERMISSION"] { arguments += ["--permission", permission] }
      if let accuracy { arguments += ["--accuracy", accuracy.rawValue] }
      if let services { arguments += ["--services", services.rawValue] }
      if let promptAnswer { arguments += ["--prompt-answer", promptAnswer.rawValue] }
      process.arguments = arguments
      let errors = Pipe()
      process.standardError = errors
      process.standardOutput = FileHandle.nullDevice
      let listening = AsyncStream<String> { continuation in
        errors.fileHandleForReading.readabilityHandler = { handle in
          let data = handle.availableData
          guard !data.isEmpty else {
            continuation.finish()
            handle.readabilityHandler = nil
            return
          }
          for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where line.hasPrefix("listening on ") {
            continuation.yield(String(line.dropFirst("listening on ".count)))
          }
        }
      }
      try process.run()
      for await url in listening { return (process, url) }
      throw ValidationError("locemu serve did not start (the trace \(trace) may not be readable as a trace)")
    }
  }
}
