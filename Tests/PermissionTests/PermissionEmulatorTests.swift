import Clocks
import Emulator
import Testing

@Suite("PermissionEmulator: the prompt, Allow Once, restricted, services, the status stream")
struct PermissionEmulatorTests {
  func emulator(
    _ status: LocationPermissionStatus = .notDetermined, answer: PromptAnswer = .allowWhileUsing,
    delay: Duration = .seconds(2), clock: TestClock<Duration>, events: Recorder<PermissionEvent>? = nil
  ) -> PermissionEmulator<TestClock<Duration>> {
    PermissionEmulator(
      initial: PermissionState(appStatus: status), promptAnswer: answer, promptDelay: delay, clock: clock,
      onEvent: { events?.append($0) })
  }

  @Test func promptIsAnsweredAfterTheDelayOnTheClock() async {
    let clock = TestClock()
    let events = Recorder<PermissionEvent>()
    let os = emulator(clock: clock, events: events)
    let request = Task { await os.requestWhenInUseAuthorization() }
    await untilSleeping(clock)
    #expect(os.state.promptShown)
    await clock.advance(by: .milliseconds(1999))
    #expect(os.status == .notDetermined)
    await clock.advance(by: .milliseconds(1))
    #expect(await request.value == .authorizedWhenInUse)
    #expect(os.status == .authorizedWhenInUse && !os.state.promptShown)
    #expect(events.all == [.promptShown(answer: .allowWhileUsing, delay: .seconds(2)), .promptAnswered(.allowWhileUsing, status: .authorizedWhenInUse)])
  }

  @Test(arguments: [LocationPermissionStatus.denied, .authorizedWhenInUse, .authorizedAlways, .restricted])
  func noPromptUnlessNotDetermined(status: LocationPermissionStatus) async {
    let clock = TestClock()
    let events = Recorder<PermissionEvent>()
    let os = emulator(status, clock: clock, events: events)
    #expect(await os.requestWhenInUseAuthorization() == status)
    #expect(events.all.isEmpty)
  }

  @Test func restrictedCannotBeChangedByAPrompt() async {
    let clock = TestClock()
    let os = emulator(.restricted, answer: .allowWhileUsing, delay: .zero, clock: clock)
    #expect(await os.requestWhenInUseAuthorization() == .restricted)
    await clock.advance(by: .seconds(10))
    #expect(os.status == .restricted)
  }

  @Test func denyingGivesDenied() async {
    let clock = TestClock()
    let os = emulator(answer: .deny, clock: clock)
    let request = Task { await os.requestWhenInUseAuthorization() }
    await untilSleeping(clock)
    await clock.advance(by: .seconds(2))
    #expect(await request.value == .denied)
    // Denied: a second request shows no prompt.
    #expect(await os.requestWhenInUseAuthorization() == .denied)
  }

  @Test func allowOnceLapsesWhenTheAppGoesToTheBackground() async {
    let clock = TestClock()
    let events = Recorder<PermissionEvent>()
    let os = emulator(answer: .allowOnce, delay: .zero, clock: clock, events: events)
    let request = Task { await os.requestWhenInUseAuthorization() }
    await untilSleeping(clock)
    await clock.advance(by: .zero)
    #expect(await request.value == .authorizedWhenInUse)
    #expect(os.state.grantedOnce)
    await os.setAppState(.background)
    #expect(os.status == .notDetermined)
    #expect(events.all.last == .allowOnceExpired)
    await os.setAppState(.foreground)
    // Not determined again: the next request prompts again.
    let again = Task { await os.requestWhenInUseAuthorization() }
    await untilSleeping(clock)
    await clock.advance(by: .zero)
    #expect(await again.value == .authorizedWhenInUse)
    #expect(events.all.filter { if case .promptShown = $0 { true } else { false } }.count == 2)
  }

  @Test func allowWhileUsingSurvivesTheBackground() async {
    let clock = TestClock()
    let os = emulator(answer: .allowWhileUsing, delay: .zero, clock: clock)
    let request = Task { await os.requestWhenInUseAuthorization() }
    await untilSleeping(clock)
    await clock.advance(by: .zero)
    _ = await request.value
    await os.setAppState(.background)
    #expect(os.status == .authorizedWhenInUse)
  }

  @Test func requestsWhileAPromptIsShownJoinIt() async {
    let clock = TestClock()
    let events = Recorder<PermissionEvent>()
    let os = emulator(clock: clock, events: events)
    let first = Task { await os.requestWhenInUseAuthorization() }
    await settle()
    let second = Task { await os.requestWhenInUseAuthorization() }
    await settle()
    await untilSleeping(clock)
    await clock.advance(by: .seconds(2))
    #expect(await first.value == .authorizedWhenInUse)
    #expect(await second.value == .authorizedWhenInUse)
    #expect(events.all.count == 2)  // one prompt, one answer
  }

