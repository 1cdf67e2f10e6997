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
  /// Authorized only when in use, and the app stayed in the background (without background
  /// location updates) until the request's deadline: iOS gives it no location there.
  case inBackground
  /// Authorized, but no location arrived in time.
  case locationUnavailable
  /// Authorization was taken away (in Settings, or "Allow Once" lapsed) while the request waited.
  case revoked
  /// The request's task was cancelled, or the phone shut down, before a location arrived.
  case cancelled
}

extension LocationUnavailableReason {
  /// Why an app with `status` gets no location, as far as the status and the services switch
  /// tell (nil: they allow one); whether the app is in the background is not known here.
  public init?(status: LocationPermissionStatus, servicesEnabled: Bool) {
    guard servicesEnabled else {
      self = .servicesDisabled
      return
    }
    switch status {
    case .authorizedWhenInUse, .authorizedAlways: return nil
    case .denied: self = .denied
    case .restricted: self = .restricted
    case .notDetermined: self = .notDetermined
    }
  }
}

/// The outcome of a one-shot location request: the whole fix, and the permission it was
/// given under; or why there is none.
public struct LocationRequestResult: Sendable, Hashable {
  /// The app's status when the request ended.
  public var status: LocationPermissionStatus
  /// The fix (coordinate, altitudes, speed, course, accuracy, time), when one arrived in time.
  public var fix: LocationFix?
  /// Precise or approximate: under reduced accuracy the fix is coarsened.
  public var accuracy: LocationAccuracyAuthorization
  /// Why there is no fix; nil when there is one.
  public var reason: LocationUnavailableReason?

  /// A result from its parts.
  ///
  /// - Parameters:
  ///   - status: The app's status when the request ended.
  ///   - fix: The fix, when one arrived in time.
  ///   - accuracy: Precise or approximate location.
  ///   - reason: Why there is no fix; nil when there is one.
  public init(
    status: LocationPermissionStatus, fix: LocationFix?, accuracy: LocationAccuracyAuthorization = .full,
    reason: LocationUnavailableReason?
  ) {
    self.status = status
    self.fix = fix
    self.accuracy = accuracy
    self.reason = reason
  }

  /// A result with a bare coordinate (the seed API's shape).
  public init(status: LocationPermissionStatus, location: Coordinate?, reason: LocationUnavailableReason?) {
    self.init(status: status, fix: location.map { LocationFix(mode: .twoD, coordinate: $0) }, reason: reason)
  }

  /// The location, when one arrived.
  public var location: Coordinate? { fix?.coordinate }
}
