public import CoreLocation
public import Foundation

/// How much a feature or annotation view may be hidden when it collides with another, with
/// MapKit's values: ``required`` views are never hidden for a collision; lower ones give way.
public struct MKFeatureDisplayPriority: RawRepresentable, Hashable, Sendable {
  public var rawValue: Float

  public init(rawValue: Float) { self.rawValue = rawValue }
  public init(_ rawValue: Float) { self.rawValue = rawValue }

  public static let required = MKFeatureDisplayPriority(rawValue: 1000)
  public static let defaultHigh = MKFeatureDisplayPriority(rawValue: 750)
  public static let defaultLow = MKFeatureDisplayPriority(rawValue: 250)
}

/// The order annotation views stack in, with MapKit's values: higher is in front.
public struct MKAnnotationViewZPriority: RawRepresentable, Hashable, Sendable {
  public var rawValue: Float

  public init(rawValue: Float) { self.rawValue = rawValue }
  public init(_ rawValue: Float) { self.rawValue = rawValue }

  public static let max = MKAnnotationViewZPriority(rawValue: 1000)
  public static let defaultSelected = MKAnnotationViewZPriority(rawValue: 1000)
  public static let defaultUnselected = MKAnnotationViewZPriority(rawValue: 500)
  public static let min = MKAnnotationViewZPriority(rawValue: 0)
}

/// Whether a marker's title or subtitle shows, with MapKit's cases.
public enum MKFeatureVisibility: Int, Sendable {
  case adaptive = 0
  case hidden = 1
  case visible = 2
}

/// The reuse identifier a map view's default annotation views are registered under (marker
/// views), with MapKit's name.
public let MKMapViewDefaultAnnotationViewReuseIdentifier = "MKMapViewDefaultAnnotationViewReuseIdentifier"
/// The reuse identifier a map view's default cluster views are registered under.
public let MKMapViewDefaultClusterAnnotationViewReuseIdentifier = "MKMapViewDefaultClusterAnnotationViewReuseIdentifier"

/// MapKit's annotation view without a screen: what app code sets on it and reads back — its
/// annotation, reuse identifier, frame and offsets, selection, dragging, clustering and display
/// priorities — so that map code that configures views (a `mapView(_:viewFor:)` that dequeues
/// and sets a marker, a clustering manager) builds and runs on Linux. Nothing is drawn.
///
/// Main-actor isolated with pre-concurrency semantics, as UIKit's views are imported on iOS:
/// Swift 5 code that touches a view off the main actor builds as there; Swift 6 code is warned.
@preconcurrency @MainActor
open class MKAnnotationView: NSObject {
  /// How a view collides with others for display priority, with MapKit's cases.
  public enum CollisionMode: Int, Sendable {
    case rectangle = 0
    case circle = 1
    case none = 2
  }

  /// Where a drag is, with MapKit's cases.
  public enum DragState: UInt, Sendable {
    case none = 0
    case starting = 1
    case dragging = 2
    case canceling = 3
    case ending = 4
  }

  /// The identifier the view is reused under (see ``MKMapView/dequeueReusableAnnotationView(withIdentifier:)``).
  open private(set) var reuseIdentifier: String?
  /// The annotation the view shows.
  open var annotation: (any MKAnnotation)?
  /// The view's frame, in points; the map centres it on its annotation's point, moved by
  /// ``centerOffset``.
  open var frame: CGRect
  open var bounds: CGRect { CGRect(origin: .zero, size: frame.size) }
  /// The centre of the frame.
  open var center: CGPoint {
    get { CGPoint(x: frame.midX, y: frame.midY) }
    set { frame.origin = CGPoint(x: newValue.x - frame.width / 2, y: newValue.y - frame.height / 2) }
  }
  open var isHidden = false
  open var alpha: CGFloat = 1
  open var tag = 0
  open var centerOffset = CGPoint.zero
  open var calloutOffset = CGPoint.zero
  open var isEnabled = true
  open var isHighlighted = false
  open var isSelected: Bool {
    get { selected }
    set { setSelected(newValue, animated: false) }
  }
  private var selected = false
  open var canShowCallout = false
  open var isDraggable = false
  open var dragState: DragState {
    get { drag }
    set { setDragState(newValue, animated: false) }
  }
  private var drag = DragState.none
  /// Views with the same identifier that collide are grouped into a cluster
  /// (``MKClusterAnnotation``); nil: never clustered.
  open var clusteringIdentifier: String?
  /// The cluster view this view is shown in, while it is in one.
  open internal(set) weak var cluster: MKAnnotationView?
  open var displayPriority = MKFeatureDisplayPriority.required
  open var collisionMode = CollisionMode.rectangle
  open var zPriority = MKAnnotationViewZPriority.defaultUnselected
  open var selectedZPriority = MKAnnotationViewZPriority.defaultSelected

  public init(annotation: (any MKAnnotation)?, reuseIdentifier: String?) {
    self.annotation = annotation
    self.reuseIdentifier = reuseIdentifier
    frame = .zero
    super.init()
  }

  public init(frame: CGRect) {
    self.frame = frame
    super.init()
  }

  public override convenience init() { self.init(frame: .zero) }

