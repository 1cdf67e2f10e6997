import Emulator
import Testing
import LocationModel

/// The permission rules as a value: every event's actions and state, with no task and no clock.
@Suite("PermissionStateMachine: the prompt, Allow Once, restricted, services, Settings")
struct PermissionStateMachineTests {
  typealias Machine = PermissionStateMachine

  func machine(
    _ status: LocationPermissionStatus = .notDetermined, services: Bool = true, answer: PromptAnswer = .allowWhileUsing
  )
    -> Machine
  {
    Machine(initial: PermissionState(appStatus: status, servicesEnabled: services), promptAnswer: answer, promptDelay: .seconds(2))
  }

  @Test func aRequestFromNotDeterminedShowsThePromptAndArmsItsTimer() {
    var m = machine()
    #expect(
      m.requestWhenInUseAuthorization()
        == .waitForPrompt([.report(.promptShown(answer: .allowWhileUsing, delay: .seconds(2))), .armPromptTimer(after: .seconds(2))]))
    #expect(m.state.promptShown)
    #expect(m.state.status == .notDetermined)
    // The scripted user answers when the timer fires.
    #expect(
      m.promptTimerFired()
        == [.report(.promptAnswered(.allowWhileUsing, status: .authorizedWhenInUse)), .resolvePromptWaiters(.authorizedWhenInUse)])
    #expect(m.state.status == .authorizedWhenInUse && !m.state.promptShown && !m.state.grantedOnce)
  }

  @Test(arguments: [LocationPermissionStatus.denied, .authorizedWhenInUse, .authorizedAlways, .restricted])
  func noPromptUnlessNotDetermined(status: LocationPermissionStatus) {
    var m = machine(status)
    #expect(m.requestWhenInUseAuthorization() == .answered(status))
    #expect(!m.state.promptShown)
  }

  @Test func noPromptWhileServicesAreOff() {
    var m = machine(services: false)
    #expect(m.requestWhenInUseAuthorization() == .answered(.denied))
  }

  @Test func aSecondRequestJoinsThePromptOnScreen() {
    var m = machine()
    _ = m.requestWhenInUseAuthorization()
    #expect(m.requestWhenInUseAuthorization() == .waitForPrompt([]))
  }

  @Test func denyGivesDeniedAndNoFurtherPrompt() {
    var m = machine(answer: .deny)
    _ = m.requestWhenInUseAuthorization()
    #expect(m.promptTimerFired().last == .resolvePromptWaiters(.denied))
    #expect(m.requestWhenInUseAuthorization() == .answered(.denied))
  }

  @Test func allowOnceLapsesInTheBackgroundAndPromptsAgain() {
    var m = machine(answer: .allowOnce)
    _ = m.requestWhenInUseAuthorization()
    _ = m.promptTimerFired()
    #expect(m.state.status == .authorizedWhenInUse && m.state.grantedOnce)
    #expect(m.setAppState(.background) == [.report(.allowOnceExpired)])
    #expect(m.state.status == .notDetermined && !m.state.grantedOnce)
    #expect(m.setAppState(.foreground) == [])
    guard case .waitForPrompt(let actions) = m.requestWhenInUseAuthorization() else {
      Issue.record("expected a second prompt")
      return
    }
    #expect(actions.first == .report(.promptShown(answer: .allowOnce, delay: .seconds(2))))
  }

  @Test func allowWhileUsingSurvivesTheBackground() {
    var m = machine()
    _ = m.requestWhenInUseAuthorization()
    _ = m.promptTimerFired()
    #expect(m.setAppState(.background) == [])
    #expect(m.state.status == .authorizedWhenInUse)
  }

  @Test func aNeverAnsweredPromptHasNoTimerAndEndsWhenSettingsDecide() {
    var m = machine(answer: .none)
    #expect(m.requestWhenInUseAuthorization() == .waitForPrompt([.report(.promptShown(answer: .none, delay: .seconds(2)))]))
    #expect(m.promptTimerFired() == [])
    #expect(
      m.setAuthorization(.authorizedAlways)
        == [.report(.promptDismissed(status: .authorizedAlways)), .resolvePromptWaiters(.authorizedAlways)])
    #expect(!m.state.promptShown)
  }

  @Test func settingsDismissAPromptAndDisarmItsTimer() {
    var m = machine()
    _ = m.requestWhenInUseAuthorization()
    #expect(
      m.setAuthorization(.denied) == [.cancelPromptTimer, .report(.promptDismissed(status: .denied)), .resolvePromptWaiters(.denied)])
    // The timer, had it fired anyway, does nothing.
    #expect(m.promptTimerFired() == [])
  }

  @Test func servicesOffDismissesThePromptAndReadsDenied() {
    var m = machine()
    _ = m.requestWhenInUseAuthorization()
    #expect(
      m.setServicesEnabled(false) == [.cancelPromptTimer, .report(.promptDismissed(status: .denied)), .resolvePromptWaiters(.denied)])
    #expect(m.state.status == .denied && m.state.appStatus == .notDetermined)
    #expect(m.setServicesEnabled(true) == [])
    #expect(m.state.status == .notDetermined)
  }

  @Test func theUserCanAnswerThePromptOnScreenDirectly() {
    var m = machine(answer: .none)
    _ = m.requestWhenInUseAuthorization()
    #expect(m.answerPrompt(.none) == [])
    #expect(m.answerPrompt(.deny) == [.report(.promptAnswered(.deny, status: .denied)), .resolvePromptWaiters(.denied)])
    #expect(m.answerPrompt(.allowOnce) == [])  // no prompt any more
  }

  @Test func restrictedCannotBeChangedByAPrompt() {
    var m = machine(.restricted, answer: .allowWhileUsing)
    #expect(m.requestWhenInUseAuthorization() == .answered(.restricted))
    #expect(m.answerPrompt(.allowWhileUsing) == [])
    #expect(m.state.status == .restricted)
  }

  @Test func aNewScriptAppliesToTheNextPromptNotTheOneOnScreen() {
    var m = machine(answer: .allowOnce)
    _ = m.requestWhenInUseAuthorization()
    m.setPromptAnswer(.deny, delay: .seconds(5))
    #expect(m.promptTimerFired().last == .resolvePromptWaiters(.authorizedWhenInUse))
  }

  @Test func accuracyChangesNoStatus() {
    var m = machine(.authorizedWhenInUse)
    #expect(m.setAccuracy(.reduced) == [])
    #expect(m.state.accuracy == .reduced && m.state.status == .authorizedWhenInUse)
  }
}
