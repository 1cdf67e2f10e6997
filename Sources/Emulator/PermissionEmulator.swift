/// Everything about location permission that the operating system decides for one app.
public struct PermissionState: Sendable, Hashable {
  /// What the user chose for this app (Settings or the prompt).
  public var appStatus: LocationPermissionStatus
  /// Location Services, system-wide.
  public var servicesEnabled: Bool
  public var accuracy: LocationAccuracyAuthorization
  public var app: AppState
  /// Whether `appStatus` came from "Allow Once" (and lapses when the app leaves the foreground).
  public var grantedOnce: Bool
  /// Whether a permission prompt is on screen.
  public var promptShown: Bool

  public init(
    appStatus: LocationPermissionStatus = .notDetermined, servicesEnabled: Bool = true,
    accuracy: LocationAccuracyAuthorization = .full, app: AppState = .foreground
  ) {
    self.appStatus = appStatus
    self.servicesEnabled = servicesEnabled
    self.accuracy = accuracy
    self.app = app
    grantedOnce = false
    promptShown = false
  }

  /// What the app reads: `denied` while Location Services are off, the app's own status otherwise.
  public var status: LocationPermissionStatus { servicesEnabled ? appStatus : .denied }
}

/// Something the emulator did, for transcripts.
public enum PermissionEvent: Sendable, Hashable {
  /// A prompt appeared; the scripted user will answer `answer` after `delay` (never, for `.none`).
  case promptShown(answer: PromptAnswer, delay: Duration)
  /// The user answered; the app's status is now `status`.
  case promptAnswered(PromptAnswer, status: LocationPermissionStatus)
  /// The prompt went away unanswered (status changed in Settings, services off).
  case promptDismissed(status: LocationPermissionStatus)
  /// "Allow Once" lapsed because the app left the foreground.
  case allowOnceExpired
}