  @Test func aNeverAnsweredPromptEndsWhenSettingsDecide() async {
    let clock = TestClock()
    let events = Recorder<PermissionEvent>()
    let os = emulator(answer: .none, clock: clock, events: events)
    let request = Task { await os.requestWhenInUseAuthorization() }
    await settle()
    await clock.advance(by: .seconds(3600))
    #expect(os.state.promptShown)
    await os.setAuthorization(.authorizedAlways)
    #expect(await request.value == .authorizedAlways)
    #expect(events.all.last == .promptDismissed(status: .authorizedAlways))
  }

  @Test func theUserCanAnswerThePromptOnScreenDirectly() async {
    let clock = TestClock()
    let os = emulator(answer: .none, clock: clock)
    let request = Task { await os.requestWhenInUseAuthorization() }
    await settle()
    await os.answerPrompt(.deny)
    #expect(await request.value == .denied)
  }

  @Test func aCancelledRequestReturnsTheCurrentStatusAtOnce() async {
    let clock = TestClock()
    let os = emulator(answer: .none, clock: clock)
    let request = Task { await os.requestWhenInUseAuthorization() }
    await settle()
    request.cancel()
    #expect(await request.value == .notDetermined)
  }

  @Test func servicesOffReadsDeniedAndTheOldStatusReturns() async {
    let clock = TestClock()
    let os = emulator(.authorizedWhenInUse, clock: clock)
    await os.setServicesEnabled(false)
    #expect(os.status == .denied)
    #expect(os.state.appStatus == .authorizedWhenInUse)
    await os.setServicesEnabled(true)
    #expect(os.status == .authorizedWhenInUse)
  }

  @Test func noPromptWhileServicesAreOff() async {
    let clock = TestClock()
    let events = Recorder<PermissionEvent>()
    let os = PermissionEmulator(
      initial: PermissionState(appStatus: .notDetermined, servicesEnabled: false), clock: clock,
      onEvent: { events.append($0) })
    #expect(await os.requestWhenInUseAuthorization() == .denied)
    #expect(events.all.isEmpty)
  }

  @Test func servicesSwitchedOffDismissesAPrompt() async {
    let clock = TestClock()
    let os = emulator(answer: .none, clock: clock)
    let request = Task { await os.requestWhenInUseAuthorization() }
    await settle()
    await os.setServicesEnabled(false)
    #expect(await request.value == .denied)
    #expect(!os.state.promptShown)
  }

  @Test func eachSubscriberSeesTheCurrentStatusFirstThenChangesInOrder() async {
    let clock = TestClock()
    let os = emulator(clock: clock)
    var iterator = os.statusUpdates().makeAsyncIterator()
    #expect(await iterator.next() == .notDetermined)
    await os.setAuthorization(.denied)
    #expect(await iterator.next() == .denied)
    await os.setAuthorization(.authorizedAlways)
    #expect(await iterator.next() == .authorizedAlways)
    // A new subscriber starts at the current value.
    var late = os.statusUpdates().makeAsyncIterator()
    #expect(await late.next() == .authorizedAlways)
  }

  @Test func aLaggingSubscriberKeepsOnlyTheNewest() async {
    let clock = TestClock()
    let os = emulator(clock: clock)
    var iterator = os.statusUpdates().makeAsyncIterator()
    await os.setAuthorization(.denied)
    await os.setAuthorization(.restricted)
    await os.setAuthorization(.authorizedAlways)
    #expect(await iterator.next() == .authorizedAlways)
  }

  @Test func accuracyChangesDoNotRepeatTheStatus() async {
    let clock = TestClock()
    let os = emulator(.authorizedWhenInUse, clock: clock)
    let statuses = Recorder<LocationPermissionStatus>()
    let states = Recorder<PermissionState>()
    let a = Task { for await s in os.statusUpdates() { statuses.append(s) } }
    let b = Task { for await s in os.stateUpdates() { states.append(s) } }
    await settle()
    await os.setAccuracy(.reduced)
    await settle()
    #expect(statuses.all == [.authorizedWhenInUse])
    #expect(states.all.map(\.accuracy) == [.full, .reduced])
    a.cancel()
    b.cancel()
  }

  @Test func cancelledSubscribersAreRemovedAtOnce() async {
    let clock = TestClock()
    let os = emulator(clock: clock)
    let tasks = (0..<10).map { _ in Task { for await _ in os.statusUpdates() {} } }
    await settle()
    #expect(os.subscriberCount == 10)
    for t in tasks { t.cancel() }
    for t in tasks { await t.value }
    #expect(os.subscriberCount == 0)
  }
}
