public import CoreLocation
public import Foundation

/// How much a feature or annotation view may be hidden when it collides with another, with
/// MapKit's values: ``required`` views are never hidden for a collision; lower ones give way.
public struct MKFeatureDisplayPriority: RawRepresentable, Hashable, Sendable {
  /// The raw value: 0 to 1000.
  public var rawValue: Float

  /// Creates a priority from its raw value.
  /// - Parameter rawValue: The priority, 0 to 1000.
  public init(rawValue: Float) { self.rawValue = rawValue }
  /// Creates a priority from its raw value.
  /// - Parameter rawValue: The priority, 0 to 1000.
  public init(_ rawValue: Float) { self.rawValue = rawValue }

  /// Never hidden for a collision (1000), the default of annotation views.
  public static let required = MKFeatureDisplayPriority(rawValue: 1000)
  /// A high priority (750).
  public static let defaultHigh = MKFeatureDisplayPriority(rawValue: 750)
  /// A low priority (250), that of marker views.
  public static let defaultLow = MKFeatureDisplayPriority(rawValue: 250)
}

/// The order annotation views stack in, with MapKit's values: higher is in front.
public struct MKAnnotationViewZPriority: RawRepresentable, Hashable, Sendable {
  /// The raw value: 0 to 1000.
  public var rawValue: Float

  /// Creates a z priority from its raw value.
  /// - Parameter rawValue: The priority, 0 to 1000.
  public init(rawValue: Float) { self.rawValue = rawValue }
  /// Creates a z priority from its raw value.
  /// - Parameter rawValue: The priority, 0 to 1000.
  public init(_ rawValue: Float) { self.rawValue = rawValue }

  /// In front of all others (1000).
  public static let max = MKAnnotationViewZPriority(rawValue: 1000)
  /// The default of a selected view (1000).
  public static let defaultSelected = MKAnnotationViewZPriority(rawValue: 1000)
  /// The default of a view that is not selected (500).
  public static let defaultUnselected = MKAnnotationViewZPriority(rawValue: 500)
  /// Behind all others (0).
  public static let min = MKAnnotationViewZPriority(rawValue: 0)
}

