public import CoreLocation
public import Foundation

/// A circle over the map, as MapKit's: a centre and a radius in metres (a region's or a
/// geofence's outline).
open class MKCircle: MKShape, MKOverlay {
  private let center: CLLocationCoordinate2D
  /// The radius, metres.
  open private(set) var radius: CLLocationDistance

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
  public override init() { super.init() }
  override init(mapPoints: [MKMapPoint]) { super.init(mapPoints: mapPoints) }

  public convenience init(coordinates coords: UnsafePointer<CLLocationCoordinate2D>, count: Int) {
    let given = Array(UnsafeBufferPointer(start: coords, count: count))
    self.init(mapPoints: Self.alongGreatCircles(given).map(MKMapPoint.init))
  }

  public convenience init(points: UnsafePointer<MKMapPoint>, count: Int) {
    let given = UnsafeBufferPointer(start: points, count: count).map(\.coordinate)
    self.init(mapPoints: Self.alongGreatCircles(given).map(MKMapPoint.init))
  }

  /// `coordinates` with points added along each great-circle leg, at most 10 km apart.
  static func alongGreatCircles(_ coordinates: [CLLocationCoordinate2D]) -> [CLLocationCoordinate2D] {
    guard var previous = coordinates.first else { return [] }
    var out = [previous]
    for next in coordinates.dropFirst() {
      let from = CLLocation(latitude: previous.latitude, longitude: previous.longitude)
      let legs = Int((from.distance(from: CLLocation(latitude: next.latitude, longitude: next.longitude)) / 10_000).rounded(.up))
      if legs > 1 {
        for leg in 1..<legs { out.append(Self.interpolate(previous, next, Double(leg) / Double(legs))) }
      }
      out.append(next)
      previous = next
    }
    return out
  }

  /// The point a `fraction` of the way from `a` to `b` along their great circle.
  static func interpolate(_ a: CLLocationCoordinate2D, _ b: CLLocationCoordinate2D, _ fraction: Double) -> CLLocationCoordinate2D {
    let (φ1, λ1, φ2, λ2) = (a.latitude * .pi / 180, a.longitude * .pi / 180, b.latitude * .pi / 180, b.longitude * .pi / 180)
    let δ =
      2 * asin(sqrt(pow(sin((φ2 - φ1) / 2), 2) + cos(φ1) * cos(φ2) * pow(sin((λ2 - λ1) / 2), 2)))
    guard δ > 0 else { return a }
    let (p, q) = (sin((1 - fraction) * δ) / sin(δ), sin(fraction * δ) / sin(δ))
    let x = p * cos(φ1) * cos(λ1) + q * cos(φ2) * cos(λ2)
    let y = p * cos(φ1) * sin(λ1) + q * cos(φ2) * sin(λ2)
    let z = p * sin(φ1) + q * sin(φ2)
    return CLLocationCoordinate2D(latitude: atan2(z, sqrt(x * x + y * y)) * 180 / .pi, longitude: atan2(y, x) * 180 / .pi)
  }
}

/// Several lines drawn as one overlay (MapKit's, iOS 13).
open class MKMultiPolyline: MKShape, MKOverlay {
  open private(set) var polylines: [MKPolyline]

  public init(_ polylines: [MKPolyline]) {
    self.polylines = polylines
    super.init()
  }

  open var boundingMapRect: MKMapRect { polylines.map(\.boundingMapRect).reduce(MKMapRect.null) { $0.union($1) } }

  open override var coordinate: CLLocationCoordinate2D {
    let rect = boundingMapRect
    return rect.isNull ? kCLLocationCoordinate2DInvalid : MKMapPoint(x: rect.midX, y: rect.midY).coordinate
  }
}

/// Several polygons drawn as one overlay (MapKit's, iOS 13).
open class MKMultiPolygon: MKShape, MKOverlay {
  open private(set) var polygons: [MKPolygon]

  public init(_ polygons: [MKPolygon]) {
    self.polygons = polygons
    super.init()
  }

  open var boundingMapRect: MKMapRect { polygons.map(\.boundingMapRect).reduce(MKMapRect.null) { $0.union($1) } }

  open override var coordinate: CLLocationCoordinate2D {
    let rect = boundingMapRect
    return rect.isNull ? kCLLocationCoordinate2DInvalid : MKMapPoint(x: rect.midX, y: rect.midY).coordinate
  }
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
  open var title: String? = "My Location"
  open var subtitle: String?

  public override init() { super.init() }

  open var coordinate: CLLocationCoordinate2D { location?.coordinate ?? kCLLocationCoordinate2DInvalid }
}