/// "The operating system" for one app: authorization, accuracy, Location Services,
/// the permission prompt and the app's lifecycle, all on one clock.
///
/// - The prompt: ``requestWhenInUseAuthorization()`` shows it only from
///   `notDetermined` with Location Services on; the scripted user answers
///   (``promptAnswer``) after ``promptDelay`` on the clock; a request while a
///   prompt is on screen joins it. `restricted` never prompts.
/// - "Allow Once" goes back to `notDetermined` when the app goes to the background.
/// - Settings: ``setAuthorization(_:)``, ``setServicesEnabled(_:)`` and
///   ``setAccuracy(_:)`` change things at any moment, as `simctl privacy` does,
///   without restarting anything.
/// - Every change is published: ``statusUpdates()`` (the status the app reads,
///   only when it changes), ``stateUpdates()`` (everything) and
///   ``appStateUpdates()``, each subscriber with its own stream that starts
///   with the current value (see ``Broadcaster``).
public actor PermissionEmulator<C: Clock> where C.Duration == Duration {
  public nonisolated let clock: C
  private nonisolated let states: Broadcaster<PermissionState>
  private nonisolated let statuses: Broadcaster<LocationPermissionStatus>
  private nonisolated let appStates: Broadcaster<AppState>
  private nonisolated let servicesStates: Broadcaster<Bool>
  private nonisolated let onEvent: (@Sendable (PermissionEvent) -> Void)?

  /// How the scripted user answers the next prompt.
  public private(set) var promptAnswer: PromptAnswer
  /// How long the user takes to answer.
  public private(set) var promptDelay: Duration

  private var promptWaiters: [Int: CheckedContinuation<LocationPermissionStatus, Never>] = [:]
  private var nextWaiter = 0
  private var promptTask: Task<Void, Never>?

  public init(
    initial: PermissionState = PermissionState(), promptAnswer: PromptAnswer = .allowWhileUsing,
    promptDelay: Duration = .seconds(1), clock: C, onEvent: (@Sendable (PermissionEvent) -> Void)? = nil
  ) {
    self.clock = clock
    var initial = initial
    initial.promptShown = false
    states = Broadcaster(initial)
    statuses = Broadcaster(initial.status)
    appStates = Broadcaster(initial.app)
    servicesStates = Broadcaster(initial.servicesEnabled)
    self.promptAnswer = promptAnswer
    self.promptDelay = promptDelay
    self.onEvent = onEvent
  }

  /// The current state (readable from anywhere, without waiting for the actor).
  public nonisolated var state: PermissionState { states.value }
  /// The status the app reads.
  public nonisolated var status: LocationPermissionStatus { statuses.value }

  /// The app's status: the current one, then each change.
  public nonisolated func statusUpdates() -> AsyncStream<LocationPermissionStatus> { statuses.subscribe() }
  /// The whole state: the current one, then each change of anything.
  public nonisolated func stateUpdates() -> AsyncStream<PermissionState> { states.subscribe() }
  /// Foreground/background: the current one, then each change.
  public nonisolated func appStateUpdates() -> AsyncStream<AppState> { appStates.subscribe() }

  /// Location Services on/off: the current setting, then each change.
  public nonisolated func servicesEnabledUpdates() -> AsyncStream<Bool> { servicesStates.subscribe() }

  /// Subscribers registered now, over all streams (for tests that check cleanup).
  public nonisolated var subscriberCount: Int {
    states.subscriberCount + statuses.subscriberCount + appStates.subscriberCount + servicesStates.subscriberCount
  }

  // MARK: The app's request

  /// What `CLLocationManager.requestWhenInUseAuthorization()` does, and waits for its outcome.
  ///
  /// Shows the prompt only when the app's status is `notDetermined` and Location
  /// Services are on; otherwise returns the current status at once. Returns the
  /// status after the user answered (or the prompt went away); a request made
  /// while the prompt is on screen waits for the same answer. A cancelled caller
  /// gets the current status back at once.
  public func requestWhenInUseAuthorization() async -> LocationPermissionStatus {
    var current = states.value
    guard current.servicesEnabled, current.appStatus == .notDetermined else { return current.status }
    if !current.promptShown {
      current.promptShown = true
      publish(current)
      onEvent?(.promptShown(answer: promptAnswer, delay: promptDelay))
      if promptAnswer != .none {
        // The deadline is fixed now, when the prompt appears, however late the task starts.
        let answer = promptAnswer, deadline = clock.now.advanced(by: promptDelay), clock = clock
        promptTask = Task {
          do {
            try await clock.sleep(until: deadline, tolerance: nil)
          } catch {
            return
          }
          self.answerPrompt(answer)
        }
      }
    }
    let id = nextWaiter
    nextWaiter += 1
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if Task.isCancelled {
          continuation.resume(returning: states.value.status)
        } else {
          promptWaiters[id] = continuation
        }
      }
    } onCancel: {
      Task { await self.dropWaiter(id) }
    }
  }

  private func dropWaiter(_ id: Int) {
    promptWaiters.removeValue(forKey: id)?.resume(returning: states.value.status)
  }

  /// The user answers the prompt on screen now (no effect without one).
  public func answerPrompt(_ answer: PromptAnswer) {
    var s = states.value
    guard s.promptShown, answer != .none else { return }
    promptTask?.cancel()
    promptTask = nil
    s.promptShown = false
    switch answer {
    case .allowWhileUsing:
      s.appStatus = .authorizedWhenInUse
      s.grantedOnce = false
    case .allowOnce:
      s.appStatus = .authorizedWhenInUse
      s.grantedOnce = true
    case .deny:
      s.appStatus = .denied
      s.grantedOnce = false
    case .none:
      break
    }
    publish(s)
    onEvent?(.promptAnswered(answer, status: s.status))
    resolvePrompt()
  }

  private func resolvePrompt() {
    let status = states.value.status
    let waiters = promptWaiters
    promptWaiters.removeAll()
    for continuation in waiters.values { continuation.resume(returning: status) }
  }

  /// Takes the prompt off screen unanswered, after something else decided the status.
  private func dismissPrompt(_ s: inout PermissionState) {
    guard s.promptShown else { return }
    promptTask?.cancel()
    promptTask = nil
    s.promptShown = false
  }

  // MARK: Settings and lifecycle

  /// The user sets the app's authorization in Settings.
  public func setAuthorization(_ status: LocationPermissionStatus) {
    var s = states.value
    let hadPrompt = s.promptShown
    dismissPrompt(&s)
    s.appStatus = status
    s.grantedOnce = false
    publish(s)
    if hadPrompt {
      onEvent?(.promptDismissed(status: s.status))
      resolvePrompt()
    }
  }

  /// Location Services switched system-wide; the app reads `denied` while they are off.
  public func setServicesEnabled(_ enabled: Bool) {
    var s = states.value
    let hadPrompt = s.promptShown && !enabled
    if !enabled { dismissPrompt(&s) }
    s.servicesEnabled = enabled
    publish(s)
    if hadPrompt {
      onEvent?(.promptDismissed(status: s.status))
      resolvePrompt()
    }
  }

  /// Precise location switched for the app.
  public func setAccuracy(_ accuracy: LocationAccuracyAuthorization) {
    var s = states.value
    s.accuracy = accuracy
    publish(s)
  }

  /// The app goes to the background or comes back. Leaving the foreground ends an "Allow Once" grant.
  public func setAppState(_ app: AppState) {
    var s = states.value
    s.app = app
    var expired = false
    if app == .background && s.grantedOnce {
      s.appStatus = .notDetermined
      s.grantedOnce = false
      expired = true
    }
    publish(s)
    if expired { onEvent?(.allowOnceExpired) }
  }

  /// Changes how the scripted user answers later prompts.
  public func setPromptAnswer(_ answer: PromptAnswer, delay: Duration? = nil) {
    promptAnswer = answer
    if let delay { promptDelay = delay }
  }

  private func publish(_ s: PermissionState) {
    states.publishIfChanged(s)
    statuses.publishIfChanged(s.status)
    appStates.publishIfChanged(s.app)
    servicesStates.publishIfChanged(s.servicesEnabled)
  }
}
