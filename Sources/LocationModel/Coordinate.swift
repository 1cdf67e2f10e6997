/// A WGS 84 position in degrees.
public struct Coordinate: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Degrees north, -90…90.
  public let latitude: Double
  /// Degrees east, -180…180.
  public let longitude: Double

  /// Creates a coordinate; nil when latitude is outside -90…90, longitude outside -180…180, or either is not finite.
  public init?(latitude: Double, longitude: Double) {
    guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude)
    else { return nil }
    self.latitude = latitude
    self.longitude = longitude
  }

  /// A coordinate known to be valid (one stored from a coordinate made by the checked
  /// initializer).
  init(unchecked latitude: Double, _ longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// The coordinate as `latitude,longitude`.
  public var description: String { "\(latitude),\(longitude)" }
}
