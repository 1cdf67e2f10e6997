/// What the app needs of the operating system's location services.
protocol LocationServiceProtocol: Sendable {
  /// The current permission status (Location Services off reads as denied).
  var authorizationStatus: LocationPermissionStatus { get async }
  /// Each change of the permission status, from now on.
  var authorizationStatusStream: AsyncStream<LocationPermissionStatus> { get async }
  /// Asks for permission when it is not determined (the system prompt); returns the status then.
  func requestWhenInUseAuthorization() async -> LocationPermissionStatus
  /// The user's current location, or nil when there is none (not authorized, no fix).
  func requestLocation() async -> Coordinate?
}
