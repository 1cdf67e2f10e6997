import Foundation
import GPSD
import Geo
import ToolsTestSupport
import Testing
import Traces
import LocationServices

@Suite("Collapsing gpsd's reports into epochs; backoff")
struct EpochCollapserTests {
  let t0 = Date(timeIntervalSince1970: 1_800_000_000)
  let here = Coordinate(latitude: 52.2, longitude: 21.0)!

  @Test func reportsOfOneEpochMergeIntoOneFix() {
    var c = EpochCollapser()
    #expect(c.add(LocationFix(timestamp: t0, mode: .twoD, coordinate: here, speed: 1.5)) == nil)
    #expect(c.add(LocationFix(timestamp: t0, mode: .threeD, coordinate: here, altitudeMSL: 90)) == nil)
    let next = LocationFix(timestamp: t0 + 1, mode: .threeD, coordinate: here)
    let merged = c.add(next)
    #expect(merged?.mode == .threeD)
    #expect(merged?.altitudeMSL == 90)
    #expect(c.flush() == next)
    #expect(c.flush() == nil)
  }

  @Test func aLateReportForADeliveredEpochPassesOnlyWhenItAddsSomething() {
    var c = EpochCollapser()
    let fix = LocationFix(timestamp: t0, mode: .twoD, coordinate: here)
    _ = c.add(fix)
    #expect(c.flush() == fix)
    _ = c.add(fix)
    #expect(c.flush() == nil)  // the same again: dropped
    _ = c.add(LocationFix(timestamp: t0, mode: .twoD, coordinate: here, speed: 3))
    #expect(c.flush()?.speed == 3)  // something new: passed on, merged
  }

  @Test func aLowerModeNeverReplacesAHigherOne() {
    var c = EpochCollapser()
    _ = c.add(LocationFix(timestamp: t0, mode: .threeD, coordinate: here, altitudeMSL: 90))
    _ = c.add(LocationFix(timestamp: t0, mode: .noFix))
    #expect(c.flush()?.mode == .threeD)
  }

  @Test func backoffDoublesUpToItsCapAndResets() {
    var b = Backoff(initial: .milliseconds(100), maximum: .milliseconds(500))
    let delays = (0..<5).map { _ in b.nextDelay() }
    #expect(delays == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(500), .milliseconds(500)])
    b.reset()
    #expect(b.nextDelay() == .milliseconds(100))
  }

  @Test func theShimWasBuiltForASupportedLibgps() {
    #expect((9...14).contains(GPSDSource.libgpsAPIVersion))
  }
}

/// Against a real gpsd (Debian's gpsd package), fed by our own feed server.
/// Milliseconds since 1970: gpsd's resolution in JSON.
func ms(_ date: Date?) -> Int64? { date.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } }

@Suite("GPSDSource against a real gpsd", .serialized, .enabled(if: GPSDHarness.gpsdPath != nil))
struct GPSDSourceTests {
  /// The trace's own fixes, for comparison.
  static func traceFixes(_ name: String) async throws -> [LocationFix] {
    var out: [LocationFix] = []
    let replay = TraceReplay(trace: try Trace(path: tracePath(name)), options: .init(speed: nil), clock: ContinuousClock())
    for try await e in replay where e.fix.hasFix { out.append(e.fix) }
    return out
  }

  @Test func theTraceArrivesThroughGPSDInOrder() async throws {
    let expected = try await Self.traceFixes("drive.nmea")
    // The feed plays once the source has connected to gpsd (and asked for its reports), so the
    // source sees the trace from its start however long it took to connect: no race with the
    // feed's pace.
    let harness = try await GPSDHarness.start(trace: "drive.nmea", options: ReplayOptions(speed: 20), feedWaits: true)
    defer { harness.stop() }
    let source = GPSDSource(
      configuration: .init(
        host: "127.0.0.1", port: harness.port, connectTimeout: .seconds(600),
        onEvent: { if case .connected = $0 { harness.startFeed() } }))
    let wanted = 120
    let received = try await withTimeLimit("\(wanted) epochs of drive.nmea through gpsd") {
      var out: [LocationFix] = []
      for try await fix in source where fix.hasFix {
        // gpsd's first report can come before it has seen a date.
        guard let t = ms(fix.timestamp) else { continue }
        // When the feed's trace ends, gpsd reconnects and it starts over: one pass is enough.
        if let last = out.last.flatMap({ ms($0.timestamp) }), t <= last { break }
        out.append(fix)
        if out.count == wanted || t == ms(expected.last?.timestamp) { break }
      }
      return out
    }
    // gpsd spends the first epochs identifying the input; from then on, every epoch in order.
    let start = try #require(expected.firstIndex { ms($0.timestamp) == ms(received.first?.timestamp) })
    #expect(received.count == wanted, "\(received.count) epochs in order from the trace's epoch \(start), of \(expected.count)")
    for (got, want) in zip(received, expected[start...]) {
      #expect(ms(got.timestamp) == ms(want.timestamp))
      #expect(abs(got.coordinate!.latitude - want.coordinate!.latitude) < 1e-6)
      #expect(abs(got.coordinate!.longitude - want.coordinate!.longitude) < 1e-6)
      #expect(got.mode == want.mode)
      #expect(abs((got.altitudeMSL ?? .nan) - (want.altitudeMSL ?? .nan)) < 1e-3)
      #expect(abs((got.speed ?? .nan) - (want.speed ?? .nan)) < 0.01)
      // gpsd's error model and derived members, as our decoder computes them from the same sentences.
      #expect(abs((got.horizontalAccuracy ?? .nan) - (want.horizontalAccuracy ?? .nan)) < 0.001)
      #expect(abs((got.verticalAccuracy ?? -1) - (want.verticalAccuracy ?? -1)) < 0.001)
      #expect(abs((got.magneticVariation ?? .nan) - (want.magneticVariation ?? .nan)) < 0.05)
      #expect(abs((got.geoidSeparation ?? .nan) - (want.geoidSeparation ?? .nan)) < 0.001)
      #expect(got.errors.ept == want.errors.ept && got.status == want.status)
    }
  }

