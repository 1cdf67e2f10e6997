package import LocationModel
/// The permission rules of the emulated operating system for one app, as a value: each event
/// changes ``state`` and returns the actions its runtime must perform, in order. No task, no
/// clock: the prompt's delay is an action (arm a timer) and its expiry an event.
///
/// - The prompt appears only from `notDetermined` with Location Services on and the app in
///   the foreground (``requestWhenInUseAuthorization()``); a request while it is on screen
///   joins it; `restricted` never prompts.
/// - Always (``requestAlwaysAuthorization()``, once per app): from `notDetermined` the first
///   prompt's "Allow While Using App" grants a provisional Always (`authorizedAlways`), which
///   the second prompt — shown when the app leaves the foreground — confirms ("Change to Always
///   Allow", ``PromptAnswer/allowAlways``) or turns into when in use; from when in use (not
///   "Allow Once") the upgrade prompt gives Always on `allowAlways` and leaves when in use
///   otherwise. The scripted user gives ``promptAnswer`` after ``promptDelay``
///   (``promptTimerFired()``); the answer is fixed when the prompt appears. A `none` answer
///   never comes: the prompt stays until Settings decide or ``answerPrompt(_:)``.
/// - "Allow Once" grants when-in-use until the app leaves the foreground; then the status is
///   `notDetermined` again.
/// - Settings (``setAuthorization(_:)``, ``setServicesEnabled(_:)``, ``setAccuracy(_:)``)
///   apply at any moment and dismiss a prompt they make moot.
///
/// ```swift
/// var machine = PermissionStateMachine(initial: PermissionState(), promptAnswer: .allowOnce)
/// guard case .waitForPrompt(let actions) = machine.requestWhenInUseAuthorization() else { return }
/// // actions: report(.promptShown(answer: .allowOnce, delay: 1 s)), armPromptTimer(1 s)
/// let answered = machine.promptTimerFired()
/// // answered: report(.promptAnswered(.allowOnce, status: .authorizedWhenInUse)), resolvePromptWaiters(.authorizedWhenInUse)
/// ```
package struct PermissionStateMachine: Sendable, Hashable {
  /// What the runtime does, in the order given.
  package enum Action: Sendable, Hashable {
    /// Tell observers (transcripts).
    case report(PermissionEvent)
    /// Arm the prompt's timer: call ``promptTimerFired()`` after this long.
    case armPromptTimer(after: Duration)
    /// Disarm the prompt's timer.
    case cancelPromptTimer
    /// Return this status to every call waiting on the prompt.
    case resolvePromptWaiters(LocationPermissionStatus)
  }

  /// What happens to the app's request for authorization.
  package enum RequestOutcome: Sendable, Hashable {
    /// No prompt: the request returns this status at once.
    case answered(LocationPermissionStatus)
    /// The request waits for the prompt (shown now, with these actions, or already on screen).
    case waitForPrompt([Action])
  }

  package private(set) var state: PermissionState
  /// How the scripted user answers the next prompt.
  package private(set) var promptAnswer: PromptAnswer
  /// How long the scripted user takes to answer.
  package private(set) var promptDelay: Duration
  /// The answer the scripted user will give to the prompt on screen.
  package private(set) var pendingAnswer: PromptAnswer?
  /// Which prompt is on screen.
  package private(set) var promptKind = PromptKind.whenInUse

  /// The prompts of the emulated system.
  package enum PromptKind: Sendable, Hashable {
    /// Allow While Using App / Allow Once / Don't Allow.
    case whenInUse
    /// The same, for a request for Always: Allow While Using App grants a provisional Always.
    case alwaysFirst
    /// Keep Only While Using / Change to Always Allow (the upgrade, and the second prompt of a
    /// provisional Always).
    case upgradeToAlways
  }

  package init(
    initial: PermissionState = PermissionState(), promptAnswer: PromptAnswer = .allowWhileUsing, promptDelay: Duration = .seconds(1)
  ) {
    var initial = initial
    initial.promptShown = false
    state = initial
    self.promptAnswer = promptAnswer
    self.promptDelay = promptDelay
  }

  /// The app calls `requestWhenInUseAuthorization()`.
  package mutating func requestWhenInUseAuthorization() -> RequestOutcome {
    guard state.servicesEnabled, state.appStatus == .notDetermined else { return .answered(state.status) }
    guard !state.promptShown else { return .waitForPrompt([]) }
    // A prompt needs the app in the foreground (iOS shows none to an app in the background).
    guard state.app == .foreground else { return .answered(state.status) }
    return .waitForPrompt(showPrompt(.whenInUse))
  }

  /// The app calls `requestAlwaysAuthorization()`: a prompt from `notDetermined` (for a
  /// provisional Always) or from when in use (the upgrade), once per app, in the foreground.
  package mutating func requestAlwaysAuthorization() -> RequestOutcome {
    guard state.servicesEnabled, state.app == .foreground else { return .answered(state.status) }
    if state.promptShown { return .waitForPrompt([]) }
    guard !state.alwaysRequested else { return .answered(state.status) }
    switch state.appStatus {
    case .notDetermined:
      state.alwaysRequested = true
      return .waitForPrompt(showPrompt(.alwaysFirst))
    case .authorizedWhenInUse where !state.grantedOnce:
      state.alwaysRequested = true
      return .waitForPrompt(showPrompt(.upgradeToAlways))
    default:
      // After "Allow Once", Core Location ignores it; denied, restricted and Always need none.
      return .answered(state.status)
    }
  }

  private mutating func showPrompt(_ kind: PromptKind) -> [Action] {
    state.promptShown = true
    promptKind = kind
    pendingAnswer = promptAnswer
    var actions: [Action] = [.report(.promptShown(answer: promptAnswer, delay: promptDelay))]
    if promptAnswer != .none { actions.append(.armPromptTimer(after: promptDelay)) }
    return actions
  }

  /// The prompt's timer fired: the scripted user answers.
  package mutating func promptTimerFired() -> [Action] {
    guard state.promptShown, let answer = pendingAnswer, answer != .none else { return [] }
    return self.answer(answer, cancellingTimer: false)
  }

  /// The user answers the prompt on screen now (nothing happens without one, or for `none`).
  package mutating func answerPrompt(_ answer: PromptAnswer) -> [Action] {
    guard state.promptShown, answer != .none else { return [] }
    return self.answer(answer, cancellingTimer: true)
  }

  private mutating func answer(_ answer: PromptAnswer, cancellingTimer: Bool) -> [Action] {
    var actions: [Action] = cancellingTimer && pendingAnswer != PromptAnswer.none ? [.cancelPromptTimer] : []
    state.promptShown = false
    pendingAnswer = nil
    switch (promptKind, answer) {
    case (.upgradeToAlways, .allowAlways):
      state.appStatus = .authorizedAlways
      state.provisionalAlways = false
    case (.upgradeToAlways, _):
      // "Keep Only While Using": a provisional Always becomes when in use.
      if state.provisionalAlways { state.appStatus = .authorizedWhenInUse }
      state.provisionalAlways = false
    case (.alwaysFirst, .allowWhileUsing), (.alwaysFirst, .allowAlways):
      state.appStatus = .authorizedAlways
      state.provisionalAlways = true
      state.grantedOnce = false
    case (_, .allowWhileUsing), (_, .allowAlways):
      state.appStatus = .authorizedWhenInUse
      state.grantedOnce = false
    case (_, .allowOnce):
      state.appStatus = .authorizedWhenInUse
      state.grantedOnce = true
    case (_, .deny):
      state.appStatus = .denied
      state.grantedOnce = false
    case (_, .none):
      break
    }
    actions += [.report(.promptAnswered(answer, status: state.status)), .resolvePromptWaiters(state.status)]
    return actions
  }

  /// Takes the prompt off screen unanswered; the actions to do so.
  private mutating func dismissPrompt() -> [Action] {
    guard state.promptShown else { return [] }
    state.promptShown = false
    let hadTimer = pendingAnswer != PromptAnswer.none
    pendingAnswer = nil
    return hadTimer ? [.cancelPromptTimer] : []
  }

  /// The user sets the app's authorization in Settings.
  package mutating func setAuthorization(_ status: LocationPermissionStatus) -> [Action] {
    let hadPrompt = state.promptShown
    var actions = dismissPrompt()
    state.appStatus = status
    state.grantedOnce = false
    state.provisionalAlways = false
    if hadPrompt { actions += [.report(.promptDismissed(status: state.status)), .resolvePromptWaiters(state.status)] }
    return actions
  }

  /// Location Services switched system-wide; the app reads `denied` while they are off.
  package mutating func setServicesEnabled(_ enabled: Bool) -> [Action] {
    let hadPrompt = state.promptShown && !enabled
    var actions = enabled ? [] : dismissPrompt()
    state.servicesEnabled = enabled
    if hadPrompt { actions += [.report(.promptDismissed(status: state.status)), .resolvePromptWaiters(state.status)] }
    return actions
  }

  /// Precise location switched for the app.
  package mutating func setAccuracy(_ accuracy: LocationAccuracyAuthorization) -> [Action] {
    state.accuracy = accuracy
    return []
  }

  /// The app goes to the background or comes back; leaving the foreground ends "Allow Once"
  /// and shows the second prompt of a provisional Always.
  package mutating func setAppState(_ app: AppState) -> [Action] {
    state.app = app
    guard app == .background else { return [] }
    if state.provisionalAlways, state.servicesEnabled, !state.promptShown {
      return showPrompt(.upgradeToAlways)
    }
    guard state.grantedOnce else { return [] }
    state.appStatus = .notDetermined
    state.grantedOnce = false
    // "Allow Once" lapsed: the app may ask (for Always too) again.
    state.alwaysRequested = false
    return [.report(.allowOnceExpired)]
  }

  /// The app declares (or stops declaring) background location updates.
  package mutating func setBackgroundLocationUpdates(_ declared: Bool) {
    state.backgroundLocationUpdates = declared
  }

  /// Changes how the scripted user answers later prompts (not the one on screen).
  package mutating func setPromptAnswer(_ answer: PromptAnswer, delay: Duration? = nil) {
    promptAnswer = answer
    if let delay { promptDelay = delay }
  }
}
