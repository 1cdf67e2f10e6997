public import Geo
public import LocationModel

#if canImport(Glibc)
  import Glibc
#endif

/// A point on the screen, in points (x right, y down, origin at the top left of the map view).
public struct ScreenPoint: Sendable, Hashable {
  public var x: Double
  public var y: Double
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}

/// The size of the map view, in points.
public struct ScreenSize: Sendable, Hashable, CustomStringConvertible {
  public var width: Double
  public var height: Double
  public init(width: Double, height: Double) {
    self.width = max(1, width)
    self.height = max(1, height)
  }
  public var description: String { "\(width)x\(height)" }
}

/// What an interactive map shows: a centre and a scale on a view of some size, in Web Mercator
/// (the model under the fullscreen map's pinch, pan and double-tap gestures).
///
/// The scale is a zoom level: the whole world is `256 · 2^zoom` points wide. It is clamped to
/// ``zoomRange`` (from a continent to a street corner), and the centre's latitude to the
/// Mercator square, so no gesture leaves a sane span. A change of view size (a rotation) keeps
/// the centre and the scale: the region grows or shrinks, nothing moves or zooms.
public struct MapViewport: Sendable, Hashable {
  /// From about a continent (3) to a few metres per point (20).
  public static let zoomRange: ClosedRange<Double> = 3...20

  public private(set) var center: Coordinate
  public private(set) var zoom: Double
  public private(set) var size: ScreenSize

  /// The viewport that shows all of `region` on a view of `size`.
  public init(region: MapRegion, size: ScreenSize) {
    let frame = WebMercator.frame(of: region)
    let pixelsPerWorld = min(size.width / max(frame.width, 1e-12), size.height / max(frame.height, 1e-12))
    self.init(center: region.center, zoom: log2(pixelsPerWorld / 256), size: size)
  }

  public init(center: Coordinate, zoom: Double, size: ScreenSize) {
    self.center = center
    self.zoom = zoom
    self.size = size
    clamp()
  }

  /// Points per world unit.
  public var scale: Double { 256 * pow(2, zoom) }

  /// Ground metres per point at the centre.
  public var metersPerPoint: Double { WebMercator.metersPerWorldUnit(atLatitude: center.latitude) / scale }

  /// The region on screen.
  public var region: MapRegion {
    WebMercator.region(centeredAt: center, width: size.width / scale, height: size.height / scale)
  }

  /// The coordinate under `point`.
  public func coordinate(at point: ScreenPoint) -> Coordinate {
    let c = WebMercator.project(center)
    return WebMercator.coordinate(x: c.x + (point.x - size.width / 2) / scale, y: c.y + (point.y - size.height / 2) / scale)
  }

  /// The point where `coordinate` is drawn.
  public func point(for coordinate: Coordinate) -> ScreenPoint {
    let d = WebMercator.displacement(of: coordinate, from: center)
    return ScreenPoint(x: size.width / 2 + d.dx * scale, y: size.height / 2 + d.dy * scale)
  }

  /// Pinch: zooms by `scale` (> 1 in, < 1 out) keeping the coordinate under `anchor` (the
  /// fingers' midpoint; the centre when nil) where it is.
  public mutating func pinch(scale factor: Double, at anchor: ScreenPoint? = nil) {
    guard factor.isFinite, factor > 0 else { return }
    let anchor = anchor ?? ScreenPoint(x: size.width / 2, y: size.height / 2)
    let c = WebMercator.project(center)
    let offsetX = anchor.x - size.width / 2, offsetY = anchor.y - size.height / 2
    let worldX = c.x + offsetX / scale, worldY = c.y + offsetY / scale
    zoom = min(Self.zoomRange.upperBound, max(Self.zoomRange.lowerBound, zoom + log2(factor)))
    center = WebMercator.coordinate(x: worldX - offsetX / scale, y: worldY - offsetY / scale)
    clamp()
  }

  /// Pan: the map follows the finger by `dx`, `dy` points (dragging right shows what lies west).
  public mutating func pan(dx: Double, dy: Double) {
    guard dx.isFinite, dy.isFinite else { return }
    let c = WebMercator.project(center)
    center = WebMercator.coordinate(x: c.x - dx / scale, y: c.y - dy / scale)
    clamp()
  }

  /// Double tap: zooms in one level on the tapped point (which stays under the finger).
  public mutating func doubleTap(at point: ScreenPoint) {
    pinch(scale: 2, at: point)
  }

  /// The view changed size (rotation, split screen): centre and scale stay.
  public mutating func resize(to size: ScreenSize) {
    self.size = size
  }

  private mutating func clamp() {
    if !zoom.isFinite { zoom = Self.zoomRange.lowerBound }
    zoom = min(Self.zoomRange.upperBound, max(Self.zoomRange.lowerBound, zoom))
    let latitude = min(WebMercator.maxLatitude, max(-WebMercator.maxLatitude, center.latitude))
    if latitude != center.latitude { center = Coordinate(latitude: latitude, longitude: center.longitude)! }
  }
}
