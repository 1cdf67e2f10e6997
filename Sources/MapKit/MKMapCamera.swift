public import CoreLocation
public import Foundation

/// Where a map is looked at from, with MapKit's names: the centre, the distance from it (metres),
/// the pitch and the heading (degrees). A map view without a screen keeps its camera and its
/// region in step: the camera's distance is the height from which the region's north–south span
/// fills the view at MapKit's field of view.
open class MKMapCamera: NSObject, NSCopying, @unchecked Sendable {
  /// The point the camera looks at; invalid until set.
  open var centerCoordinate = kCLLocationCoordinate2DInvalid
  /// The distance from the camera to the centre, metres.
  open var centerCoordinateDistance: CLLocationDistance = 0
  /// The direction the camera faces, degrees clockwise from north.
  open var heading: CLLocationDirection = 0
  /// The camera's tilt from looking straight down, degrees.
  open var pitch: CGFloat = 0

  /// The eye's altitude above the centre: the distance, foreshortened by the pitch.
  open var altitude: CLLocationDistance {
    get { centerCoordinateDistance * cos(Double(pitch) * .pi / 180) }
    set { centerCoordinateDistance = newValue / Swift.max(cos(Double(pitch) * .pi / 180), 1e-9) }
  }

  /// A camera at no place: invalid centre, distance 0, no pitch or heading.
  public override init() { super.init() }

  /// A camera looking at `centerCoordinate` from `distance` metres away.
  ///
  /// - Parameters:
  ///   - centerCoordinate: The point looked at.
  ///   - distance: The distance from the camera to the centre, metres.
  ///   - pitch: The tilt from looking straight down, degrees.
  ///   - heading: The direction faced, degrees clockwise from north.
  public convenience init(
    lookingAtCenter centerCoordinate: CLLocationCoordinate2D, fromDistance distance: CLLocationDistance, pitch: CGFloat,
    heading: CLLocationDirection
  ) {
    self.init()
    self.centerCoordinate = centerCoordinate
    centerCoordinateDistance = distance
    self.pitch = pitch
    self.heading = heading
  }

  /// Looking at `centerCoordinate` from straight above `eyeCoordinate` at `eyeAltitude`.
  public convenience init(
    lookingAtCenter centerCoordinate: CLLocationCoordinate2D, fromEyeCoordinate eyeCoordinate: CLLocationCoordinate2D,
    eyeAltitude: CLLocationDistance
  ) {
    let ground = CLLocation(latitude: centerCoordinate.latitude, longitude: centerCoordinate.longitude)
      .distance(from: CLLocation(latitude: eyeCoordinate.latitude, longitude: eyeCoordinate.longitude))
    let pitch = atan2(ground, eyeAltitude) * 180 / .pi
    let heading = Self.bearing(from: eyeCoordinate, to: centerCoordinate)
    self.init(
      lookingAtCenter: centerCoordinate, fromDistance: (ground * ground + eyeAltitude * eyeAltitude).squareRoot(), pitch: CGFloat(pitch),
      heading: ground > 0 ? heading : 0)
  }

  /// A camera that shows `region` in a view of `size` (looking straight down).
  public convenience init(lookingAt region: MKCoordinateRegion, forViewSize size: CGSize, allowPitch: Bool) {
    self.init(lookingAtCenter: region.center, fromDistance: Self.distance(showing: region), pitch: 0, heading: 0)
  }

  /// MapKit's vertical field of view: a camera `d` metres up shows `2·d·tan(15°)` metres north to south.
  static let halfFieldOfView = 15.0 * .pi / 180

  static func distance(showing region: MKCoordinateRegion) -> CLLocationDistance {
    let metres = region.span.latitudeDelta * 111_320
    return metres / 2 / tan(halfFieldOfView)
  }

  static func bearing(from a: CLLocationCoordinate2D, to b: CLLocationCoordinate2D) -> CLLocationDirection {
    let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180, Δλ = (b.longitude - a.longitude) * .pi / 180
    let y = sin(Δλ) * cos(φ2), x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ)
    return (atan2(y, x) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
  }

  /// A new camera with the same centre, distance, pitch and heading.
  ///
  /// - Parameter zone: Unused.
  /// - Returns: The copy.
  open func copy(with zone: NSZone? = nil) -> Any {
    MKMapCamera(lookingAtCenter: centerCoordinate, fromDistance: centerCoordinateDistance, pitch: pitch, heading: heading)
  }
}

/// How a map is drawn (MapKit's configurations since iOS 16): kept as values; the emulator draws
/// its own map whatever the configuration.
open class MKMapConfiguration: NSObject, @unchecked Sendable {
  /// How terrain is drawn.
  public enum ElevationStyle: Int, Sendable {
    /// Flat terrain.
    case flat = 0
    /// Terrain in relief.
    case realistic = 1
  }

  /// How terrain is drawn; flat by default. Has no effect on the emulator's map.
  open var elevationStyle = ElevationStyle.flat

  /// A configuration with flat terrain.
  public override init() { super.init() }
}

/// The standard map: roads and labels.
open class MKStandardMapConfiguration: MKMapConfiguration, @unchecked Sendable {
  /// How strongly the map's features stand out.
  public enum EmphasisStyle: Int, Sendable {
    /// Features drawn as usual.
    case `default` = 0
    /// Features drawn subdued, so overlays stand out.
    case muted = 1
  }

