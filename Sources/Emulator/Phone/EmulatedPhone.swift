public import Foundation
import Geo
public import LocationServices
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
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let permission = Kinds(rawValue: 1 << 0)
    public static let applied = Kinds(rawValue: 1 << 1)
    public static let stateChanged = Kinds(rawValue: 1 << 2)
    public static let location = Kinds(rawValue: 1 << 3)
    public static let sourceFix = Kinds(rawValue: 1 << 4)
    public static let sourceEnded = Kinds(rawValue: 1 << 5)
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
  private let callback: @Sendable (PhoneEvent) -> Void
  private let active = Atomic(true)
  private let onCancel: @Sendable (UInt64) -> Void

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
///   (``PermissionStateMachine``). Settings change with ``setAuthorization(_:)``,
///   ``setServicesEnabled(_:)``, ``setAccuracy(_:)``, ``setAppState(_:)``, or ``apply(_:)``.
/// - **The location service** (``LocationGateStateMachine``): one-shot requests with a
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
    public var promptDelay: Duration
    /// How long a one-shot location request waits for a fix.
    public var requestTimeout: Duration
    public var reducedAccuracy: ReducedAccuracy
    public var source: PhoneSource
    /// The date at the phone's start (stamps fixed and scripted fixes).
    public var startDate: Date
    /// The start date unless one is given: 2026-01-01T00:00:00Z, so that runs are the same every day.
    public static let defaultStartDate = Date(timeIntervalSince1970: 1_767_225_600)
    /// Whether the source starts with the phone (else at ``EmulatedPhone/startSource()``).
    public var startsSource: Bool

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

  public let clock: EmulatorClock
  public let configuration: Configuration
  /// When the phone started, on its clock.
  public let startedAt: EmulatorClock.Instant
  let core: Locked<PhoneCore>
  /// The actions of the phone's own timers, made once (a timer then costs no allocation).
  private let actions = PhoneTimerActions()
  /// State that modules above keep per phone (``attachment(_:make:)``), by type.
  private let attachments = Locked<[ObjectIdentifier: any AnyObject & Sendable]>([:])

  /// A phone on `clock` (a new virtual clock of its own when nil).
  public init(_ configuration: Configuration = Configuration(), clock: EmulatorClock? = nil) {
    self.clock = clock ?? EmulatorClock()
    self.configuration = configuration
    startedAt = self.clock.now
    core = Locked(
      PhoneCore(
        permission: PermissionStateMachine(
          initial: configuration.permission, promptAnswer: configuration.promptAnswer, promptDelay: configuration.promptDelay),
        gate: LocationGateStateMachine(requestTimeout: configuration.requestTimeout, reducedAccuracy: configuration.reducedAccuracy)))
    actions.source = { [weak self] in self?.sourceFired() }
    actions.prompt = { [weak self] in self?.promptTimerFired() }
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
  /// Observers registered with ``observe(_:)`` now.
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
      for action in actions { if case .report = action { perform(action, &s) } }
      emit(.applied(event, s.permission.state), &s)
      for action in actions {
        if case .report = action { continue }
        perform(action, &s)
      }
      stateChanged(from: before, &s)
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
      stateChanged(from: before, &s)
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
    core.withLock { s in receive(fix, &s) }
    clock.drive()
  }

  private func applySettled(_ event: ScenarioEvent) async {
    try? await clock.runUntilIdle()
    apply(event)
    try? await clock.runUntilIdle()
  }

  // MARK: The app's calls

  /// What `CLLocationManager.requestWhenInUseAuthorization()` does, and waits for its outcome:
  /// a prompt only from `notDetermined` with Location Services on; the status at once otherwise;
  /// a call while the prompt is on screen waits for the same answer. A cancelled caller gets
  /// the status at once.
  public func requestWhenInUseAuthorization() async -> LocationPermissionStatus {
    await requestAuthorization(always: false)
  }

  /// What `CLLocationManager.requestAlwaysAuthorization()` does, and waits for its outcome: the
  /// prompt for a provisional Always from `notDetermined`, the upgrade prompt from when in use,
  /// once per app and in the foreground (see ``PermissionStateMachine``); the status at once otherwise.
  public func requestAlwaysAuthorization() async -> LocationPermissionStatus {
    await requestAuthorization(always: true)
  }

  private func requestAuthorization(always: Bool) async -> LocationPermissionStatus {
    let waiter = clock.makeWaiter(of: LocationPermissionStatus.self)
    let answered: LocationPermissionStatus? = core.withLock { s in
      guard !s.isShutDown else { return s.permission.state.status }
      let before = s.permission.state
      switch always ? s.permission.requestAlwaysAuthorization() : s.permission.requestWhenInUseAuthorization() {
      case .answered(let status): return status
      case .waitForPrompt(let actions):
        let id = s.nextID()
        s.promptWaiters.append((id, waiter))
        for action in actions { perform(action, &s) }
        stateChanged(from: before, &s)
        return nil
      }
    }
    if let answered { return answered }
    clock.drive()
    return await waiter.wait(
      register: {},
      onCancel: { [weak self] in
        guard let self else { return }
        let status = core.withLock { s in
          s.promptWaiters.removeAll { $0.waiter === waiter }
          return s.permission.state.status
        }
        if waiter.resolve(status) { clock.drive() }
      })
  }

  /// One fresh location: the next fix that reaches the app within the request timeout; at once
  /// when the app may not have one; ``LocationUnavailableReason/revoked`` when permission goes
  /// while it waits.
  public func requestLocationResult() async -> LocationRequestResult {
    let waiter = clock.makeWaiter(of: LocationRequestResult.self)
    let immediate: LocationRequestResult? = core.withLock { s in
      guard !s.isShutDown else { return .unavailable(.cancelled, in: s.permission.state) }
      let (id, actions) = s.gate.request(now: clock.nowOffset, permission: s.permission.state)
      guard let id else {
        for case .resolve(_, let result) in actions { return result }
        return .unavailable(.locationUnavailable, in: s.permission.state)
      }
      s.requests[id] = waiter
      for action in actions { perform(action, &s) }
      return nil
    }
    if let immediate { return immediate }
    clock.drive()
    return await waiter.wait(
      register: {},
      onCancel: { [weak self] in
        guard let self else { return }
        core.withLock { s in
          guard let id = s.requests.first(where: { $0.value === waiter })?.key else { return }
          for action in s.gate.cancelRequest(id, permission: s.permission.state) { perform(action, &s) }
        }
        clock.drive()
      })
  }

  // MARK: Streams and observers

  /// Calls `observer` with everything that happens on the phone (or only the `kinds` of
  /// events it wants), in order, on the clock's loop (synchronously, before an advance
  /// returns). The observer must not block; it may call the phone's synchronous API
  /// (``apply(_:)``, ``receiveNow(_:)``, ``start(_:_:)``), whose effects follow after the current ones.
  public func observe(_ kinds: PhoneEvent.Kinds = .all, _ observer: @escaping @Sendable (PhoneEvent) -> Void) -> PhoneObservation {
    core.withLock { s in
      let observation = PhoneObservation(id: s.nextID(), kinds: kinds, callback: observer) { [weak self] id in
        self?.core.withLock { s in
          s.observers.removeAll { $0.id == id }
          s.observedKinds = s.observers.reduce(into: []) { $0.formUnion($1.kinds) }
        }
      }
      if s.isShutDown {
        observation.deactivate()
      } else {
        s.observers.append(observation)
        s.observedKinds.formUnion(kinds)
      }
      return observation
    }
  }

  /// The status the app reads: the current one, then each change. Keeps only the newest value
  /// for a consumer that lags; ends when the phone shuts down, or when the consuming task is
  /// cancelled or drops the stream (its subscription is then removed at once).
  public func statusUpdates() -> AsyncStream<LocationPermissionStatus> {
    subscribe(\.statuses, limit: 1, current: { $0.permission.state.status })
  }
  /// The whole permission state: the current one, then each change (as ``statusUpdates()``).
  public func stateUpdates() -> AsyncStream<PermissionState> { subscribe(\.states, limit: 1, current: { $0.permission.state }) }
  /// Foreground/background: the current one, then each change (as ``statusUpdates()``).
  public func appStateUpdates() -> AsyncStream<AppState> { subscribe(\.appStates, limit: 1, current: { $0.permission.state.app }) }
  /// Location Services on/off: the current setting, then each change (as ``statusUpdates()``).
  public func servicesEnabledUpdates() -> AsyncStream<Bool> {
    subscribe(\.services, limit: 1, current: { $0.permission.state.servicesEnabled })
  }
  /// The fixes that reach the app from now on (reduced accuracy applied); buffers the newest
  /// 256 for a consumer that lags; ends as ``statusUpdates()``.
  public func locations() -> AsyncStream<LocationFix> { subscribe(\.locations, limit: 256, current: nil) }
  /// Everything that happens from now on, as ``observe(_:)`` sees it; buffers the newest 4,096.
  public func events() -> AsyncStream<PhoneEvent> { subscribe(\.events, limit: 4096, current: nil) }

  private func subscribe<Value: Sendable>(
    _ table: WritableKeyPath<PhoneCore, SubscriptionTable<Value>>, limit: Int, current: ((PhoneCore) -> Value)?
  ) -> AsyncStream<Value> {
    let subscription = PhoneSubscription<Value>(clock: clock, limit: limit)
    core.withLock { s in
      if s.isShutDown {
        subscription.finish()
        return
      }
      let id = s.nextID()
      s[keyPath: table].add(subscription, id: id)
      if let current { subscription.deliver(current(s)) }
      subscription.whenEnded { [weak self] in self?.core.withLock { $0.removeSubscription(id) } }
    }
    return subscription.stream()
  }

  // MARK: Tasks

  /// Starts `body` as one of the app's flows, on the phone's clock: the clock waits for it
  /// whenever it runs (see ``EmulatorClock/spawn(_:_:)``), and ``shutdown()`` cancels it.
  @discardableResult
  public func start<Success: Sendable>(_ name: String = "app", _ body: @escaping @Sendable () async -> Success) -> ClockTask<Success> {
    let entry = PhoneTaskEntry()
    let (id, shutDown) = core.withLock { s in
      let id = s.nextID()
      if !s.isShutDown { s.tasks[id] = entry }
      return (id, s.isShutDown)
    }
    let task = clock.spawn("\(configuration.name): \(name)") { [weak self] in
      // Code in the phone's tasks belongs to the phone (a CLLocationManager made there, say).
      let value = await EmulatedPhone.$current.withValue(self) { await body() }
      self?.core.withLock { _ = $0.tasks.removeValue(forKey: id) }
      return value
    }
    entry.attach(task)
    if shutDown { task.cancel() }
    return task
  }

  /// The phone the code running now belongs to: set by ``withEmulatedPhone(_:clock:binding:isolation:_:)``
  /// for its body and by ``start(_:_:)`` for the phone's tasks, inherited by their child tasks.
  /// The `CoreLocation` module binds a location manager made here to this phone.
  @TaskLocal public static var current: EmulatedPhone?

  /// Runs `body` as code of this phone (``current``), as its own tasks run.
  public func withCurrent<Result>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result) async rethrows -> Result
  {
    try await EmulatedPhone.$current.withValue(self, operation: body, isolation: isolation)
  }

  // MARK: Time

  /// Moves the clock forward: see ``EmulatorClock/advance(by:)``.
  public func advance(by duration: Duration) async throws(EmulatorClockError) { try await clock.advance(by: duration) }
  /// Moves the clock to `elapsed` since the phone started: see ``EmulatorClock/advance(to:)``.
  public func advance(toElapsed elapsed: Duration) async throws(EmulatorClockError) {
    try await clock.advance(to: startedAt.advanced(by: elapsed))
  }
  /// Runs what is due now: see ``EmulatorClock/runUntilIdle()``.
  public func runUntilIdle() async throws(EmulatorClockError) { try await clock.runUntilIdle() }
  /// Moves the clock as far as `task` needs: see ``EmulatorClock/advance(until:limit:)``.
  @discardableResult
  public func advance<Success: Sendable>(
    until task: ClockTask<Success>, limit: Duration = .seconds(86_400)
  )
    async throws(EmulatorClockError) -> Success
  {
    try await clock.advance(until: task, limit: limit)
  }

  // MARK: Lifetime

  /// Runs the phone until the task is cancelled: a live source is read, and a real-time clock
  /// fires its timers (unless another `run()` drives it already); then ``shutdown()``, and
  /// waits for the phone's tasks to end.
  public func run() async {
    await withDiscardingTaskGroup { group in
      // Drives a real-time clock's timers unless another run() does (a fleet's shared clock).
      group.addTask { await self.clock.run() }
      if case .live(let source) = configuration.source.kind {
        group.addTask { await self.read(source) }
      }
    }
    let tasks = shutdownCore()
    clock.drive()
    await waitForEnd(of: tasks)
  }

  /// Waits for the phone's tasks, which end with their cancellation, so that nothing outlives
  /// `run()`; but not for good. A task suspended on something the phone cannot end (a
  /// continuation that only a delegate callback would resume, for a request the shutdown
  /// cancelled) would never return: on a virtual clock, once no Swift job of the process is left
  /// to run, the clock's loop has nothing more to do, and such tasks have still not returned,
  /// they are left behind and `run()` returns.
  private func waitForEnd(of tasks: [PhoneTaskEntry]) async {
    guard clock.isVirtual, TaskQuiescence.isInstalled, !tasks.isEmpty else {
      for task in tasks { await task.finished() }
      return
    }
    let clock = self.clock
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let waiting = Locked<CheckedContinuation<Void, Never>?>(continuation)
      let left = Locked(tasks.count)
      let end: @Sendable () -> Void = {
        waiting.withLock { w in
          defer { w = nil }
          return w
        }?.resume()
      }
      Task {
        for task in tasks {
          await task.finished()
          left.withLock { $0 -= 1 }
        }
        end()
      }
      Task {
        // Suspended for good: three rounds in a row in which the process went quiet, the clock's
        // loop was run from outside any job (so that it counts nothing of this task's as
        // running) with the process still idle and the loop then at rest, and no step of the
        // loop and no task's end came. (In a busy process another job can arrive first, and the
        // loop then waits for it instead of running: such a round does not count.)
        var stillRounds = 0
        let idleRun = Locked(false)
        while stillRounds < 3 {
          let before = (clock.stepsRun, left.withLock { $0 })
          await TaskQuiescence.untilQuiet(then: {
            let idle = TaskQuiescence.isIdle
            clock.drive()
            idleRun.withLock { $0 = idle && TaskQuiescence.isIdle && clock.loopIsAtRest }
          })
          let after = (clock.stepsRun, left.withLock { $0 })
          if after.1 == 0 { return }
          stillRounds = after == before && idleRun.withLock({ $0 }) ? stillRounds + 1 : 0
        }
        end()
      }
    }
  }

  /// Ends the phone: the prompt and every request return (requests with
  /// ``LocationUnavailableReason/cancelled``), streams finish, observers stop, timers are
  /// cancelled, the source's file is closed, tasks started with ``start(_:_:)`` are cancelled.
  /// Later calls return at once. Idempotent.
  public func shutdown() {
    shutdownCore()
    clock.drive()
  }

  @discardableResult
  private func shutdownCore() -> [PhoneTaskEntry] {
    let (subscriptions, tasks, observers): ([() -> Void], [PhoneTaskEntry], [PhoneObservation]) = core.withLock { s in
      guard !s.isShutDown else { return ([], [], []) }
      s.isShutDown = true
      if let timer = s.promptTimer { clock.cancel(timer) }
      s.promptTimer = nil
      let status = s.permission.state.status
      for (_, waiter) in s.promptWaiters { waiter.resolve(status) }
      s.promptWaiters.removeAll()
      for action in s.gate.cancelAll(permission: s.permission.state) { perform(action, &s) }
      if let timer = s.sourceTimer { clock.cancel(timer) }
      s.sourceTimer = nil
      s.timeline?.close()
      s.timeline = nil
      let observers = s.observers
      s.observers.removeAll()
      s.observedKinds = []
      let tasks = Array(s.tasks.values)
      s.tasks.removeAll()
      return (s.finishAllSubscriptions(), tasks, observers)
    }
    for observer in observers { observer.deactivate() }
    for finish in subscriptions { finish() }
    for task in tasks { task.cancellation.cancel() }
    return tasks
  }

  private func read(_ source: any LocationSource) async {
    var failure: String?
    do {
      for try await fix in source { receiveNow(fix) }
    } catch is CancellationError {
      return
    } catch {
      failure = String(describing: error)
    }
    if Task.isCancelled { return }
    core.withLock { s in emit(.sourceEnded(error: failure), &s) }
    clock.drive()
  }

  // MARK: The source

  /// Starts a timeline source (done by the initializer unless ``Configuration/startsSource`` is
  /// false): its first fix is due now plus its first offset. Idempotent.
  public func startSource() {
    core.withLock { s in
      guard !s.sourceStarted, !s.isShutDown else { return }
      s.sourceStarted = true
      guard case .timeline(let make) = configuration.source.kind else { return }
      beginTimeline(make, startDate: configuration.startDate, &s)
    }
    clock.drive()
  }

  /// Plays `source` from now in place of the timeline source playing (whose file is closed):
  /// a trace run or a route given to a running phone. Its fixes are stamped from the phone's
  /// date now. A ``PhoneSource/live(_:)`` source cannot be played this way (it is read by
  /// ``run()``): the result is false and nothing changes.
  @discardableResult
  public func play(_ source: PhoneSource) -> Bool {
    guard case .timeline(let make) = source.kind else { return false }
    core.withLock { s in
      guard !s.isShutDown else { return }
      s.sourceStarted = true
      closeTimeline(&s)
      beginTimeline(make, startDate: date, &s)
    }
    clock.drive()
    return true
  }

  private func beginTimeline(_ make: @Sendable (Date) throws -> any PhoneTimeline, startDate: Date, _ s: inout PhoneCore) {
    s.sourceStart = clock.nowOffset
    (s.sourcePausedAt, s.sourceShift) = (nil, .zero)
    do {
      s.timeline = try make(startDate)
      scheduleNextSourceFix(&s)
    } catch {
      emit(.sourceEnded(error: String(describing: error)), &s)
    }
  }

  private func closeTimeline(_ s: inout PhoneCore) {
    if let timer = s.sourceTimer { clock.cancel(timer) }
    s.sourceTimer = nil
    s.pendingSourceFix = nil
    (s.sourcePausedAt, s.sourceShift) = (nil, .zero)
    s.timeline?.close()
    s.timeline = nil
  }

  /// Stops a timeline source now: no further fix; its file is closed. (A live source stops
  /// with ``run()``.)
  public func stopSource() {
    core.withLock { s in
      s.sourceStarted = true
      closeTimeline(&s)
    }
  }

  /// Pauses the timeline source playing (a trace, a route, a script, a fixed point): no fix
  /// comes until ``resumeSource()``, which carries on where it paused, the time paused added to
  /// the times and timestamps of the fixes still to come. (A live source cannot be paused.)
  /// - Returns: false when no timeline source is playing, or it is paused already.
  @discardableResult
  public func pauseSource() -> Bool {
    core.withLock { s in
      guard !s.isShutDown, s.timeline != nil, s.sourcePausedAt == nil else { return false }
      if let timer = s.sourceTimer { clock.cancel(timer) }
      s.sourceTimer = nil
      s.sourcePausedAt = clock.nowOffset
      return true
    }
  }

  /// Resumes a source paused by ``pauseSource()``: its next fix comes as long after now as it
  /// was due after the pause.
  /// - Returns: false when the source is not paused (or has been replaced since).
  @discardableResult
  public func resumeSource() -> Bool {
    let resumed = core.withLock { s -> Bool in
      guard !s.isShutDown, let pausedAt = s.sourcePausedAt else { return false }
      let paused = clock.nowOffset - pausedAt
      s.sourcePausedAt = nil
      s.sourceStart = s.sourceStart.map { $0 + paused }
      s.sourceShift += paused
      if s.pendingSourceFix != nil, let due = s.pendingSourceDue {
        s.pendingSourceDue = due + paused
        s.sourceTimer = clock.schedule(at: EmulatorClock.Instant(offset: due + paused), actions.source)
      }
      return true
    }
    if resumed { clock.drive() }
    return resumed
  }

  /// Whether ``pauseSource()`` paused the source playing.
  public var isSourcePaused: Bool { core.withLock { $0.sourcePausedAt != nil } }

  private func scheduleNextSourceFix(_ s: inout PhoneCore) {
    guard let timeline = s.timeline, let start = s.sourceStart else { return }
    do {
      if let (at, fix) = try timeline.next() {
        s.pendingSourceFix = fix
        s.pendingSourceDue = start + at
        s.sourceTimer = clock.schedule(at: EmulatorClock.Instant(offset: start + at), actions.source)
      } else {
        endSource(&s, error: nil)
      }
    } catch {
      endSource(&s, error: String(describing: error))
    }
  }

  private func endSource(_ s: inout PhoneCore, error: String?) {
    s.timeline?.close()
    s.timeline = nil
    s.sourceTimer = nil
    emit(.sourceEnded(error: error), &s)
  }

  private func sourceFired() {
    core.withLock { s in
      guard !s.isShutDown, var fix = s.pendingSourceFix.take() else { return }
      s.sourceTimer = nil
      // After a pause the fix is stamped as late as it comes.
      if s.sourceShift > .zero, let stamp = fix.timestamp { fix.timestamp = stamp + s.sourceShift.seconds }
      receive(fix, &s)
      scheduleNextSourceFix(&s)
    }
  }

  // MARK: Inside the lock

  private func receive(_ fix: LocationFix, _ s: inout PhoneCore) {
    guard !s.isShutDown else { return }
    // The epoch's events (the source's fix, the app's location) go out as one effect.
    s.outbox = []
    if s.observedKinds.contains(.sourceFix) || !s.events.isEmpty { emit(.sourceFix(fix), &s) }
    for action in s.gate.receive(fix, now: clock.nowOffset, permission: s.permission.state) { perform(action, &s) }
    let outbox = s.outbox ?? []
    s.outbox = nil
    if !outbox.isEmpty { clock.enqueueWithoutDriving { for item in outbox { item.deliver() } } }
  }

  /// Queues `event` for observers and event streams, in order with everything else.
  private func emit(_ event: PhoneEvent, _ s: inout PhoneCore) {
    let kind = event.kind
    guard s.observedKinds.contains(kind) || !s.events.isEmpty else { return }
    let observers = s.observers.allSatisfy({ $0.kinds.contains(kind) }) ? s.observers : s.observers.filter { $0.kinds.contains(kind) }
    let streams = s.events.isEmpty ? [] : s.events.live
    guard !observers.isEmpty || !streams.isEmpty else { return }
    let item = PhoneOutgoingEvent(event: event, observers: observers, streams: streams)
    if s.outbox != nil {
      s.outbox!.append(item)
    } else {
      clock.enqueueWithoutDriving { item.deliver() }
    }
  }

  private func perform(_ action: PermissionStateMachine.Action, _ s: inout PhoneCore) {
    switch action {
    case .report(let event): emit(.permission(event), &s)
    case .armPromptTimer(let delay):
      if let timer = s.promptTimer { clock.cancel(timer) }
      s.promptTimer = clock.schedule(after: delay, actions.prompt)
    case .cancelPromptTimer:
      if let timer = s.promptTimer { clock.cancel(timer) }
      s.promptTimer = nil
    case .resolvePromptWaiters(let status):
      let waiters = s.promptWaiters
      s.promptWaiters.removeAll()
      for (_, waiter) in waiters { waiter.resolve(status) }
    }
  }

  private func perform(_ action: LocationGateStateMachine.Action, _ s: inout PhoneCore) {
    switch action {
    case .resolve(let id, let result): s.requests.removeValue(forKey: id)?.resolve(result)
    case .armRequestTimer(let id, let deadline):
      s.requestTimers[id] = clock.schedule(at: EmulatorClock.Instant(offset: deadline)) { [weak self] in
        self?.requestTimerFired(id)
      }
    case .cancelRequestTimer(let id):
      if let timer = s.requestTimers.removeValue(forKey: id) { clock.cancel(timer) }
    case .deliver(let fix):
      if s.observedKinds.contains(.location) || !s.events.isEmpty { emit(.location(fix), &s) }
      let streams = s.locations.live
      if !streams.isEmpty { clock.enqueueWithoutDriving { for stream in streams { stream.deliver(fix) } } }
    }
  }

  private func promptTimerFired() {
    core.withLock { s in
      guard !s.isShutDown else { return }
      s.promptTimer = nil
      let before = s.permission.state
      for action in s.permission.promptTimerFired() { perform(action, &s) }
      stateChanged(from: before, &s)
    }
  }

  private func requestTimerFired(_ id: UInt64) {
    core.withLock { s in
      s.requestTimers.removeValue(forKey: id)
      for action in s.gate.requestTimedOut(id, permission: s.permission.state) { perform(action, &s) }
    }
  }

  /// After the permission state may have changed: requests that lost their permission end,
  /// observers hear of it, and the streams get it.
  private func stateChanged(from before: PermissionState, _ s: inout PhoneCore) {
    let after = s.permission.state
    guard after != before else { return }
    for action in s.gate.permissionChanged(to: after) { perform(action, &s) }
    emit(.stateChanged(from: before, to: after), &s)
    let statuses = after.status != before.status ? s.statuses.live : []
    let states = s.states.live
    let apps = after.app != before.app ? s.appStates.live : []
    let services = after.servicesEnabled != before.servicesEnabled ? s.services.live : []
    guard !(statuses.isEmpty && states.isEmpty && apps.isEmpty && services.isEmpty) else { return }
    clock.enqueueWithoutDriving {
      for subscription in statuses { subscription.deliver(after.status) }
      for subscription in states { subscription.deliver(after) }
      for subscription in apps { subscription.deliver(after.app) }
      for subscription in services { subscription.deliver(after.servicesEnabled) }
    }
  }
}

