// Shape of Polyline's MapKit bridge and LocationProvider's placeholder: an MKPolyline made from
// decoded coordinates, and CLLocation() as a stand-in, in a file that imports MapKit only.
import MapKit

public struct RouteOverlay {
  public let coordinates: [CLLocationCoordinate2D]

  public init(coordinates: [CLLocationCoordinate2D]) { self.coordinates = coordinates }

  public var mkPolyline: MKPolyline { MKPolyline(coordinates: coordinates, count: coordinates.count) }

  /// The last point, or CLLocation() when there is none.
  public var end: CLLocation {
    guard let last = coordinates.last else { return CLLocation() }
    return CLLocation(latitude: last.latitude, longitude: last.longitude)
  }
}
