public import CoreLocation
public import Foundation

/// Something at a place on a map, with MapKit's names. The SDK's `title`, `subtitle` and
/// `setCoordinate(_:)` are `@objc optional`; Linux has no optional requirements, so each has an
/// implementation here (nil, nil, nothing), and a type implements the ones it wants.
public protocol MKAnnotation: NSObjectProtocol {
  var coordinate: CLLocationCoordinate2D { get }
  var title: String? { get }
  var subtitle: String? { get }
  func setCoordinate(_ newCoordinate: CLLocationCoordinate2D)
}

extension MKAnnotation {
  public var title: String? { nil }
  public var subtitle: String? { nil }
  public func setCoordinate(_ newCoordinate: CLLocationCoordinate2D) {}
}

/// An annotation with a title and subtitle; its subclasses give the place.
open class MKShape: NSObject, MKAnnotation {
  open var title: String?
  open var subtitle: String?
  /// The shape's place: none (``kCLLocationCoordinate2DInvalid``) for the abstract shape.
  open var coordinate: CLLocationCoordinate2D { kCLLocationCoordinate2DInvalid }

  public override init() { super.init() }

  /// Moves the shape (subclasses with a place override it).
  open func setCoordinate(_ newCoordinate: CLLocationCoordinate2D) {}
}

/// An annotation at a point.
open class MKPointAnnotation: MKShape {
  private var point = CLLocationCoordinate2D()

  open override var coordinate: CLLocationCoordinate2D {
    get { point }
    set { point = newValue }
  }

  public override init() { super.init() }

  public convenience init(coordinate: CLLocationCoordinate2D) {
    self.init()
    point = coordinate
  }

  public convenience init(coordinate: CLLocationCoordinate2D, title: String?, subtitle: String?) {
    self.init(coordinate: coordinate)
    self.title = title
    self.subtitle = subtitle
  }

  open override func setCoordinate(_ newCoordinate: CLLocationCoordinate2D) { point = newCoordinate }
}
