public import CoreLocation
public import Foundation
import Geo
import LocationServices

// MapKit's geometry (MKGeometry.h) with Apple's names: coordinate regions and spans, and map
// points, sizes and rects in the spherical Web Mercator projection of a world 2^28 points wide.
// As in the SDK these structs are neither Equatable nor Hashable nor Codable.

/// A span of latitude and longitude, degrees.
public struct MKCoordinateSpan: Sendable {
  public var latitudeDelta: CLLocationDegrees
  public var longitudeDelta: CLLocationDegrees

  public init() { self.init(latitudeDelta: 0, longitudeDelta: 0) }

  public init(latitudeDelta: CLLocationDegrees, longitudeDelta: CLLocationDegrees) {
    self.latitudeDelta = latitudeDelta
    self.longitudeDelta = longitudeDelta
  }
}

/// A region of the map: a centre and a span.
public struct MKCoordinateRegion: Sendable {
  public var center: CLLocationCoordinate2D
  public var span: MKCoordinateSpan

  public init() { self.init(center: CLLocationCoordinate2D(), span: MKCoordinateSpan()) }

  public init(center: CLLocationCoordinate2D, span: MKCoordinateSpan) {
    self.center = center
    self.span = span
  }

  /// The region `latitudinalMeters` from north to south and `longitudinalMeters` from west to
  /// east around `centerCoordinate` (the whole extents, as MapKit takes them).
  public init(
    center centerCoordinate: CLLocationCoordinate2D, latitudinalMeters: CLLocationDistance, longitudinalMeters: CLLocationDistance
  ) {
    guard let center = Coordinate(latitude: centerCoordinate.latitude, longitude: centerCoordinate.longitude) else {
      self.init(center: centerCoordinate, span: MKCoordinateSpan())
      return
    }
    let region = MapRegion(center: center, latitudinalMeters: latitudinalMeters, longitudinalMeters: longitudinalMeters)
    self.init(center: centerCoordinate, span: MKCoordinateSpan(latitudeDelta: region.latitudeDelta, longitudeDelta: region.longitudeDelta))
  }

  /// The region a map rect covers.
  public init(_ rect: MKMapRect) {
    let northWest = MKMapPoint(x: rect.minX, y: rect.minY).coordinate
    let southEast = MKMapPoint(x: rect.maxX, y: rect.maxY).coordinate
    let center = MKMapPoint(x: rect.midX, y: rect.midY).coordinate
    self.init(
      center: center,
      span: MKCoordinateSpan(
        latitudeDelta: northWest.latitude - southEast.latitude, longitudeDelta: rect.width / MKMapSize.worldWidth * 360))
  }
}

extension MKMapRect {
  /// The map rectangle a coordinate region covers (latitudes beyond the projection's limit are
  /// clamped by it).
  init(region: MKCoordinateRegion) {
    let northWest = MKMapPoint(
      CLLocationCoordinate2D(
        latitude: region.center.latitude + region.span.latitudeDelta / 2,
        longitude: region.center.longitude - region.span.longitudeDelta / 2))
    let southEast = MKMapPoint(
      CLLocationCoordinate2D(
        latitude: region.center.latitude - region.span.latitudeDelta / 2,
        longitude: region.center.longitude + region.span.longitudeDelta / 2))
    self.init(x: northWest.x, y: northWest.y, width: southEast.x - northWest.x, height: southEast.y - northWest.y)
  }
}

extension MKCoordinateRegion {
  /// The emulator's region (for its renderer), nil when the centre is not a coordinate.
  var mapRegion: MapRegion? {
    Coordinate(latitude: center.latitude, longitude: center.longitude).map {
      MapRegion(center: $0, latitudeDelta: span.latitudeDelta, longitudeDelta: span.longitudeDelta)
    }
  }
}

/// A point of the flat map: x eastwards from the antimeridian, y southwards from the top of
/// the Mercator square, both 0…2^28.
public struct MKMapPoint: Sendable {
  public var x: Double
  public var y: Double

  public init() { self.init(x: 0, y: 0) }

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The map point of `coordinate`.
  public init(_ coordinate: CLLocationCoordinate2D) {
    let p = WebMercator.project(latitude: coordinate.latitude, longitude: coordinate.longitude)
    self.init(x: p.x * MKMapSize.worldWidth, y: p.y * MKMapSize.worldWidth)
  }

  /// The coordinate at this point.
  public var coordinate: CLLocationCoordinate2D {
    let c = WebMercator.coordinate(x: x / MKMapSize.worldWidth, y: y / MKMapSize.worldWidth)
    return CLLocationCoordinate2D(latitude: c.latitude, longitude: c.longitude)
  }

  /// Metres on the ground to `other`.
  public func distance(to other: MKMapPoint) -> CLLocationDistance {
    CLLocation(latitude: coordinate.latitude, longitude: coordinate.longitude)
      .distance(from: CLLocation(latitude: other.coordinate.latitude, longitude: other.coordinate.longitude))
  }
}

/// A size on the flat map, map points.
public struct MKMapSize: Sendable {
  public var width: Double
  public var height: Double

  public init() { self.init(width: 0, height: 0) }

  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  static let worldWidth: Double = 268_435_456

  /// The whole world: 2^28 × 2^28.
  public static let world = MKMapSize(width: worldWidth, height: worldWidth)
}

/// A rectangle of the flat map.
public struct MKMapRect: Sendable {
  public var origin: MKMapPoint
  public var size: MKMapSize