/// Everything of an ``EmulatedPhone`` behind its lock.
/// An event with who gets it.
struct PhoneOutgoingEvent: Sendable {
  let event: PhoneEvent
  let observers: [PhoneObservation]
  let streams: [PhoneSubscription<PhoneEvent>]

  func deliver() {
    for observer in observers { observer.deliver(event) }
    for stream in streams { stream.deliver(event) }
  }
}

struct PhoneCore {
  var permission: PermissionStateMachine
  var gate: LocationGateStateMachine
  var promptTimer: EmulatorClock.Timer?
  var promptWaiters: [(id: UInt64, waiter: ClockWaiter<LocationPermissionStatus>)] = []
  var requests: [UInt64: ClockWaiter<LocationRequestResult>] = [:]
  var requestTimers: [UInt64: EmulatorClock.Timer] = [:]
  var observers: [PhoneObservation] = []
  /// The kinds of events some observer wants.
  var observedKinds: PhoneEvent.Kinds = []
  var statuses = SubscriptionTable<LocationPermissionStatus>()
  var states = SubscriptionTable<PermissionState>()
  var appStates = SubscriptionTable<AppState>()
  var services = SubscriptionTable<Bool>()
  var locations = SubscriptionTable<LocationFix>()
  var events = SubscriptionTable<PhoneEvent>()
  var timeline: (any PhoneTimeline)?
  var sourceTimer: EmulatorClock.Timer?
  /// The fix the source timer delivers, and when (since the clock's start).
  var pendingSourceFix: LocationFix?
  var pendingSourceDue: Duration?
  var sourceStart: Duration?
  /// When ``EmulatedPhone/pauseSource()`` paused the source, and the time paused so far.
  var sourcePausedAt: Duration?
  var sourceShift = Duration.zero
  var sourceStarted = false
  var tasks: [UInt64: PhoneTaskEntry] = [:]
  var isShutDown = false
  /// While set, events wait here and go out together (``EmulatedPhone/receive``).
  var outbox: [PhoneOutgoingEvent]?
  private var lastID: UInt64 = 0

