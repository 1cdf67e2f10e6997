import EmulatorTesting
import Foundation
import ToolsTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `locemu replay`, `convert`, `feed` and `watch` end to end on the built binary, with the bundled traces.
@Suite("replay, convert, feed, watch")
struct SourceCommandTests {
  typealias Run = DecodeCommandTests.Run
  static let root = repositoryRoot
  static func trace(_ name: String) -> String { root.appendingPathComponent("traces/\(name)").path }
  static func run(_ arguments: [String]) async throws -> Run { try await DecodeCommandTests.run(arguments) }
  static func runInProcess(_ arguments: [String]) async throws -> Run { try await DecodeCommandTests.runInProcess(arguments) }

  static func objects(_ run: Run) throws -> [FixLine] {
    try run.decoded(FixLine.self)
  }

  @Test func replayOnAVirtualClockIsInstantAndDeterministic() async throws {
    let first = try await Self.run(["replay", "--virtual-time", Self.trace("tunnel.nmea")])
    let second = try await Self.run(["replay", "--virtual-time", Self.trace("tunnel.nmea")])
    #expect(first.status == 0)
    #expect(first.stdout == second.stdout)
    let records = try Self.objects(first)
    // As gpsd reports the trace: nothing for the second the receiver's RMC turns invalid (56 s).
    #expect(records.count == 178)
    let seconds: [Double] = (0..<179).filter { $0 != 56 }.map { Double($0) }
    #expect(records.map(\.elapsed) == seconds)
    #expect(records.filter { $0.mode == 1 }.count == 39)
    #expect(records.filter { $0.mode == 1 }.allSatisfy { $0.lat == nil && $0.time != nil })
    #expect(first.stderr == "locemu replay: \(Self.trace("tunnel.nmea")): 178 records, 139 with a fix\n")
    // Every time stamp: that second too.
    let every = try await Self.run(["replay", "--virtual-time", "--reporting", "every-time-stamp", Self.trace("tunnel.nmea")])
    #expect(try Self.objects(every).count == 179)
  }

  @Test func replaySpeedCountAndLoop() async throws {
    let run = try await Self.run(["replay", "--virtual-time", "--speed", "10", "--count", "5", Self.trace("drive.nmea")])
    #expect(try Self.objects(run).map(\.elapsed) == [0, 0.1, 0.2, 0.3, 0.4])
    let looped = try await Self.run(["replay", "--virtual-time", "--loop", "--count", "330", "--fast", Self.trace("drive.nmea")])
    let times = try Self.objects(looped).compactMap(\.time)
    #expect(times.count == 330)
    #expect(times == times.sorted())  // the second lap continues the time line
  }

  @Test func aTimelessRouteIsWalkedAndStampedOnRequest() async throws {
    let run = try await Self.run([
      "replay", "--virtual-time", "--start-time", "2026-01-01T12:00:00Z", "--count", "3",
      Self.trace("old-town-route.gpx"),
    ])
    let records = try Self.objects(run)
    #expect(records.map(\.time) == ["2026-01-01T12:00:00.000Z", "2026-01-01T12:00:01.000Z", "2026-01-01T12:00:02.000Z"])
    #expect(records.allSatisfy { $0.speed == 1.4 })
    let unstamped = try Self.objects(
      try await Self.run(["replay", "--virtual-time", "--count", "2", "--drive", Self.trace("old-town-route.gpx")]))
    #expect(unstamped.allSatisfy { $0.time == nil && $0.speed == 13.9 })
  }

  /// On the wall clock (no `--virtual-time`) replay plays every record, in order, and ends. How
  /// it keeps pace (no fix early, no lateness building up) is tested on time the test controls
  /// (the library's ReplayPacingTests): here the machine's load would decide the figures.
  @Test func replayOnTheWallClockPlaysEveryRecordInOrder() async throws {
    let run = try await Self.run(["replay", "--speed", "10", "--count", "20", Self.trace("drive.nmea")])
    #expect(run.status == 0, "\(run.stderr)")
    let records = try Self.objects(run)
    #expect(records.count == 20)
    let times = records.compactMap(\.time)
    #expect(times.count == 20 && times == times.sorted() && Set(times).count == 20, "\(times)")
    let stamps = records.compactMap(\.elapsed)
    #expect(stamps.count == 20 && stamps == stamps.sorted(), "\(stamps)")
  }

