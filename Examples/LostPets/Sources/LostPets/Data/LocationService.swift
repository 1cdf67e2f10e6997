import CoreLocation
import Foundation

/// The app's location services over CoreLocation: an actor that owns a CLLocationManager and
/// turns its delegate callbacks into async results (continuations for the prompt and for
/// one-shot requests, a stream of authorization changes).
///
/// Every request ends whatever the user does: an authorization request when the status leaves
/// notDetermined, or when the app leaves the foreground with the prompt unanswered; a location
/// request with the location, or nil on an error.
actor LocationService: LocationServiceProtocol {
  private let manager: CLLocationManager
  private let delegate: LocationManagerDelegate
  private var authorizationContinuations: [CheckedContinuation<LocationPermissionStatus, Never>] = []
  private var locationContinuations: [CheckedContinuation<Coordinate?, Never>] = []
  private var statusContinuations: [UUID: AsyncStream<LocationPermissionStatus>.Continuation] = [:]

  init(notificationCenter: NotificationCenter = .default) {
    let manager = CLLocationManager()
    manager.desiredAccuracy = kCLLocationAccuracyHundredMeters
    let delegate = LocationManagerDelegate(notificationCenter: notificationCenter)
    self.manager = manager
    self.delegate = delegate
    delegate.service = self
    manager.delegate = delegate
  }

  var authorizationStatus: LocationPermissionStatus { LocationPermissionStatus(manager.authorizationStatus) }

  var authorizationStatusStream: AsyncStream<LocationPermissionStatus> {
    let (stream, continuation) = AsyncStream.makeStream(of: LocationPermissionStatus.self)
    let id = UUID()
    statusContinuations[id] = continuation
    continuation.onTermination = { [weak self] _ in
      Task { await self?.removeStatusContinuation(id) }
    }
    return stream
  }

  func requestWhenInUseAuthorization() async -> LocationPermissionStatus {
    let current = authorizationStatus
    guard current == .notDetermined else { return current }
    return await withCheckedContinuation { continuation in
      authorizationContinuations.append(continuation)
      manager.requestWhenInUseAuthorization()
    }
  }

  func requestLocation() async -> Coordinate? {
    guard authorizationStatus.isAuthorized else { return nil }
    return await withCheckedContinuation { continuation in
      locationContinuations.append(continuation)
      if locationContinuations.count == 1 { manager.requestLocation() }
    }
  }

  // MARK: From the delegate

  fileprivate func authorizationChanged(_ status: LocationPermissionStatus) {
    for continuation in statusContinuations.values { continuation.yield(status) }
    guard status != .notDetermined else { return }
    resumeAuthorizationRequests(with: status)
  }

  fileprivate func locationReceived(_ coordinate: Coordinate?) {
    let waiting = locationContinuations
    locationContinuations.removeAll()
    for continuation in waiting { continuation.resume(returning: coordinate) }
  }

  fileprivate func appDidEnterBackground() {
    // A prompt the user left unanswered: the request ends with the status as it stands.
    resumeAuthorizationRequests(with: authorizationStatus)
  }

  private func resumeAuthorizationRequests(with status: LocationPermissionStatus) {
    let waiting = authorizationContinuations
    authorizationContinuations.removeAll()
    for continuation in waiting { continuation.resume(returning: status) }
  }

  private func removeStatusContinuation(_ id: UUID) { statusContinuations[id] = nil }
}

/// The manager's delegate: forwards each callback (and the app's going to the background) to
/// the service.
private final class LocationManagerDelegate: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
  weak var service: LocationService?
  private let notificationCenter: NotificationCenter
  private var backgroundObserver: (any NSObjectProtocol)?

  init(notificationCenter: NotificationCenter) {
    self.notificationCenter = notificationCenter
    super.init()
    backgroundObserver = notificationCenter.addObserver(forName: AppLifecycle.didEnterBackground, object: nil, queue: nil) {
      [weak self] _ in
      Task { [service = self?.service] in await service?.appDidEnterBackground() }
    }
  }

  deinit {
    if let backgroundObserver { notificationCenter.removeObserver(backgroundObserver) }
  }

  func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
    let status = LocationPermissionStatus(manager.authorizationStatus)
    Task { [service] in await service?.authorizationChanged(status) }
  }

  func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    let coordinate = locations.last.map { Coordinate(latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude) }
    Task { [service] in await service?.locationReceived(coordinate) }
  }

  func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
    Task { [service] in await service?.locationReceived(nil) }
  }
}
