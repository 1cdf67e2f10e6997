/// The app's location authorization, as CoreLocation reports it.
public enum LocationPermissionStatus: String, Sendable, Hashable, CaseIterable, Codable {
  /// The user has not been asked yet: a prompt is possible.
  case notDetermined
  /// The user cannot change it (parental controls, device management); no prompt changes it.
  case restricted
  /// The user denied the app, or Location Services are off system-wide.
  case denied
  case authorizedWhenInUse
  case authorizedAlways

  /// Whether the app may receive locations.
  public var isAuthorized: Bool { self == .authorizedWhenInUse || self == .authorizedAlways }
}

/// Precise or approximate location for the app (iOS 14's "Precise Location" switch).
public enum LocationAccuracyAuthorization: String, Sendable, Hashable, CaseIterable, Codable {
  case full, reduced
}

/// Whether the app is in use.
public enum AppState: String, Sendable, Hashable, CaseIterable, Codable {
  case foreground, background
}
