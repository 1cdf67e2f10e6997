import MapKit

/// A point on Earth, as the app's domain holds it.
struct Coordinate: Codable, Equatable, Sendable {
  let latitude: Double
  let longitude: Double

  /// The map region `radiusMeters` around this point in every direction (city level by default).
  func mapRegion(radiusMeters: Double = 10_000) -> MKCoordinateRegion {
    MKCoordinateRegion(
      center: CLLocationCoordinate2D(latitude: latitude, longitude: longitude),
      latitudinalMeters: radiusMeters * 2,
      longitudinalMeters: radiusMeters * 2
    )
  }

  /// Metres to `other` on the ground.
  func distance(to other: Coordinate) -> CLLocationDistance {
    CLLocation(latitude: latitude, longitude: longitude).distance(from: CLLocation(latitude: other.latitude, longitude: other.longitude))
  }
}
