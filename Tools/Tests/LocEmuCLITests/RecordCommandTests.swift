import Foundation
import LocationEmulatorClient
import ToolsTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `locemu record` end to end: a trace fed to a real gpsd is recorded as NMEA and as GPX, and
/// the recordings replay to the trace's own fixes; a served phone is recorded too.
@Suite("record")
struct RecordCommandTests {
  typealias Run = DecodeCommandTests.Run
  static func trace(_ name: String) -> String { SourceCommandTests.trace(name) }

  static func records(_ run: Run) -> [FixLine] {
    run.lines.compactMap { try? JSONDecoder().decode(FixLine.self, from: Data($0.utf8)) }
  }

  @Test(.enabled(if: GPSDProcess.path != nil))
  func aRecordingOfGPSDReplaysToTheTracesFixes() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let nmea = directory.appendingPathComponent("drive.nmea").path, gpx = directory.appendingPathComponent("drive.gpx").path
    // At the trace's own pace a lap of the looping feed is 326 s: both recordings (23 epochs,
    // after two process starts; a whole run under ThreadSanitizer has taken 16 s) fall in the
    // first lap with a wide margin, so the times recorded run on without the loop's jump back.
    // The recordings' timeouts are hang guards.
    let finished = try await SourceCommandTests.withGPSD(
      feeding: "drive.nmea", speed: 1,
      script:
        "\"$LOCEMU\" record --gpsd 127.0.0.1:$GPSD_PORT '\(nmea)' --count 15 --timeout 600 "
        + "&& \"$LOCEMU\" record --gpsd 127.0.0.1:$GPSD_PORT '\(gpx)' --count 8 --timeout 600"
    )
    #expect(finished.status == 0, "\(finished.stderr)")
    #expect(finished.stderr.contains("\(nmea): 15 epochs"))

    let original = Self.records(try await DecodeCommandTests.run(["replay", "--virtual-time", "--fast", Self.trace("drive.nmea")]))
    var byTime: [String: FixLine] = [:]
    for record in original { if let time = record.time { byTime[time] = record } }

    // The raw sentences: every epoch is the trace's, member for member.
    let text = try String(contentsOfFile: nmea, encoding: .utf8)
    #expect(text.hasPrefix("# Date: 2026-05-16\r\n"))
    let replayed = Self.records(try await DecodeCommandTests.run(["replay", "--virtual-time", "--fast", nmea]))
    #expect(replayed.count == 15)
    let members: [(String, KeyPath<FixLine, Double?>)] = [
      ("lat", \.lat), ("lon", \.lon), ("altMSL", \.altMSL), ("speed", \.speed), ("track", \.track),
    ]
    for record in replayed {
      let time = try #require(record.time)
      let same = try #require(byTime[time], "\(time) is not in the trace")
      #expect(record.mode == same.mode, "\(time) mode")
      for (key, member) in members {
        #expect(record[keyPath: member] == same[keyPath: member], "\(time) \(key)")
      }
    }
    // Consecutive epochs: a stretch of the drive, one second apart.
    let times = replayed.compactMap(\.time)
    #expect(times == times.sorted() && Set(times).count == 15)

    // The GPX track: gpsd's fixes, at the trace's positions and heights.
    let track = Self.records(try await DecodeCommandTests.run(["replay", "--virtual-time", "--fast", gpx]))
    #expect(track.count == 8)
    for point in track {
      let time = try #require(point.time)
      let same = try #require(byTime[time], "\(time) is not in the trace")
      #expect(abs((point.lat ?? 0) - (same.lat ?? 1)) < 1e-7)
      #expect(abs((point.lon ?? 0) - (same.lon ?? 1)) < 1e-7)
      #expect(abs((point.altMSL ?? 0) - (same.altMSL ?? 1)) < 0.001)
    }
    // OUT is not replaced without --force; nothing listening is one line and exit 1, no file.
    let again = try await DecodeCommandTests.run(["record", "--gpsd", "127.0.0.1:1", nmea])
    #expect(again.status == 1 && again.stderr == "locemu record: \(nmea) exists; --force replaces it\n")
    let missing = directory.appendingPathComponent("none.nmea").path
    let nobody = try await withUnreachablePort { port in
      try await DecodeCommandTests.run(["record", "--gpsd", "127.0.0.1:\(port)", missing, "--timeout", "1"])
    }
    #expect(nobody.status == 1 && nobody.stderr.contains("cannot connect to gpsd"))
    #expect(!FileManager.default.fileExists(atPath: missing))
    #expect(try await DecodeCommandTests.run(["record", directory.appendingPathComponent("x.txt2").path]).status == 64)
  }

  /// A served phone's delivered fixes, recorded as GPX, replay to the locations set.
  @Test func aServedPhoneIsRecorded() async throws {
    let server = try await ServeCommandTests.Server.start(["--permission", "authorizedWhenInUse"])
    defer { server.stop() }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let gpx = directory.appendingPathComponent("phone.gpx").path
    // --duration: a recording that misses the fixes ends by itself and says how many epochs it
    // got (once in a fresh-clone run under load the recording had to be killed at the bound,
    // which told nothing); the bound is the backstop for a process that hangs. Both are hang
    // guards: the fixes come once the recording is connected.
    let recording = Task {
      try await DecodeCommandTests.runInBackground(
        ["record", "--server", server.url, gpx, "--count", "3", "--duration", "600"], bound: .seconds(900))
    }
    try await server.waitForState("record's event stream on the served phone") { $0.eventClients == 1 }
    for (i, lat) in [52.1, 52.2, 52.3].enumerated() {
      _ = try await server.state(["location", "set", "\(lat),21.0", "--altitude", "\(100 + i)"])
      _ = try await server.clock(["advance", "1"])
    }
    let run = try await recording.value
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains(": 3 epochs in "), "\(run.stderr) — \(server.condition)")
    let points = Self.records(try await DecodeCommandTests.run(["replay", "--virtual-time", "--fast", gpx]))
    #expect(points.compactMap(\.lat) == [52.1, 52.2, 52.3])
    #expect(points.compactMap(\.altMSL) == [100, 101, 102])
    #expect(points.compactMap(\.time) == ["2026-01-01T00:00:00.000Z", "2026-01-01T00:00:01.000Z", "2026-01-01T00:00:02.000Z"])
  }
}
