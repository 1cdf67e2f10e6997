import Emulator
import Foundation
import Geo
import PhoneSources
import Testing
import Traces
import LocationModel

/// Nothing of a phone outlives it: no task, timer, subscriber, observer or open file.
@Suite("Lifetime: withEmulatedPhone leaves nothing behind")
struct LifetimeTests {
  /// A copy of the city walk that only this test opens, so that its descriptors can be counted
  /// while other suites run.
  func privateWalk() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("lifetime-walk-\(UUID().uuidString).nmea").path
    try FileManager.default.copyItem(atPath: tracePath("city-walk.nmea"), toPath: path)
    return path
  }

  @Test func aHundredPhonesLeaveNoDescriptorTaskTimerSubscriberOrObserver() async throws {
    let path = try privateWalk()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let walk = try Trace(path: path)
    let before = openFilePaths().filter { $0 == path }.count
    #expect(before == 0)
    var clocks: [EmulatorClock] = []
    for i in 0..<100 {
      let clock = makeClock()
      clocks.append(clock)
      try await withEmulatedPhone(
        .init(permission: PermissionState(appStatus: .notDetermined), promptAnswer: i % 2 == 0 ? .allowOnce : .none, source: .trace(walk)),
        clock: clock
      ) { phone in
        let received = Recorder<LocationFix>()
        _ = phone.start { for await fix in phone.locations() { received.append(fix) } }
        _ = phone.start { await phone.requestWhenInUseAuthorization() }
        _ = phone.start { for await _ in phone.statusUpdates() {} }
        _ = phone.observe { _ in }
        try await phone.advance(by: .seconds(10))
        #expect(openFilePaths().filter { $0 == path }.count == 1, "the replay reads its trace")
        #expect(phone.subscriberCount == 2 && phone.observerCount == 1)
        // Allowed at 1 s (the answer comes before the fix due then): fixes 1 to 10.
        #expect(received.all.count == (i % 2 == 0 ? 10 : 0))
      }
    }
    #expect(openFilePaths().filter { $0 == path }.count == 0)
    for clock in clocks {
      #expect(clock.activeTaskCount == 0 && clock.pendingTimerCount == 0)
    }
  }

  @Test func fiftyReplaysThatEndOnTheirOwnCloseTheirFiles() async throws {
    let path = try privateWalk()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let walk = try Trace(path: path)
    for _ in 0..<50 {
      let phone = EmulatedPhone(
        .init(permission: PermissionState(appStatus: .authorizedAlways), source: .trace(walk, options: ReplayOptions(speed: 100))),
        clock: makeClock())
      try await phone.advance(by: .seconds(10))
      // Not shut down: the replay ran to its end, and the end closes the file.
      #expect(openFilePaths().filter { $0 == path }.isEmpty)
    }
  }

  @Test func aSharedClockRunsAHundredPhonesAndIsEmptyWhenTheyEnd() async throws {
    let clock = makeClock()
    let phones = (0..<100).map { i in
      EmulatedPhone(
        .init(permission: PermissionState(appStatus: i % 3 == 0 ? .denied : .authorizedWhenInUse), source: .fixed(warsaw)), clock: clock)
    }
    let deliveries = Recorder<Int>()
    let observations = phones.enumerated().map { i, phone in
      phone.observe { event in if case .location = event { deliveries.append(i) } }
    }
    try await clock.advance(by: .seconds(9))
    #expect(deliveries.all.count == 66 * 10)
    // One clock, one order: the phones' fixes at each second come in the order the phones were made.
    #expect(Array(deliveries.all.prefix(3)) == [1, 2, 4])
    for phone in phones { phone.shutdown() }
    _ = observations
    #expect(clock.pendingTimerCount == 0 && clock.activeTaskCount == 0)
    #expect(phones.allSatisfy { $0.subscriberCount == 0 && $0.observerCount == 0 })
  }

  /// A phone let go without ``EmulatedPhone/shutdown()`` while its source plays goes away: its
  /// timers hold what they fire on, never the phone, and its end cancels them. The clock is
  /// left with nothing to fire, and its observers are no longer called.
  @Test func aPhoneLetGoWhileItsSourcePlaysGoesAwayAndCancelsItsTimer() async throws {
    let clock = makeClock()
    let calls = Recorder<PhoneEvent>()
    weak var gone: EmulatedPhone?
    var observation: PhoneObservation?
    do {
      let phone = EmulatedPhone(.init(permission: PermissionState(appStatus: .authorizedWhenInUse), source: .fixed(warsaw)), clock: clock)
      gone = phone
      observation = phone.observe(.location) { calls.append($0) }
      try await clock.advance(by: .seconds(1))
      #expect(calls.all.count == 2)
      #expect(clock.pendingTimerCount == 1, "the next fix")
    }
    #expect(gone == nil, "not kept alive by its source's timer")
    #expect(clock.pendingTimerCount == 0)
    #expect(observation?.isActive == false)
    try await clock.advance(by: .seconds(5))
    #expect(calls.all.count == 2)
  }
}
