import Foundation
import Geo
import ToolsTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The command line as a careful user meets it (issue 16): no silent success, our own output
/// readable back, and every subcommand ending with one line on standard error and a non-zero
/// exit — never a hang — on missing files, directories, empty input and unreachable peers.
@Suite("command-line contract")
struct CommandContractTests {
  typealias Run = DecodeCommandTests.Run
  static func trace(_ name: String) -> String { SourceCommandTests.trace(name) }

  static func run(_ arguments: [String], stdin: Data? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Run {
    try await DecodeCommandTests.run(arguments, stdin: stdin, sourceLocation: sourceLocation)
  }

  static func runInProcess(_ arguments: [String]) async throws -> Run {
    try await DecodeCommandTests.runInProcess(arguments)
  }

  /// A scratch directory with an empty file, a KML document without a place and a directory in it.
  struct Scratch {
    let directory: URL
    init() throws {
      directory = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory.appendingPathComponent("dir"), withIntermediateDirectories: true)
      try Data().write(to: directory.appendingPathComponent("empty"))
      try Data("<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document/></kml>\n".utf8)
        .write(to: directory.appendingPathComponent("places.kml"))
    }
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    func remove() { try? FileManager.default.removeItem(at: directory) }
  }

  /// A peer that accepts and never says anything (a hung gpsd), and a port in use.
  typealias SilentListener = LoopbackListener

  static func expectOneLineAndFailure(
    _ run: Run, _ arguments: [String], status: Int32 = 1, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let what = arguments.joined(separator: " ")
    #expect(!run.timedOut, "\(what): hung", sourceLocation: sourceLocation)
    #expect(run.status == status, "\(what): exit \(run.status), stderr \(run.stderr)", sourceLocation: sourceLocation)
    let lines = run.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(what): stderr was \(run.stderr)", sourceLocation: sourceLocation)
    #expect(lines.first?.hasPrefix("locemu ") == true, "\(what): \(run.stderr)", sourceLocation: sourceLocation)
  }

