/// The app's location authorization, as CoreLocation reports it.
public enum LocationPermissionStatus: String, Sendable, Hashable, CaseIterable, Codable {
  /// The user has not been asked yet: a prompt is possible.
  case notDetermined
  /// The user cannot change it (parental controls, device management); no prompt changes it.
  case restricted
  /// The user denied the app, or Location Services are off system-wide.
  case denied
  /// The app may receive locations while it is in use.
  case authorizedWhenInUse
  /// The app may receive locations at any time, in the background too.
  case authorizedAlways

  /// Whether the app may receive locations.
  public var isAuthorized: Bool { self == .authorizedWhenInUse || self == .authorizedAlways }
}

/// Precise or approximate location for the app (iOS 14's "Precise Location" switch).
public enum LocationAccuracyAuthorization: String, Sendable, Hashable, CaseIterable, Codable {
  /// Precise location: fixes as the source gives them.
  case full
  /// Approximate location only.
  case reduced
}

/// Whether the app is in use.
public enum AppState: String, Sendable, Hashable, CaseIterable, Codable {
  /// The app is in the foreground, in use.
  case foreground
  /// The app is in the background.
  case background
}