  public init() { self.init(origin: MKMapPoint(), size: MKMapSize()) }

  public init(origin: MKMapPoint, size: MKMapSize) {
    self.origin = origin
    self.size = size
  }

  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: MKMapPoint(x: x, y: y), size: MKMapSize(width: width, height: height))
  }

  public static let world = MKMapRect(origin: MKMapPoint(), size: .world)
  /// No rect: an infinite origin.
  public static let null = MKMapRect(origin: MKMapPoint(x: .infinity, y: .infinity), size: MKMapSize())

  public var minX: Double { origin.x }
  public var minY: Double { origin.y }
  public var midX: Double { origin.x + size.width / 2 }
  public var midY: Double { origin.y + size.height / 2 }
  public var maxX: Double { origin.x + size.width }
  public var maxY: Double { origin.y + size.height }
  public var width: Double { size.width }
  public var height: Double { size.height }
  public var isNull: Bool { origin.x.isInfinite || origin.y.isInfinite }
  public var isEmpty: Bool { isNull || (size.width == 0 && size.height == 0) }

  /// Whether the rect reaches past the world's east edge (it crosses the antimeridian).
  public var spans180thMeridian: Bool { origin.x < MKMapSize.worldWidth && maxX > MKMapSize.worldWidth }

  /// The part past the world's east edge, moved to the west side; null when there is none.
  public var remainder: MKMapRect {
    guard spans180thMeridian else { return .null }
    return MKMapRect(x: 0, y: origin.y, width: maxX - MKMapSize.worldWidth, height: size.height)
  }

  public func contains(_ point: MKMapPoint) -> Bool {
    !isNull && point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
  }

  public func contains(_ rect: MKMapRect) -> Bool {
    !isNull && !rect.isNull && rect.minX >= minX && rect.maxX <= maxX && rect.minY >= minY && rect.maxY <= maxY
  }

  public func intersects(_ rect: MKMapRect) -> Bool { !intersection(rect).isNull }

  /// The smallest rect holding both; the other one when either is null.
  public func union(_ rect: MKMapRect) -> MKMapRect {
    if isNull { return rect }
    if rect.isNull { return self }
    let x = min(minX, rect.minX), y = min(minY, rect.minY)
    return MKMapRect(x: x, y: y, width: max(maxX, rect.maxX) - x, height: max(maxY, rect.maxY) - y)
  }

  /// The overlap; null when there is none.
  public func intersection(_ rect: MKMapRect) -> MKMapRect {
    guard !isNull, !rect.isNull else { return .null }
    let x = max(minX, rect.minX), y = max(minY, rect.minY)
    let right = min(maxX, rect.maxX), bottom = min(maxY, rect.maxY)
    guard right > x, bottom > y else { return .null }
    return MKMapRect(x: x, y: y, width: right - x, height: bottom - y)
  }

  /// The rect with `dx` taken off both sides and `dy` off the top and bottom.
  public func insetBy(dx: Double, dy: Double) -> MKMapRect {
    guard !isNull else { return self }
    return MKMapRect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
  }

  public func offsetBy(dx: Double, dy: Double) -> MKMapRect {
    guard !isNull else { return self }
    return MKMapRect(x: minX + dx, y: minY + dy, width: width, height: height)
  }
}

/// The scale of a map view: screen points per map point.
public typealias MKZoomScale = CGFloat

/// Metres on the ground per map point at `latitude`.
public func MKMetersPerMapPointAtLatitude(_ latitude: CLLocationDegrees) -> CLLocationDistance {
  WebMercator.metersPerWorldUnit(atLatitude: latitude) / MKMapSize.worldWidth
}

/// Map points per metre on the ground at `latitude`.
public func MKMapPointsPerMeterAtLatitude(_ latitude: CLLocationDegrees) -> Double { 1 / MKMetersPerMapPointAtLatitude(latitude) }

/// The width of a road drawn at `zoomScale`, screen points (MapKit's curve, approximated:
/// wider roads when zoomed in).
public func MKRoadWidthAtZoomScale(_ zoomScale: MKZoomScale) -> CGFloat {
  guard zoomScale > 0 else { return 0 }
  let zoom = 20 + log2(Double(zoomScale))
  return CGFloat(max(1, min(40, pow(2, (zoom - 12) / 2))))
}

public func MKMapPointEqualToPoint(_ point1: MKMapPoint, _ point2: MKMapPoint) -> Bool { point1.x == point2.x && point1.y == point2.y }

public func MKMapSizeEqualToSize(_ size1: MKMapSize, _ size2: MKMapSize) -> Bool {
  size1.width == size2.width && size1.height == size2.height
}

public func MKMapRectEqualToRect(_ rect1: MKMapRect, _ rect2: MKMapRect) -> Bool {
  MKMapPointEqualToPoint(rect1.origin, rect2.origin) && MKMapSizeEqualToSize(rect1.size, rect2.size)
}

public func MKStringFromMapPoint(_ point: MKMapPoint) -> String { String(format: "{%.1f, %.1f}", point.x, point.y) }

public func MKStringFromMapSize(_ size: MKMapSize) -> String { String(format: "{%.1f, %.1f}", size.width, size.height) }

public func MKStringFromMapRect(_ rect: MKMapRect) -> String { "{\(MKStringFromMapPoint(rect.origin)), \(MKStringFromMapSize(rect.size))}" }
