/// The app's view of location: the seed API of the iOS app's `LocationServiceProtocol`, plus
/// what Linux tests need beyond it.
public protocol LocationServiceProtocol: Sendable {
  /// The current authorization (`denied` while Location Services are off).
  var authorizationStatus: LocationPermissionStatus { get async }
  /// The status now, then each change.
  var authorizationStatusStream: AsyncStream<LocationPermissionStatus> { get }
  /// Shows the permission prompt when the status is `notDetermined`; returns the status after it.
  func requestWhenInUseAuthorization() async -> LocationPermissionStatus
  /// One fresh location, or nil when not authorized, Location Services are off, or none arrives in time.
  func requestLocation() async -> Coordinate?
  /// Whether Location Services are on system-wide (tells "denied by the user" from "services off").
  var locationServicesEnabled: Bool { get async }
  /// Location Services on/off now, then each change (a switch that leaves the status `denied` still shows here).
  var locationServicesStream: AsyncStream<Bool> { get }
  /// Precise or approximate location for the app.
  var accuracyAuthorization: LocationAccuracyAuthorization { get async }
  /// Like ``requestLocation()``, with the whole fix, the accuracy it was given under, the
  /// status when the request ended, and why there is no fix when there is none.
  func requestLocationResult() async -> LocationRequestResult
  /// Locations as they come, while the app may have them: one stream per call.
  func locations() -> AsyncStream<LocationFix>
}

extension LocationServiceProtocol {
  /// Full accuracy, for services that know no other.
  public var accuracyAuthorization: LocationAccuracyAuthorization { get async { .full } }

  /// Built from the status, the services switch and ``requestLocation()``: a bare coordinate.
  public func requestLocationResult() async -> LocationRequestResult {
    let status = await authorizationStatus
    let servicesEnabled = await locationServicesEnabled
    let accuracy = await accuracyAuthorization
    if let reason = LocationUnavailableReason(status: status, servicesEnabled: servicesEnabled) {
      return LocationRequestResult(status: status, fix: nil, accuracy: accuracy, reason: reason)
    }
    let location = await requestLocation()
    return LocationRequestResult(
      status: await authorizationStatus, fix: location.map { LocationFix(mode: .twoD, coordinate: $0) },
      accuracy: accuracy, reason: location == nil ? .locationUnavailable : nil)
  }
}

/// App lifecycle events, for observers that re-check permission on return to the foreground.
public protocol AppLifecycleProviding: Sendable {
  /// The app's state now, then each change.
  func appStateUpdates() -> AsyncStream<AppState>
}
