public import Foundation

/// How the corners of a stroked path are drawn, with CoreGraphics' cases (CoreGraphics is not
/// on Linux; MapKit's renderers are where map code meets these).
public enum CGLineJoin: Int32, Sendable {
  /// A sharp corner, the outer edges extended until they meet.
  case miter = 0
  /// A rounded corner.
  case round = 1
  /// A corner cut off square.
  case bevel = 2
}

/// How the ends of a stroked path are drawn, with CoreGraphics' cases.
public enum CGLineCap: Int32, Sendable {
  /// The line stops square at its end point.
  case butt = 0
  /// A half circle past the end point.
  case round = 1
  /// A half square past the end point.
  case square = 2
}

/// MapKit's overlay renderer without drawing: the overlay it renders, its alpha, and the
/// conversions between map points and its drawing coordinates (map points from the top-left
/// corner of the overlay's bounding map rect, as MapKit's), so that code that builds renderers
/// in `mapView(_:rendererFor:)` and converts positions builds and runs on Linux. Nothing is
/// drawn: the drawing methods take a CoreGraphics context, which Linux has not.
open class MKOverlayRenderer: NSObject, @unchecked Sendable {
  /// The overlay the renderer draws.
  public let overlay: any MKOverlay
  /// The opacity of the drawing, 0 to 1; 1 by default. Stored only: nothing is drawn here.
  open var alpha: CGFloat = 1
  /// The screen's scale the renderer draws for; always 1 here.
  open private(set) var contentScaleFactor: CGFloat = 1
  /// How many times the renderer was asked to redraw (``setNeedsDisplay()`` and its variants):
  /// what a test of code that invalidates a renderer can check.
  public private(set) var displayRequests = 0

  /// A renderer for an overlay.
  /// - Parameter overlay: The overlay to render.
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

  /// Asks for the whole overlay to be redrawn; counted in ``displayRequests``.
  open func setNeedsDisplay() { displayRequests += 1 }
  /// Asks for part of the overlay to be redrawn; counted in ``displayRequests``.
  /// - Parameter mapRect: The part to redraw, in map points.
  open func setNeedsDisplay(_ mapRect: MKMapRect) { displayRequests += 1 }
  /// Asks for part of the overlay to be redrawn at one zoom scale; counted in ``displayRequests``.
  /// - Parameters:
  ///   - mapRect: The part to redraw, in map points.
  ///   - zoomScale: The zoom scale to redraw at.
  open func setNeedsDisplay(_ mapRect: MKMapRect, zoomScale: MKZoomScale) { displayRequests += 1 }
}

/// A renderer that strokes and fills a path, with MapKit's properties and defaults.
open class MKOverlayPathRenderer: MKOverlayRenderer, @unchecked Sendable {
  /// The colour the shape is filled with; nil for no fill.
  open var fillColor: UIColor?
  /// The colour the outline is stroked with; nil for no stroke.
  open var strokeColor: UIColor?
  /// The width of the stroke, in points; 0 by default.
  open var lineWidth: CGFloat = 0
  /// How the stroke's corners are drawn; round by default.
  open var lineJoin = CGLineJoin.round
  /// How the stroke's ends are drawn; round by default.
  open var lineCap = CGLineCap.round
  /// How long a mitered corner may grow before it is beveled, in line widths; 10 by default.
  open var miterLimit: CGFloat = 10
  /// How far into the dash pattern the stroke starts, in points; 0 by default.
  open var lineDashPhase: CGFloat = 0
  /// The lengths of dashes and gaps, in points, in turn; nil for a solid line.
  open var lineDashPattern: [NSNumber]?
  /// Whether the shape is drawn as a bitmap; false by default. Stored only: nothing is drawn here.
  open var shouldRasterize = false

  /// Makes the path (nothing to make here: there is no CoreGraphics path).
  open func createPath() {}
  /// Marks the path as out of date so that it is made again; here it asks for a redraw (``MKOverlayRenderer/displayRequests``).
  open func invalidatePath() { setNeedsDisplay() }
}

/// Renders an ``MKPolyline``.
open class MKPolylineRenderer: MKOverlayPathRenderer, @unchecked Sendable {
  /// The line the renderer draws.
  public let polyline: MKPolyline
  /// The fraction of the line stroked, from its start and to its end.
  open var strokeStart: CGFloat = 0
  /// The fraction of the line where the stroke ends; 1 (the whole line) by default.
  open var strokeEnd: CGFloat = 1

  /// A renderer for a line.
  /// - Parameter polyline: The line to render.
  public init(polyline: MKPolyline) {
    self.polyline = polyline
    super.init(overlay: polyline)
  }
}

/// Renders an ``MKPolyline`` with colours along it.
open class MKGradientPolylineRenderer: MKPolylineRenderer, @unchecked Sendable {
  /// The colours along the line, set with `setColors(_:locations:)`; none by default.
  open private(set) var colors: [UIColor] = []
  /// Where each colour is along the line, 0…1; none by default.
  open private(set) var locations: [CGFloat] = []

  /// A gradient renderer for a line, with no colours yet.
  /// - Parameter polyline: The line to render.
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
  /// The polygon the renderer draws.
  public let polygon: MKPolygon
  /// The fraction of the outline where the stroke starts; 0 by default.
  open var strokeStart: CGFloat = 0
  /// The fraction of the outline where the stroke ends; 1 by default.
  open var strokeEnd: CGFloat = 1

  /// A renderer for a polygon.
  /// - Parameter polygon: The polygon to render.
  public init(polygon: MKPolygon) {
    self.polygon = polygon
    super.init(overlay: polygon)
  }
}

/// Renders an ``MKCircle``.
open class MKCircleRenderer: MKOverlayPathRenderer, @unchecked Sendable {
  /// The circle the renderer draws.
  public let circle: MKCircle
  /// The fraction of the outline where the stroke starts; 0 by default.
  open var strokeStart: CGFloat = 0
  /// The fraction of the outline where the stroke ends; 1 by default.
  open var strokeEnd: CGFloat = 1

  /// A renderer for a circle.
  /// - Parameter circle: The circle to render.
  public init(circle: MKCircle) {
    self.circle = circle
    super.init(overlay: circle)
  }
}

/// Renders an ``MKMultiPolyline``.
open class MKMultiPolylineRenderer: MKOverlayPathRenderer, @unchecked Sendable {
  /// The lines the renderer draws.
  public let multiPolyline: MKMultiPolyline

  /// A renderer for several lines.
  /// - Parameter multiPolyline: The lines to render.
  public init(multiPolyline: MKMultiPolyline) {
    self.multiPolyline = multiPolyline
    super.init(overlay: multiPolyline)
  }
}

/// Renders an ``MKMultiPolygon``.
open class MKMultiPolygonRenderer: MKOverlayPathRenderer, @unchecked Sendable {
  /// The polygons the renderer draws.
  public let multiPolygon: MKMultiPolygon

  /// A renderer for several polygons.
  /// - Parameter multiPolygon: The polygons to render.
  public init(multiPolygon: MKMultiPolygon) {
    self.multiPolygon = multiPolygon
    super.init(overlay: multiPolygon)
  }
}
