public import Foundation
import Geo
public import LocationModel
import Synchronization

/// Something that happened on an ``EmulatedPhone``, in the order it happened.
public indirect enum PhoneEvent: Sendable, Hashable {
  /// The operating system did something about permission (a prompt, its answer, a lapse).
  case permission(PermissionEvent)
  /// A setting or input was applied (``EmulatedPhone/apply(_:)``), with the state it produced.
  case applied(ScenarioEvent, PermissionState)
  /// The permission state changed (any member, the prompt on screen included).
  case stateChanged(from: PermissionState, to: PermissionState)
  /// A fix reached the app's continuous location stream (``LocationService/locations()``).
  case location(LocationFix)
  /// The source reported an epoch (whatever the permission; a no-fix report included).
  case sourceFix(LocationFix)
  /// The source ended; with its error, when it failed.
  case sourceEnded(error: String?)
}

extension PhoneEvent {
  /// Kinds of ``PhoneEvent``, for an observer that wants only some.
  public struct Kinds: OptionSet, Sendable, Hashable {
    /// The raw value: one bit per kind.
    public let rawValue: UInt8
    /// Creates a set of kinds from its raw value.
    /// - Parameter rawValue: the bits of the kinds.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// ``PhoneEvent/permission(_:)`` events.
    public static let permission = Kinds(rawValue: 1 << 0)
    /// ``PhoneEvent/applied(_:_:)`` events.
    public static let applied = Kinds(rawValue: 1 << 1)
    /// ``PhoneEvent/stateChanged(from:to:)`` events.
    public static let stateChanged = Kinds(rawValue: 1 << 2)
    /// ``PhoneEvent/location(_:)`` events.
    public static let location = Kinds(rawValue: 1 << 3)
    /// ``PhoneEvent/sourceFix(_:)`` events.
    public static let sourceFix = Kinds(rawValue: 1 << 4)
    /// ``PhoneEvent/sourceEnded(error:)`` events.
    public static let sourceEnded = Kinds(rawValue: 1 << 5)
    /// Every kind.
    public static let all = Kinds(rawValue: 0x3F)
  }

  /// This event's kind.
  public var kind: Kinds {
    switch self {
    case .permission: .permission
    case .applied: .applied
    case .stateChanged: .stateChanged
    case .location: .location
    case .sourceFix: .sourceFix
    case .sourceEnded: .sourceEnded
    }
  }
}

/// A synchronous observer of an ``EmulatedPhone``; ``cancel()`` ends it.
public final class PhoneObservation: Sendable {
  let id: UInt64
  let kinds: PhoneEvent.Kinds
  let callback: @Sendable (PhoneEvent) -> Void
  let active = Atomic(true)
  let onCancel: @Sendable (UInt64) -> Void

  init(
    id: UInt64, kinds: PhoneEvent.Kinds, callback: @escaping @Sendable (PhoneEvent) -> Void,
    onCancel: @escaping @Sendable (UInt64) -> Void
  ) {
    self.id = id
    self.kinds = kinds
    self.callback = callback
    self.onCancel = onCancel
  }

  /// Whether the observer is still called.
  public var isActive: Bool { active.load(ordering: .acquiring) }

  /// Stops the calls: none starts once this has returned. Idempotent.
  public func cancel() {
    if active.exchange(false, ordering: .acquiringAndReleasing) { onCancel(id) }
  }

  func deliver(_ event: PhoneEvent) {
    guard isActive else { return }
    callback(event)
  }

  func deactivate() { active.store(false, ordering: .releasing) }
}

