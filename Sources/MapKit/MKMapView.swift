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
  /// Annotation views were made for annotations that came into the visible region.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - views: The new views.
  func mapView(_ mapView: MKMapView, didAdd views: [MKAnnotationView])
  /// The renderer for an overlay added to the map (MapKit's default: a plain renderer).
  func mapView(_ mapView: MKMapView, rendererFor overlay: any MKOverlay) -> MKOverlayRenderer
  /// Renderers were made for overlays just added.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - renderers: The new renderers.
  func mapView(_ mapView: MKMapView, didAdd renderers: [MKOverlayRenderer])
  /// An annotation view was selected.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - view: The selected view.
  func mapView(_ mapView: MKMapView, didSelect view: MKAnnotationView)
  /// An annotation view was deselected.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - view: The deselected view.
  func mapView(_ mapView: MKMapView, didDeselect view: MKAnnotationView)
  /// An annotation was selected (iOS 16), whether or not it has a view.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - annotation: The selected annotation.
  func mapView(_ mapView: MKMapView, didSelect annotation: any MKAnnotation)
  /// An annotation was deselected (iOS 16), whether or not it has a view.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - annotation: The deselected annotation.
  func mapView(_ mapView: MKMapView, didDeselect annotation: any MKAnnotation)
  /// The annotation that stands for colliding views with the same clustering identifier.
  func mapView(_ mapView: MKMapView, clusterAnnotationForMemberAnnotations memberAnnotations: [any MKAnnotation]) -> MKClusterAnnotation
  /// An annotation view's drag state changed. Never called here: nothing is dragged.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - view: The view being dragged.
  ///   - newState: The new drag state.
  ///   - oldState: The drag state before.
  func mapView(
    _ mapView: MKMapView, annotationView view: MKAnnotationView, didChange newState: MKAnnotationView.DragState,
    fromOldState oldState: MKAnnotationView.DragState)
  /// The user tracking mode changed.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - mode: The new mode.
  ///   - animated: Whether the change is animated.
  func mapView(_ mapView: MKMapView, didChange mode: MKUserTrackingMode, animated: Bool)
  /// The map is about to load its data. Never called here: there is no map data to load.
  /// - Parameter mapView: The map view.
  func mapViewWillStartLoadingMap(_ mapView: MKMapView)
  /// The map finished loading its data. Never called here.
  /// - Parameter mapView: The map view.
  func mapViewDidFinishLoadingMap(_ mapView: MKMapView)
  /// The map could not load its data. Never called here.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - error: Why loading failed.
  func mapViewDidFailLoadingMap(_ mapView: MKMapView, withError error: any Error)
  /// The map is about to draw. Never called here: nothing is drawn.
  /// - Parameter mapView: The map view.
  func mapViewWillStartRenderingMap(_ mapView: MKMapView)
  /// The map finished drawing. Never called here.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - fullyRendered: Whether every part was drawn.
  func mapViewDidFinishRenderingMap(_ mapView: MKMapView, fullyRendered: Bool)
  /// The region shown is about to change.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - animated: Whether the change is animated.
  func mapView(_ mapView: MKMapView, regionWillChangeAnimated animated: Bool)
  /// The region shown changed.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - animated: Whether the change was animated.
  func mapView(_ mapView: MKMapView, regionDidChangeAnimated animated: Bool)
  /// The visible region changed: once per change here, just before `mapView(_:regionDidChangeAnimated:)`.
  /// - Parameter mapView: The map view.
  func mapViewDidChangeVisibleRegion(_ mapView: MKMapView)
  /// Overlays were added, before their renderers are made.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - overlays: The new overlays.
  func mapView(_ mapView: MKMapView, didAdd overlays: [any MKOverlay])
  /// The map starts following the user's location (``MKMapView/showsUserLocation`` turned on).
  /// - Parameter mapView: The map view.
  func mapViewWillStartLocatingUser(_ mapView: MKMapView)
  /// The map stopped following the user's location.
  /// - Parameter mapView: The map view.
  func mapViewDidStopLocatingUser(_ mapView: MKMapView)
  /// The user's location changed.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - userLocation: The user location annotation, with its new location.
  func mapView(_ mapView: MKMapView, didUpdate userLocation: MKUserLocation)
  /// The map could not get the user's location.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - error: The location manager's error.
  func mapView(_ mapView: MKMapView, didFailToLocateUserWithError error: any Error)
}

