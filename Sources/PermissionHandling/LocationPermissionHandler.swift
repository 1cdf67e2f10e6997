public import Emulator
public import Geo

/// Why the app has no location, when it has none.
public enum LocationUnavailableReason: String, Sendable, Hashable, Codable {
  /// Location Services are off system-wide (the status reads `denied`).
  case servicesDisabled
  /// The user denied the app.
  case denied
  /// The app cannot be authorized (parental controls, device management).
  case restricted
  /// The user has not decided (a prompt was not shown or not answered).
  case notDetermined
  /// Authorized, but no location arrived in time.
  case locationUnavailable
}

/// The outcome of ``LocationPermissionHandler/requestLocationWithPermissions()``.
public struct LocationRequestResult: Sendable, Hashable {
  public var status: LocationPermissionStatus
  /// The location, when authorized and one arrived in time.
  public var location: Coordinate?
  /// Why there is no location; nil when there is one.
  public var reason: LocationUnavailableReason?

  public init(status: LocationPermissionStatus, location: Coordinate?, reason: LocationUnavailableReason?) {
    self.status = status
    self.location = location
    self.reason = reason
  }
}

/// What observers of ``LocationPermissionHandler`` are told.
public struct PermissionChange: Sendable, Hashable {
  public var status: LocationPermissionStatus
  /// The status went from not authorized to authorized with this change.
  public var didBecomeAuthorized: Bool
  /// Why the app is not authorized (nil when it is); services off has its own reason.
  public var reason: LocationUnavailableReason?

  public var isAuthorized: Bool { status.isAuthorized && reason == nil }
}

/// The reusable permission flow of the iOS app, on any ``LocationServiceProtocol``.
///
/// - ``requestLocationWithPermissions()``: prompts when the status is
///   `notDetermined`, then asks for one location.
/// - ``checkPermissionStatusChange()``: the status now, and whether it became
///   authorized since the last check.
/// - ``startObservingLocationPermissionChanges(onStatusChange:)``: calls back on
///   each change seen on the status stream *and* re-checks whenever the app
///   returns to the foreground, so a change made in Settings while the app was
///   away (when a real app is suspended and hears nothing) is caught on return.
///   Location Services off is reported as not authorized with reason
///   ``LocationUnavailableReason/servicesDisabled``. Only changes are reported.
/// - ``stopObservingLocationPermissionChanges()``: idempotent; once it has
///   returned, no callback runs.
public actor LocationPermissionHandler {
  public nonisolated let service: any LocationServiceProtocol
  private nonisolated let lifecycle: (any AppLifecycleProviding)?
  private var lastStatus: LocationPermissionStatus?
  private var lastReported: PermissionChange?
  private var observers: [Task<Void, Never>] = []
  private var callback: (@Sendable (PermissionChange) -> Void)?
  private var generation = 0

  public init(service: any LocationServiceProtocol, lifecycle: (any AppLifecycleProviding)? = nil) {
    self.service = service
    self.lifecycle = lifecycle
  }

  public var isObserving: Bool { callback != nil }

  public func requestLocationWithPermissions() async -> LocationRequestResult {
    var status = await service.authorizationStatus
    guard await service.locationServicesEnabled else {
      return LocationRequestResult(status: status, location: nil, reason: .servicesDisabled)
    }
    if status == .notDetermined { status = await service.requestWhenInUseAuthorization() }
    lastStatus = status
    guard status.isAuthorized else {
      return LocationRequestResult(status: status, location: nil, reason: await reason(for: status))
    }
    let location = await service.requestLocation()
    return LocationRequestResult(status: status, location: location, reason: location == nil ? .locationUnavailable : nil)
  }

  public func checkPermissionStatusChange() async -> (status: LocationPermissionStatus, didBecomeAuthorized: Bool) {
    let status = await service.authorizationStatus
    let was = lastStatus
    lastStatus = status
    return (status, status.isAuthorized && !(was?.isAuthorized ?? false) && was != nil)
  }

  /// Starts observing; replaces an earlier observation. The first callback comes with the first change.
  public func startObservingLocationPermissionChanges(onStatusChange: @escaping @Sendable (PermissionChange) -> Void) async {
    stopObservingLocationPermissionChanges()
    generation += 1
    let token = generation
    callback = onStatusChange
    let status = await service.authorizationStatus
    lastStatus = status
    lastReported = PermissionChange(status: status, didBecomeAuthorized: false, reason: await reason(for: status))
    // Both triggers go through one stream, handled one at a time, so callbacks keep their order.
    let (triggers, sink) = AsyncStream.makeStream(of: LocationPermissionStatus?.self)
    let statuses = service.authorizationStatusStream
    let servicesSwitches = service.locationServicesStream
    let feeders = [
      Task {
        for await status in statuses { sink.yield(status) }
      },
      Task {
        // A services switch can leave the status as it was (denied → denied) but changes the reason.
        for await _ in servicesSwitches { sink.yield(nil) }
      },
      Task { [lifecycle] in
        guard let lifecycle else { return }
        var previous: AppState?
        for await state in lifecycle.appStateUpdates() {
          // nil: re-check (the app came back to the foreground).
          if state == .foreground && previous == .background { sink.yield(nil) }
          previous = state
        }
      },
    ]
    observers.append(contentsOf: feeders)
    observers.append(
      Task {
        for await trigger in triggers {
          guard !Task.isCancelled else { break }
          if let status = trigger {
            await self.report(status, token: token)
          } else {
            await self.report(await self.service.authorizationStatus, token: token)
          }
        }
        for feeder in feeders { feeder.cancel() }
      })
  }

  public func stopObservingLocationPermissionChanges() {
    generation += 1
    callback = nil
    for task in observers { task.cancel() }
    observers.removeAll()
  }

  private func report(_ status: LocationPermissionStatus, token: Int) async {
    let reason = await reason(for: status)
    // Checked again after the awaits: a stop in between wins.
    guard token == generation, let callback else { return }
    let was = lastStatus
    lastStatus = status
    let change = PermissionChange(
      status: status, didBecomeAuthorized: status.isAuthorized && reason == nil && !(was?.isAuthorized ?? false),
      reason: reason)
    guard change.status != lastReported?.status || change.reason != lastReported?.reason else { return }
    lastReported = change
    callback(change)
  }

  private func reason(for status: LocationPermissionStatus) async -> LocationUnavailableReason? {
    if !(await service.locationServicesEnabled) { return .servicesDisabled }
    switch status {
    case .authorizedWhenInUse, .authorizedAlways: return nil
    case .denied: return .denied
    case .restricted: return .restricted
    case .notDetermined: return .notDetermined
    }
  }
}