/// An emulated phone: the permission system, the location service over a source, and every
/// timer of theirs, on one ``EmulatorClock``; a run is a function of its inputs.
///
/// - **The operating system**: authorization, Location Services, precise/approximate accuracy,
///   the permission prompt answered by a scripted user, "Allow Once", the app's lifecycle
///   (`PermissionStateMachine`). Settings change with ``setAuthorization(_:)``,
///   ``setServicesEnabled(_:)``, ``setAccuracy(_:)``, ``setAppState(_:)``, or ``apply(_:)``.
/// - **The location service** (`LocationGateStateMachine`): one-shot requests with a
///   timeout, a continuous stream while authorized, reduced accuracy, a lost fix.
/// - **The app's view**: ``service`` (the seed's `LocationServiceProtocol`), which the
///   `LocationPermissionHandler` and the map features use.
/// - **Time**: on a virtual clock (the default) nothing happens until an advance; each advance
///   returns when everything due has happened — deliveries to streams, callbacks, and the app's
///   tasks started with ``start(_:_:)`` run until they wait again — so a test asserts right after.
/// - **Lifetime**: ``run()`` (structured; needed on a real-time clock and for a live source)
///   ends with ``shutdown()``, which ends every wait, stream, timer, task and file of the
///   phone; ``withEmulatedPhone(_:clock:binding:isolation:_:)`` does both around a body.
///
/// ```swift
/// try await withEmulatedPhone(.init(permission: .init(appStatus: .notDetermined), source: .fixed(warsaw))) { phone in
///   let flow = phone.start { await phone.service.requestWhenInUseAuthorization() }
///   try await phone.advance(by: .seconds(1))      // the scripted user allows after 1 s
///   #expect(try await flow.value == .authorizedWhenInUse)
/// }
/// ```
public final class EmulatedPhone: Sendable {
  /// How a phone starts.
  public struct Configuration: Sendable {
    /// For messages and task names.
    public var name: String
    /// The permission state at the start.
    public var permission: PermissionState
    /// How the scripted user answers the permission prompt, and after how long.
    public var promptAnswer: PromptAnswer
    /// How long after a prompt appears the scripted user answers it.
    public var promptDelay: Duration
    /// How long a one-shot location request waits for a fix.
    public var requestTimeout: Duration
    /// What reduced accuracy does to locations, when the user chose it.
    public var reducedAccuracy: ReducedAccuracy
    /// Where the phone's positions come from.
    public var source: PhoneSource
    /// The date at the phone's start (stamps fixed and scripted fixes).
    public var startDate: Date
    /// The start date unless one is given: 2026-01-01T00:00:00Z, so that runs are the same every day.
    public static let defaultStartDate = Date(timeIntervalSince1970: 1_767_225_600)
    /// Whether the source starts with the phone (else at ``EmulatedPhone/startSource()``).
    public var startsSource: Bool

    /// A phone's configuration; by default an undecided permission that the scripted user allows
    /// while in use after 1 s, and no source.
    /// - Parameters:
    ///   - name: the phone's name, for messages and task names.
    ///   - permission: the permission state at the start.
    ///   - promptAnswer: how the scripted user answers the permission prompt.
    ///   - promptDelay: how long after a prompt appears the user answers it.
    ///   - requestTimeout: how long a one-shot location request waits for a fix.
    ///   - reducedAccuracy: what reduced accuracy does to locations.
    ///   - source: where the phone's positions come from.
    ///   - startDate: the date at the phone's start.
    ///   - startsSource: whether the source starts with the phone.
    public init(
      name: String = "phone", permission: PermissionState = PermissionState(), promptAnswer: PromptAnswer = .allowWhileUsing,
      promptDelay: Duration = .seconds(1), requestTimeout: Duration = .seconds(10), reducedAccuracy: ReducedAccuracy = ReducedAccuracy(),
      source: PhoneSource = .none, startDate: Date = Configuration.defaultStartDate, startsSource: Bool = true
    ) {
      self.name = name
      self.permission = permission
      self.promptAnswer = promptAnswer
      self.promptDelay = promptDelay
      self.requestTimeout = requestTimeout
      self.reducedAccuracy = reducedAccuracy
      self.source = source
      self.startDate = startDate
      self.startsSource = startsSource
    }
  }

  /// The clock the phone's timers and tasks run on.
  public let clock: EmulatorClock
  /// How the phone started.
  public let configuration: Configuration
  /// When the phone started, on its clock.
  public let startedAt: EmulatorClock.Instant
  /// The phone's state and what acts on it, held by the phone's timers (never the phone).
  let engine: PhoneEngine
  var core: Locked<PhoneCore> { engine.core }
  /// State that modules above keep per phone (``attachment(_:make:)``), by type.
  let attachments = Locked<[ObjectIdentifier: any AnyObject & Sendable]>([:])