  @Test func replayErrorsAreOneLine() async throws {
    let missing = try await Self.runInProcess(["replay", "/nonexistent/walk.gpx"])
    #expect(missing.status == 1)
    #expect(missing.stdout.isEmpty)
    #expect(missing.stderr.split(separator: "\n").count == 1 && missing.stderr.contains("cannot read /nonexistent/walk.gpx"))
    #expect(try await Self.runInProcess(["replay", "--speed", "5000", Self.trace("drive.nmea")]).status == 64)
    #expect(try await Self.runInProcess(["replay", "--walk", "--drive", Self.trace("drive.nmea")]).status == 64)
    let bad = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID()).gpx")
    try "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\">".write(to: bad, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: bad) }
    let malformed = try await Self.runInProcess(["replay", bad.path])
    #expect(malformed.status == 1)
    #expect(malformed.stderr.contains("not GPX (line 1)"))
  }

  @Test func convertRoundTripsNMEAThroughGPX() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("convert-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let gpx = dir.appendingPathComponent("drive.gpx").path, nmea = dir.appendingPathComponent("drive.nmea").path
    let toGPX = try await Self.runInProcess(["convert", Self.trace("drive.nmea"), gpx])
    #expect(toGPX.status == 0)
    #expect(toGPX.stderr.contains("326 epochs, 326 written as GPX"))
    #expect(try await Self.runInProcess(["convert", gpx, nmea]).status == 0)
    let original = try Self.objects(try await Self.runInProcess(["decode", Self.trace("drive.nmea")]))
    let back = try Self.objects(try await Self.runInProcess(["decode", nmea]))
    #expect(back.count == original.count)
    for (a, b) in zip(original, back) {
      #expect(a.time == b.time)
      #expect(abs(a.lat! - b.lat!) < 1e-7)
      #expect(abs(a.lon! - b.lon!) < 1e-7)
      #expect(a.altMSL == b.altMSL)
    }
    #expect(try await Self.runInProcess(["convert", Self.trace("drive.nmea"), dir.appendingPathComponent("out.kml").path]).status == 64)
    let toStdout = try await Self.runInProcess(["convert", "--to", "gpx", Self.trace("tunnel.nmea"), "-"])
    #expect(toStdout.stdout.components(separatedBy: "<trkseg>").count - 1 == 2)  // the tunnel splits the track
  }

  /// What one client of `locemu feed ARGUMENTS --once` reads, and the command's exit status.
  static func feedOnce(_ arguments: [String]) async throws -> (received: String, status: Int32) {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let portFile = dir.appendingPathComponent("port").path
    let feed = try LiveProcess(["feed"] + arguments + ["--listen", "127.0.0.1:0", "--port-file", portFile, "--once"])
    defer { feed.kill() }
    // The port file is the feed's to write (atomically, once it listens): looked for until it is
    // there or the feed has ended, within a hang guard (`waitUntil`, 600 s).
    let bound = Duration.seconds(600)
    await waitUntil(bound) { FileManager.default.fileExists(atPath: portFile) || !feed.process.isRunning }
    let text = try #require(
      try? String(contentsOfFile: portFile, encoding: .utf8),
      "locemu feed wrote no port file within \(bound) (running: \(feed.process.isRunning)): \(feed.stderr)")
    let port = try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), "port file: \(text)")
    let received = try await offPool { try Self.readAll(port: port) }
    // After --once's client, the feed ends: its exit awaited, not waited for on a thread.
    let status = try #require(await feed.finish(), "locemu feed --once did not end after its client")
    return (received, status)
  }

  @Test func feedServesAnNMEALogAsRecorded() async throws {
    let (received, status) = try await Self.feedOnce([Self.trace("tunnel.nmea"), "--speed", "1000"])
    let expected = try String(contentsOfFile: Self.trace("tunnel.nmea"), encoding: .utf8)
    #expect(received.split(whereSeparator: \.isNewline) == expected.split(whereSeparator: \.isNewline))
    #expect(status == 0)
  }

  /// With --realism the trace is the truth under a seeded receiver: a client reads what
  /// `locemu simulate` writes for the same trace and seed, byte for byte.
  @Test func feedServesARealisticReceiverOverTheTrace() async throws {
    let (received, status) = try await Self.feedOnce([
      Self.trace("tunnel.nmea"), "--speed", "1000", "--realism", "suburban", "--seed", "3",
    ])
    #expect(status == 0)
    let simulated = try await Self.run(["simulate", Self.trace("tunnel.nmea"), "--realism", "suburban", "--seed", "3", "-"])
    #expect(simulated.status == 0, "\(simulated.stderr)")
    let lines = received.split(whereSeparator: \.isNewline)
    #expect(lines.count > 100 && lines == simulated.stdout.split(whereSeparator: \.isNewline))
    #expect(received.contains("$GNGST,") && received.contains("$GNGBS,"))
    #expect(try await Self.run(["feed", Self.trace("tunnel.nmea"), "--listen", "127.0.0.1:0", "--seed", "3"]).status == 64)
  }

  /// The watch ends with its error rather than waiting on: the kind of ending (exit 1 and the
  /// connect timeout's message, not a kill at the run's bound) says so, not how long it took.
  @Test func watchWithoutGPSDIsAnErrorAfterTheTimeout() async throws {
    let run = try await Self.run(["watch", "--gpsd", "127.0.0.1:1", "--timeout", "1"])
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.split(separator: "\n").last?.hasPrefix("locemu watch: cannot connect to gpsd at 127.0.0.1:1: ") == true)
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/gpsd")))
  func watchReadsATraceThroughARealGPSD() async throws {
    // The watch's idle timeout is a hang guard: the looping feed never runs out.
    let finished = try await Self.withGPSD(
      feeding: "drive.nmea", speed: 10, script: "\"$LOCEMU\" watch --gpsd 127.0.0.1:$GPSD_PORT --count 6 --fix-only --timeout 600")
    let stdout = finished.stdout, stderr = finished.stderr
    #expect(finished.status == 0, "\(stderr)")
    let decoded = try await Self.run(["decode", Self.trace("drive.nmea")]).lines
    let records = stdout.split(separator: "\n").map(String.init)
    #expect(records.count == 6)
    // gpsd's first report may come before it has seen a date: no time yet.
    let watched = records.filter { $0.contains("\"time\"") }
    #expect(watched.count >= 5)
    // Each watched record is a decoded record of the trace, altHAE aside (gpsd adds its geoid
    // model), and the magnetic track aside (`watch` writes a LocationFix, which holds none).
    func strip(_ line: String) -> String {
      line.replacingOccurrences(of: #","altHAE":[0-9.]+"#, with: "", options: .regularExpression)
        .replacingOccurrences(of: #","(eph|epv|magtrack)":[0-9.]+"#, with: "", options: .regularExpression)
    }
    let trace = Set(decoded.map(strip))
    #expect(watched.allSatisfy { trace.contains(strip($0)) }, "\(watched)")
    // The script stopped gpsd and the feed.
    let pids = stderr.matches(of: /pid (\d+)/).compactMap { Int32($0.1) }
    #expect(pids.count == 2)
    #expect(pids.allSatisfy { kill($0, 0) != 0 })
  }

  /// `scripts/with-gpsd.sh`: a real gpsd fed `trace` at `speed`, looping (it never runs out,
  /// however late the script's commands start), and the shell `script` run against it (`$LOCEMU`,
  /// `$GPSD_PORT` in its environment); its output once everything has stopped. Its end is
  /// awaited, not waited for on a thread; not ended after 900 s (a hang guard above the 600 s
  /// the scripts' own timeouts allow), the script and what it started are killed, and the test
  /// told so.
  static func withGPSD(
    feeding trace: String, speed: Int, script: String, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> Run {
    let process = try LiveProcess(
      [
        root.appendingPathComponent("scripts/with-gpsd.sh").path, "--speed", String(speed), "--loop", Self.trace(trace), "--", "sh", "-c",
        script,
      ],
      executable: URL(fileURLWithPath: "/bin/bash"), environment: ["LOCEMU": locemuBinary.path])
    defer { process.kill() }
    process.closeInput()
    let status = await process.finish(.seconds(900), sourceLocation: sourceLocation)
    return Run(
      status: status ?? -1, stdout: process.lines.map { $0 + "\n" }.joined(), stderr: process.stderr, timedOut: status == nil)
  }

  /// Everything the feed on `port` sends until it closes (blocking: through ``offPool(_:)``).
  private static func readAll(port: Int) throws -> String {
    expectOffPool("readAll(port: \(port))")
    guard let fd = connectLoopback(port) else { throw LoopbackError(description: "cannot connect to the feed on 127.0.0.1:\(port)") }
    defer { close(fd) }
    // A hang guard: a read that waits this long fails the call rather than ending the stream.
    let seconds = 600
    var timeout = timeval(tv_sec: seconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var data = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = recv(fd, &buffer, buffer.count, 0)
      if n < 0 && errno == EINTR { continue }
      if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
        throw LoopbackError(description: "the feed on 127.0.0.1:\(port) sent nothing for \(seconds) s (after \(data.count) bytes)")
      }
      if n <= 0 { break }
      data += buffer[0..<n]
    }
    return String(decoding: data, as: UTF8.self)
  }
}
