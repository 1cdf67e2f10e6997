public import CoreLocation
public import Foundation

/// A shape that is drawn over a map, with MapKit's names: its place (``MKAnnotation/coordinate``, the centre
/// of its bounds) and its bounds in map points. The SDK's `intersects(_:)` and
/// `canReplaceMapContent` are `@objc optional`; here they have implementations (the bounds
/// meet; false).
public protocol MKOverlay: MKAnnotation {
  /// The smallest rectangle, in map points, that holds the overlay.
  var boundingMapRect: MKMapRect { get }
  /// Whether the overlay meets a rectangle of the map.
  /// - Parameter mapRect: The rectangle, in map points.
  /// - Returns: True if the overlay meets it.
  func intersects(_ mapRect: MKMapRect) -> Bool
  /// Whether the overlay hides the map beneath it entirely.
  var canReplaceMapContent: Bool { get }
}

extension MKOverlay {
  /// By default, whether the overlay's bounding rectangle meets `mapRect`.
  /// - Parameter mapRect: The rectangle, in map points.
  /// - Returns: True if the bounds meet it.
  public func intersects(_ mapRect: MKMapRect) -> Bool { boundingMapRect.intersects(mapRect) }
  /// False by default: the map shows beneath the overlay.
  public var canReplaceMapContent: Bool { false }
}

/// A shape made of points, as MapKit's: the points in map points, read back as points or as
/// coordinates.
open class MKMultiPoint: MKShape {
  private let mapPoints: [MKMapPoint]

  init(mapPoints: [MKMapPoint]) {
    self.mapPoints = mapPoints
    super.init()
  }

  /// A shape with no points.
  public override init() {
    mapPoints = []
    super.init()
  }

  /// How many points the shape has.
  open var pointCount: Int { mapPoints.count }

  /// The points, in map points (valid while the shape lives).
  open func points() -> UnsafeMutablePointer<MKMapPoint> {
    let buffer = UnsafeMutablePointer<MKMapPoint>.allocate(capacity: max(1, mapPoints.count))
    buffer.initialize(from: mapPoints, count: mapPoints.count)
    retained.append(buffer)
    return buffer
  }

  private var retained: [UnsafeMutablePointer<MKMapPoint>] = []

  deinit { for buffer in retained { buffer.deallocate() } }

  /// Copies the coordinates of the points in `range` to `coords`.
  open func getCoordinates(_ coords: UnsafeMutablePointer<CLLocationCoordinate2D>, range: NSRange) {
    for (offset, index) in (range.location..<(range.location + range.length)).enumerated() {
      coords[offset] = mapPoints[index].coordinate
    }
  }

  /// The distance along the shape to each of `indexes`' points, in metres from the first point.
  open func locations(atPointIndexes indexes: IndexSet) -> [CGFloat] {
    var along: [Double] = [0]
    for index in mapPoints.indices.dropFirst() {
      along.append(along[index - 1] + mapPoints[index - 1].distance(to: mapPoints[index]))
    }
    return indexes.compactMap { $0 < along.count ? CGFloat(along[$0]) : nil }
  }

  /// The smallest map rectangle holding every point (``MKMapRect/null`` without points).
  var bounds: MKMapRect {
    guard let first = mapPoints.first else { return MKMapRect.null }
    var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
    for point in mapPoints {
      minX = min(minX, point.x)
      minY = min(minY, point.y)
      maxX = max(maxX, point.x)
      maxY = max(maxY, point.y)
    }
    return MKMapRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
  }

  /// The centre of the points' bounds (invalid without points).
  open override var coordinate: CLLocationCoordinate2D { bounds.centerCoordinate }
}

extension MKMapRect {
  /// The coordinate of the rect's centre; invalid for the null rect (a shape without points).
  var centerCoordinate: CLLocationCoordinate2D {
    isNull ? kCLLocationCoordinate2DInvalid : MKMapPoint(x: midX, y: midY).coordinate
  }
}

/// A line through points, as MapKit's: made from coordinates or map points, with its bounds.
open class MKPolyline: MKMultiPoint, MKOverlay {
  /// A line with no points.
  public override init() { super.init() }
  override init(mapPoints: [MKMapPoint]) { super.init(mapPoints: mapPoints) }

  /// A line through map points.
  /// - Parameters:
  ///   - points: The map points, in order.
  ///   - count: How many there are.
  public convenience init(points: UnsafePointer<MKMapPoint>, count: Int) {
    self.init(mapPoints: Array(UnsafeBufferPointer(start: points, count: count)))
  }

  /// A line through coordinates.
  /// - Parameters:
  ///   - coords: The coordinates, in order.
  ///   - count: How many there are.
  public convenience init(coordinates coords: UnsafePointer<CLLocationCoordinate2D>, count: Int) {
    self.init(mapPoints: UnsafeBufferPointer(start: coords, count: count).map(MKMapPoint.init))
  }

  /// The smallest map rectangle holding every point.
  open var boundingMapRect: MKMapRect { bounds }
}

/// A closed shape through points, as MapKit's.
open class MKPolygon: MKMultiPoint, MKOverlay {
  /// Holes in the shape.
  open private(set) var interiorPolygons: [MKPolygon]?

  /// A polygon with no points.
  public override init() { super.init() }
  override init(mapPoints: [MKMapPoint]) { super.init(mapPoints: mapPoints) }

  /// A polygon through map points, closed from the last point back to the first.
  /// - Parameters:
  ///   - points: The map points, in order.
  ///   - count: How many there are.
  public convenience init(points: UnsafePointer<MKMapPoint>, count: Int) {
    self.init(mapPoints: Array(UnsafeBufferPointer(start: points, count: count)))
  }

  /// A polygon through coordinates, closed from the last point back to the first.
  /// - Parameters:
  ///   - coords: The coordinates, in order.
  ///   - count: How many there are.
  public convenience init(coordinates coords: UnsafePointer<CLLocationCoordinate2D>, count: Int) {
    self.init(mapPoints: UnsafeBufferPointer(start: coords, count: count).map(MKMapPoint.init))
  }

  /// A polygon through coordinates, with holes.
  /// - Parameters:
  ///   - coords: The coordinates, in order.
  ///   - count: How many there are.
  ///   - interiorPolygons: The holes, or nil.
  public convenience init(coordinates coords: UnsafePointer<CLLocationCoordinate2D>, count: Int, interiorPolygons: [MKPolygon]?) {
    self.init(coordinates: coords, count: count)
    self.interiorPolygons = interiorPolygons
  }

  /// The smallest map rectangle holding every point.
  open var boundingMapRect: MKMapRect { bounds }
}
