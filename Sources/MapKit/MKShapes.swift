public import CoreLocation
public import Foundation
import Geo
import LocationModel

/// A circle over the map, as MapKit's: a centre and a radius in metres (a region's or a
/// geofence's outline).
open class MKCircle: MKShape, MKOverlay {
  private let center: CLLocationCoordinate2D
  /// The radius, metres.
  open private(set) var radius: CLLocationDistance

  /// A circle from its centre and radius.
  /// - Parameters:
  ///   - coord: The centre.
  ///   - radius: The radius, metres.
  public init(center coord: CLLocationCoordinate2D, radius: CLLocationDistance) {
    center = coord
    self.radius = radius
    super.init()
  }

  /// The circle that fits in `mapRect` (its centre, and half its shorter side at the centre's
  /// latitude).
  public convenience init(mapRect: MKMapRect) {
    let middle = MKMapPoint(x: mapRect.midX, y: mapRect.midY).coordinate
    let side = min(mapRect.width, mapRect.height) * MKMetersPerMapPointAtLatitude(middle.latitude)
    self.init(center: middle, radius: side / 2)
  }

  /// The circle's centre.
  open override var coordinate: CLLocationCoordinate2D { center }

  /// The square of map points that holds the circle.
  open var boundingMapRect: MKMapRect {
    let middle = MKMapPoint(center)
    let half = radius * MKMapPointsPerMeterAtLatitude(center.latitude)
    return MKMapRect(x: middle.x - half, y: middle.y - half, width: 2 * half, height: 2 * half)
  }
}

/// A line that follows the great circle between its points, as MapKit's: the shortest way on
/// the Earth, drawn as a curve on the flat map. It holds the points along the great circles
/// (one every 10 km at most), so `pointCount` is larger than the coordinates given.
open class MKGeodesicPolyline: MKPolyline {
  /// An empty line, with no points.
  public override init() { super.init() }
  override init(mapPoints: [MKMapPoint]) { super.init(mapPoints: mapPoints) }

  /// A line along the great circles between the given coordinates.
  /// - Parameters:
  ///   - coords: The coordinates, in order.
  ///   - count: How many there are.
  public convenience init(coordinates coords: UnsafePointer<CLLocationCoordinate2D>, count: Int) {
    let given = Array(UnsafeBufferPointer(start: coords, count: count))
    self.init(mapPoints: Self.alongGreatCircles(given).map(MKMapPoint.init))
  }

  /// A line along the great circles between the given map points.
  /// - Parameters:
  ///   - points: The map points, in order.
  ///   - count: How many there are.
  public convenience init(points: UnsafePointer<MKMapPoint>, count: Int) {
    let given = UnsafeBufferPointer(start: points, count: count).map(\.coordinate)
    self.init(mapPoints: Self.alongGreatCircles(given).map(MKMapPoint.init))
  }

  /// `coordinates` with points added along each great-circle leg (Geo's great circle), at most
  /// 10 km apart.
  static func alongGreatCircles(_ coordinates: [CLLocationCoordinate2D]) -> [CLLocationCoordinate2D] {
    let points = coordinates.compactMap { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
    guard var previous = points.first else { return [] }
    var out = [previous]
    for next in points.dropFirst() {
      let legs = Int((previous.distance(to: next) / 10_000).rounded(.up))
      if legs > 1 {
        for leg in 1..<legs { out.append(previous.interpolated(to: next, fraction: Double(leg) / Double(legs))) }
      }
      out.append(next)
      previous = next
    }
    return out.map { CLLocationCoordinate2D(latitude: $0.latitude, longitude: $0.longitude) }
  }
}

/// Several lines drawn as one overlay (MapKit's, iOS 13).
open class MKMultiPolyline: MKShape, MKOverlay {
  /// The lines, in the order given.
  open private(set) var polylines: [MKPolyline]

  /// An overlay of several lines.
  /// - Parameter polylines: The lines.
  public init(_ polylines: [MKPolyline]) {
    self.polylines = polylines
    super.init()
  }

  /// The smallest rectangle that holds every line; null when there are none.
  open var boundingMapRect: MKMapRect { polylines.map(\.boundingMapRect).reduce(MKMapRect.null) { $0.union($1) } }

  /// The centre of the lines' bounding rectangle.
  open override var coordinate: CLLocationCoordinate2D { boundingMapRect.centerCoordinate }
}

/// Several polygons drawn as one overlay (MapKit's, iOS 13).
open class MKMultiPolygon: MKShape, MKOverlay {
  /// The polygons, in the order given.
  open private(set) var polygons: [MKPolygon]

  /// An overlay of several polygons.
  /// - Parameter polygons: The polygons.
  public init(_ polygons: [MKPolygon]) {
    self.polygons = polygons
    super.init()
  }

  /// The smallest rectangle that holds every polygon; null when there are none.
  open var boundingMapRect: MKMapRect { polygons.map(\.boundingMapRect).reduce(MKMapRect.null) { $0.union($1) } }

  /// The centre of the polygons' bounding rectangle.
  open override var coordinate: CLLocationCoordinate2D { boundingMapRect.centerCoordinate }
}

/// The user's place on a map (MapKit's `MKUserLocation`, what `MKMapView.userLocation` and a
/// map view delegate's annotation for it are): its last location and heading, titled "My
/// Location".
open class MKUserLocation: NSObject, MKAnnotation {
  /// Whether the map is following the user's location.
  open internal(set) var isUpdating = false
  /// The last location; nil before the first.
  open internal(set) var location: CLLocation?
  /// The last heading; nil (no compass here).
  open internal(set) var heading: CLHeading?
  /// The annotation's title, "My Location" by default.
  open var title: String? = "My Location"
  /// The annotation's subtitle; nil by default.
  open var subtitle: String?

  /// A user location with no location yet.
  public override init() { super.init() }

  /// The last location's coordinate; `kCLLocationCoordinate2DInvalid` before the first.
  open var coordinate: CLLocationCoordinate2D { location?.coordinate ?? kCLLocationCoordinate2DInvalid }
}
