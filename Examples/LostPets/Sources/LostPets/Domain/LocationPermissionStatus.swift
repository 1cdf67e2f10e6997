import CoreLocation

/// The app's view of location permission.
enum LocationPermissionStatus: Equatable, Sendable {
  case notDetermined
  case restricted
  case denied
  case authorizedWhenInUse
  case authorizedAlways

  /// Whether the app may get the user's location.
  var isAuthorized: Bool { self == .authorizedWhenInUse || self == .authorizedAlways }

  init(_ status: CLAuthorizationStatus) {
    switch status {
    case .notDetermined: self = .notDetermined
    case .restricted: self = .restricted
    case .denied: self = .denied
    case .authorizedWhenInUse: self = .authorizedWhenInUse
    case .authorizedAlways: self = .authorizedAlways
    }
  }
}
