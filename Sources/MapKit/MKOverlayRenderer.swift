public import Foundation

/// How the corners of a stroked path are drawn, with CoreGraphics' cases (CoreGraphics is not
/// on Linux; MapKit's renderers are where map code meets these).
public enum CGLineJoin: Int32, Sendable {
  case miter = 0
  case round = 1
  case bevel = 2
}

/// How the ends of a stroked path are drawn, with CoreGraphics' cases.
public enum CGLineCap: Int32, Sendable {
  case butt = 0
  case round = 1
  case square = 2
}

/// MapKit's overlay renderer without drawing: the overlay it renders, its alpha, and the
/// conversions between map points and its drawing coordinates (map points from the top-left
/// corner of the overlay's bounding map rect, as MapKit's), so that code that builds renderers
/// in `mapView(_:rendererFor:)` and converts positions builds and runs on Linux. Nothing is
/// drawn: the drawing methods take a CoreGraphics context, which Linux has not.
open class MKOverlayRenderer: NSObject, @unchecked Sendable {
  public let overlay: any MKOverlay
  open var alpha: CGFloat = 1
  open private(set) var contentScaleFactor: CGFloat = 1
  /// How many times the renderer was asked to redraw (``setNeedsDisplay()`` and its variants):
  /// what a test of code that invalidates a renderer can check.
  public private(set) var displayRequests = 0

  public init(overlay: any MKOverlay) {
    self.overlay = overlay
    super.init()
  }

  private var origin: MKMapPoint { overlay.boundingMapRect.origin }

  /// `mapPoint` in the renderer's drawing coordinates.
  open func point(for mapPoint: MKMapPoint) -> CGPoint { CGPoint(x: mapPoint.x - origin.x, y: mapPoint.y - origin.y) }

  /// The map point at `point` of the renderer's drawing coordinates.
  open func mapPoint(for point: CGPoint) -> MKMapPoint { MKMapPoint(x: Double(point.x) + origin.x, y: Double(point.y) + origin.y) }

  /// `mapRect` in the renderer's drawing coordinates.
  open func rect(for mapRect: MKMapRect) -> CGRect {
    CGRect(origin: point(for: mapRect.origin), size: CGSize(width: mapRect.size.width, height: mapRect.size.height))
  }

  /// The map rect of `rect` in the renderer's drawing coordinates.
  open func mapRect(for rect: CGRect) -> MKMapRect {
    MKMapRect(origin: mapPoint(for: rect.origin), size: MKMapSize(width: Double(rect.width), height: Double(rect.height)))
  }

  /// Whether the renderer can draw `mapRect` now (always: nothing waits on data here).
  open func canDraw(_ mapRect: MKMapRect, zoomScale: MKZoomScale) -> Bool { true }

  open func setNeedsDisplay() { displayRequests += 1 }
  open func setNeedsDisplay(_ mapRect: MKMapRect) { displayRequests += 1 }
  open func setNeedsDisplay(_ mapRect: MKMapRect, zoomScale: MKZoomScale) { displayRequests += 1 }
}

/// A renderer that strokes and fills a path, with MapKit's properties and defaults.
open class MKOverlayPathRenderer: MKOverlayRenderer, @unchecked Sendable {
  open var fillColor: UIColor?
  open var strokeColor: UIColor?
  open var lineWidth: CGFloat = 0
  open var lineJoin = CGLineJoin.round
  open var lineCap = CGLineCap.round
  open var miterLimit: CGFloat = 10
  open var lineDashPhase: CGFloat = 0
  open var lineDashPattern: [NSNumber]?
  open var shouldRasterize = false

  /// Makes the path (nothing to make here: there is no CoreGraphics path).
  open func createPath() {}
  open func invalidatePath() { setNeedsDisplay() }
}

/// Renders an ``MKPolyline``.
open class MKPolylineRenderer: MKOverlayPathRenderer, @unchecked Sendable {
  public let polyline: MKPolyline
  /// The fraction of the line stroked, from its start and to its end.
  open var strokeStart: CGFloat = 0
  open var strokeEnd: CGFloat = 1

  public init(polyline: MKPolyline) {
    self.polyline = polyline
    super.init(overlay: polyline)
  }
}

/// Renders an ``MKPolyline`` with colours along it.
open class MKGradientPolylineRenderer: MKPolylineRenderer, @unchecked Sendable {
  open private(set) var colors: [UIColor] = []
  open private(set) var locations: [CGFloat] = []

  public override init(polyline: MKPolyline) { super.init(polyline: polyline) }

  /// The colours, each at its location along the line (0…1).
  open func setColors(_ colors: [UIColor], locations: [CGFloat]) {
    self.colors = colors
    self.locations = locations
    setNeedsDisplay()
  }
}

/// Renders an ``MKPolygon``.
open class MKPolygonRenderer: MKOverlayPathRenderer, @unchecked Sendable {
  public let polygon: MKPolygon
  open var strokeStart: CGFloat = 0
  open var strokeEnd: CGFloat = 1

  public init(polygon: MKPolygon) {
    self.polygon = polygon
    super.init(overlay: polygon)
  }
}

/// Renders an ``MKCircle``.
open class MKCircleRenderer: MKOverlayPathRenderer, @unchecked Sendable {
  public let circle: MKCircle
  open var strokeStart: CGFloat = 0
  open var strokeEnd: CGFloat = 1

  public init(circle: MKCircle) {
    self.circle = circle
    super.init(overlay: circle)
  }
}

/// Renders an ``MKMultiPolyline``.
open class MKMultiPolylineRenderer: MKOverlayPathRenderer, @unchecked Sendable {
  public let multiPolyline: MKMultiPolyline

  public init(multiPolyline: MKMultiPolyline) {
    self.multiPolyline = multiPolyline
    super.init(overlay: multiPolyline)
  }
}

/// Renders an ``MKMultiPolygon``.
open class MKMultiPolygonRenderer: MKOverlayPathRenderer, @unchecked Sendable {
  public let multiPolygon: MKMultiPolygon

  public init(multiPolygon: MKMultiPolygon) {
    self.multiPolygon = multiPolygon
    super.init(overlay: multiPolygon)
  }
}
