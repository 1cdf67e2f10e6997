public import CoreLocation
public import Foundation

/// Something at a place on a map, with MapKit's names. The SDK's `title`, `subtitle` and
/// `setCoordinate(_:)` are `@objc optional`; Linux has no optional requirements, so each has an
/// implementation here (nil, nil, nothing), and a type implements the ones it wants.
public protocol MKAnnotation: NSObjectProtocol {
  /// Where the annotation is on the map.
  var coordinate: CLLocationCoordinate2D { get }
  /// The annotation's title, shown in its callout; nil for none.
  var title: String? { get }
  /// The annotation's subtitle, shown under the title; nil for none.
  var subtitle: String? { get }
  /// Moves the annotation, for annotations that can be dragged.
  /// - Parameter newCoordinate: The new place.
  func setCoordinate(_ newCoordinate: CLLocationCoordinate2D)
}

extension MKAnnotation {
  /// No title by default.
  public var title: String? { nil }
  /// No subtitle by default.
  public var subtitle: String? { nil }
  /// Does nothing by default: the annotation does not move.
  /// - Parameter newCoordinate: The new place, ignored.
  public func setCoordinate(_ newCoordinate: CLLocationCoordinate2D) {}
}

/// An annotation with a title and subtitle; its subclasses give the place.
open class MKShape: NSObject, MKAnnotation {
  /// The shape's title; nil by default.
  open var title: String?
  /// The shape's subtitle; nil by default.
  open var subtitle: String?
  /// The shape's place: none (`kCLLocationCoordinate2DInvalid`, of CoreLocation) for the abstract shape.
  open var coordinate: CLLocationCoordinate2D { kCLLocationCoordinate2DInvalid }

  /// A shape with no title, subtitle or place.
  public override init() { super.init() }

  /// Moves the shape (subclasses with a place override it).
  open func setCoordinate(_ newCoordinate: CLLocationCoordinate2D) {}
}

/// An annotation at a point.
open class MKPointAnnotation: MKShape {
  private var point = CLLocationCoordinate2D()

  /// The annotation's place, which can be set; latitude and longitude 0 by default.
  open override var coordinate: CLLocationCoordinate2D {
    get { point }
    set { point = newValue }
  }

  /// An annotation at latitude and longitude 0, with no title.
  public override init() { super.init() }

  /// An annotation at a place, with no title.
  /// - Parameter coordinate: The place.
  public convenience init(coordinate: CLLocationCoordinate2D) {
    self.init()
    point = coordinate
  }

  /// An annotation at a place, with a title and a subtitle.
  /// - Parameters:
  ///   - coordinate: The place.
  ///   - title: The title, or nil.
  ///   - subtitle: The subtitle, or nil.
  public convenience init(coordinate: CLLocationCoordinate2D, title: String?, subtitle: String?) {
    self.init(coordinate: coordinate)
    self.title = title
    self.subtitle = subtitle
  }

  /// Moves the annotation.
  /// - Parameter newCoordinate: The new place.
  open override func setCoordinate(_ newCoordinate: CLLocationCoordinate2D) { point = newCoordinate }
}