  @Test func lostFixReachesTheConsumerAsModeOne() async throws {
    // The trace loops: the feed plays from the start whether or not the source is connected yet,
    // and a source that connects late (a loaded machine) still sees the tunnel come and go.
    let harness = try await GPSDHarness.start(trace: "tunnel.nmea", options: ReplayOptions(speed: 25, loop: true))
    defer { harness.stop() }
    let source = GPSDSource(host: "127.0.0.1", port: harness.port, connectTimeout: .seconds(600))
    let modes = try await withTimeLimit("the modes 3D, no fix, 3D from tunnel.nmea through gpsd") {
      var modes: [LocationFix.Mode] = []
      for try await fix in source {
        // Connected inside the tunnel: count from the first fix after it.
        if modes.isEmpty && fix.mode != .threeD { continue }
        if modes.last != fix.mode { modes.append(fix.mode) }
        if modes.count == 3 { break }
      }
      return modes
    }
    #expect(modes == [.threeD, .noFix, .threeD])
  }

  @Test func theSourceSurvivesGPSDBeingKilledAndRestarted() async throws {
    let harness = try await GPSDHarness.start(trace: "city-walk.nmea", options: ReplayOptions(speed: 10, loop: true))
    defer { harness.stop() }
    let events = EventLog()
    let source = GPSDSource(
      configuration: .init(
        host: "127.0.0.1", port: harness.port, connectTimeout: .seconds(600),
        backoff: Backoff(initial: .milliseconds(50), maximum: .milliseconds(400)),
        onEvent: { events.record("\($0)") }))
    let (before, after) = try await withTimeLimit("5 fixes, gpsd killed and restarted, 10 fixes") {
      var before = 0
      var after = 0
      for try await fix in source where fix.hasFix {
        if events.all.filter({ $0.hasPrefix("connected") }).count < 2 {
          before += 1
          if before == 5 {
            try await harness.killGPSD()
            // Restarted once the source has seen gpsd go (not after a guessed pause).
            try await events.wait(for: "GPSDSource to report gpsd gone") { $0.contains { $0.hasPrefix("disconnected") } }
            try await harness.startGPSD()
          }
        } else {
          after += 1
          if after == 10 { break }
        }
      }
      return (before, after)
    }
    #expect(before >= 5)
    #expect(after == 10)
    #expect(events.all.contains { $0.hasPrefix("disconnected") })
    #expect(events.all.filter { $0.hasPrefix("connected") }.count >= 2)
  }

  /// The source gives up with `cannotConnect` once its connect timeout has passed without a
  /// connection. The kind of ending is checked (the source's error, not the test's time limit
  /// or a cancellation), not how long it took: the timeout runs on the real clock.
  @Test func aGPSDThatIsNotThereEndsTheSourceWithCannotConnect() async throws {
    try await withUnreachablePort { port in
      let source = GPSDSource(host: "127.0.0.1", port: port, connectTimeout: .seconds(1))
      let error = await #expect(throws: GPSDError.self) {
        try await withTimeLimit("GPSDSource to give up on a port where nothing listens") {
          for try await _ in source {}
        }
      }
      guard case .cannotConnect(let endpoint, let message)? = error else {
        Issue.record("expected cannotConnect, got \(String(describing: error))")
        return
      }
      #expect(endpoint == "127.0.0.1:\(port)")
      #expect(!message.isEmpty)  // libgps's own words
    }
  }

  /// Cancelling the consuming task ends the session: its thread stops (the `stopped` event,
  /// the last) and the sequence ends without an error of its own (a give-up would be
  /// `cannotConnect`).
  @Test func cancellationStopsTheSession() async throws {
    let harness = try await GPSDHarness.start(trace: "city-walk.nmea", options: ReplayOptions(speed: 1, loop: true))
    defer { harness.stop() }
    let events = EventLog()
    let fixes = Watched(0)
    let source = GPSDSource(
      configuration: .init(
        host: "127.0.0.1", port: harness.port, connectTimeout: .seconds(600), onEvent: { events.record("\($0)") }))
    let consumer = Task {
      for try await _ in source { fixes.update { $0 += 1 } }
    }
    defer { consumer.cancel() }
    // Connected and reading (a fix came through the session), then cancelled.
    try await fixes.wait(for: "a first fix from GPSDSource") { $0 > 0 }
    consumer.cancel()
    try await events.wait(for: "GPSDSource to report stopped after cancellation") { $0.contains("stopped") }
    // Ended, not failed: the stream ends at its consumer's cancellation (a CancellationError
    // would say the same).
    if case .failure(let error) = await consumer.result, !(error is CancellationError) {
      Issue.record("the sequence ended with \(error), not by its cancellation")
    }
    let seen = events.all
    #expect(seen.contains { $0.hasPrefix("connected") }, "\(seen)")
    #expect(seen.last == "stopped" && seen.filter { $0 == "stopped" }.count == 1, "\(seen)")
  }
}
