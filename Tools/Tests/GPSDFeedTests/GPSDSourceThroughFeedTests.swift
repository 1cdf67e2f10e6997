import Foundation
import GPSD
import Geo
import ToolsTestSupport
import Testing
import Traces
import LocationModel

/// `GPSDSource` against a real gpsd (Debian's gpsd package) fed by the tools' own feed server
/// (`NMEATraceFeed`), looping a trace: the library's own tests of `GPSDSource` are in the root
/// package's `GPSDTests`.
@Suite("GPSDSource through the feed and gpsd", .serialized, .enabled(if: GPSDHarness.gpsdPath != nil))
struct GPSDSourceThroughFeedTests {
  @Test func lostFixReachesTheConsumerAsModeOne() async throws {
    // The trace loops: the feed plays from the start whether or not the source is connected yet,
    // and a source that connects late (a loaded machine) still sees the tunnel come and go.
    let harness = try await GPSDHarness.start(trace: "tunnel.nmea", options: ReplayOptions(speed: 25, loop: true))
    defer { harness.stop() }
    let source = GPSDSource(host: "127.0.0.1", port: harness.port, connectTimeout: .seconds(600))
    let modes = try await bounded("the modes 3D, no fix, 3D from tunnel.nmea through gpsd") {
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
    let (before, after) = try await bounded("5 fixes, gpsd killed and restarted, 10 fixes") {
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
}
