import EmulatorTesting
import Foundation
import Testing
import ToolsTestSupport

/// `locemu simulate`: a seeded receiver over a point, a route or a trace (issue 25).
struct SimulateCommandTests {
  /// FNV-1a, 64 bits: enough to tell outputs apart.
  static func digest(_ text: String) -> UInt64 { text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 } }

  /// The same seed gives the same bytes, another seed other bytes; standard error says the
  /// seed and profile first and the run's figures last.
  @Test func theSameSeedGivesTheSameBytes() async throws {
    let arguments = ["simulate", "--fixed", "60.17,24.94,20", "--realism", "urban-canyon", "--duration", "300"]
    let a = try await DecodeCommandTests.runInProcess(arguments + ["--seed", "7"])
    let b = try await DecodeCommandTests.runInProcess(arguments + ["--seed", "7"])
    let c = try await DecodeCommandTests.runInProcess(arguments + ["--seed", "8"])
    #expect(a.status == 0, "\(a.stderr)")
    #expect(a.stdout == b.stdout && Self.digest(a.stdout) == Self.digest(b.stdout))
    #expect(Self.digest(a.stdout) != Self.digest(c.stdout))
    let lines = a.stderr.split(separator: "\n")
    #expect(lines.first == "locemu simulate: seed 7, phone 0, profile urban-canyon, cold start, assisted")
    #expect(lines.last?.hasPrefix("locemu simulate: 301 epochs, ") == true && lines.last?.contains("horizontal error 50/80/95 %") == true)
    for type in ["GGA", "GST", "RMC", "VTG", "GBS"] { #expect(a.stdout.contains("$GN\(type),"), "\(type)") }
    for talker in ["GP", "GL", "GA", "GB"] {
      #expect(a.stdout.contains("$\(talker)GSV,") && a.stdout.contains("$\(talker)GSA,"), "\(talker)")
    }
  }

  /// `--systems` chooses what the receiver tracks: GPS alone writes GP as a GPS receiver does;
  /// a system there is none of is bad usage.
  @Test func systemsChooseTheConstellations() async throws {
    let arguments = ["simulate", "--fixed", "60.17,24.94,20", "--duration", "5", "--start", "hot"]
    let gps = try await DecodeCommandTests.runInProcess(arguments + ["--systems", "gps"])
    #expect(gps.status == 0, "\(gps.stderr)")
    #expect(!gps.stdout.isEmpty && gps.lines.allSatisfy { $0.hasPrefix("$GP") })
    let two = try await DecodeCommandTests.runInProcess(arguments + ["--systems", "GPS,galileo"])
    #expect(two.stdout.contains("$GAGSV,") && !two.stdout.contains("$GLGSV,") && two.stdout.contains("$GAGSA,"))
    let bad = try await DecodeCommandTests.runInProcess(arguments + ["--systems", "gps,navic"])
    #expect(bad.status == 64 && bad.stderr.contains("no system 'navic' (gps, glonass, galileo, beidou)"), "\(bad.stderr)")
  }

  /// A trace is the truth: one record per trace epoch, at the trace's times, near its fixes.
  @Test func aTraceIsTheTruth() async throws {
    let trace = repositoryRoot.appendingPathComponent("traces/city-walk.nmea").path
    let run = try await DecodeCommandTests.runInProcess([
      "simulate", trace, "--realism", "open-sky", "--start", "hot", "--to", "jsonl", "--duration", "60",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    /// A record of `--to jsonl`: a fix record with the receiver's state, satellites used and HDOP.
    struct Record: Decodable {
      var mode: Int?
      var state: String?
      var used: Int?
      var hdop: Double?
    }
    let records = try run.decoded(Record.self)
    #expect(records.count == 61)
    let fixed = records.filter { ($0.mode ?? 0) >= 2 }
    #expect(fixed.count >= 55)
    #expect(fixed.allSatisfy { $0.state.map { ["2d", "3d", "degraded"].contains($0) } == true })
    #expect(fixed.allSatisfy { ($0.used ?? 0) >= 3 && ($0.hdop ?? 0) > 0 })
  }

  /// A route is walked as a phone walks it (the scenario commands' truth, stepped here), then
  /// stands at its end until --duration; a trace without times plays one epoch per 1 / --rate.
  @Test func aRouteStandsAtItsEndAndAnUntimedTraceKeepsTheRate() async throws {
    struct Record: Decodable { var time: String? }
    let route = try await DecodeCommandTests.runInProcess([
      "simulate", "--route", "60.17,24.94", "60.1701,24.94", "--mps", "5", "--duration", "10", "--rate", "2", "--to", "jsonl",
      "--start", "hot",
    ])
    #expect(route.status == 0, "\(route.stderr)")
    let routeTimes = try route.decoded(Record.self).map(\.time)
    #expect(routeTimes.count == 21 && routeTimes.last == "2026-01-01T00:00:10.000Z", "\(routeTimes)")
    let untimed = FileManager.default.temporaryDirectory.appendingPathComponent("untimed-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: untimed) }
    try Data(#"{"lat":60.17,"lon":24.94}\#n{"lat":60.1701,"lon":24.9401}\#n{"lat":60.1702,"lon":24.9402}\#n"#.utf8).write(to: untimed)
    let trace = try await DecodeCommandTests.runInProcess([
      "simulate", untimed.path, "--rate", "2", "--to", "jsonl", "--start", "hot", "--start-time", "2026-03-01T10:00:00Z",
    ])
    #expect(trace.status == 0, "\(trace.stderr)")
    let times = try trace.decoded(Record.self).map(\.time)
    #expect(times == ["2026-03-01T10:00:00.000Z", "2026-03-01T10:00:00.500Z", "2026-03-01T10:00:01.000Z"], "\(times)")
  }

  /// Output to a named pipe (or a device such as /dev/null) is written in place: a temporary
  /// file renamed over it would replace the pipe (once it replaced /dev/null itself).
  @Test func aPipeIsWrittenInPlace() async throws {
    let scratch = try CommandContractTests.Scratch()
    defer { scratch.remove() }
    let fifo = scratch.path("out.fifo")
    try #require(mkfifo(fifo, 0o600) == 0)
    // The reader on a thread of its own: opening a FIFO waits for its writer, and reading it
    // waits for the writer to close, which would block a thread of the cooperative pool.
    let received = Task {
      await offPool { () -> String in
        String(decoding: FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
      }
    }
    // Had the command never opened the pipe, the reader would wait for ever: a writer opened and
    // closed once lets it end (also when the run throws).
    func release() {
      let writer = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
      if writer >= 0 { close(writer) }
    }
    defer { release() }
    let run = try await DecodeCommandTests.run(["simulate", "--fixed", "60.17,24.94", "--duration", "10", fifo])
    #expect(run.status == 0, "\(run.stderr)")
    release()
    let read = try await bounded("the FIFO's reader", .seconds(600)) { await received.value }
    #expect(read.contains("$GNGGA,"))
    // Still the FIFO: the command wrote into it, and put no regular file in its place.
    let type = try FileManager.default.attributesOfItem(atPath: fifo)[.type] as? FileAttributeType
    #expect(type != nil && type != .typeRegular)
  }

  /// The scenario commands take the same realism: their source is the truth, the phone gets
  /// the receiver's fixes, the same for a seed on virtual time.
  @Test func aScenarioRunsOnARealisticReceiver() async throws {
    let arguments = [
      "permissions", "--virtual-time", "--fixed", "60.17,24.94", "--realism", "suburban", "--duration", "30", "--at", "1=authorize",
    ]
    let a = try await DecodeCommandTests.run(arguments + ["--seed", "3"])
    let b = try await DecodeCommandTests.run(arguments + ["--seed", "3"])
    let c = try await DecodeCommandTests.run(arguments + ["--seed", "4"])
    #expect(a.status == 0, "\(a.stderr)")
    #expect(a.stderr.hasPrefix("locemu permissions: realism suburban, seed 3\n"))
    #expect(a.stdout == b.stdout && a.stdout != c.stdout)
    let fixes = a.lines.filter { $0.contains(#""event":"fix""#) }
    #expect(fixes.count >= 20)
    #expect(!fixes.contains { $0.contains(#""lat":60.170000000,"lon":24.940000000"#) })
    let alone = try await DecodeCommandTests.run(["permissions", "--virtual-time", "--seed", "3", "--duration", "5"])
    #expect(alone.status == 64 && alone.stderr.contains("--seed goes with --realism"))
  }

  /// Mistakes are one line with their status: 64 for options, 1 for files.
  @Test func badInputIsAOneLineErrorWithItsStatus() async throws {
    let unknown = try await DecodeCommandTests.runInProcess([
      "simulate", "--fixed", "60.17,24.94", "--duration", "5", "--realism", "downtown",
    ])
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("no profile 'downtown': one of open-sky, suburban, urban-canyon, indoor, tunnel"))
    let missing = try await DecodeCommandTests.runInProcess([
      "simulate", "--fixed", "60.17,24.94", "--duration", "5", "--realism", "/nonexistent/p.json",
    ])
    #expect(missing.status == 1 && missing.stderr.hasPrefix("locemu simulate: --realism: cannot read /nonexistent/p.json"))
    let twoTruths = try await DecodeCommandTests.runInProcess([
      "simulate", "--fixed", "60.17,24.94", "--route", "60,24", "60.1,24", "--duration", "5",
    ])
    #expect(twoTruths.status == 64)
    let noDuration = try await DecodeCommandTests.runInProcess(["simulate", "--fixed", "60.17,24.94"])
    #expect(noDuration.status == 64 && noDuration.stderr.contains("--duration goes with --fixed and --route"))
    let noTrace = try await DecodeCommandTests.runInProcess(["simulate", "/nonexistent/walk.nmea"])
    #expect(noTrace.status == 1 && noTrace.stderr.split(separator: "\n").count <= 2, "\(noTrace.stderr)")
  }
}
