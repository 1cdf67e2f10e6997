public import CoreLocation
public import Foundation
import Geo
import LocationModel

// MapKit's geometry (MKGeometry.h) with Apple's names: coordinate regions and spans, and map
// points, sizes and rects in the spherical Web Mercator projection of a world 2^28 points wide.
// As in the SDK these structs are neither Equatable nor Hashable nor Codable.

/// A span of latitude and longitude, degrees.
public struct MKCoordinateSpan: Sendable {
  /// The extent from north to south, degrees.
  public var latitudeDelta: CLLocationDegrees
  /// The extent from west to east, degrees.
  public var longitudeDelta: CLLocationDegrees

  /// An empty span: both deltas 0.
  public init() { self.init(latitudeDelta: 0, longitudeDelta: 0) }

  /// A span from its extents.
  /// - Parameters:
  ///   - latitudeDelta: The extent from north to south, degrees.
  ///   - longitudeDelta: The extent from west to east, degrees.
  public init(latitudeDelta: CLLocationDegrees, longitudeDelta: CLLocationDegrees) {
    self.latitudeDelta = latitudeDelta
    self.longitudeDelta = longitudeDelta
  }
}

/// A region of the map: a centre and a span.
public struct MKCoordinateRegion: Sendable {
  /// The region's centre.
  public var center: CLLocationCoordinate2D
  /// How far the region reaches, the whole extents around the centre.
  public var span: MKCoordinateSpan

  /// An empty region at latitude and longitude 0.
  public init() { self.init(center: CLLocationCoordinate2D(), span: MKCoordinateSpan()) }

  /// A region from its centre and span.
  /// - Parameters:
  ///   - center: The centre.
  ///   - span: The extents around the centre.
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
  /// The distance eastwards from the antimeridian, map points.
  public var x: Double
  /// The distance southwards from the top of the map, map points.
  public var y: Double

  /// The map's north-west corner (0, 0).
  public init() { self.init(x: 0, y: 0) }

  /// A map point from its coordinates on the flat map.
  /// - Parameters:
  ///   - x: Map points eastwards from the antimeridian.
  ///   - y: Map points southwards from the top.
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
  /// The width, map points.
  public var width: Double
  /// The height, map points.
  public var height: Double

  /// An empty size.
  public init() { self.init(width: 0, height: 0) }

  /// A size from its width and height.
  /// - Parameters:
  ///   - width: The width, map points.
  ///   - height: The height, map points.
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
  /// The rectangle's north-west corner.
  public var origin: MKMapPoint
  /// The rectangle's width and height.
  public var size: MKMapSize

  /// An empty rectangle at the map's north-west corner.
  public init() { self.init(origin: MKMapPoint(), size: MKMapSize()) }

  /// A rectangle from its corner and size.
  /// - Parameters:
  ///   - origin: The north-west corner.
  ///   - size: The width and height.
  public init(origin: MKMapPoint, size: MKMapSize) {
    self.origin = origin
    self.size = size
  }

