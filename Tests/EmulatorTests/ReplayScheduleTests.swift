import Emulator
import Foundation
import LocationModel
import PhoneSources
import Synchronization
import TestSupport
import Testing
import Traces

/// A replay scheduled once and shared gives each phone what its own replay gives.
struct ReplayScheduleTests {
  /// Every epoch the phone's source delivers, with when (time since the phone started).
  private func played(_ source: PhoneSource) async throws -> [ScriptedFix] {
    let clock = makeClock()
    let phone = EmulatedPhone(.init(permission: PermissionState(appStatus: .authorizedAlways), source: source), clock: clock)
    let seen = Mutex<[ScriptedFix]>([])
    let observation = phone.observe(.sourceFix) { event in
      guard case .sourceFix(let fix) = event else { return }
      seen.withLock { $0.append(ScriptedFix(at: phone.elapsed, fix: fix)) }
    }
    try await clock.advance(by: .seconds(3_600))
    observation.cancel()
    phone.shutdown()
    return seen.withLock { $0 }
  }

  @Test(arguments: [
    ReplayOptions(speed: 1),
    // Twice as fast, from 20 s in, stamped from a date, gaps over 2 s filled, 150 epochs of a loop.
    ReplayOptions(
      speed: 2, loop: true, startOffset: 20, count: 150, timeBase: .startingAt(Date(timeIntervalSince1970: 1_800_000_000)),
      gapThreshold: 2),
  ])
  func aSharedScheduleReplaysAsTheTraceDoes(options: ReplayOptions) async throws {
    let trace = try Trace(path: tracePath("tunnel.nmea"))
    let schedule = try ReplaySchedule(options: options) { try trace.makeReader() }
    let shared = try await played(.replay(schedule))
    let own = try await played(.trace(trace, options: options))
    #expect(shared.count > 100)
    #expect(shared.count == own.count)
    // The first epoch that differs, if any (not both lists: a failure stays readable).
    let differing = zip(shared, own).enumerated().first { $0.element.0 != $0.element.1 }
    #expect(differing == nil, "epoch \(differing?.offset ?? -1): \(String(describing: differing?.element))")
  }

  @Test func aLoopWithoutACountCannotBeScheduled() throws {
    let trace = try Trace(path: tracePath("tunnel.nmea"))
    #expect(throws: ReplaySchedule.Endless.self) {
      try ReplaySchedule(options: ReplayOptions(loop: true)) { try trace.makeReader() }
    }
  }
}
