public import CoreLocation
public import Foundation

/// What a map view tells its delegate, with MapKit's names. The SDK's methods are
/// `@objc optional`; here each has an implementation that does nothing.
@MainActor
public protocol MKMapViewDelegate: NSObjectProtocol {
  func mapView(_ mapView: MKMapView, regionWillChangeAnimated animated: Bool)
  func mapView(_ mapView: MKMapView, regionDidChangeAnimated animated: Bool)
  func mapViewDidChangeVisibleRegion(_ mapView: MKMapView)
  func mapView(_ mapView: MKMapView, didAdd overlays: [any MKOverlay])
  func mapViewWillStartLocatingUser(_ mapView: MKMapView)
  func mapViewDidStopLocatingUser(_ mapView: MKMapView)
  func mapView(_ mapView: MKMapView, didUpdate userLocation: MKUserLocation)
  func mapView(_ mapView: MKMapView, didFailToLocateUserWithError error: any Error)
}

extension MKMapViewDelegate {
  public func mapView(_ mapView: MKMapView, regionWillChangeAnimated animated: Bool) {}
  public func mapView(_ mapView: MKMapView, regionDidChangeAnimated animated: Bool) {}
  public func mapViewDidChangeVisibleRegion(_ mapView: MKMapView) {}
  public func mapView(_ mapView: MKMapView, didAdd overlays: [any MKOverlay]) {}
  public func mapViewWillStartLocatingUser(_ mapView: MKMapView) {}
  public func mapViewDidStopLocatingUser(_ mapView: MKMapView) {}
  public func mapView(_ mapView: MKMapView, didUpdate userLocation: MKUserLocation) {}
  public func mapView(_ mapView: MKMapView, didFailToLocateUserWithError error: any Error) {}
}

/// MapKit's map view without a screen: its state — the size, the region shown, the annotations
/// and overlays — as app code and view models read and set it, so that code written against
/// `MKMapView` (a clustering manager that reads `bounds` and `region`, a view model that moves
/// the map) builds and runs on Linux. Nothing is drawn; `MKMapSnapshotter` renders maps.
///
/// The region keeps the view's aspect ratio as MapKit's does: setting one widens its narrower
/// span to fill the view.
@MainActor
open class MKMapView: NSObject {
  /// The view's frame and bounds, in points (a frame of zero size until one is given).
  open var frame: CGRect
  open var bounds: CGRect { CGRect(origin: .zero, size: frame.size) }
  open weak var delegate: (any MKMapViewDelegate)?
  open var isZoomEnabled = true
  open var isScrollEnabled = true
  open var isRotateEnabled = true
  open var isPitchEnabled = true
  /// Whether the map shows the user's place: while on, ``userLocation`` follows the phone's
  /// location through a location manager of the map's own (it asks for no permission, as
  /// MapKit's does not), and the delegate hears of each update.
  open var showsUserLocation = false {
    didSet {
      guard showsUserLocation != oldValue else { return }
      if showsUserLocation { startLocatingUser() } else { stopLocatingUser() }
    }
  }
  /// The user's place (its location once the map has one: see ``showsUserLocation``).
  open private(set) var userLocation = MKUserLocation()
  var userLocator: UserLocator?
  open var showsCompass = true
  open var showsScale = false

  private var shown: MKCoordinateRegion
  open private(set) var annotations: [any MKAnnotation] = []
  open private(set) var overlays: [any MKOverlay] = []

  public init(frame: CGRect) {
    self.frame = frame
    // MapKit starts on a region of the whole continent the device is on; here, the world.
    shown = MKCoordinateRegion(
      center: CLLocationCoordinate2D(latitude: 0, longitude: 0), span: MKCoordinateSpan(latitudeDelta: 170, longitudeDelta: 360))
    super.init()
  }

  public override convenience init() { self.init(frame: .zero) }

  /// The region shown.
  open var region: MKCoordinateRegion {
    get { shown }
    set { setRegion(newValue, animated: false) }
  }

  /// Shows `region`, its spans fitted to the view's aspect ratio; the delegate hears of it.
  open func setRegion(_ region: MKCoordinateRegion, animated: Bool) {
    delegate?.mapView(self, regionWillChangeAnimated: animated)
    shown = regionThatFits(region)
    delegate?.mapViewDidChangeVisibleRegion(self)
    delegate?.mapView(self, regionDidChangeAnimated: animated)
  }

  /// `region` with its narrower span widened to the view's aspect ratio (unchanged while the
  /// view has no size).
  open func regionThatFits(_ region: MKCoordinateRegion) -> MKCoordinateRegion {
    guard frame.width > 0, frame.height > 0 else { return region }
    let rect = MKMapRect(region: region)
    let aspect = Double(frame.width / frame.height)
    var width = rect.width
    var height = rect.height
    if width / height < aspect { width = height * aspect } else { height = width / aspect }
    return MKCoordinateRegion(MKMapRect(x: rect.midX - width / 2, y: rect.midY - height / 2, width: width, height: height))
  }

  /// The centre of the region shown.
  open var centerCoordinate: CLLocationCoordinate2D {
    get { shown.center }
    set { setCenter(newValue, animated: false) }
  }

  open func setCenter(_ coordinate: CLLocationCoordinate2D, animated: Bool) {
    setRegion(MKCoordinateRegion(center: coordinate, span: shown.span), animated: animated)
  }

  /// The region shown, in map points.
  open var visibleMapRect: MKMapRect {
    get { MKMapRect(region: shown) }
    set { setVisibleMapRect(newValue, animated: false) }
  }

  open func setVisibleMapRect(_ mapRect: MKMapRect, animated: Bool) {
    setRegion(MKCoordinateRegion(mapRect), animated: animated)
  }

  open func addAnnotation(_ annotation: any MKAnnotation) { annotations.append(annotation) }
  open func addAnnotations(_ annotations: [any MKAnnotation]) { self.annotations += annotations }
  open func removeAnnotation(_ annotation: any MKAnnotation) { annotations.removeAll { $0 === annotation } }
  open func removeAnnotations(_ annotations: [any MKAnnotation]) {
    for annotation in annotations { removeAnnotation(annotation) }
  }

  /// The annotations whose coordinate lies in `mapRect`.
  open func annotations(in mapRect: MKMapRect) -> Set<AnyHashable> {
    Set(annotations.filter { mapRect.contains(MKMapPoint($0.coordinate)) }.compactMap { $0 as? AnyHashable })
  }

  open func addOverlay(_ overlay: any MKOverlay) { addOverlays([overlay]) }
  open func addOverlays(_ overlays: [any MKOverlay]) {
    self.overlays += overlays
    delegate?.mapView(self, didAdd: overlays)
  }
  open func removeOverlay(_ overlay: any MKOverlay) { overlays.removeAll { $0 === overlay } }
  open func removeOverlays(_ overlays: [any MKOverlay]) {
    for overlay in overlays { removeOverlay(overlay) }
  }
}
