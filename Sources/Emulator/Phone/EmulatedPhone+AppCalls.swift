import Foundation
import Geo
public import LocationModel

// The app's calls (what CLLocationManager's requests do) and the phone's streams and observers.
extension EmulatedPhone {
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
  /// once per app and in the foreground (see `PermissionStateMachine`); the status at once otherwise.
  public func requestAlwaysAuthorization() async -> LocationPermissionStatus {
    await requestAuthorization(always: true)
  }

  func requestAuthorization(always: Bool) async -> LocationPermissionStatus {
    let waiter = clock.makeWaiter(of: LocationPermissionStatus.self)
    let answered: LocationPermissionStatus? = core.withLock { s in
      guard !s.isShutDown else { return s.permission.state.status }
      let before = s.permission.state
      switch always ? s.permission.requestAlwaysAuthorization() : s.permission.requestWhenInUseAuthorization() {
      case .answered(let status): return status
      case .waitForPrompt(let actions):
        let id = s.nextID()
        s.promptWaiters.append((id, waiter))
        for action in actions { engine.perform(action, &s) }
        engine.stateChanged(from: before, &s)
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
  /// when the app may not have one; `LocationUnavailableReason.revoked` when permission goes
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
      for action in actions { engine.perform(action, &s) }
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
          for action in s.gate.cancelRequest(id, permission: s.permission.state) { engine.perform(action, &s) }
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
  /// Everything that happens from now on, as ``observe(_:_:)`` sees it; buffers the newest 4,096.
  public func events() -> AsyncStream<PhoneEvent> { subscribe(\.events, limit: 4096, current: nil) }

  func subscribe<Value: Sendable>(
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
}