  /// A view from an archive (a storyboard's): no annotation, no reuse identifier. Required, as
  /// UIView's `init?(coder:)` is, so subclasses declare it as they do on iOS.
  public required init?(coder: NSCoder) {
    frame = .zero
    super.init()
  }

  /// Where the callout's accessory views sit relative to the view (no callout is shown here).
  open var accessoryOffset = CGPoint.zero

  /// Called before a dequeued view is handed out again: a subclass resets what it set.
  open func prepareForReuse() {}

  /// Called before the view is shown for its annotation.
  open func prepareForDisplay() {}

  open func setSelected(_ selected: Bool, animated: Bool) { self.selected = selected }

  open func setDragState(_ newDragState: DragState, animated: Bool) { drag = newDragState }
}

/// MapKit's balloon marker (the default annotation view since iOS 11), without a screen: its
/// glyph, title visibility and colours as values.
@preconcurrency @MainActor
open class MKMarkerAnnotationView: MKAnnotationView {
  open var markerTintColor: UIColor?
  open var glyphTintColor: UIColor?
  open var glyphText: String?
  open var titleVisibility = MKFeatureVisibility.adaptive
  open var subtitleVisibility = MKFeatureVisibility.adaptive
  open var animatesWhenAdded = false

  public override init(annotation: (any MKAnnotation)?, reuseIdentifier: String?) {
    super.init(annotation: annotation, reuseIdentifier: reuseIdentifier)
    // A marker's size on iOS, and its priority: markers give way to required views.
    frame = CGRect(x: 0, y: 0, width: 28, height: 28)
    displayPriority = .defaultLow
  }

  public override init(frame: CGRect) {
    super.init(frame: frame)
    displayPriority = .defaultLow
  }

  public required init?(coder: NSCoder) {
    super.init(coder: coder)
    displayPriority = .defaultLow
  }
}

/// The view MapKit shows the user's place with.
@preconcurrency @MainActor
open class MKUserLocationView: MKAnnotationView {
  public override init(annotation: (any MKAnnotation)?, reuseIdentifier: String?) {
    super.init(annotation: annotation, reuseIdentifier: reuseIdentifier)
    frame = CGRect(x: 0, y: 0, width: 22, height: 22)
  }

  public override init(frame: CGRect) { super.init(frame: frame) }
  public required init?(coder: NSCoder) { super.init(coder: coder) }
}

/// A pin's colour before `pinTintColor` (deprecated with the pin view), with MapKit's cases.
@available(*, deprecated, message: "Use MKMarkerAnnotationView's markerTintColor")
public enum MKPinAnnotationColor: UInt, Sendable {
  case red = 0
  case green = 1
  case purple = 2
}

/// MapKit's pin, deprecated since iOS 16 in favour of ``MKMarkerAnnotationView``.
@preconcurrency @MainActor
@available(*, deprecated, message: "Use MKMarkerAnnotationView")
open class MKPinAnnotationView: MKAnnotationView {
  open var pinTintColor: UIColor? = MKPinAnnotationView.redPinColor()
  open var animatesDrop = false

  public override init(annotation: (any MKAnnotation)?, reuseIdentifier: String?) {
    super.init(annotation: annotation, reuseIdentifier: reuseIdentifier)
    frame = CGRect(x: 0, y: 0, width: 16, height: 39)
  }

  public override init(frame: CGRect) { super.init(frame: frame) }
  public required init?(coder: NSCoder) { super.init(coder: coder) }

  /// The pin's colour as one of three (deprecated): red, green or purple, read from and written
  /// to ``pinTintColor``.
  @available(*, deprecated, message: "Use pinTintColor")
  open var pinColor: MKPinAnnotationColor {
    get {
      switch pinTintColor {
      case MKPinAnnotationView.greenPinColor(): .green
      case MKPinAnnotationView.purplePinColor(): .purple
      default: .red
      }
    }
    set {
      switch newValue {
      case .red: pinTintColor = Self.redPinColor()
      case .green: pinTintColor = Self.greenPinColor()
      case .purple: pinTintColor = Self.purplePinColor()
      }
    }
  }

  open class func redPinColor() -> UIColor { .systemRed }
  open class func greenPinColor() -> UIColor { .systemGreen }
  open class func purplePinColor() -> UIColor { .systemPurple }
}

/// A group of annotations shown as one, with MapKit's names: its members, a title and subtitle,
/// and the place (the members' centre, as the map puts it).
open class MKClusterAnnotation: NSObject, MKAnnotation {
  public let memberAnnotations: [any MKAnnotation]
  open var title: String?
  open var subtitle: String?
  open var coordinate: CLLocationCoordinate2D

  public init(memberAnnotations: [any MKAnnotation]) {
    self.memberAnnotations = memberAnnotations
    // The centre of the members' map points (the map's projection, not the coordinates' mean,
    // which is wrong across the antimeridian).
    let points = memberAnnotations.map { MKMapPoint($0.coordinate) }
    let count = Double(Swift.max(points.count, 1))
    let centre = MKMapPoint(x: points.reduce(0) { $0 + $1.x } / count, y: points.reduce(0) { $0 + $1.y } / count)
    coordinate = points.isEmpty ? kCLLocationCoordinate2DInvalid : centre.coordinate
    super.init()
  }
}
