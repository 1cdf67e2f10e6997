import EmulatorTesting
import Foundation
import LocationEmulatorClient
import Testing
import ToolsTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 50 item 7: a long command shows on standard error, when it is a terminal, what it has
/// done and how much is left, redrawn in place and erased at the end; nothing when standard error
/// is a pipe or with --quiet. The terminal is a real pseudo-terminal.
@Suite("Progress on a terminal")
struct ProgressLineTests {
  /// Runs locemu with standard error on a new pseudo-terminal (standard output to /dev/null) and
  /// returns its exit status and all it wrote on the terminal.
  static func onTerminal(_ arguments: [String]) async throws -> (status: Int32, terminal: String) {
    try await offPool {
      // Linux's pseudo-terminal multiplexer: unlock the new terminal (TIOCSPTLCK), then find its
      // number (TIOCGPTN) and open it as /dev/pts/N.
      let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
      guard master >= 0 else { throw POSIXError(.ENOTTY) }
      defer { close(master) }
      var unlock: Int32 = 0, number: UInt32 = 0
      guard ioctl(master, UInt(0x4004_5431), &unlock) == 0, ioctl(master, UInt(0x8004_5430), &number) == 0 else {
        throw POSIXError(.ENOTTY)
      }
      let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
      guard slave >= 0 else { throw POSIXError(.ENOTTY) }
      let process = Process()
      process.executableURL = locemuBinary
      process.arguments = arguments
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
      try process.run()
      close(slave)
      // A hang guard only: a child still running after 600 s is looked at and killed, and the
      // test says so.
      let hangGuard = ProcessHangGuard(process.processIdentifier, bound: .seconds(600))
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let n = read(master, &buffer, buffer.count)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }  // EIO: the child's end of the terminal is closed
        bytes += buffer[0..<n]
      }
      process.waitUntilExit()
      try hangGuard.disarm(waitingOn: "locemu \(arguments.joined(separator: " "))", bound: .seconds(600))
      return (process.terminationStatus, String(decoding: bytes, as: UTF8.self))
    }
  }

  /// The frames a progress line drew: the text after each carriage return and erase (a terminal
  /// shows a line break as CR LF, so a CR alone does not mark a frame).
  static func frames(_ terminal: String) -> [String] {
    terminal.components(separatedBy: "\r\u{1B}[K").dropFirst().map { $0 }
  }

  @Test func simulateShowsTheSecondsDoneOfTheDurationAndErasesTheLine() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("out.nmea").path
    let args = ["simulate", "--fixed", "60.17,24.94", "--duration", "300", "--seed", "1"]
    let run = try await Self.onTerminal(args + [out])
    #expect(run.status == 0, "\(run.terminal)")
    let frames = Self.frames(run.terminal)
    #expect(frames.first?.hasPrefix("simulate: 0:00:00 of 0:05:00 (0 %)") == true, "\(frames.prefix(3))")
    #expect(frames.contains { $0.hasPrefix("simulate: 0:02:30 of 0:05:00 (50 %)") }, "\(frames.count) frames")
    // Redrawn per percent, not per epoch; the last frame erased before the summary.
    #expect(frames.count <= 102, "\(frames.count) frames")
    let last = try #require(frames.last)
    #expect(last.hasPrefix("locemu simulate: "), "the summary follows an erased line: \(last.prefix(80))")

    let quiet = try await Self.onTerminal(args + ["--quiet", out])
    #expect(quiet.status == 0 && !quiet.terminal.contains("\u{1B}[K"), "\(quiet.terminal)")
    // Not a terminal: nothing but the lines it always wrote.
    let piped = try await offPool { try runProcess(locemuBinary.path, args + [out]) }
    #expect(piped.status == 0 && !piped.stderr.contains("\r") && !piped.stderr.contains("\u{1B}"), "\(piped.stderr)")
  }

  /// A large file decoded in parallel: the bytes done of the file's size. (One core decodes
  /// from start to end, without chunks to count: nothing is drawn there.)
  @Test(.enabled(if: ProcessInfo.processInfo.activeProcessorCount > 1))
  func decodeShowsTheBytesDoneOfTheFile() async throws {
    let log = repositoryFile("traces/city-walk.nmea")
    let run = try await Self.onTerminal(["decode", "--chunk-bytes", "1024", log])
    #expect(run.status == 0, "\(run.terminal)")
    let frames = Self.frames(run.terminal)
    let size = try #require(try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int)
    #expect(frames.contains { $0.hasPrefix("decode: ") && $0.contains(" (100 %)") }, "\(frames.suffix(3)) of \(size) bytes")
    #expect(frames.last?.hasPrefix("locemu decode: ") == true, "\(frames.last ?? "")")
    let quiet = try await Self.onTerminal(["decode", "--quiet", "--chunk-bytes", "1024", log])
    #expect(!quiet.terminal.contains("\u{1B}[K"), "\(quiet.terminal.prefix(200))")
  }

  /// A country's extract takes minutes: the bytes read of the two passes over it.
  @Test func basemapBuildShowsTheBytesReadOfTheExtract() async throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID()).basemap").path
    defer { try? FileManager.default.removeItem(atPath: out) }
    let run = try await Self.onTerminal(["basemap", "build", repositoryFile("data/helsinki/Helsinki.osm.pbf"), out])
    #expect(run.status == 0, "\(run.terminal)")
    let frames = Self.frames(run.terminal)
    #expect(frames.contains { $0.hasPrefix("basemap build: ") && $0.contains(" of 1.4 MB (") }, "\(frames.prefix(3))")
    #expect(frames.contains { $0.contains("(100 %)") } && frames.last?.hasPrefix("locemu basemap: ") == true, "\(frames.suffix(2))")
  }
  /// A recording of a served phone with --count: the epochs recorded of the count, one frame per
  /// epoch as the fixes arrive, erased before the summary.
  @Test func recordShowsTheEpochsRecordedOfTheCount() async throws {
    let server = try await ServeCommandTests.Server.start(["--permission", "authorizedWhenInUse"])
    defer { server.stop() }
    let gpx = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID()).gpx").path
    defer { try? FileManager.default.removeItem(atPath: gpx) }
    // --duration is a hang guard: the fixes come once the recording's event stream is connected.
    let recording = Task { try await Self.onTerminal(["record", "--server", server.url, gpx, "--count", "3", "--duration", "600"]) }
    try await server.waitForState("record's event stream on the served phone") { $0.eventClients == 1 }
    for lat in [52.1, 52.2, 52.3] {
      _ = try await server.state(["location", "set", "\(lat),21.0"])
      _ = try await server.clock(["advance", "1"])
    }
    let run = try await recording.value
    #expect(run.status == 0, "\(run.terminal)")
    let frames = Self.frames(run.terminal)
    #expect(
      frames.filter { $0.hasPrefix("record: ") } == [
        "record: 1 epoch of 3 epochs (33 %)", "record: 2 epochs of 3 epochs (66 %)", "record: 3 epochs of 3 epochs (100 %)",
      ], "\(frames)")
    #expect(frames.last?.hasPrefix("locemu record: ") == true && frames.last?.contains(": 3 epochs in ") == true, "\(frames.last ?? "")")
  }

  /// The world's shorelines at full resolution are a dump of hundreds of MB: its bytes read,
  /// then as much again for its cells cut. Here 2,000 small islands in as many 1° cells.
  @Test func basemapShorelineShowsTheDumpsBytesAndItsCells() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    var dump = ""
    for i in 0..<2000 {
      let lon = Double(i % 100) + 0.25, lat = Double(i / 100) + 0.25
      dump += "> Shore Bin # \(i), Level 1\n"
      for (x, y) in [(0.0, 0.0), (0.5, 0.0), (0.5, 0.5), (0.0, 0.5), (0.0, 0.0)] { dump += "\(lon + x)\t\(lat + y)\n" }
    }
    let input = dir.appendingPathComponent("dump.txt").path, output = dir.appendingPathComponent("shore.basemap").path
    try dump.write(toFile: input, atomically: true, encoding: .utf8)
    let run = try await Self.onTerminal(["basemap", "shoreline", input, output])
    #expect(run.status == 0, "\(run.terminal)")
    let frames = Self.frames(run.terminal)
    // The dump is about 170 kB: half the work done when it is read.
    #expect(frames.contains { $0.hasPrefix("basemap shoreline: ") && $0.hasSuffix(" kB (50 %)") }, "\(frames.prefix(3))")
    #expect(frames.contains { $0.hasSuffix(" (100 %)") } && frames.last?.hasPrefix("locemu basemap: ") == true, "\(frames.suffix(2))")
    #expect(frames.count <= 102, "\(frames.count) frames")
    let quiet = try await Self.onTerminal(["basemap", "shoreline", "--quiet", input, output])
    #expect(quiet.status == 0 && !quiet.terminal.contains("\u{1B}[K"), "\(quiet.terminal.prefix(200))")
  }

  /// A trace's length is not known before its end: the trace's time converted so far.
  @Test func convertShowsTheTracesTimeConverted() async throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID()).gpx").path
    defer { try? FileManager.default.removeItem(atPath: out) }
    let args = ["convert", repositoryFile("traces/city-walk.nmea")]
    let run = try await Self.onTerminal(args + [out])
    #expect(run.status == 0, "\(run.terminal)")
    let frames = Self.frames(run.terminal)
    #expect(frames.first?.hasPrefix("convert: 0:00:00") == true, "\(frames.prefix(3))")
    // The walk is 16 minutes long: the line reached its last minutes, drawn a few dozen times.
    #expect(frames.contains { $0.hasPrefix("convert: 0:15:") }, "\(frames.suffix(3))")
    #expect(frames.count <= 300, "\(frames.count) frames")
    #expect(frames.last?.hasPrefix("locemu convert: ") == true, "\(frames.last ?? "")")
    let quiet = try await Self.onTerminal(args + ["--quiet", out])
    #expect(quiet.status == 0 && !quiet.terminal.contains("\u{1B}[K"), "\(quiet.terminal.prefix(200))")
  }
}
