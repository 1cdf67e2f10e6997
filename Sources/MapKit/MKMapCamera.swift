public import CoreLocation
public import Foundation

/// Where a map is looked at from, with MapKit's names: the centre, the distance from it (metres),
/// the pitch and the heading (degrees). A map view without a screen keeps its camera and its
/// region in step: the camera's distance is the height from which the region's north–south span
/// fills the view at MapKit's field of view.
open class MKMapCamera: NSObject, NSCopying, @unchecked Sendable {
  open var centerCoordinate = kCLLocationCoordinate2DInvalid
  open var centerCoordinateDistance: CLLocationDistance = 0
  open var heading: CLLocationDirection = 0
  open var pitch: CGFloat = 0

  /// The eye's altitude above the centre: the distance, foreshortened by the pitch.
  open var altitude: CLLocationDistance {
    get { centerCoordinateDistance * cos(Double(pitch) * .pi / 180) }
    set { centerCoordinateDistance = newValue / Swift.max(cos(Double(pitch) * .pi / 180), 1e-9) }
  }

  public override init() { super.init() }

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

  open func copy(with zone: NSZone? = nil) -> Any {
    MKMapCamera(lookingAtCenter: centerCoordinate, fromDistance: centerCoordinateDistance, pitch: pitch, heading: heading)
  }
}

/// How a map is drawn (MapKit's configurations since iOS 16): kept as values; the emulator draws
/// its own map whatever the configuration.
open class MKMapConfiguration: NSObject, @unchecked Sendable {
  public enum ElevationStyle: Int, Sendable {
    case flat = 0
    case realistic = 1
  }

  open var elevationStyle = ElevationStyle.flat

  public override init() { super.init() }
}

/// The standard map: roads and labels.
open class MKStandardMapConfiguration: MKMapConfiguration, @unchecked Sendable {
  public enum EmphasisStyle: Int, Sendable {
    case `default` = 0
    case muted = 1
  }

  open var emphasisStyle = EmphasisStyle.default
  open var pointOfInterestFilter: MKPointOfInterestFilter?
  open var showsTraffic = false

  public override init() { super.init() }

  public convenience init(elevationStyle: ElevationStyle) {
    self.init(elevationStyle: elevationStyle, emphasisStyle: .default)
  }

  public convenience init(emphasisStyle: EmphasisStyle) {
    self.init(elevationStyle: .flat, emphasisStyle: emphasisStyle)
  }

  public init(elevationStyle: ElevationStyle, emphasisStyle: EmphasisStyle) {
    super.init()
    self.elevationStyle = elevationStyle
    self.emphasisStyle = emphasisStyle
  }
}

/// Satellite imagery with roads and labels.
open class MKHybridMapConfiguration: MKMapConfiguration, @unchecked Sendable {
  open var pointOfInterestFilter: MKPointOfInterestFilter?
  open var showsTraffic = false

  public override init() { super.init() }

  public init(elevationStyle: ElevationStyle) {
    super.init()
    self.elevationStyle = elevationStyle
  }
}

/// Satellite imagery alone.
open class MKImageryMapConfiguration: MKMapConfiguration, @unchecked Sendable {
  public override init() { super.init() }

  public init(elevationStyle: ElevationStyle) {
    super.init()
    self.elevationStyle = elevationStyle
  }
}

// The keys and values of the launch options an app passes when it opens Maps (`openInMaps`,
// `openMaps(with:launchOptions:)`), with Apple's values.
public let MKLaunchOptionsDirectionsModeKey = "MKLaunchOptionsDirectionsMode"
public let MKLaunchOptionsMapTypeKey = "MKLaunchOptionsMapType"
public let MKLaunchOptionsShowsTrafficKey = "MKLaunchOptionsShowsTraffic"
public let MKLaunchOptionsMapCenterKey = "MKLaunchOptionsMapCenter"
public let MKLaunchOptionsMapSpanKey = "MKLaunchOptionsMapSpan"
public let MKLaunchOptionsCameraKey = "MKLaunchOptionsCamera"
public let MKLaunchOptionsDirectionsModeDefault = "MKLaunchOptionsDirectionsModeDefault"
public let MKLaunchOptionsDirectionsModeDriving = "MKLaunchOptionsDirectionsModeDriving"
public let MKLaunchOptionsDirectionsModeWalking = "MKLaunchOptionsDirectionsModeWalking"
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
