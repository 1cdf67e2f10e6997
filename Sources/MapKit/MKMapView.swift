public import CoreLocation
public import Foundation

/// What a map view tells its delegate, with MapKit's names. The SDK's methods are
/// `@objc optional`; here each has an implementation that does nothing (or MapKit's default).
/// Main-actor isolated with pre-concurrency semantics, as MapKit's is imported on iOS.
@preconcurrency @MainActor
public protocol MKMapViewDelegate: NSObjectProtocol {
  /// The view for an annotation coming into the visible region; nil: the map's default view (a
  /// marker, registered under ``MKMapViewDefaultAnnotationViewReuseIdentifier``).
  func mapView(_ mapView: MKMapView, viewFor annotation: any MKAnnotation) -> MKAnnotationView?
  func mapView(_ mapView: MKMapView, didAdd views: [MKAnnotationView])
  /// The renderer for an overlay added to the map (MapKit's default: a plain renderer).
  func mapView(_ mapView: MKMapView, rendererFor overlay: any MKOverlay) -> MKOverlayRenderer
  func mapView(_ mapView: MKMapView, didAdd renderers: [MKOverlayRenderer])
  func mapView(_ mapView: MKMapView, didSelect view: MKAnnotationView)
  func mapView(_ mapView: MKMapView, didDeselect view: MKAnnotationView)
  func mapView(_ mapView: MKMapView, didSelect annotation: any MKAnnotation)
  func mapView(_ mapView: MKMapView, didDeselect annotation: any MKAnnotation)
  /// The annotation that stands for colliding views with the same clustering identifier.
  func mapView(_ mapView: MKMapView, clusterAnnotationForMemberAnnotations memberAnnotations: [any MKAnnotation]) -> MKClusterAnnotation
  func mapView(
    _ mapView: MKMapView, annotationView view: MKAnnotationView, didChange newState: MKAnnotationView.DragState,
    fromOldState oldState: MKAnnotationView.DragState)
  func mapView(_ mapView: MKMapView, didChange mode: MKUserTrackingMode, animated: Bool)
  func mapViewWillStartLoadingMap(_ mapView: MKMapView)
  func mapViewDidFinishLoadingMap(_ mapView: MKMapView)
  func mapViewDidFailLoadingMap(_ mapView: MKMapView, withError error: any Error)
  func mapViewWillStartRenderingMap(_ mapView: MKMapView)
  func mapViewDidFinishRenderingMap(_ mapView: MKMapView, fullyRendered: Bool)
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
  public func mapView(_ mapView: MKMapView, didChange mode: MKUserTrackingMode, animated: Bool) {}
  public func mapViewWillStartLoadingMap(_ mapView: MKMapView) {}
  public func mapViewDidFinishLoadingMap(_ mapView: MKMapView) {}
  public func mapViewDidFailLoadingMap(_ mapView: MKMapView, withError error: any Error) {}
  public func mapViewWillStartRenderingMap(_ mapView: MKMapView) {}
  public func mapViewDidFinishRenderingMap(_ mapView: MKMapView, fullyRendered: Bool) {}
  public func mapView(_ mapView: MKMapView, viewFor annotation: any MKAnnotation) -> MKAnnotationView? { nil }
  public func mapView(_ mapView: MKMapView, didAdd views: [MKAnnotationView]) {}
  public func mapView(_ mapView: MKMapView, rendererFor overlay: any MKOverlay) -> MKOverlayRenderer { MKOverlayRenderer(overlay: overlay) }
  public func mapView(_ mapView: MKMapView, didAdd renderers: [MKOverlayRenderer]) {}
  public func mapView(_ mapView: MKMapView, didSelect view: MKAnnotationView) {}
  public func mapView(_ mapView: MKMapView, didDeselect view: MKAnnotationView) {}
  public func mapView(_ mapView: MKMapView, didSelect annotation: any MKAnnotation) {}
  public func mapView(_ mapView: MKMapView, didDeselect annotation: any MKAnnotation) {}
  public func mapView(
    _ mapView: MKMapView, clusterAnnotationForMemberAnnotations memberAnnotations: [any MKAnnotation]
  ) -> MKClusterAnnotation {
    MKClusterAnnotation(memberAnnotations: memberAnnotations)
  }
  public func mapView(
    _ mapView: MKMapView, annotationView view: MKAnnotationView, didChange newState: MKAnnotationView.DragState,
    fromOldState oldState: MKAnnotationView.DragState
  ) {}
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
/// span to fill the view. Annotation views are made, reused and clustered as the region and the
/// annotations change (see ``view(for:)``); overlays get their renderers when added.
///
/// Main-actor isolated with pre-concurrency semantics, as UIKit's views are imported on iOS:
/// Swift 5 code that reads `bounds` or adds annotations off the main actor builds as there;
/// Swift 6 code is warned.
@preconcurrency @MainActor
open class MKMapView: NSObject {
  /// The view's frame and bounds, in points (a frame of zero size until one is given).
  open var frame: CGRect {
    didSet { layoutAnnotationViews() }
  }
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
  /// The annotation views' bookkeeping: registrations, views shown, the reuse queue, clusters.
  var views = AnnotationViews()
  var renderers: [ObjectIdentifier: MKOverlayRenderer] = [:]
  /// Each overlay's level (see ``addOverlay(_:level:)``).
  var levels: [ObjectIdentifier: MKOverlayLevel] = [:]
  open var selectedAnnotations: [any MKAnnotation] = []
  open var mapType = MKMapType.standard
  open var preferredConfiguration: MKMapConfiguration = MKStandardMapConfiguration()
  open var showsBuildings = true
  open var showsTraffic = false
  open var showsPointsOfInterest = true
  open var pointOfInterestFilter: MKPointOfInterestFilter?
  open var showsUserTrackingButton = false
  open var pitchButtonVisibility = MKFeatureVisibility.adaptive
  open var selectableMapFeatures: MKMapFeatureOptions = []
  /// How the map follows the user (see ``setUserTrackingMode(_:animated:)``).
  open var userTrackingMode: MKUserTrackingMode {
    get { tracking }
    set { setUserTrackingMode(newValue, animated: false) }
  }
  var tracking = MKUserTrackingMode.none
  /// Where the camera may look: the region's centre is kept within it.
  open var cameraBoundary: CameraBoundary? {
    get { boundary }
    set { setCameraBoundary(newValue, animated: false) }
  }
  var boundary: CameraBoundary?
  /// How near and far the camera may be from the centre, in metres.
  open var cameraZoomRange: CameraZoomRange! {
    get { zoomRange }
    set { setCameraZoomRange(newValue, animated: false) }
  }
  var zoomRange = CameraZoomRange(minCenterCoordinateDistance: 0, maxCenterCoordinateDistance: .greatestFiniteMagnitude)