  init(permission: PermissionStateMachine, gate: LocationGateStateMachine) {
    self.permission = permission
    self.gate = gate
  }

  mutating func removeSubscription(_ id: UInt64) {
    statuses.remove(id)
    states.remove(id)
    appStates.remove(id)
    services.remove(id)
    locations.remove(id)
    events.remove(id)
  }

  mutating func nextID() -> UInt64 {
    lastID &+= 1
    return lastID
  }

  var subscriberCount: Int {
    statuses.count + states.count + appStates.count + services.count + locations.count + events.count
  }

  /// Empties every table; returns the calls that finish the subscriptions (made outside the lock).
  mutating func finishAllSubscriptions() -> [() -> Void] {
    var finishers: [() -> Void] = []
    finishers += statuses.removeAll().map { s in { s.finish() } }
    finishers += states.removeAll().map { s in { s.finish() } }
    finishers += appStates.removeAll().map { s in { s.finish() } }
    finishers += services.removeAll().map { s in { s.finish() } }
    finishers += locations.removeAll().map { s in { s.finish() } }
    finishers += events.removeAll().map { s in { s.finish() } }
    return finishers
  }
}

/// A task the phone started: to cancel it, and to wait for its end, before it is known.
final class PhoneTaskEntry: Sendable {
  let cancellation = CancellationHandle()
  private let finishedValue = Locked<(@Sendable () async -> Void)?>(nil)

  func attach<Success: Sendable>(_ task: ClockTask<Success>) {
    finishedValue.withLock { $0 = { _ = await task.task.value } }
    cancellation.attach { task.cancel() }
  }

  /// Returns when the task has returned. On a virtual clock the cancelled task's wake-ups run on
  /// the clock's loop, which this drives.
  func finished() async {
    guard let wait = finishedValue.withLock({ $0 }) else { return }
    await wait()
  }
}

/// A phone's timer actions: set once in the phone's initializer, before the phone is shared,
/// then only read.
private final class PhoneTimerActions: @unchecked Sendable {
  var source: @Sendable () -> Void = {}
  var prompt: @Sendable () -> Void = {}
}