extension MKMapViewDelegate {
  /// Does nothing by default.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - mode: The new mode.
  ///   - animated: Whether the change is animated.
  public func mapView(_ mapView: MKMapView, didChange mode: MKUserTrackingMode, animated: Bool) {}
  /// Does nothing by default.
  /// - Parameter mapView: The map view.
  public func mapViewWillStartLoadingMap(_ mapView: MKMapView) {}
  /// Does nothing by default.
  /// - Parameter mapView: The map view.
  public func mapViewDidFinishLoadingMap(_ mapView: MKMapView) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - error: Why loading failed.
  public func mapViewDidFailLoadingMap(_ mapView: MKMapView, withError error: any Error) {}
  /// Does nothing by default.
  /// - Parameter mapView: The map view.
  public func mapViewWillStartRenderingMap(_ mapView: MKMapView) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - fullyRendered: Whether every part was drawn.
  public func mapViewDidFinishRenderingMap(_ mapView: MKMapView, fullyRendered: Bool) {}
  /// No view by default: the map uses its default view.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - annotation: The annotation to show.
  /// - Returns: Nil.
  public func mapView(_ mapView: MKMapView, viewFor annotation: any MKAnnotation) -> MKAnnotationView? { nil }
  /// Does nothing by default.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - views: The new views.
  public func mapView(_ mapView: MKMapView, didAdd views: [MKAnnotationView]) {}
  /// A plain renderer by default, which draws nothing.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - overlay: The overlay to render.
  /// - Returns: An `MKOverlayRenderer` for the overlay.
  public func mapView(_ mapView: MKMapView, rendererFor overlay: any MKOverlay) -> MKOverlayRenderer { MKOverlayRenderer(overlay: overlay) }
  /// Does nothing by default.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - renderers: The new renderers.
  public func mapView(_ mapView: MKMapView, didAdd renderers: [MKOverlayRenderer]) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - view: The selected view.
  public func mapView(_ mapView: MKMapView, didSelect view: MKAnnotationView) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - view: The deselected view.
  public func mapView(_ mapView: MKMapView, didDeselect view: MKAnnotationView) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - annotation: The selected annotation.
  public func mapView(_ mapView: MKMapView, didSelect annotation: any MKAnnotation) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - annotation: The deselected annotation.
  public func mapView(_ mapView: MKMapView, didDeselect annotation: any MKAnnotation) {}
  /// By default, an `MKClusterAnnotation` of the members, at their centre.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - memberAnnotations: The annotations to group.
  /// - Returns: The cluster annotation.
  public func mapView(
    _ mapView: MKMapView, clusterAnnotationForMemberAnnotations memberAnnotations: [any MKAnnotation]
  ) -> MKClusterAnnotation {
    MKClusterAnnotation(memberAnnotations: memberAnnotations)
  }
  /// Does nothing by default.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - view: The view being dragged.
  ///   - newState: The new drag state.
  ///   - oldState: The drag state before.
  public func mapView(
    _ mapView: MKMapView, annotationView view: MKAnnotationView, didChange newState: MKAnnotationView.DragState,
    fromOldState oldState: MKAnnotationView.DragState
  ) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - animated: Whether the change is animated.
  public func mapView(_ mapView: MKMapView, regionWillChangeAnimated animated: Bool) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - animated: Whether the change was animated.
  public func mapView(_ mapView: MKMapView, regionDidChangeAnimated animated: Bool) {}
  /// Does nothing by default.
  /// - Parameter mapView: The map view.
  public func mapViewDidChangeVisibleRegion(_ mapView: MKMapView) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - overlays: The new overlays.
  public func mapView(_ mapView: MKMapView, didAdd overlays: [any MKOverlay]) {}
  /// Does nothing by default.
  /// - Parameter mapView: The map view.
  public func mapViewWillStartLocatingUser(_ mapView: MKMapView) {}
  /// Does nothing by default.
  /// - Parameter mapView: The map view.
  public func mapViewDidStopLocatingUser(_ mapView: MKMapView) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - userLocation: The user location annotation.
  public func mapView(_ mapView: MKMapView, didUpdate userLocation: MKUserLocation) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - mapView: The map view.
  ///   - error: The location manager's error.
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
  /// The view's own rectangle: the frame's size, at the origin.
  open var bounds: CGRect { CGRect(origin: .zero, size: frame.size) }
  /// The object told of the map's changes and asked for views and renderers; held weakly.
  open weak var delegate: (any MKMapViewDelegate)?
  /// Whether the user may zoom; true by default. Stored only: there are no gestures here.
  open var isZoomEnabled = true
  /// Whether the user may scroll; true by default. Stored only: there are no gestures here.
  open var isScrollEnabled = true
  /// Whether the user may rotate the map; true by default. Stored only: there are no gestures here.
  open var isRotateEnabled = true
  /// Whether the user may tilt the map; true by default. Stored only: there are no gestures here.
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
  /// Whether the compass shows when the map is rotated; true by default. Stored only: nothing is drawn.
  open var showsCompass = true
  /// Whether the scale bar shows; false by default. Stored only: nothing is drawn.
  open var showsScale = false