/// Whether a marker's title or subtitle shows, with MapKit's cases.
public enum MKFeatureVisibility: Int, Sendable {
  /// Shown or hidden as the map sees fit.
  case adaptive = 0
  /// Never shown.
  case hidden = 1
  /// Always shown.
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
    /// The view's frame collides.
    case rectangle = 0
    /// The circle inscribed in the view's frame collides.
    case circle = 1
    /// The view never collides (iOS 14).
    case none = 2
  }

  /// Where a drag is, with MapKit's cases.
  public enum DragState: UInt, Sendable {
    /// Not being dragged.
    case none = 0
    /// A drag is starting.
    case starting = 1
    /// The view is being dragged.
    case dragging = 2
    /// The drag is being canceled.
    case canceling = 3
    /// The drag is ending.
    case ending = 4
  }

  /// The identifier the view is reused under (see ``MKMapView/dequeueReusableAnnotationView(withIdentifier:)``).
  open private(set) var reuseIdentifier: String?
  /// The annotation the view shows.
  open var annotation: (any MKAnnotation)?
  /// The view's frame, in points; the map centres it on its annotation's point, moved by
  /// ``centerOffset``.
  open var frame: CGRect
  /// The view's own rectangle: the frame's size, at the origin.
  open var bounds: CGRect { CGRect(origin: .zero, size: frame.size) }
  /// The centre of the frame.
  open var center: CGPoint {
    get { CGPoint(x: frame.midX, y: frame.midY) }
    set { frame.origin = CGPoint(x: newValue.x - frame.width / 2, y: newValue.y - frame.height / 2) }
  }
  /// Whether the view is hidden; false by default. Stored only: nothing is drawn here.
  open var isHidden = false
  /// The view's opacity, 0 to 1; 1 by default. Stored only: nothing is drawn here.
  open var alpha: CGFloat = 1
  /// A number the app identifies the view by; 0 by default.
  open var tag = 0
  /// How far, in points, the view's centre sits from its annotation's point; zero by default.
  open var centerOffset = CGPoint.zero
  /// How far the callout is moved from the top of the view. No callout is shown here.
  open var calloutOffset = CGPoint.zero
  /// Whether the view responds to taps and can be selected; true by default. Stored only here.
  open var isEnabled = true
  /// Whether the view is highlighted (while touched on iOS); false by default. Stored only here.
  open var isHighlighted = false
  /// Whether the view is selected; setting it calls ``setSelected(_:animated:)`` without animation.
  open var isSelected: Bool {
    get { selected }
    set { setSelected(newValue, animated: false) }
  }
  private var selected = false
  /// Whether selecting the view shows a callout with the title; false by default. No callout is shown here.
  open var canShowCallout = false
  /// Whether the user can drag the view to move its annotation; false by default. Nothing is dragged here.
  open var isDraggable = false
  /// Where a drag of the view is; setting it calls ``setDragState(_:animated:)`` without animation.
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
  /// How much the view may give way in a collision; higher priorities come first when views are clustered.
  open var displayPriority = MKFeatureDisplayPriority.required
  /// The shape the view collides with; the rectangle by default. Stored only: frames are compared here.
  open var collisionMode = CollisionMode.rectangle
  /// Where the view stacks when not selected. Stored only: nothing is drawn here.
  open var zPriority = MKAnnotationViewZPriority.defaultUnselected
  /// Where the view stacks when selected. Stored only: nothing is drawn here.
  open var selectedZPriority = MKAnnotationViewZPriority.defaultSelected

  /// A view for an annotation, reused under an identifier; its frame is empty.
  /// - Parameters:
  ///   - annotation: The annotation to show, or nil.
  ///   - reuseIdentifier: The identifier to reuse it under, or nil.
  public init(annotation: (any MKAnnotation)?, reuseIdentifier: String?) {
    self.annotation = annotation
    self.reuseIdentifier = reuseIdentifier
    frame = .zero
    super.init()
  }

  /// A view with a frame and no annotation.
  /// - Parameter frame: The frame, in points.
  public init(frame: CGRect) {
    self.frame = frame
    super.init()
  }

  /// A view with an empty frame and no annotation.
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

  /// Selects or deselects the view; a subclass may override it to update itself.
  /// - Parameters:
  ///   - selected: Whether the view is selected.
  ///   - animated: Whether to animate (nothing is animated here).
  open func setSelected(_ selected: Bool, animated: Bool) { self.selected = selected }

  /// Sets where a drag of the view is; a subclass may override it to follow the drag.
  /// - Parameters:
  ///   - newDragState: The new drag state.
  ///   - animated: Whether to animate (nothing is animated here).
  open func setDragState(_ newDragState: DragState, animated: Bool) { drag = newDragState }
}

/// MapKit's balloon marker (the default annotation view since iOS 11), without a screen: its
/// glyph, title visibility and colours as values.
@preconcurrency @MainActor
open class MKMarkerAnnotationView: MKAnnotationView {
  /// The balloon's colour; nil for the default (red on iOS).
  open var markerTintColor: UIColor?
  /// The glyph's colour; nil for the default (white on iOS).
  open var glyphTintColor: UIColor?
  /// A short text shown in the balloon instead of the glyph image; nil for none.
  open var glyphText: String?
  /// Whether the annotation's title shows under the marker; adaptive by default.
  open var titleVisibility = MKFeatureVisibility.adaptive
  /// Whether the annotation's subtitle shows under the marker; adaptive by default.
  open var subtitleVisibility = MKFeatureVisibility.adaptive
  /// Whether the marker animates when added to the map; false by default. Nothing is animated here.
  open var animatesWhenAdded = false

  /// A marker for an annotation: 28 by 28 points, with the low display priority markers have on iOS.
  /// - Parameters:
  ///   - annotation: The annotation to show, or nil.
  ///   - reuseIdentifier: The identifier to reuse it under, or nil.
  public override init(annotation: (any MKAnnotation)?, reuseIdentifier: String?) {
    super.init(annotation: annotation, reuseIdentifier: reuseIdentifier)
    // A marker's size on iOS, and its priority: markers give way to required views.
    frame = CGRect(x: 0, y: 0, width: 28, height: 28)
    displayPriority = .defaultLow
  }