  /// How strongly features stand out; `.default` by default. Has no effect on the emulator's map.
  open var emphasisStyle = EmphasisStyle.default
  /// Which points of interest are shown. Has no effect on the emulator's map.
  open var pointOfInterestFilter: MKPointOfInterestFilter?
  /// Whether traffic is shown; false by default. Has no effect on the emulator's map.
  open var showsTraffic = false

  /// A standard configuration: flat terrain, default emphasis.
  public override init() { super.init() }

  /// A standard configuration with `elevationStyle` and default emphasis.
  ///
  /// - Parameter elevationStyle: How terrain is drawn.
  public convenience init(elevationStyle: ElevationStyle) {
    self.init(elevationStyle: elevationStyle, emphasisStyle: .default)
  }

  /// A standard configuration with flat terrain and `emphasisStyle`.
  ///
  /// - Parameter emphasisStyle: How strongly features stand out.
  public convenience init(emphasisStyle: EmphasisStyle) {
    self.init(elevationStyle: .flat, emphasisStyle: emphasisStyle)
  }

  /// A standard configuration with both styles given.
  ///
  /// - Parameters:
  ///   - elevationStyle: How terrain is drawn.
  ///   - emphasisStyle: How strongly features stand out.
  public init(elevationStyle: ElevationStyle, emphasisStyle: EmphasisStyle) {
    super.init()
    self.elevationStyle = elevationStyle
    self.emphasisStyle = emphasisStyle
  }
}

/// Satellite imagery with roads and labels.
open class MKHybridMapConfiguration: MKMapConfiguration, @unchecked Sendable {
  /// Which points of interest are shown. Has no effect on the emulator's map.
  open var pointOfInterestFilter: MKPointOfInterestFilter?
  /// Whether traffic is shown; false by default. Has no effect on the emulator's map.
  open var showsTraffic = false

  /// A hybrid configuration with flat terrain.
  public override init() { super.init() }

  /// A hybrid configuration with `elevationStyle`.
  ///
  /// - Parameter elevationStyle: How terrain is drawn.
  public init(elevationStyle: ElevationStyle) {
    super.init()
    self.elevationStyle = elevationStyle
  }
}

/// Satellite imagery alone.
open class MKImageryMapConfiguration: MKMapConfiguration, @unchecked Sendable {
  /// An imagery configuration with flat terrain.
  public override init() { super.init() }

  /// An imagery configuration with `elevationStyle`.
  ///
  /// - Parameter elevationStyle: How terrain is drawn.
  public init(elevationStyle: ElevationStyle) {
    super.init()
    self.elevationStyle = elevationStyle
  }
}

// The keys and values of the launch options an app passes when it opens Maps (`openInMaps`,
// `openMaps(with:launchOptions:)`), with Apple's values.
/// The launch-option key of the directions mode: driving, walking, transit or default.
public let MKLaunchOptionsDirectionsModeKey = "MKLaunchOptionsDirectionsMode"
/// The launch-option key of the map type, an `MKMapType` raw value.
public let MKLaunchOptionsMapTypeKey = "MKLaunchOptionsMapType"
/// The launch-option key of whether traffic is shown.
public let MKLaunchOptionsShowsTrafficKey = "MKLaunchOptionsShowsTraffic"
/// The launch-option key of the map's centre.
public let MKLaunchOptionsMapCenterKey = "MKLaunchOptionsMapCenter"
/// The launch-option key of the map's span.
public let MKLaunchOptionsMapSpanKey = "MKLaunchOptionsMapSpan"
/// The launch-option key of the map's camera.
public let MKLaunchOptionsCameraKey = "MKLaunchOptionsCamera"
/// The directions mode the user prefers.
public let MKLaunchOptionsDirectionsModeDefault = "MKLaunchOptionsDirectionsModeDefault"
/// Driving directions.
public let MKLaunchOptionsDirectionsModeDriving = "MKLaunchOptionsDirectionsModeDriving"
/// Walking directions.
public let MKLaunchOptionsDirectionsModeWalking = "MKLaunchOptionsDirectionsModeWalking"
/// Public transport directions.
public let MKLaunchOptionsDirectionsModeTransit = "MKLaunchOptionsDirectionsModeTransit"

extension MKMapView {
  /// The camera the map is seen from: its centre and the distance at which the region shown
  /// fills the view. Setting it shows the region it sees.
  public var camera: MKMapCamera {
    get {
      MKMapCamera(lookingAtCenter: region.center, fromDistance: MKMapCamera.distance(showing: region), pitch: 0, heading: 0)
    }
    set { setCamera(newValue, animated: false) }
  }

  /// Shows the region the camera sees: around its centre, the span its distance fills at MapKit's field of view.
  /// Pitch and heading are ignored (the map is seen from straight above).
  ///
  /// - Parameters:
  ///   - camera: The camera to look from.
  ///   - animated: Passed on to the delegate; the change is immediate.
  public func setCamera(_ camera: MKMapCamera, animated: Bool) {
    let metres = camera.centerCoordinateDistance * 2 * tan(MKMapCamera.halfFieldOfView)
    let latitudeDelta = metres / 111_320
    let aspect = frame.height > 0 ? Double(frame.width / frame.height) : 1
    let longitudeDelta = latitudeDelta * aspect / Swift.max(cos(camera.centerCoordinate.latitude * .pi / 180), 1e-6)
    setRegion(
      MKCoordinateRegion(
        center: camera.centerCoordinate, span: MKCoordinateSpan(latitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta)),
      animated: animated)
  }
}