  /// A phone on `clock` (a new virtual clock of its own when nil).
  public init(_ configuration: Configuration = Configuration(), clock: EmulatorClock? = nil) {
    self.clock = clock ?? EmulatorClock()
    self.configuration = configuration
    startedAt = self.clock.now
    engine = PhoneEngine(
      clock: self.clock,
      core: PhoneCore(
        permission: PermissionStateMachine(
          initial: configuration.permission, promptAnswer: configuration.promptAnswer, promptDelay: configuration.promptDelay),
        gate: LocationGateStateMachine(requestTimeout: configuration.requestTimeout, reducedAccuracy: configuration.reducedAccuracy)))
    if configuration.startsSource { startSource() }
  }

  deinit { shutdownCore() }

  /// The phone's one object of type `T`, made by `make` on first use: state that a module above
  /// keeps per phone (an app's monitored regions, say), owned by the phone and gone with it.
  /// `make` runs under the phone's attachment lock (never under its state lock): it must not
  /// ask for another attachment. The object must not hold the phone strongly.
  package func attachment<T: AnyObject & Sendable>(_ type: T.Type = T.self, make: () -> T) -> T {
    attachments.withLock { table in
      if let found = table[ObjectIdentifier(type)] as? T { return found }
      let made = make()
      table[ObjectIdentifier(type)] = made
      return made
    }
  }

  // MARK: State

  /// The permission state now.
  public var state: PermissionState { core.withLock { $0.permission.state } }
  /// The status the app reads now.
  public var status: LocationPermissionStatus { state.status }
  /// How the scripted user answers the next prompt, and after how long.
  public var promptScript: (answer: PromptAnswer, delay: Duration) {
    core.withLock { ($0.permission.promptAnswer, $0.permission.promptDelay) }
  }
  /// The newest fix from the source while not paused, whatever the permission.
  public var latestFix: LocationFix? { core.withLock { $0.gate.latestFix } }
  /// Whether the source's fixes are held back (``setFixAvailable(_:)``).
  public var isFixLost: Bool { core.withLock { $0.gate.isSourcePaused } }
  /// Time since the phone started.
  public var elapsed: Duration { startedAt.duration(to: clock.now) }
  /// The phone's date now: its start date plus the time elapsed on its clock.
  public var date: Date { configuration.startDate.addingTimeInterval(elapsed.seconds) }
  /// Whether ``shutdown()`` ran.
  public var isShutDown: Bool { core.withLock { $0.isShutDown } }
  /// The app's view of location.
  public var service: LocationService { LocationService(phone: self) }

  /// Subscribers of the phone's streams now, over all streams (for tests that check cleanup).
  public var subscriberCount: Int { core.withLock { $0.subscriberCount } }
  /// Observers registered with ``observe(_:_:)`` now.
  public var observerCount: Int { core.withLock { $0.observers.count } }
  /// Tasks started with ``start(_:_:)`` that have not finished.
  public var taskCount: Int { core.withLock { $0.tasks.count } }
  /// Requests and prompt calls waiting now.
  public var waitingCallCount: Int { core.withLock { $0.requests.count + $0.promptWaiters.count } }

  // MARK: Settings and inputs