  /// Every subcommand that reads a file, given a missing file, a directory or an empty file.
  @Test func everyCommandRefusesMissingFilesDirectoriesAndEmptyInput() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let out = scratch.path("out.gpx")
    for input in [scratch.path("missing.nmea"), scratch.path("dir"), scratch.path("empty"), scratch.path("places.kml")] {
      let commands: [[String]] = [
        ["replay", "--fast", input],
        ["convert", input, out],
        ["feed", input, "--listen", "127.0.0.1:0"],
        ["permissions", "--virtual-time", "--trace", input, "--duration", "1"],
        ["preview", "--virtual-time", "--trace", input, "--duration", "1"],
        ["preview", "--virtual-time", "--announcements", input, "--duration", "1"],
        ["serve-announcements", input, "--listen", "127.0.0.1:0"],
        ["permissions", "--virtual-time", "--scenario", input],
      ]
      for arguments in commands {
        let run = try await Self.runInProcess(arguments)
        Self.expectOneLineAndFailure(run, arguments)
      }
      #expect(!FileManager.default.fileExists(atPath: out), "a failed conversion wrote \(out)")
    }
    // decode reads what it is given; a missing file or a directory is an error (an empty file is
    // zero fixes, as documented).
    for input in [scratch.path("missing.nmea"), scratch.path("dir")] {
      Self.expectOneLineAndFailure(try await Self.runInProcess(["decode", input]), ["decode", input])
    }
  }

  /// Unreachable peers: nothing listening, or a listener that never answers. Each run ends at its
  /// 1 s timeout or at once; its duration (864000 s) is one only a hang reaches, and the message
  /// says which ending it was: the gpsd timeout's "cannot connect", not the duration's "never
  /// answered".
  @Test func unreachablePeersEndWithOneLineAndExitOne() async throws {
    try await withUnreachablePort { nobody in
      let silent = try SilentListener()
      let commands: [[String]] = [
        ["watch", "--gpsd", "127.0.0.1:\(nobody)", "--timeout", "1"],
        ["permissions", "--gpsd", "127.0.0.1:\(nobody)", "--gpsd-timeout", "1", "--duration", "864000"],
        ["preview", "--gpsd", "127.0.0.1:\(nobody)", "--gpsd-timeout", "1", "--duration", "864000"],
        ["serve-announcements", Self.trace("announcements.json"), "--listen", "127.0.0.1:\(silent.port)"],
        ["feed", Self.trace("city-walk.nmea"), "--listen", "127.0.0.1:\(silent.port)"],
      ]
      for arguments in commands {
        let run = try await Self.run(arguments)
        Self.expectOneLineAndFailure(run, arguments)
        if arguments.contains("--gpsd") {
          #expect(
            run.stderr.contains("cannot connect to gpsd at 127.0.0.1:\(nobody)"), "\(arguments.joined(separator: " ")): \(run.stderr)")
        }
      }
    }
  }

  /// Item 3: `--gpsd` with nothing listening used to give exit 0 and a transcript of nulls.
  ///
  /// The run ends at its gpsd timeout (1 s); its duration (864000 s) is one only a hang reaches.
  /// The message is the timeout's: which ending it was, whatever the machine's speed.
  @Test func aScenarioOnAnUnreachableGPSDEndsAtItsTimeout() async throws {
    try await withUnreachablePort { port in
      let run = try await DecodeCommandTests.run([
        "permissions", "--gpsd", "127.0.0.1:\(port)", "--gpsd-timeout", "1", "--permission", "authorizedWhenInUse",
        "--at", "0.5=request", "--duration", "864000",
      ])
      #expect(run.status == 1)
      #expect(run.stderr == "locemu permissions: cannot connect to gpsd at 127.0.0.1:\(port): can't connect to host/port pair\n")
      // The transcript still ends properly.
      #expect(run.lines.last?.contains(#""event":"end""#) == true)
    }
  }

  /// A run that ends (its duration) before gpsd ever answered is no success: it says so and
  /// exits 1, however short the run and however long --gpsd-timeout (issue 22, item 5). A
  /// silent listener (accepts, never speaks) is no answer either. The gpsd timeout is one only a
  /// hang reaches, so the duration's end comes first however late the run's clock wakes.
  @Test func aRunThatEndsBeforeGPSDEverAnsweredSaysSoAndFails() async throws {
    try await withUnreachablePort { port in
      let silent = try SilentListener()
      for (command, target) in [("permissions", port), ("preview", port), ("permissions", silent.port)] {
        let arguments = [command, "--gpsd", "127.0.0.1:\(target)", "--gpsd-timeout", "86400", "--duration", "2"]
        let run = try await Self.run(arguments)
        #expect(run.status == 1, "\(arguments)")
        // The silent listener's connection is reported before it.
        #expect(run.stderr.hasSuffix("locemu \(command): gpsd at 127.0.0.1:\(target) never answered\n"), "\(arguments): \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == (target == port ? 1 : 2), "\(arguments): \(run.stderr)")
        // The transcript still ends with its end line (JSON from permissions, text from preview).
        #expect(run.lines.last?.contains(command == "preview" ? " end " : #""event":"end""#) == true, "\(arguments)")
      }
    }
  }

  /// Item 7: a gpsd that accepts and says nothing ends the watch after --timeout. The kind of
  /// ending is the check: exit 1 with the idle timeout's message, which only a watch that
  /// connected gives (before a connection its connect timeout says "cannot connect"). How long
  /// after the connection it gives up is not measured here: the watch's idle watchdog sleeps on
  /// the real clock, which no test can control.
  @Test func watchGivesUpOnASilentGPSDAfterItsTimeout() async throws {
    // The kernel completes the watch's connection (the listener's backlog); nobody accepts it,
    // and nothing is ever said on it.
    let silent = try SilentListener()
    let run = try await Self.run(["watch", "--gpsd", "127.0.0.1:\(silent.port)", "--timeout", "3"])
    #expect(run.status == 1)
    #expect(run.stderr.split(separator: "\n").last == "locemu watch: no record from gpsd at 127.0.0.1:\(silent.port) for 3.0 s")
  }

  /// Items 4 and 5: GPX and our own fix records on standard input, and fix records converted.
  @Test func standardInputAndFixRecordsAreTracesToo() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let gpx = try Data(contentsOf: URL(fileURLWithPath: Self.trace("drive.gpx")))
    let fromFile = try await Self.run(["replay", "--fast", Self.trace("drive.gpx")])
    let fromStdin = try await Self.run(["replay", "--fast", "-"], stdin: gpx)
    #expect(fromStdin.status == 0)
    #expect(fromStdin.lines.count == 326)
    #expect(fromStdin.lines.map(Self.withoutElapsed) == fromFile.lines.map(Self.withoutElapsed))

    // decode | replay -, and decode > fixes.jsonl; convert fixes.jsonl out.gpx.
    let decoded = try await Self.run(["decode", Self.trace("city-walk.nmea")])
    let replayed = try await Self.run(["replay", "--fast", "-"], stdin: Data(decoded.stdout.utf8))
    #expect(replayed.status == 0)
    // The same records, but for what a LocationFix does not hold (gpsd's magtrack, velocity and
    // differential corrections, which decode writes from the NMEA).
    let notInLocationFix = ["magtrack", "velN", "velE", "velD", "dgpsAge", "dgpsSta"]
    #expect(replayed.lines.map(Self.withoutElapsed) == decoded.lines.map(Self.withoutMembers(notInLocationFix)))
    let fixes = scratch.path("fixes.jsonl")
    try Data(decoded.stdout.utf8).write(to: URL(fileURLWithPath: fixes))
    let converted = try await Self.run(["convert", fixes, scratch.path("walk.gpx")])
    #expect(converted.status == 0, "\(converted.stderr)")
    let written = try String(contentsOfFile: scratch.path("walk.gpx"), encoding: .utf8)
    #expect(written.components(separatedBy: "<trkpt ").count - 1 == decoded.lines.count)
    // And back to fix records: the same fixes (GPX has no place for gpsd's other members).
    let back = try await Self.run(["convert", scratch.path("walk.gpx"), "--to", "jsonl", "-"])
    let notInGPX =
      ["eph", "epv", "track", "speed", "magvar", "ept", "geoidSep", "climb", "sep", "epx", "epy", "eps", "epd", "epc"]
      + notInLocationFix
    #expect(back.lines.map(Self.withoutMembers(notInGPX)) == decoded.lines.map(Self.withoutMembers(notInGPX)))

    // --format overrides the sniffing; nothing read as that format is an error, not silence.
    let wrong = try await Self.run(["replay", "--fast", "--format", "nmea", "-"], stdin: gpx)
    #expect(wrong.status == 1)
    #expect(wrong.stderr == "locemu replay: -: nothing to replay: no epochs read as NMEA (--format says what it is)\n")
    let empty = try await Self.run(["replay", "--fast", "-"], stdin: Data())
    #expect(empty.status == 1)
  }

  static func withoutElapsed(_ line: String) -> String {
    line.replacingOccurrences(of: #","elapsed":[0-9.]+"#, with: "", options: .regularExpression)
  }

  static func withoutMembers(_ names: [String]) -> (String) -> String {
    { line in
      names.reduce(withoutElapsed(line)) {
        $0.replacingOccurrences(of: #","\#($1)":-?[0-9.]+"#, with: "", options: .regularExpression)
      }
    }
  }

  /// Item 6: feed checks its trace before listening.
  @Test func feedRefusesATraceItCannotServeBeforeListening() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let run = try await Self.run(["feed", scratch.path("places.kml"), "--listen", "127.0.0.1:0"])
    Self.expectOneLineAndFailure(run, ["feed", "places.kml"])
    #expect(!run.stderr.contains("listening"))
    #expect(run.stderr.contains("no epochs read as KML"), "\(run.stderr)")
    let stdin = try await Self.run(["feed", "-", "--listen", "127.0.0.1:0"])
    #expect(stdin.status == 64)
  }

  /// Item 10: a port in use, an unreachable announcements URL and a bad document say so plainly.
  @Test func messagesSayWhatIsWrongInWords() async throws {
    let silent = try SilentListener()
    let busy = try await Self.run(["serve-announcements", Self.trace("announcements.json"), "--listen", "127.0.0.1:\(silent.port)"])
    #expect(
      busy.stderr.split(separator: "\n").last
        == "locemu serve-announcements: cannot listen on 127.0.0.1:\(silent.port): Address already in use")

    try await withUnreachablePort { port in
      // On the real clock (an HTTP backend), until the test closes its standard input: once the
      // map has come, after the failed fetch, whatever the machine's load.
      let unreachable = try PreviewCommandTests.livePreview([
        "preview", "--announcements", "http://[::1]:\(port)", "--permission", "authorizedWhenInUse", "--fixed", "52.2,21.0",
      ])
      defer { unreachable.kill() }
      #expect(
        await unreachable.waitForLine { $0.contains("preview") && $0.contains(" map center=") },
        "no map: \(unreachable.lines) \(unreachable.stderr)")
      unreachable.closeInput()
      // The spec carries on with the map without pins, and says so once.
      #expect(await unreachable.finish() == 0)
      #expect(
        unreachable.stderr
          == "locemu preview: announcements unavailable from http://[::1]:\(port): request failed: cannot connect to ::1:\(port) (is the server running?); the map shows no pins\n"
      )
      #expect(!unreachable.lines.contains { $0.contains("NSURLErrorDomain") })
    }
  }

  /// Item 11: flags that were accepted and ignored are refused with one line.
  @Test(
    arguments: [
      ["replay", "--fast", "--speed", "2", "TRACE"],
      ["permissions", "--virtual-time", "--speed", "5", "--duration", "1"],
      ["permissions", "--virtual-time", "--at", "1=tap", "--duration", "2"],
      ["permissions", "--virtual-time", "--at", "1=back", "--duration", "2"],
    ])
  func flagsThatWouldDoNothingAreRefused(arguments: [String]) async throws {
    let arguments = arguments.map { $0 == "TRACE" ? Self.trace("city-walk.nmea") : $0 }
    let run = try await Self.run(arguments)
    #expect(run.status == 64, "\(run.stderr)")
    #expect(run.stdout.isEmpty)
    // The same with a trace: --speed is taken, a map event still refused.
    if arguments.contains("--speed"), arguments[0] == "permissions" {
      let fine = try await Self.run(arguments + ["--trace", Self.trace("city-walk.nmea")])
      #expect(fine.status == 0, "\(fine.stderr)")
    }
  }

  /// A map event on permissions' standard input is skipped with a line saying why.
  @Test func aMapEventOnStandardInputIsSkippedWithAReason() async throws {
    let run = try await Self.run(
      ["permissions", "--control", "stdin", "--duration", "0"], stdin: Data("tap\nservices=off\n".utf8))
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("'tap' is a map event"))
    #expect(run.stdout.contains(#""services":"off""#))
  }

  /// Item 14: `--trace` fixes were stamped 2026-01-01 plus the time elapsed; they keep the
  /// trace's own times, as replay does, unless --start-time or --now say otherwise.
  @Test func traceFixesKeepTheTracesOwnTimes() async throws {
    func firstFixTime(_ extra: [String], trace: String = "city-walk.nmea") async throws -> String? {
      let run = try await Self.run(
        ["permissions", "--virtual-time", "--permission", "authorizedWhenInUse", "--trace", Self.trace(trace), "--duration", "1"] + extra)
      #expect(run.status == 0, "\(run.stderr)")
      let fix = run.lines.first { $0.contains(#""event":"fix""#) }
      guard let fix, let range = fix.range(of: #""time":"[^"]+""#, options: .regularExpression) else { return nil }
      return String(fix[range])
    }
    #expect(try await firstFixTime([]) == #""time":"2026-05-16T09:00:00.000Z""#)
    #expect(try await firstFixTime(["--start-time", "2024-05-01T10:00:00Z"]) == #""time":"2024-05-01T10:00:00.000Z""#)
    // A route without times: from the start of the run (the phone's start date on virtual time).
    #expect(try await firstFixTime([], trace: "old-town-route.gpx") == #""time":"2026-01-01T00:00:00.000Z""#)
    // Options that need a trace are refused without one.
    #expect(try await Self.run(["permissions", "--virtual-time", "--now", "--duration", "1"]).status == 64)
  }
}