  private var shown: MKCoordinateRegion
  /// The annotations on the map, in the order added.
  open private(set) var annotations: [any MKAnnotation] = []
  /// The overlays on the map, bottom first.
  open private(set) var overlays: [any MKOverlay] = []
  /// The annotation views' bookkeeping: registrations, views shown, the reuse queue, clusters.
  var views = AnnotationViews()
  var renderers: [ObjectIdentifier: MKOverlayRenderer] = [:]
  /// Each overlay's level (see ``addOverlay(_:level:)``).
  var levels: [ObjectIdentifier: MKOverlayLevel] = [:]
  /// The selected annotations (at most one through `selectAnnotation(_:animated:)`).
  open var selectedAnnotations: [any MKAnnotation] = []
  /// The kind of map shown; standard by default. Stored only: nothing is drawn.
  open var mapType = MKMapType.standard
  /// How the map looks (iOS 16); a standard configuration by default. Stored only: nothing is drawn.
  open var preferredConfiguration: MKMapConfiguration = MKStandardMapConfiguration()
  /// Whether buildings show; true by default. Stored only: nothing is drawn.
  open var showsBuildings = true
  /// Whether traffic shows; false by default. Stored only: nothing is drawn.
  open var showsTraffic = false
  /// Whether points of interest show; true by default. Stored only: nothing is drawn.
  open var showsPointsOfInterest = true
  /// Which points of interest show; nil for all. Stored only: nothing is drawn.
  open var pointOfInterestFilter: MKPointOfInterestFilter?
  /// Whether the button that cycles the tracking mode shows; false by default. Stored only: nothing is drawn.
  open var showsUserTrackingButton = false
  /// Whether the button that tilts the map shows; adaptive by default. Stored only: nothing is drawn.
  open var pitchButtonVisibility = MKFeatureVisibility.adaptive
  /// Which of the map's own features the user may select; none by default. Stored only here.
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

  /// A map view with a frame, showing the whole world.
  /// - Parameter frame: The frame, in points.
  public init(frame: CGRect) {
    self.frame = frame
    // MapKit starts on a region of the whole continent the device is on; here, the world.
    shown = MKCoordinateRegion(
      center: CLLocationCoordinate2D(latitude: 0, longitude: 0), span: MKCoordinateSpan(latitudeDelta: 170, longitudeDelta: 360))
    super.init()
  }

  /// A map view of zero size, showing the whole world.
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

  /// Moves the region shown to a new centre, keeping its span.
  /// - Parameters:
  ///   - coordinate: The new centre.
  ///   - animated: Whether to animate (nothing is animated here).
  open func setCenter(_ coordinate: CLLocationCoordinate2D, animated: Bool) {
    setRegion(MKCoordinateRegion(center: coordinate, span: shown.span), animated: animated)
  }

  /// The region shown, in map points.
  open var visibleMapRect: MKMapRect {
    get { MKMapRect(region: shown) }
    set { setVisibleMapRect(newValue, animated: false) }
  }

  /// Shows a rectangle of the map, fitted to the view's aspect ratio.
  /// - Parameters:
  ///   - mapRect: The rectangle, in map points.
  ///   - animated: Whether to animate (nothing is animated here).
  open func setVisibleMapRect(_ mapRect: MKMapRect, animated: Bool) {
    setRegion(MKCoordinateRegion(mapRect), animated: animated)
  }

  /// Adds an annotation; its view is made if it is in the region shown.
  /// - Parameter annotation: The annotation.
  open func addAnnotation(_ annotation: any MKAnnotation) { addAnnotations([annotation]) }
  /// Adds annotations; views are made for those in the region shown.
  /// - Parameter annotations: The annotations.
  open func addAnnotations(_ annotations: [any MKAnnotation]) {
    self.annotations += annotations
    layoutAnnotationViews()
  }
  /// Removes an annotation, and its selection and view.
  /// - Parameter annotation: The annotation.
  open func removeAnnotation(_ annotation: any MKAnnotation) { removeAnnotations([annotation]) }
  /// Removes annotations, and their selection and views.
  /// - Parameter annotations: The annotations.
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

  /// Adds an overlay on top of the others, above the labels; the delegate makes its renderer.
  /// - Parameter overlay: The overlay.
  open func addOverlay(_ overlay: any MKOverlay) { addOverlays([overlay]) }
  /// Adds overlays on top of the others, above the labels; the delegate makes their renderers.
  /// - Parameter overlays: The overlays.
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
  /// Removes an overlay and its renderer.
  /// - Parameter overlay: The overlay.
  open func removeOverlay(_ overlay: any MKOverlay) {
    overlays.removeAll { $0 === overlay }
    renderers[ObjectIdentifier(overlay)] = nil
    levels[ObjectIdentifier(overlay)] = nil
  }
  /// Removes overlays and their renderers.
  /// - Parameter overlays: The overlays.
  open func removeOverlays(_ overlays: [any MKOverlay]) {
    for overlay in overlays { removeOverlay(overlay) }
  }
}