  /// Applies a setting or input now, synchronously: `permission=…`, `services=…`,
  /// `accuracy=…`, `background`, `foreground`, `answer=…` and `fix=lost|back`. Returns false
  /// for events the phone does not apply (the app's calls, map events).
  ///
  /// What it sets off runs on the clock's loop: at once when nothing else runs the loop, else
  /// after the current step. Observers see, in order: the operating system's reports (a
  /// dismissed prompt, a lapsed "Allow Once"), ``PhoneEvent/applied(_:_:)``, the calls that
  /// end because of it, ``PhoneEvent/stateChanged(from:to:)``, then the streams get it.
  @discardableResult
  public func apply(_ event: ScenarioEvent) -> Bool {
    let handled = core.withLock { s -> Bool in
      let before = s.permission.state
      var actions: [PermissionStateMachine.Action]
      switch event {
      case .permission(let status): actions = s.isShutDown ? [] : s.permission.setAuthorization(status)
      case .services(let on): actions = s.isShutDown ? [] : s.permission.setServicesEnabled(on)
      case .accuracy(let accuracy): actions = s.isShutDown ? [] : s.permission.setAccuracy(accuracy)
      case .background: actions = s.isShutDown ? [] : s.permission.setAppState(.background)
      case .foreground: actions = s.isShutDown ? [] : s.permission.setAppState(.foreground)
      case .answer(let answer): actions = s.isShutDown ? [] : s.permission.answerPrompt(answer)
      case .fix(let available):
        if !s.isShutDown { s.gate.setSourcePaused(!available) }
        actions = []
      case .authorize, .authorizeAlways, .request, .locate, .tap, .back, .swipeBack, .retry:
        return false
      }
      guard !s.isShutDown else { return true }
      // The OS's own reports come first, then the change itself, then what follows from it.
      for action in actions { if case .report = action { engine.perform(action, &s) } }
      engine.emit(.applied(event, s.permission.state), &s)
      for action in actions {
        if case .report = action { continue }
        engine.perform(action, &s)
      }
      engine.stateChanged(from: before, &s)
      return true
    }
    clock.drive()
    return handled
  }

  /// Whether the app receives locations in the background while authorized only when in use
  /// (iOS: the `location` background mode with `allowsBackgroundLocationUpdates`, or a
  /// background activity session). Applied now, synchronously, as ``apply(_:)`` applies.
  public func setBackgroundLocationUpdates(_ declared: Bool) {
    core.withLock { s in
      guard !s.isShutDown, s.permission.state.backgroundLocationUpdates != declared else { return }
      let before = s.permission.state
      s.permission.setBackgroundLocationUpdates(declared)
      engine.stateChanged(from: before, &s)
    }
    clock.drive()
  }

  /// The user sets the app's authorization in Settings; returns when what follows has happened.
  public func setAuthorization(_ status: LocationPermissionStatus) async { await applySettled(.permission(status)) }
  /// Location Services switched system-wide (the app reads `denied` while they are off).
  public func setServicesEnabled(_ enabled: Bool) async { await applySettled(.services(enabled)) }
  /// Precise location switched for the app.
  public func setAccuracy(_ accuracy: LocationAccuracyAuthorization) async { await applySettled(.accuracy(accuracy)) }
  /// The app goes to the background or comes back ("Allow Once" lapses in the background).
  public func setAppState(_ app: AppState) async { await applySettled(app == .background ? .background : .foreground) }
  /// The user answers the prompt on screen now.
  public func answerPrompt(_ answer: PromptAnswer) async { await applySettled(.answer(answer)) }
  /// The source's fixes stop (`false`: a tunnel, a lost fix) or resume (`true`).
  public func setFixAvailable(_ available: Bool) async { await applySettled(.fix(available: available)) }

  /// How the scripted user answers later prompts, and after how long.
  public func setPromptAnswer(_ answer: PromptAnswer, delay: Duration? = nil) {
    core.withLock { $0.permission.setPromptAnswer(answer, delay: delay) }
  }

  /// A fix from outside (a test) arrives now; returns when what follows has happened. (On a
  /// virtual clock, what was running first waits for its next wait, so the fix comes after it.)
  public func send(_ fix: LocationFix) async {
    try? await clock.runUntilIdle()
    receiveNow(fix)
    try? await clock.runUntilIdle()
  }

  /// Sends a 2D fix at `coordinate`, stamped `timestamp` (the phone's date now when nil).
  public func send(_ coordinate: Coordinate, horizontalAccuracy: Double? = 5, timestamp: Date? = nil) async {
    await send(
      LocationFix(
        timestamp: timestamp ?? configuration.startDate.addingTimeInterval(elapsed.seconds), mode: .twoD, coordinate: coordinate,
        horizontalAccuracy: horizontalAccuracy))
  }

  /// A fix arrives now, synchronously (a live source; an observer's reaction). What it sets off
  /// runs on the clock's loop, as for ``apply(_:)``.
  public func receiveNow(_ fix: LocationFix) {
    core.withLock { s in _ = engine.receive(fix, &s) }
    clock.drive()
  }

  func applySettled(_ event: ScenarioEvent) async {
    try? await clock.runUntilIdle()
    apply(event)
    try? await clock.runUntilIdle()
  }
}