  public init(frame: CGRect) {
    self.frame = frame
    // MapKit starts on a region of the whole continent the device is on; here, the world.
    shown = MKCoordinateRegion(
      center: CLLocationCoordinate2D(latitude: 0, longitude: 0), span: MKCoordinateSpan(latitudeDelta: 170, longitudeDelta: 360))
    super.init()
  }

  public override convenience init() { self.init(frame: .zero) }

  /// A map from an archive (a storyboard's): the frame it was archived with, or none.
  public required init?(coder: NSCoder) {
    frame = coder.containsValue(forKey: "frame") ? coder.decodeObject(forKey: "frame") as? CGRect ?? .zero : .zero
    shown = MKCoordinateRegion(
      center: CLLocationCoordinate2D(latitude: 0, longitude: 0), span: MKCoordinateSpan(latitudeDelta: 170, longitudeDelta: 360))
    super.init()
  }

  /// The region shown.
  open var region: MKCoordinateRegion {
    get { shown }
    set { setRegion(newValue, animated: false) }
  }

  /// Shows `region`, its spans fitted to the view's aspect ratio and its centre kept within the
  /// camera boundary; the delegate hears of it.
  open func setRegion(_ region: MKCoordinateRegion, animated: Bool) {
    delegate?.mapView(self, regionWillChangeAnimated: animated)
    shown = regionThatFits(boundary?.keeping(region) ?? region)
    layoutAnnotationViews()
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

  open func addAnnotation(_ annotation: any MKAnnotation) { addAnnotations([annotation]) }
  open func addAnnotations(_ annotations: [any MKAnnotation]) {
    self.annotations += annotations
    layoutAnnotationViews()
  }
  open func removeAnnotation(_ annotation: any MKAnnotation) { removeAnnotations([annotation]) }
  open func removeAnnotations(_ annotations: [any MKAnnotation]) {
    let gone = Set(annotations.map { ObjectIdentifier($0) })
    self.annotations.removeAll { gone.contains(ObjectIdentifier($0)) }
    selectedAnnotations.removeAll { gone.contains(ObjectIdentifier($0)) }
    layoutAnnotationViews()
  }

  /// The annotations whose coordinate lies in `mapRect`.
  open func annotations(in mapRect: MKMapRect) -> Set<AnyHashable> {
    Set(annotations.filter { mapRect.contains(MKMapPoint($0.coordinate)) }.compactMap { $0 as? AnyHashable })
  }

  open func addOverlay(_ overlay: any MKOverlay) { addOverlays([overlay]) }
  open func addOverlays(_ overlays: [any MKOverlay]) { insert(overlays, at: self.overlays.count, level: .aboveLabels) }

  /// Changes ``overlays`` in place (reordering: no renderer is made or dropped).
  func replaceOverlays(_ change: (inout [any MKOverlay]) -> Void) { change(&overlays) }

  /// Inserts `added` at `index` of ``overlays`` on `level`, makes their renderers, tells the delegate.
  func insert(_ incoming: [any MKOverlay], at index: Int, level: MKOverlayLevel) {
    overlays.insert(contentsOf: incoming, at: Swift.min(Swift.max(index, 0), overlays.count))
    for overlay in incoming { levels[ObjectIdentifier(overlay)] = level }
    let overlays = incoming
    delegate?.mapView(self, didAdd: overlays)
    let added = overlays.map { overlay in
      let renderer = delegate?.mapView(self, rendererFor: overlay) ?? MKOverlayRenderer(overlay: overlay)
      renderers[ObjectIdentifier(overlay)] = renderer
      return renderer
    }
    delegate?.mapView(self, didAdd: added)
  }
  open func removeOverlay(_ overlay: any MKOverlay) {
    overlays.removeAll { $0 === overlay }
    renderers[ObjectIdentifier(overlay)] = nil
    levels[ObjectIdentifier(overlay)] = nil
  }
  open func removeOverlays(_ overlays: [any MKOverlay]) {
    for overlay in overlays { removeOverlay(overlay) }
  }
}