  /// A rectangle from its corner's coordinates and its size, all in map points.
  /// - Parameters:
  ///   - x: The west edge.
  ///   - y: The north edge.
  ///   - width: The width.
  ///   - height: The height.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: MKMapPoint(x: x, y: y), size: MKMapSize(width: width, height: height))
  }

  /// The whole world: 2^28 × 2^28 map points from the north-west corner.
  public static let world = MKMapRect(origin: MKMapPoint(), size: .world)
  /// No rect: an infinite origin.
  public static let null = MKMapRect(origin: MKMapPoint(x: .infinity, y: .infinity), size: MKMapSize())

  /// The west edge.
  public var minX: Double { origin.x }
  /// The north edge.
  public var minY: Double { origin.y }
  /// The middle from west to east.
  public var midX: Double { origin.x + size.width / 2 }
  /// The middle from north to south.
  public var midY: Double { origin.y + size.height / 2 }
  /// The east edge.
  public var maxX: Double { origin.x + size.width }
  /// The south edge.
  public var maxY: Double { origin.y + size.height }
  /// The width, map points.
  public var width: Double { size.width }
  /// The height, map points.
  public var height: Double { size.height }
  /// Whether this is no rectangle at all (``null``): an infinite origin.
  public var isNull: Bool { origin.x.isInfinite || origin.y.isInfinite }
  /// Whether the rectangle is null or has neither width nor height.
  public var isEmpty: Bool { isNull || (size.width == 0 && size.height == 0) }

  /// Whether the rect reaches past the world's east edge (it crosses the antimeridian).
  public var spans180thMeridian: Bool { origin.x < MKMapSize.worldWidth && maxX > MKMapSize.worldWidth }

  /// The part past the world's east edge, moved to the west side; null when there is none.
  public var remainder: MKMapRect {
    guard spans180thMeridian else { return .null }
    return MKMapRect(x: 0, y: origin.y, width: maxX - MKMapSize.worldWidth, height: size.height)
  }

  /// Whether a point is in the rectangle (its west and north edges included, east and south excluded).
  /// - Parameter point: The point.
  /// - Returns: False for the null rectangle.
  public func contains(_ point: MKMapPoint) -> Bool {
    !isNull && point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
  }

  /// Whether another rectangle lies wholly in this one.
  /// - Parameter rect: The other rectangle.
  /// - Returns: False when either is null.
  public func contains(_ rect: MKMapRect) -> Bool {
    !isNull && !rect.isNull && rect.minX >= minX && rect.maxX <= maxX && rect.minY >= minY && rect.maxY <= maxY
  }

  /// Whether the two rectangles overlap (touching edges do not).
  /// - Parameter rect: The other rectangle.
  /// - Returns: True if their intersection is not null.
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

  /// The rectangle moved.
  /// - Parameters:
  ///   - dx: How far east, map points.
  ///   - dy: How far south, map points.
  /// - Returns: The moved rectangle; null for the null rectangle.
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

/// Whether two map points are the same.
/// - Parameters:
///   - point1: A point.
///   - point2: Another point.
/// - Returns: True if their x and y are equal.
public func MKMapPointEqualToPoint(_ point1: MKMapPoint, _ point2: MKMapPoint) -> Bool { point1.x == point2.x && point1.y == point2.y }

/// Whether two map sizes are the same.
/// - Parameters:
///   - size1: A size.
///   - size2: Another size.
/// - Returns: True if their widths and heights are equal.
public func MKMapSizeEqualToSize(_ size1: MKMapSize, _ size2: MKMapSize) -> Bool {
  size1.width == size2.width && size1.height == size2.height
}

/// Whether two map rectangles are the same.
/// - Parameters:
///   - rect1: A rectangle.
///   - rect2: Another rectangle.
/// - Returns: True if their origins and sizes are equal.
public func MKMapRectEqualToRect(_ rect1: MKMapRect, _ rect2: MKMapRect) -> Bool {
  MKMapPointEqualToPoint(rect1.origin, rect2.origin) && MKMapSizeEqualToSize(rect1.size, rect2.size)
}

/// A map point as text, such as "{12.0, 34.5}".
/// - Parameter point: The point.
/// - Returns: The text.
public func MKStringFromMapPoint(_ point: MKMapPoint) -> String { String(format: "{%.1f, %.1f}", point.x, point.y) }

/// A map size as text, such as "{100.0, 50.0}".
/// - Parameter size: The size.
/// - Returns: The text.
public func MKStringFromMapSize(_ size: MKMapSize) -> String { String(format: "{%.1f, %.1f}", size.width, size.height) }

/// A map rectangle as text: its origin and its size, such as "{{12.0, 34.5}, {100.0, 50.0}}".
/// - Parameter rect: The rectangle.
/// - Returns: The text.
public func MKStringFromMapRect(_ rect: MKMapRect) -> String { "{\(MKStringFromMapPoint(rect.origin)), \(MKStringFromMapSize(rect.size))}" }
