public import Foundation
import LocationModel
import Geo

/// A location report: coordinate, altitudes, accuracies, speed, course, time, as the SDK's
/// `CLLocation` has them (negative accuracies, speed or course mean "not known").
///
/// Locations made by the emulator carry ``sourceInformation`` saying they are simulated by
/// software, as locations from Xcode's simulation do.
open class CLLocation: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
  /// The latitude and longitude; `kCLLocationCoordinate2DInvalid` when the fix had none.
  open private(set) var coordinate: CLLocationCoordinate2D
  /// Metres above mean sea level; 0 when unknown (``verticalAccuracy`` then is negative).
  open private(set) var altitude: CLLocationDistance
  /// Metres above the WGS 84 ellipsoid; 0 when unknown.
  open private(set) var ellipsoidalAltitude: CLLocationDistance
  /// Radius of uncertainty, metres; negative: the location is invalid.
  open private(set) var horizontalAccuracy: CLLocationAccuracy
  /// Altitude uncertainty, metres; negative: altitude is invalid.
  open private(set) var verticalAccuracy: CLLocationAccuracy
  /// Degrees true, 0…359.9; negative: unknown.
  open private(set) var course: CLLocationDirection
  /// Degrees; negative: unknown.
  open private(set) var courseAccuracy: CLLocationDirectionAccuracy
  /// m/s; negative: unknown.
  open private(set) var speed: CLLocationSpeed
  /// m/s; negative: unknown.
  open private(set) var speedAccuracy: CLLocationSpeedAccuracy
  /// When the location was determined.
  open private(set) var timestamp: Date
  /// The floor of a building, when known (never, here).
  open private(set) var floor: CLFloor?
  /// Whether the location was simulated or came from an accessory.
  open private(set) var sourceInformation: CLLocationSourceInformation?

  /// A location at 0°, 0° (NSObject's initializer, as the SDK's): otherwise as
  /// ``init(latitude:longitude:)``.
  public override convenience init() { self.init(latitude: 0, longitude: 0) }

  /// A location at `latitude`, `longitude`: altitude 0, horizontal accuracy 0, vertical
  /// accuracy -1, speed and course -1, time now.
  public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
    coordinate = CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
    altitude = 0
    ellipsoidalAltitude = 0
    horizontalAccuracy = 0
    verticalAccuracy = -1
    course = -1
    courseAccuracy = -1
    speed = -1
    speedAccuracy = -1
    timestamp = Date()
    super.init()
  }

  /// A location with altitude and accuracies; speed, course and their accuracies unknown (-1).
  ///
  /// - Parameters:
  ///   - coordinate: The latitude and longitude.
  ///   - altitude: Metres above mean sea level.
  ///   - hAccuracy: The radius of uncertainty of the coordinate, metres; negative for an invalid location.
  ///   - vAccuracy: The uncertainty of the altitude, metres; negative for an invalid altitude.
  ///   - timestamp: When the location was determined.
  public convenience init(
    coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy hAccuracy: CLLocationAccuracy,
    verticalAccuracy vAccuracy: CLLocationAccuracy, timestamp: Date
  ) {
    self.init(
      coordinate: coordinate, altitude: altitude, horizontalAccuracy: hAccuracy, verticalAccuracy: vAccuracy, course: -1,
      courseAccuracy: -1, speed: -1, speedAccuracy: -1, timestamp: timestamp)
  }

  /// A location with course and speed; their accuracies unknown (-1).
  ///
  /// - Parameters:
  ///   - coordinate: The latitude and longitude.
  ///   - altitude: Metres above mean sea level.
  ///   - hAccuracy: The radius of uncertainty of the coordinate, metres; negative for an invalid location.
  ///   - vAccuracy: The uncertainty of the altitude, metres; negative for an invalid altitude.
  ///   - course: Degrees true, 0…359.9; negative when unknown.
  ///   - speed: Metres per second; negative when unknown.
  ///   - timestamp: When the location was determined.
  public convenience init(
    coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy hAccuracy: CLLocationAccuracy,
    verticalAccuracy vAccuracy: CLLocationAccuracy, course: CLLocationDirection, speed: CLLocationSpeed, timestamp: Date
  ) {
    self.init(
      coordinate: coordinate, altitude: altitude, horizontalAccuracy: hAccuracy, verticalAccuracy: vAccuracy, course: course,
      courseAccuracy: -1, speed: speed, speedAccuracy: -1, timestamp: timestamp)
  }

  /// A location with every member given; the ellipsoidal altitude is 0 and there is no source information.
  ///
  /// - Parameters:
  ///   - coordinate: The latitude and longitude.
  ///   - altitude: Metres above mean sea level.
  ///   - hAccuracy: The radius of uncertainty of the coordinate, metres; negative for an invalid location.
  ///   - vAccuracy: The uncertainty of the altitude, metres; negative for an invalid altitude.
  ///   - course: Degrees true, 0…359.9; negative when unknown.
  ///   - courseAccuracy: The uncertainty of the course, degrees; negative when unknown.
  ///   - speed: Metres per second; negative when unknown.
  ///   - speedAccuracy: The uncertainty of the speed, m/s; negative when unknown.
  ///   - timestamp: When the location was determined.
  public init(
    coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy hAccuracy: CLLocationAccuracy,
    verticalAccuracy vAccuracy: CLLocationAccuracy, course: CLLocationDirection, courseAccuracy: CLLocationDirectionAccuracy,
    speed: CLLocationSpeed, speedAccuracy: CLLocationSpeedAccuracy, timestamp: Date
  ) {
    self.coordinate = coordinate
    self.altitude = altitude
    ellipsoidalAltitude = 0
    horizontalAccuracy = hAccuracy
    verticalAccuracy = vAccuracy
    self.course = course
    self.courseAccuracy = courseAccuracy
    self.speed = speed
    self.speedAccuracy = speedAccuracy
    self.timestamp = timestamp
    super.init()
  }

  /// A location with every member given and where it came from.
  ///
  /// - Parameters:
  ///   - coordinate: The latitude and longitude.
  ///   - altitude: Metres above mean sea level.
  ///   - hAccuracy: The radius of uncertainty of the coordinate, metres; negative for an invalid location.
  ///   - vAccuracy: The uncertainty of the altitude, metres; negative for an invalid altitude.
  ///   - course: Degrees true, 0…359.9; negative when unknown.
  ///   - courseAccuracy: The uncertainty of the course, degrees; negative when unknown.
  ///   - speed: Metres per second; negative when unknown.
  ///   - speedAccuracy: The uncertainty of the speed, m/s; negative when unknown.
  ///   - timestamp: When the location was determined.
  ///   - sourceInfo: Whether the location was simulated or came from an accessory.
  public convenience init(
    coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy hAccuracy: CLLocationAccuracy,
    verticalAccuracy vAccuracy: CLLocationAccuracy, course: CLLocationDirection, courseAccuracy: CLLocationDirectionAccuracy,
    speed: CLLocationSpeed, speedAccuracy: CLLocationSpeedAccuracy, timestamp: Date, sourceInfo: CLLocationSourceInformation
  ) {
    self.init(
      coordinate: coordinate, altitude: altitude, horizontalAccuracy: hAccuracy, verticalAccuracy: vAccuracy, course: course,
      courseAccuracy: courseAccuracy, speed: speed, speedAccuracy: speedAccuracy, timestamp: timestamp)
    sourceInformation = sourceInfo
  }

  /// The location an emulated phone delivered: its fix's members, unknown ones negative. The
  /// speed and course accuracies are the fix's `eps` and `epd` where its source gives them
  /// (gpsd, decoded NMEA), else 0.5 m/s and 10°.
  convenience init(_ fix: LocationFix, date: Date) {
    let c = fix.coordinate.map { CLLocationCoordinate2D(latitude: $0.latitude, longitude: $0.longitude) } ?? kCLLocationCoordinate2DInvalid
    let vertical: Double = fix.altitudeMSL == nil ? -1 : (fix.verticalAccuracy ?? 10)
    self.init(
      coordinate: c, altitude: fix.altitudeMSL ?? 0, horizontalAccuracy: fix.coordinate == nil ? -1 : (fix.horizontalAccuracy ?? 5),
      verticalAccuracy: vertical, course: fix.course ?? -1,
      courseAccuracy: fix.course == nil ? -1 : (fix.errors.epd ?? 10), speed: fix.speed ?? -1,
      speedAccuracy: fix.speed == nil ? -1 : (fix.errors.eps ?? 0.5), timestamp: fix.timestamp ?? date,
      sourceInfo: CLLocationSourceInformation(softwareSimulationState: true, andExternalAccessoryState: false))
    ellipsoidalAltitude = fix.altitudeHAE ?? 0
  }

  /// The distance to `location` along the WGS 84 ellipsoid, metres (altitude ignored), as iOS
  /// measures it.
  open func distance(from location: CLLocation) -> CLLocationDistance {
    Self.distance(coordinate, location.coordinate)
  }

  /// The distance to `location`, metres: the old name of `distance(from:)`.
  ///
  /// - Parameter location: The other location.
  /// - Returns: The distance along the WGS 84 ellipsoid, metres.
  @available(*, deprecated, renamed: "distance(from:)")
  open func getDistanceFrom(_ location: CLLocation) -> CLLocationDistance { distance(from: location) }

  /// Metres between two coordinates along the WGS 84 ellipsoid (Vincenty's inverse formula), the
  /// model iOS uses: `distance(from:)`, a circular region's `contains` and geofences all measure
  /// with it, so they agree with one another as on iOS.
  ///
  /// The evidence that iOS measures on the ellipsoid, not on a sphere: published side-by-side
  /// measurements of the same pair of points give iOS 3.93925768 m, Vincenty on WGS 84 3.93922 m,
  /// and the haversine on the mean-radius sphere 3.92815 m (0.28 % short): iOS agrees with the
  /// ellipsoid to 10 parts per million and not with the sphere. The difference matters beyond
  /// rounding: one degree of meridian at 60° N is 111,421 m on the ellipsoid and 111,195 m on the
  /// sphere. Nearly antipodal points, where Vincenty's iteration does not converge, fall back to
  /// the great circle.
  static func distance(_ a: CLLocationCoordinate2D, _ b: CLLocationCoordinate2D) -> Double {
    guard let p = Coordinate(latitude: a.latitude, longitude: a.longitude), let q = Coordinate(latitude: b.latitude, longitude: b.longitude)
    else { return .nan }
    return EllipsoidalDistance.metres(from: p.latitude, p.longitude, to: q.latitude, q.longitude) ?? p.distance(to: q)
  }

  // MARK: NSCopying, NSSecureCoding

  /// The location itself: a location cannot change, so it is its own copy.
  ///
  /// - Parameter zone: Unused.
  /// - Returns: This location.
  open func copy(with zone: NSZone? = nil) -> Any { self }

  /// Whether the class supports secure coding: true.
  public static var supportsSecureCoding: Bool { true }

  /// Decodes a location: its coordinate, altitudes, accuracies, course, speed and time (not its floor or source).
  ///
  /// - Parameter coder: The archive to read from.
  public required init?(coder: NSCoder) {
    coordinate = CLLocationCoordinate2D(
      latitude: coder.decodeDouble(forKey: "latitude"), longitude: coder.decodeDouble(forKey: "longitude"))
    altitude = coder.decodeDouble(forKey: "altitude")
    ellipsoidalAltitude = coder.decodeDouble(forKey: "ellipsoidalAltitude")
    horizontalAccuracy = coder.decodeDouble(forKey: "horizontalAccuracy")
    verticalAccuracy = coder.decodeDouble(forKey: "verticalAccuracy")
    course = coder.decodeDouble(forKey: "course")
    courseAccuracy = coder.decodeDouble(forKey: "courseAccuracy")
    speed = coder.decodeDouble(forKey: "speed")
    speedAccuracy = coder.decodeDouble(forKey: "speedAccuracy")
    timestamp = Date(timeIntervalSinceReferenceDate: coder.decodeDouble(forKey: "timestamp"))
    super.init()
  }

  /// Encodes the location: its coordinate, altitudes, accuracies, course, speed and time.
  ///
  /// - Parameter coder: The archive to write to.
  open func encode(with coder: NSCoder) {
    coder.encode(coordinate.latitude, forKey: "latitude")
    coder.encode(coordinate.longitude, forKey: "longitude")
    coder.encode(altitude, forKey: "altitude")
    coder.encode(ellipsoidalAltitude, forKey: "ellipsoidalAltitude")
    coder.encode(horizontalAccuracy, forKey: "horizontalAccuracy")
    coder.encode(verticalAccuracy, forKey: "verticalAccuracy")
    coder.encode(course, forKey: "course")
    coder.encode(courseAccuracy, forKey: "courseAccuracy")
    coder.encode(speed, forKey: "speed")
    coder.encode(speedAccuracy, forKey: "speedAccuracy")
    coder.encode(timestamp.timeIntervalSinceReferenceDate, forKey: "timestamp")
  }

  /// The location in words: coordinate, accuracy, speed, course and time, as iOS writes it.
  open override var description: String {
    String(
      format: "<%+.8f,%+.8f> +/- %.2fm (speed %.2f mps / course %.2f) @ %@", coordinate.latitude, coordinate.longitude,
      horizontalAccuracy, speed, course, "\(timestamp)")
  }
}

