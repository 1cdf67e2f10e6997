import Foundation

/// The outcome of asking for the user's location with whatever permission it needs.
struct LocationRequestResult: Equatable, Sendable {
  let location: Coordinate?
  let status: LocationPermissionStatus
}

/// The permission flow the app's screens share: asks when needed, reads the status, and tells
/// its observer of every change — from the service's stream while the app is in the
/// foreground, and on returning to the foreground (the user may have changed it in Settings
/// meanwhile: a change seen while in the background waits for the return, as a suspended app
/// hears of it then, and no location is asked for from the background).
@MainActor
final class LocationPermissionHandler {
  private let locationService: any LocationServiceProtocol
  private let notificationCenter: NotificationCenter
  private var lastStatus: LocationPermissionStatus?
  private var streamTask: Task<Void, Never>?
  private var foregroundObserver: (any NSObjectProtocol)?
  private var backgroundObserver: (any NSObjectProtocol)?
  private var inBackground = false
  private var onStatusChange: ((LocationPermissionStatus, Bool) -> Void)?

  init(locationService: any LocationServiceProtocol, notificationCenter: NotificationCenter = .default) {
    self.locationService = locationService
    self.notificationCenter = notificationCenter
  }

  /// Asks for permission when it is not determined, then for the location when authorized.
  func requestLocationWithPermissions() async -> LocationRequestResult {
    var status = await locationService.authorizationStatus
    if status == .notDetermined {
      status = await locationService.requestWhenInUseAuthorization()
    }
    lastStatus = status
    guard status.isAuthorized else { return LocationRequestResult(location: nil, status: status) }
    let location = await locationService.requestLocation()
    return LocationRequestResult(location: location, status: status)
  }

  /// The status now, and whether it became authorized since it was last read.
  func checkPermissionStatusChange() async -> (status: LocationPermissionStatus, didBecomeAuthorized: Bool) {
    let status = await locationService.authorizationStatus
    let didBecomeAuthorized = status.isAuthorized && !(lastStatus?.isAuthorized ?? false)
    lastStatus = status
    return (status, didBecomeAuthorized)
  }

  /// Calls `onStatusChange` with each new status and whether the app became authorized by it.
  func startObservingLocationPermissionChanges(onStatusChange: @escaping (LocationPermissionStatus, Bool) -> Void) {
    stopObservingLocationPermissionChanges()
    self.onStatusChange = onStatusChange
    streamTask = Task { [weak self, locationService] in
      for await status in await locationService.authorizationStatusStream {
        self?.statusObserved(status)
      }
    }
    foregroundObserver = notificationCenter.addObserver(forName: AppLifecycle.willEnterForeground, object: nil, queue: nil) {
      [weak self] _ in
      Task { @MainActor in await self?.recheckOnForeground() }
    }
    backgroundObserver = notificationCenter.addObserver(forName: AppLifecycle.didEnterBackground, object: nil, queue: nil) {
      [weak self] _ in
      Task { @MainActor in self?.inBackground = true }
    }
  }

  func stopObservingLocationPermissionChanges() {
    streamTask?.cancel()
    streamTask = nil
    if let foregroundObserver { notificationCenter.removeObserver(foregroundObserver) }
    if let backgroundObserver { notificationCenter.removeObserver(backgroundObserver) }
    foregroundObserver = nil
    backgroundObserver = nil
    onStatusChange = nil
  }

  private func statusObserved(_ status: LocationPermissionStatus) {
    guard !inBackground, status != lastStatus else { return }
    let didBecomeAuthorized = status.isAuthorized && !(lastStatus?.isAuthorized ?? false)
    lastStatus = status
    onStatusChange?(status, didBecomeAuthorized)
  }

  private func recheckOnForeground() async {
    inBackground = false
    let status = await locationService.authorizationStatus
    statusObserved(status)
  }
}
