import Foundation
import Geo
import LocationModel

// What happens inside the phone's lock: fixes received, events emitted, the permission and
// location machines' actions performed, timers fired.

/// The phone's state behind its lock, and what acts on it there: fixes received, events
/// emitted, the permission and location machines' actions performed, the phone's timers fired.
///
/// Apart from ``EmulatedPhone`` so that the phone's timers can hold it: a pending timer keeps
/// the engine alive (strongly, as its ``ClockTimerTarget``), never the phone, and the phone's
/// end (``EmulatedPhone/shutdown()``, or its deinit) shuts the engine down and cancels them.
final class PhoneEngine: ClockTimerTarget {
  let clock: EmulatorClock
  let core: Locked<PhoneCore>

  /// The tags of the phone's timers: the source's next fix, the scripted answer to the prompt;
  /// any other tag is the id of the location request whose timeout it is.
  static let sourceTimer = UInt64.max
  static let promptTimer = UInt64.max - 1

  init(clock: EmulatorClock, core: PhoneCore) {
    self.clock = clock
    self.core = Locked(core)
  }

  func clockTimerFired(_ tag: UInt64) {
    switch tag {
    case Self.sourceTimer: sourceFired()
    case Self.promptTimer: promptTimerFired()
    default: requestTimerFired(tag)
    }
  }
}

extension PhoneEngine {
  // MARK: Inside the lock

  /// A fix arrives. The epoch's events (the source's fix, the app's location) go out as one
  /// effect, queued on the clock; or, for a timer's action (`asTimerAction`) when they would be
  /// the loop's next step anyway (``EmulatorClock/claimNextStep()``), returned, for the action to
  /// deliver as its last work, after releasing the lock: the same order, without a queue entry,
  /// a closure and a turn of the loop for each fix.
  @discardableResult
  func receive(_ fix: consuming LocationFix, _ s: inout PhoneCore, asTimerAction: Bool = false) -> PhoneOutbox {
    guard !s.isShutDown else { return PhoneOutbox() }
    s.outbox = PhoneOutbox()
    if s.observedKinds.contains(.sourceFix) || !s.events.isEmpty { emit(.sourceFix(copy fix), &s) }
    if s.gate.pendingRequests.isEmpty {
      if s.gate.receiveForStream(&fix, now: clock.nowOffset, permission: s.permission.state) { deliver(fix, &s) }
    } else {
      for action in s.gate.receive(fix, now: clock.nowOffset, permission: s.permission.state) { perform(action, &s) }
    }
    let outbox = s.outbox.take() ?? PhoneOutbox()
    guard !outbox.isEmpty else { return outbox }
    if asTimerAction && clock.claimNextStep() { return outbox }
    clock.enqueueWithoutDriving { outbox.deliver() }
    return PhoneOutbox()
  }

  /// Queues `event` for observers and event streams, in order with everything else.
  func emit(_ event: consuming PhoneEvent, _ s: inout PhoneCore) {
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

  func perform(_ action: PermissionStateMachine.Action, _ s: inout PhoneCore) {
    switch action {
    case .report(let event): emit(.permission(event), &s)
    case .armPromptTimer(let delay):
      if let timer = s.promptTimer { clock.cancel(timer) }
      s.promptTimer = clock.schedule(at: clock.now.advanced(by: delay), target: self, tag: Self.promptTimer)
    case .cancelPromptTimer:
      if let timer = s.promptTimer { clock.cancel(timer) }
      s.promptTimer = nil
    case .resolvePromptWaiters(let status):
      let waiters = s.promptWaiters
      s.promptWaiters.removeAll()
      for (_, waiter) in waiters { waiter.resolve(status) }
    }
  }

  func perform(_ action: LocationGateStateMachine.Action, _ s: inout PhoneCore) {
    switch action {
    case .resolve(let id, let result): s.requests.removeValue(forKey: id)?.resolve(result)
    case .armRequestTimer(let id, let deadline):
      s.requestTimers[id] = clock.schedule(at: EmulatorClock.Instant(offset: deadline), target: self, tag: id)
    case .cancelRequestTimer(let id):
      if let timer = s.requestTimers.removeValue(forKey: id) { clock.cancel(timer) }
    case .deliver(let fix): deliver(fix, &s)
    }
  }

  /// A fix for the app: to its observers and its location streams.
  func deliver(_ fix: consuming LocationFix, _ s: inout PhoneCore) {
    let streams = s.locations.live
    let delivered = streams.isEmpty ? nil : copy fix
    if s.observedKinds.contains(.location) || !s.events.isEmpty { emit(.location(fix), &s) }
    if let delivered { clock.enqueueWithoutDriving { for stream in streams { stream.deliver(delivered) } } }
  }

  func promptTimerFired() {
    core.withLock { s in
      guard !s.isShutDown else { return }
      s.promptTimer = nil
      let before = s.permission.state
      for action in s.permission.promptTimerFired() { perform(action, &s) }
      stateChanged(from: before, &s)
    }
  }

  func requestTimerFired(_ id: UInt64) {
    core.withLock { s in
      s.requestTimers.removeValue(forKey: id)
      for action in s.gate.requestTimedOut(id, permission: s.permission.state) { perform(action, &s) }
    }
  }

  /// After the permission state may have changed: requests that lost their permission end,
  /// observers hear of it, and the streams get it.
  func stateChanged(from before: PermissionState, _ s: inout PhoneCore) {
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

/// Events that go out together, in order: the first held inline (an epoch usually has one,
/// and then costs no array).
struct PhoneOutbox: Sendable {
  private var first: PhoneOutgoingEvent?
  private var rest: [PhoneOutgoingEvent] = []

  var isEmpty: Bool { first == nil }

  mutating func append(_ item: consuming PhoneOutgoingEvent) {
    if first == nil { first = item } else { rest.append(item) }
  }

  func deliver() {
    first?.deliver()
    for item in rest { item.deliver() }
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
  var outbox: PhoneOutbox?
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