/// The floor of a building a location is on.
open class CLFloor: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
  /// 0 is the ground floor; negative below ground.
  open private(set) var level = 0

  /// The ground floor, as `CLFloor()` makes one on iOS; tests subclass it.
  public override init() { super.init() }

  convenience init(level: Int) {
    self.init()
    self.level = level
  }

  /// The floor itself: a floor cannot change, so it is its own copy.
  ///
  /// - Parameter zone: Unused.
  /// - Returns: This floor.
  open func copy(with zone: NSZone? = nil) -> Any { self }
  /// Whether the class supports secure coding: true.
  public static var supportsSecureCoding: Bool { true }
  /// Decodes a floor: its level.
  ///
  /// - Parameter coder: The archive to read from.
  public required init?(coder: NSCoder) {
    super.init()
    level = coder.decodeInteger(forKey: "level")
  }
  /// Encodes the floor: its level.
  ///
  /// - Parameter coder: The archive to write to.
  open func encode(with coder: NSCoder) { coder.encode(level, forKey: "level") }
}

/// Where a location came from: simulated by software, or produced by an accessory.
open class CLLocationSourceInformation: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
  /// True for every location of the emulator.
  open private(set) var isSimulatedBySoftware: Bool
  /// Whether an external accessory produced the location; false for the emulator's locations.
  open private(set) var isProducedByAccessory: Bool

  /// Creates source information.
  ///
  /// - Parameters:
  ///   - isSoftware: Whether software simulated the location.
  ///   - isAccessory: Whether an external accessory produced the location.
  public init(softwareSimulationState isSoftware: Bool, andExternalAccessoryState isAccessory: Bool) {
    isSimulatedBySoftware = isSoftware
    isProducedByAccessory = isAccessory
    super.init()
  }

  /// The information itself: it cannot change, so it is its own copy.
  ///
  /// - Parameter zone: Unused.
  /// - Returns: This information.
  open func copy(with zone: NSZone? = nil) -> Any { self }
  /// Whether the class supports secure coding: true.
  public static var supportsSecureCoding: Bool { true }
  /// Decodes source information: both flags.
  ///
  /// - Parameter coder: The archive to read from.
  public required init?(coder: NSCoder) {
    isSimulatedBySoftware = coder.decodeBool(forKey: "isSimulatedBySoftware")
    isProducedByAccessory = coder.decodeBool(forKey: "isProducedByAccessory")
    super.init()
  }
  /// Encodes source information: both flags.
  ///
  /// - Parameter coder: The archive to write to.
  open func encode(with coder: NSCoder) {
    coder.encode(isSimulatedBySoftware, forKey: "isSimulatedBySoftware")
    coder.encode(isProducedByAccessory, forKey: "isProducedByAccessory")
  }
}
