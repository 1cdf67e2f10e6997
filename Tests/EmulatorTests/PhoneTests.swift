import Emulator
import Foundation
import Geo
import PhoneSources
import Testing
import Traces
import LocationModel

/// The phone's permission system at run time: every test steps virtual time and asserts
/// right after, with no waiting on real time and no polling.
@Suite("EmulatedPhone: the prompt, Allow Once, Settings, streams, one-shot requests")
struct PhoneTests {
  @Test func promptIsAnsweredAfterTheDelayOnTheClock() async throws {
    let phone = makePhone(delay: .seconds(2))
    let log = PhoneRecorder(phone)
    let request = phone.start { await phone.requestWhenInUseAuthorization() }
    try await phone.advance(by: .milliseconds(1999))
    #expect(phone.state.promptShown)
    #expect(phone.status == .notDetermined && !request.isFinished)
    try await phone.advance(by: .milliseconds(1))
    #expect(request.isFinished)
    #expect(try await request.value == .authorizedWhenInUse)
    #expect(phone.status == .authorizedWhenInUse && !phone.state.promptShown)
    #expect(
      log.permissionEvents == [
        .promptShown(answer: .allowWhileUsing, delay: .seconds(2)), .promptAnswered(.allowWhileUsing, status: .authorizedWhenInUse),
      ])
  }

  @Test func startTheFlowThenAdvanceByThePromptDelayNeverStrands() async throws {
    // The pattern that left TestClock users stuck 11-14 % of the time on a busy machine.
    for _ in 0..<300 {
      let phone = makePhone(answer: .allowOnce)
      let flow = phone.start { await phone.requestWhenInUseAuthorization() }
      try await phone.advance(by: .seconds(1))
      #expect(try await flow.value == .authorizedWhenInUse)
    }
  }

  @Test(arguments: [LocationPermissionStatus.denied, .authorizedWhenInUse, .authorizedAlways, .restricted])
  func noPromptUnlessNotDetermined(status: LocationPermissionStatus) async {
    let phone = makePhone(status)
    let log = PhoneRecorder(phone)
    #expect(await phone.requestWhenInUseAuthorization() == status)
    #expect(log.permissionEvents.isEmpty)
  }

  @Test func allowOnceLapsesWhenTheAppGoesToTheBackgroundAndPromptsAgain() async throws {
    let phone = makePhone(answer: .allowOnce, delay: .zero)
    let log = PhoneRecorder(phone)
    let first = phone.start { await phone.requestWhenInUseAuthorization() }
    #expect(try await first.value == .authorizedWhenInUse)
    #expect(phone.state.grantedOnce)
    await phone.setAppState(.background)
    #expect(phone.status == .notDetermined)
    #expect(log.permissionEvents.last == .allowOnceExpired)
    await phone.setAppState(.foreground)
    let second = phone.start { await phone.requestWhenInUseAuthorization() }
    #expect(try await second.value == .authorizedWhenInUse)
    #expect(log.permissionEvents.filter { if case .promptShown = $0 { true } else { false } }.count == 2)
  }

  @Test func theOperatingSystemsReportComesBeforeTheChangeAndItsConsequencesAfter() async throws {
    let phone = makePhone(.notDetermined, answer: .allowOnce, delay: .zero)
    _ = try await phone.advance(until: phone.start { await phone.requestWhenInUseAuthorization() })
    let log = PhoneRecorder(phone)
    await phone.setAppState(.background)  // apply(.background), and what it sets off has run
    let kinds = log.all.map { event -> String in
      switch event {
      case .permission(.allowOnceExpired): "allowOnceExpired"
      case .applied(.background, let state): "applied background \(state.status)"
      case .stateChanged(let from, let to): "stateChanged \(from.status)->\(to.status)"
      default: "\(event)"
      }
    }
    #expect(kinds == ["allowOnceExpired", "applied background notDetermined", "stateChanged authorizedWhenInUse->notDetermined"])
  }

  @Test func requestsWhileAPromptIsShownJoinItAndReturnInTheOrderMade() async throws {
    let phone = makePhone(delay: .seconds(2))
    let log = PhoneRecorder(phone)
    let order = Recorder<String>()
    let first = phone.start {
      let status = await phone.requestWhenInUseAuthorization()
      order.append("first")
      return status
    }
    let second = phone.start {
      let status = await phone.requestWhenInUseAuthorization()
      order.append("second")
      return status
    }
    try await phone.advance(by: .seconds(2))
    #expect(try await first.value == .authorizedWhenInUse)
    #expect(try await second.value == .authorizedWhenInUse)
    #expect(order.all == ["first", "second"])
    #expect(log.permissionEvents.count == 2)  // one prompt, one answer
  }

  @Test func aNeverAnsweredPromptEndsWhenSettingsDecide() async throws {
    let phone = makePhone(answer: .none)
    let log = PhoneRecorder(phone)
    let request = phone.start { await phone.requestWhenInUseAuthorization() }
    try await phone.advance(by: .seconds(3600))
    #expect(phone.state.promptShown && !request.isFinished)
    await phone.setAuthorization(.authorizedAlways)
    #expect(try await request.value == .authorizedAlways)
    #expect(log.permissionEvents.last == .promptDismissed(status: .authorizedAlways))
  }

  @Test func theUserCanAnswerThePromptOnScreenDirectly() async throws {
    let phone = makePhone(answer: .none)
    let request = phone.start { await phone.requestWhenInUseAuthorization() }
    try await phone.runUntilIdle()
    await phone.answerPrompt(.deny)
    #expect(try await request.value == .denied)
  }

  @Test func aCancelledRequestReturnsTheCurrentStatusAtOnce() async throws {
    let phone = makePhone(answer: .none)
    let request = phone.start { await phone.requestWhenInUseAuthorization() }
    try await phone.runUntilIdle()
    request.cancel()
    #expect(try await request.value == .notDetermined)
    #expect(phone.waitingCallCount == 0)
  }

  @Test func aWaitingFlowCannotFinishWithoutTimeAndSaysSo() async throws {
    let phone = makePhone(answer: .none)
    let request = phone.start { await phone.requestWhenInUseAuthorization() }
    await #expect(throws: EmulatorClockError.self) { try await request.value }
    phone.shutdown()
    #expect(try await request.value == .notDetermined)
  }

  @Test func servicesOffReadsDeniedAndTheOldStatusReturns() async {
    let phone = makePhone(.authorizedWhenInUse)
    await phone.setServicesEnabled(false)
    #expect(phone.status == .denied && phone.state.appStatus == .authorizedWhenInUse)
    #expect(await phone.requestWhenInUseAuthorization() == .denied)
    await phone.setServicesEnabled(true)
    #expect(phone.status == .authorizedWhenInUse)
  }

  @Test func servicesSwitchedOffDismissesAPrompt() async throws {
    let phone = makePhone(answer: .none)
    let request = phone.start { await phone.requestWhenInUseAuthorization() }
    try await phone.runUntilIdle()
    await phone.setServicesEnabled(false)
    #expect(try await request.value == .denied)
    #expect(!phone.state.promptShown)
  }

  // MARK: Streams

  @Test func eachSubscriberSeesTheCurrentStatusFirstThenChangesInOrder() async {
    let phone = makePhone()
    var iterator = phone.statusUpdates().makeAsyncIterator()
    #expect(await iterator.next() == .notDetermined)
    await phone.setAuthorization(.denied)
    #expect(await iterator.next() == .denied)
    await phone.setAuthorization(.authorizedAlways)
    #expect(await iterator.next() == .authorizedAlways)
    var late = phone.statusUpdates().makeAsyncIterator()
    #expect(await late.next() == .authorizedAlways)
  }

  @Test func aLaggingSubscriberKeepsOnlyTheNewest() async {
    let phone = makePhone()
    var iterator = phone.statusUpdates().makeAsyncIterator()
    await phone.setAuthorization(.denied)
    await phone.setAuthorization(.restricted)
    await phone.setAuthorization(.authorizedAlways)
    #expect(await iterator.next() == .authorizedAlways)
  }

  @Test func aTaskConsumingAStreamHasTakenEveryChangeWhenTheCallReturns() async throws {
    let phone = makePhone(.authorizedWhenInUse)
    let statuses = Recorder<LocationPermissionStatus>()
    let states = Recorder<LocationAccuracyAuthorization>()
    let a = phone.start { for await s in phone.statusUpdates() { statuses.append(s) } }
    let b = phone.start { for await s in phone.stateUpdates() { states.append(s.accuracy) } }
    try await phone.runUntilIdle()
    await phone.setAccuracy(.reduced)
    #expect(statuses.all == [.authorizedWhenInUse])  // accuracy is no status change
    #expect(states.all == [.full, .reduced])
    await phone.setServicesEnabled(false)
    #expect(statuses.all == [.authorizedWhenInUse, .denied])
    a.cancel()
    b.cancel()
    try await phone.runUntilIdle()
    #expect(phone.subscriberCount == 0)
  }

  @Test func cancelledOrDroppedSubscribersAreRemovedAtOnce() async throws {
    let phone = makePhone()
    let tasks = (0..<10).map { _ in phone.start { for await _ in phone.statusUpdates() {} } }
    try await phone.runUntilIdle()
    #expect(phone.subscriberCount == 10)
    for t in tasks { t.cancel() }
    try await phone.runUntilIdle()
    #expect(phone.subscriberCount == 0)
    #expect(phone.taskCount == 0)
    do {
      let dropped = phone.locations()
      _ = dropped
    }
    #expect(phone.subscriberCount == 0)
  }

  // MARK: One-shot requests and the continuous stream

  @Test(arguments: [LocationPermissionStatus.notDetermined, .denied, .restricted])
  func aRequestEndsAtOnceWhenNotAuthorized(status: LocationPermissionStatus) async {
    let phone = makePhone(status)
    let result = await phone.requestLocationResult()
    #expect(result.fix == nil && result.status == status && result.reason != nil)
    #expect(await phone.service.requestLocation() == nil)
  }

  @Test func aRequestEndsAtOnceWhenServicesAreOff() async {
    let phone = makePhone(.authorizedAlways, services: false)
    #expect(await phone.service.authorizationStatus == .denied)
    #expect(await phone.requestLocationResult() == LocationRequestResult(status: .denied, fix: nil, reason: .servicesDisabled))
  }

  @Test func aRequestGetsTheNextFixWholeWithItsAccuracyAuthorization() async throws {
    let phone = makePhone(.authorizedWhenInUse)
    let result = try await phone.advance(until: phone.start { await phone.requestLocationResult() })
    #expect(result.fix?.coordinate == warsaw && result.fix?.horizontalAccuracy == 5 && second(result.fix) == 0)
    #expect(result.accuracy == .full && result.status == .authorizedWhenInUse && result.reason == nil)
    #expect(phone.elapsed == .zero)
  }

  @Test func aRequestTimesOutAfterTenSecondsOnTheClock() async throws {
    let phone = makePhone(.authorizedWhenInUse, source: .none)
    let request = phone.start { await phone.requestLocationResult() }
    try await phone.advance(by: .milliseconds(9_999))
    #expect(!request.isFinished)
    try await phone.advance(by: .milliseconds(1))
    #expect(try await request.value.reason == .locationUnavailable)
  }

  @Test func aRevocationWhileWaitingIsItsOwnReasonWithTheNewStatus() async throws {
    let phone = makePhone(.authorizedWhenInUse, source: .none)
    let request = phone.start { await phone.requestLocationResult() }
    try await phone.advance(by: .seconds(1))
    await phone.setAuthorization(.denied)
    #expect(try await request.value == LocationRequestResult(status: .denied, fix: nil, reason: .revoked))
  }

  @Test func locationsFlowOnlyWhileAuthorizedAndResumeOnANewGrant() async throws {
    let phone = makePhone(.authorizedWhenInUse)
    let received = Recorder<LocationFix>()
    let consumer = phone.start { for await fix in phone.service.locations() { received.append(fix) } }
    try await phone.advance(by: .seconds(2))  // fixes at 0, 1, 2
    #expect(received.all.count == 3)
    await phone.setAuthorization(.denied)
    try await phone.advance(by: .seconds(3))  // 3, 4, 5 withheld
    #expect(received.all.count == 3)
    #expect(second(phone.latestFix) == 5)
    await phone.setAuthorization(.authorizedWhenInUse)
    try await phone.advance(by: .seconds(1))  // 6
    #expect(received.all.count == 4)
    await phone.setServicesEnabled(false)
    try await phone.advance(by: .seconds(2))
    #expect(received.all.map { second($0)! } == [0, 1, 2, 6])
    consumer.cancel()
    try await phone.runUntilIdle()
    #expect(phone.subscriberCount == 0)
  }

  @Test func aLostFixHoldsTheSourceBackUntilItIsBack() async throws {
    let phone = makePhone(.authorizedWhenInUse)
    let log = PhoneRecorder(phone)
    try await phone.advance(by: .seconds(1))
    await phone.setFixAvailable(false)
    let request = phone.start { await phone.requestLocationResult() }
    try await phone.advance(by: .seconds(3))
    #expect(!request.isFinished)
    await phone.setFixAvailable(true)
    try await phone.advance(by: .seconds(1))
    #expect(second(try await request.value.fix) == 5)
    #expect(log.locations.map { second($0)! } == [0, 1, 5])
  }

  @Test func reducedAccuracyCoarsensAndThrottles() async throws {
    let phone = makePhone(.authorizedWhenInUse, accuracy: .reduced)
    let received = Recorder<LocationFix>()
    _ = phone.start { for await fix in phone.locations() { received.append(fix) } }
    try await phone.advance(by: .seconds(20 * 60))
    // One fix at once, the next 15 minutes later: no more than a few an hour.
    #expect(received.all.map { second($0)! } == [0, 900])
    let fix = try #require(received.all.first)
    let moved = fix.coordinate!.distance(to: warsaw)
    #expect(moved > 10 && moved < 3000)
    #expect(fix.horizontalAccuracy! >= 3000)
    #expect(fix.speed == nil && fix.course == nil && fix.altitudeMSL == nil)
    phone.shutdown()
  }

  @Test func aOneShotRequestUnderReducedAccuracyIsCoarsenedButNotThrottled() async throws {
    let phone = makePhone(.authorizedWhenInUse, accuracy: .reduced)
    for _ in 0..<2 {
      let result = try await phone.advance(until: phone.start { await phone.requestLocationResult() })
      #expect(result.fix!.horizontalAccuracy! >= 3000 && result.accuracy == .reduced)
    }
  }

  @Test func aScriptedSourceDeliversItsFixesAtTheirTimes() async throws {
    let krakow = Coordinate(latitude: 50.0647, longitude: 19.9450)!
    let phone = makePhone(
      .authorizedWhenInUse,
      source: .script([ScriptedFix(at: .seconds(2), warsaw), .noFix(at: .seconds(3)), ScriptedFix(at: .seconds(7), krakow)]))
    let log = PhoneRecorder(phone)
    try await phone.advance(by: .seconds(10))
    #expect(log.locations.map(\.coordinate) == [warsaw, krakow])
    #expect(log.locations.map { second($0)! } == [2, 7])
    #expect(log.all.last == .sourceEnded(error: nil))
  }

  @Test func aBundledTraceReplaysToTheEndOnAVirtualClock() async throws {
    let walk = try Trace(path: tracePath("city-walk.nmea"))
    let phone = makePhone(.authorizedWhenInUse, source: .trace(walk))
    let log = PhoneRecorder(phone)
    try await phone.advance(by: .seconds(1000))
    let fixes = log.locations
    #expect(fixes.count == 973)
    #expect(fixes.first?.timestamp == ISO8601Time.parse("2026-05-16T09:00:00Z"))
    #expect(fixes.last?.timestamp == ISO8601Time.parse("2026-05-16T09:16:12Z"))
    #expect(log.all.last == .sourceEnded(error: nil))
    #expect(phone.clock.pendingTimerCount == 0)
  }

  @Test func anUnreadableTraceEndsTheSourceWithItsError() async throws {
    let missing = try Trace(path: "/nonexistent/walk.nmea", format: .nmea)
    let phone = EmulatedPhone(.init(source: .trace(missing), startsSource: false), clock: makeClock())
    let log = PhoneRecorder(phone)
    phone.startSource()
    try await phone.runUntilIdle()
    #expect(log.all == [.sourceEnded(error: "cannot read /nonexistent/walk.nmea: No such file or directory")])
  }

  // MARK: Shutdown

  @Test func shutdownEndsEveryWaitStreamObserverTaskAndTimer() async throws {
    let phone = makePhone(.notDetermined, answer: .none)
    let log = PhoneRecorder(phone)
    let prompt = phone.start { await phone.requestWhenInUseAuthorization() }
    let stream = phone.start { () -> Int in
      var n = 0
      for await _ in phone.stateUpdates() { n += 1 }
      return n
    }
    try await phone.advance(by: .seconds(3))
    #expect(phone.waitingCallCount == 1 && phone.subscriberCount == 1 && phone.taskCount == 2)
    phone.shutdown()
    #expect(try await prompt.value == .notDetermined)
    #expect(try await stream.value >= 1)
    #expect(phone.waitingCallCount == 0 && phone.subscriberCount == 0 && phone.taskCount == 0 && phone.observerCount == 0)
    #expect(phone.clock.pendingTimerCount == 0 && phone.clock.activeTaskCount == 0)
    #expect(!log.observation.isActive)
    // Later calls return at once; later streams end at once.
    #expect(await phone.requestLocationResult().reason == .cancelled)
    var late = phone.statusUpdates().makeAsyncIterator()
    #expect(await late.next() == nil)
  }
}
