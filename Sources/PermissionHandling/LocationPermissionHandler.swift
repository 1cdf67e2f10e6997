import Foundation
import Geo
public import LocationModel

/// The reusable permission flow of the iOS app, on any `LocationServiceProtocol`.
///
/// - ``requestLocationWithPermissions()``: prompts when the status is `notDetermined`, then
///   asks for one location; the result carries the whole fix and the accuracy it was given
///   under, or the reason there is none (`LocationUnavailableReason.revoked` when permission
///   went while it waited).
/// - ``checkPermissionStatusChange()``: the status now, and whether it became authorized since
///   the last check.
/// - ``startObservingLocationPermissionChanges(onStatusChange:)``: calls back on each change
///   of the status or of Location Services, *and* re-checks whenever the app returns to the
///   foreground, so a change made in Settings while the app was away is caught on return.
///   Location Services off is reported as not authorized with reason
///   `LocationUnavailableReason.servicesDisabled`. Only changes are reported;
///   `didBecomeAuthorized` is true whenever the app goes from not authorized to authorized.
/// - ``stopObservingLocationPermissionChanges()``: idempotent; no callback starts once it has
///   returned.
///
/// On a service that reports changes synchronously (`PermissionObserving`: an emulated phone's
/// service does) the handler observes it that way: the callback runs on the phone's clock, in
/// order with everything else, before the call that changed the permission (or the advance that
/// fired it) returns. On another service it observes the service's streams from tasks of its own,
/// on the scheduler of the code that started the observation (`CurrentScheduler`: a phone's
/// clock when that code runs on one).
public final class LocationPermissionHandler: Sendable {
  public let service: any LocationServiceProtocol
  private let lifecycle: (any AppLifecycleProviding)?
  private let state = Locked(HandlerState())
  /// Held while a callback runs, and taken by ``stopObservingLocationPermissionChanges()``, so
  /// that no callback is still running once a stop from another thread has returned.
  /// Recursive: a callback may stop the observation itself.
  private let calling = NSRecursiveLock()

  private struct HandlerState {
    var machine = PermissionHandlerStateMachine()
    var callback: (@Sendable (PermissionChange) -> Void)?
    var observation: Cancellation?
    var tasks: [Cancellation] = []
    var generation = 0
  }

  /// - Parameters:
  ///   - service: where permission and locations come from.
  ///   - lifecycle: the app's lifecycle, for the return-to-foreground re-check (not needed on a
  ///     `PermissionObserving` service, whose changes include the app's return).
  public init(service: any LocationServiceProtocol, lifecycle: (any AppLifecycleProviding)? = nil) {
    self.service = service
    self.lifecycle = lifecycle
  }

  public var isObserving: Bool { state.withLock { $0.callback != nil } }

  public func requestLocationWithPermissions() async -> LocationRequestResult {
    var status = await service.authorizationStatus
    let accuracy = await service.accuracyAuthorization
    guard await service.locationServicesEnabled else {
      return LocationRequestResult(status: status, fix: nil, accuracy: accuracy, reason: .servicesDisabled)
    }
    if status == .notDetermined { status = await service.requestWhenInUseAuthorization() }
    state.withLock { $0.machine.flowSaw(status) }
    guard status.isAuthorized else {
      let reason = PermissionHandlerStateMachine.reason(status: status, servicesEnabled: await service.locationServicesEnabled)
      return LocationRequestResult(status: status, fix: nil, accuracy: await service.accuracyAuthorization, reason: reason)
    }
    return await service.requestLocationResult()
  }

  public func checkPermissionStatusChange() async -> (status: LocationPermissionStatus, didBecomeAuthorized: Bool) {
    let status = await service.authorizationStatus
    return state.withLock { $0.machine.check(status: status) }
  }

  /// Starts observing; replaces an earlier observation. The first callback comes with the first change.
  public func startObservingLocationPermissionChanges(onStatusChange: @escaping @Sendable (PermissionChange) -> Void) async {
    stopObservingLocationPermissionChanges()
    if let observing = service as? any PermissionObserving {
      observe(observing, onStatusChange)
      return
    }
    let status = await service.authorizationStatus
    let servicesEnabled = await service.locationServicesEnabled
    let token = state.withLock { s in
      s.generation += 1
      s.callback = onStatusChange
      s.machine.startObserving(status: status, servicesEnabled: servicesEnabled)
      return s.generation
    }
    observeStreams(token: token)
  }

  public func stopObservingLocationPermissionChanges() {
    calling.lock()
    defer { calling.unlock() }
    let (observation, tasks) = state.withLock { s in
      s.generation += 1
      s.callback = nil
      s.machine.stopObserving()
      defer {
        s.observation = nil
        s.tasks.removeAll()
      }
      return (s.observation, s.tasks)
    }
    observation?.cancel()
    for task in tasks { task.cancel() }
  }

  /// On a service that reports changes synchronously: every change, in the service's order.
  private func observe(_ service: any PermissionObserving, _ callback: @escaping @Sendable (PermissionChange) -> Void) {
    state.withLock { s in
      s.generation += 1
      s.callback = callback
      let now = service.currentPermission
      s.machine.startObserving(status: now.status, servicesEnabled: now.servicesEnabled)
    }
    let observation = service.observePermission { [weak self] status, servicesEnabled in
      self?.report(status: status, servicesEnabled: servicesEnabled, token: nil)
    }
    let stale = state.withLock { s -> Bool in
      guard s.callback != nil else { return true }
      s.observation = observation
      return false
    }
    if stale { observation.cancel() }
  }

  /// On another service: the status stream, the services switch and the return to the
  /// foreground, through one stream handled in order. The tasks run on the caller's scheduler
  /// (``CurrentScheduler``: a phone's clock when the caller runs on one, else plain tasks).
  private func observeStreams(token: Int) {
    let scheduler = CurrentScheduler.current
    let (triggers, yield, finish) = scheduler.makeSignals()
    let statuses = service.authorizationStatusStream
    let switches = service.locationServicesStream
    let lifecycle = self.lifecycle
    let service = self.service
    let cancels = [
      scheduler.startTask("permission handler: statuses") {
        for await _ in statuses { yield() }
      },
      scheduler.startTask("permission handler: services") {
        // A services switch can leave the status as it was (denied → denied) but changes the reason.
        for await _ in switches { yield() }
      },
      scheduler.startTask("permission handler: lifecycle") {
        guard let lifecycle else { return }
        var previous: AppState?
        for await app in lifecycle.appStateUpdates() {
          if app == .foreground && previous == .background { yield() }
          previous = app
        }
      },
    ]
    let consumer = scheduler.startTask("permission handler: reports") { [weak self] in
      for await _ in triggers {
        guard !Task.isCancelled else { break }
        let status = await service.authorizationStatus
        let servicesEnabled = await service.locationServicesEnabled
        self?.report(status: status, servicesEnabled: servicesEnabled, token: token)
      }
    }
    let all = cancels + [consumer, Cancellation(finish)]
    let stale = state.withLock { s -> Bool in
      guard s.generation == token else { return true }
      s.tasks = all
      return false
    }
    if stale { for task in all { task.cancel() } }
  }

  private func report(status: LocationPermissionStatus, servicesEnabled: Bool, token: Int?) {
    calling.lock()
    defer { calling.unlock() }
    let call: (@Sendable (PermissionChange) -> Void, PermissionChange)? = state.withLock { s in
      guard token == nil || token == s.generation, let callback = s.callback,
        let change = s.machine.observed(status: status, servicesEnabled: servicesEnabled)
      else { return nil }
      return (callback, change)
    }
    if let (callback, change) = call { callback(change) }
  }
}