  /// A marker with a frame and no annotation, with the low display priority.
  /// - Parameter frame: The frame, in points.
  public override init(frame: CGRect) {
    super.init(frame: frame)
    displayPriority = .defaultLow
  }

  /// A marker from an archive, with the low display priority.
  /// - Parameter coder: The archive to read.
  public required init?(coder: NSCoder) {
    super.init(coder: coder)
    displayPriority = .defaultLow
  }
}

/// The view MapKit shows the user's place with.
@preconcurrency @MainActor
open class MKUserLocationView: MKAnnotationView {
  /// A view of the user's place: 22 by 22 points.
  /// - Parameters:
  ///   - annotation: The user location annotation, or nil.
  ///   - reuseIdentifier: The identifier to reuse it under, or nil.
  public override init(annotation: (any MKAnnotation)?, reuseIdentifier: String?) {
    super.init(annotation: annotation, reuseIdentifier: reuseIdentifier)
    frame = CGRect(x: 0, y: 0, width: 22, height: 22)
  }

  /// A view with a frame and no annotation.
  /// - Parameter frame: The frame, in points.
  public override init(frame: CGRect) { super.init(frame: frame) }
  /// A view from an archive.
  /// - Parameter coder: The archive to read.
  public required init?(coder: NSCoder) { super.init(coder: coder) }
}

/// A pin's colour before `pinTintColor` (deprecated with the pin view), with MapKit's cases.
@available(*, deprecated, message: "Use MKMarkerAnnotationView's markerTintColor")
public enum MKPinAnnotationColor: UInt, Sendable {
  /// Red: a destination.
  case red = 0
  /// Green: a starting point.
  case green = 1
  /// Purple: a point the user placed.
  case purple = 2
}

/// MapKit's pin, deprecated since iOS 16 in favour of ``MKMarkerAnnotationView``.
@preconcurrency @MainActor
@available(*, deprecated, message: "Use MKMarkerAnnotationView")
open class MKPinAnnotationView: MKAnnotationView {
  /// The pin's colour; red by default.
  open var pinTintColor: UIColor? = MKPinAnnotationView.redPinColor()
  /// Whether the pin drops onto the map when added; false by default. Nothing is animated here.
  open var animatesDrop = false

  /// A pin for an annotation: 16 by 39 points.
  /// - Parameters:
  ///   - annotation: The annotation to show, or nil.
  ///   - reuseIdentifier: The identifier to reuse it under, or nil.
  public override init(annotation: (any MKAnnotation)?, reuseIdentifier: String?) {
    super.init(annotation: annotation, reuseIdentifier: reuseIdentifier)
    frame = CGRect(x: 0, y: 0, width: 16, height: 39)
  }

  /// A pin with a frame and no annotation.
  /// - Parameter frame: The frame, in points.
  public override init(frame: CGRect) { super.init(frame: frame) }
  /// A pin from an archive.
  /// - Parameter coder: The archive to read.
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

  /// The red of pins.
  /// - Returns: The system red.
  open class func redPinColor() -> UIColor { .systemRed }
  /// The green of pins.
  /// - Returns: The system green.
  open class func greenPinColor() -> UIColor { .systemGreen }
  /// The purple of pins.
  /// - Returns: The system purple.
  open class func purplePinColor() -> UIColor { .systemPurple }
}

/// A group of annotations shown as one, with MapKit's names: its members, a title and subtitle,
/// and the place (the members' centre, as the map puts it).
open class MKClusterAnnotation: NSObject, MKAnnotation {
  /// The annotations the cluster groups.
  public let memberAnnotations: [any MKAnnotation]
  /// The cluster's title; nil by default.
  open var title: String?
  /// The cluster's subtitle; nil by default.
  open var subtitle: String?
  /// The members' centre on the map; `kCLLocationCoordinate2DInvalid` with no members.
  open var coordinate: CLLocationCoordinate2D

  /// A cluster of annotations, placed at the centre of their map points.
  /// - Parameter memberAnnotations: The annotations to group.
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
