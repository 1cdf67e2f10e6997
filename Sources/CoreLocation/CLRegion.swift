public import Foundation

/// A region to monitor: the abstract base of ``CLCircularRegion`` (and the SDK's beacon regions).
open class CLRegion: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
  /// The name the app gave the region; regions with the same identifier are the same region.
  open private(set) var identifier: String
  /// Whether entering the region is reported (default true).
  open var notifyOnEntry: Bool = true
  /// Whether leaving the region is reported (default true).
  open var notifyOnExit: Bool = true
  // The circle, for the circular regions (and the deprecated initializer here).
  let circle: (center: CLLocationCoordinate2D, radius: CLLocationDistance)?

  /// A region with no identifier and no shape, as `CLRegion()` makes on iOS: the initializer an
  /// app's own region subclass calls (`super.init()`).
  public override init() {
    identifier = ""
    circle = nil
    super.init()
  }

  init(identifier: String, circle: (CLLocationCoordinate2D, CLLocationDistance)?) {
    self.identifier = identifier
    self.circle = circle
    super.init()
  }

  /// A circular region, the old way to make one: use `CLCircularRegion`.
  ///
  /// - Parameters:
  ///   - center: The circle's centre.
  ///   - radius: The circle's radius, metres.
  ///   - identifier: The region's name.
  @available(*, deprecated, message: "Please see CLCircularRegion")
  public init(circularRegionWithCenter center: CLLocationCoordinate2D, radius: CLLocationDistance, identifier: String) {
    self.identifier = identifier
    circle = (center, radius)
    super.init()
  }

  /// The circle's centre; `kCLLocationCoordinate2DInvalid` for a region without a circle.
  @available(*, deprecated, message: "Please see CLCircularRegion")
  open var center: CLLocationCoordinate2D { circle?.center ?? kCLLocationCoordinate2DInvalid }
  /// The circle's radius, metres; 0 for a region without a circle.
  @available(*, deprecated, message: "Please see CLCircularRegion")
  open var radius: CLLocationDistance { circle?.radius ?? 0 }
  /// Whether `coordinate` is within the circle; false for a region without a circle.
  ///
  /// - Parameter coordinate: The coordinate to test.
  /// - Returns: Whether the coordinate is inside.
  @available(*, deprecated, message: "Please see CLCircularRegion")
  open func contains(_ coordinate: CLLocationCoordinate2D) -> Bool { Self.circle(circle, contains: coordinate) }

  static func circle(_ circle: (center: CLLocationCoordinate2D, radius: CLLocationDistance)?, contains c: CLLocationCoordinate2D) -> Bool {
    guard let circle else { return false }
    return CLLocation.distance(circle.center, c) <= circle.radius
  }

  /// Regions are equal when their identifiers are (as monitoring keys them).
  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? CLRegion else { return false }
    return other.identifier == identifier && type(of: other) == type(of: self)
  }

  /// The hash of the identifier, as regions are equal by identifier.
  open override var hash: Int { identifier.hashValue }

  /// The region itself: it cannot change, so it is its own copy.
  ///
  /// - Parameter zone: Unused.
  /// - Returns: This region.
  open func copy(with zone: NSZone? = nil) -> Any { self }
  /// Whether the class supports secure coding: true.
  public static var supportsSecureCoding: Bool { true }
  /// Decodes a region: its identifier, its notify flags and its circle, if any.
  ///
  /// - Parameter coder: The archive to read from.
  public required init?(coder: NSCoder) {
    identifier = (coder.decodeObject(forKey: "identifier") as? String) ?? ""
    notifyOnEntry = coder.decodeBool(forKey: "notifyOnEntry")
    notifyOnExit = coder.decodeBool(forKey: "notifyOnExit")
    if coder.containsValue(forKey: "radius") {
      circle = (
        CLLocationCoordinate2D(latitude: coder.decodeDouble(forKey: "latitude"), longitude: coder.decodeDouble(forKey: "longitude")),
        coder.decodeDouble(forKey: "radius")
      )
    } else {
      circle = nil
    }
    super.init()
  }
  /// Encodes the region: its identifier, its notify flags and its circle, if any.
  ///
  /// - Parameter coder: The archive to write to.
  open func encode(with coder: NSCoder) {
    coder.encode(identifier, forKey: "identifier")
    coder.encode(notifyOnEntry, forKey: "notifyOnEntry")
    coder.encode(notifyOnExit, forKey: "notifyOnExit")
    if let circle {
      coder.encode(circle.center.latitude, forKey: "latitude")
      coder.encode(circle.center.longitude, forKey: "longitude")
      coder.encode(circle.radius, forKey: "radius")
    }
  }
}

/// A circle on the ground to monitor: entry and exit are reported by the location manager that
/// monitors it (``CLLocationManager/startMonitoring(for:)``).
open class CLCircularRegion: CLRegion, @unchecked Sendable {
  /// A circle around `center` to monitor.
  ///
  /// - Parameters:
  ///   - center: The circle's centre.
  ///   - radius: The circle's radius, metres.
  ///   - identifier: The region's name, unique among the app's regions.
  public init(center: CLLocationCoordinate2D, radius: CLLocationDistance, identifier: String) {
    super.init(identifier: identifier, circle: (center, radius))
  }

  /// Decodes a circular region: its identifier, its notify flags and its circle.
  ///
  /// - Parameter coder: The archive to read from.
  public required init?(coder: NSCoder) { super.init(coder: coder) }

  /// The circle's centre.
  open override var center: CLLocationCoordinate2D { circle?.center ?? kCLLocationCoordinate2DInvalid }
  /// The circle's radius, metres.
  open override var radius: CLLocationDistance { circle?.radius ?? 0 }
  /// Whether `coordinate` is within the circle.
  open override func contains(_ coordinate: CLLocationCoordinate2D) -> Bool { Self.circle(circle, contains: coordinate) }
}

/// A heading report (never produced here: the emulated phone has no magnetometer,
/// ``CLLocationManager/headingAvailable()`` is false). Not Sendable, as in the SDK.
open class CLHeading: NSObject, NSCopying, NSSecureCoding {
  /// Degrees from magnetic north; -1 here (no heading).
  open private(set) var magneticHeading: CLLocationDirection = -1
  /// Degrees from true north; -1 here (no heading).
  open private(set) var trueHeading: CLLocationDirection = -1
  /// The heading's uncertainty, degrees; negative: invalid (-1 here).
  open private(set) var headingAccuracy: CLLocationDirection = -1
  /// The geomagnetic field along the x axis, microteslas; 0 here.
  open private(set) var x: CLHeadingComponentValue = 0
  /// The geomagnetic field along the y axis, microteslas; 0 here.
  open private(set) var y: CLHeadingComponentValue = 0
  /// The geomagnetic field along the z axis, microteslas; 0 here.
  open private(set) var z: CLHeadingComponentValue = 0
  /// When the heading was measured; when the object was made here.
  open private(set) var timestamp: Date = Date()

  /// An empty heading (-1 everywhere), as `CLHeading()` makes one on iOS; tests subclass it.
  public override init() { super.init() }

  /// The heading itself: it cannot change, so it is its own copy.
  ///
  /// - Parameter zone: Unused.
  /// - Returns: This heading.
  open func copy(with zone: NSZone? = nil) -> Any { self }
  /// Whether the class supports secure coding: true.
  public static var supportsSecureCoding: Bool { true }
  /// Decodes a heading: an empty one here (nothing is archived).
  ///
  /// - Parameter coder: The archive to read from.
  public required init?(coder: NSCoder) { super.init() }
  /// Encodes a heading: nothing is written here.
  ///
  /// - Parameter coder: The archive to write to.
  open func encode(with coder: NSCoder) {}
}

/// A place the user stayed (``CLLocationManager/startMonitoringVisits()``).
///
/// Not Sendable, as in the SDK; its only public initializer is NSObject's (an empty visit), so
/// tests subclass it and override its properties, as on iOS.
open class CLVisit: NSObject, NSCopying, NSSecureCoding {
  /// `Date.distantPast` when not known.
  open private(set) var arrivalDate = Date.distantPast
  /// `Date.distantFuture` while the user is still there.
  open private(set) var departureDate = Date.distantFuture
  /// Where the visit took place; `kCLLocationCoordinate2DInvalid` when not known.
  open private(set) var coordinate = kCLLocationCoordinate2DInvalid
  /// The coordinate's radius of uncertainty, metres; -1 when not known.
  open private(set) var horizontalAccuracy: CLLocationAccuracy = -1

  /// An empty visit (both dates unknown, no place), as `CLVisit()` makes one on iOS.
  public override init() { super.init() }

  convenience init(arrivalDate: Date, departureDate: Date, coordinate: CLLocationCoordinate2D, horizontalAccuracy: CLLocationAccuracy) {
    self.init()
    self.arrivalDate = arrivalDate
    self.departureDate = departureDate
    self.coordinate = coordinate
    self.horizontalAccuracy = horizontalAccuracy
  }

  /// The visit itself: it cannot change, so it is its own copy.
  ///
  /// - Parameter zone: Unused.
  /// - Returns: This visit.
  open func copy(with zone: NSZone? = nil) -> Any { self }
  /// Whether the class supports secure coding: true.
  public static var supportsSecureCoding: Bool { true }
  /// Decodes a visit: its dates, coordinate and accuracy.
  ///
  /// - Parameter coder: The archive to read from.
  public required init?(coder: NSCoder) {
    arrivalDate = Date(timeIntervalSinceReferenceDate: coder.decodeDouble(forKey: "arrival"))
    departureDate = Date(timeIntervalSinceReferenceDate: coder.decodeDouble(forKey: "departure"))
    coordinate = CLLocationCoordinate2D(
      latitude: coder.decodeDouble(forKey: "latitude"), longitude: coder.decodeDouble(forKey: "longitude"))
    horizontalAccuracy = coder.decodeDouble(forKey: "horizontalAccuracy")
    super.init()
  }
  /// Encodes the visit: its dates, coordinate and accuracy.
  ///
  /// - Parameter coder: The archive to write to.
  open func encode(with coder: NSCoder) {
    coder.encode(arrivalDate.timeIntervalSinceReferenceDate, forKey: "arrival")
    coder.encode(departureDate.timeIntervalSinceReferenceDate, forKey: "departure")
    coder.encode(coordinate.latitude, forKey: "latitude")
    coder.encode(coordinate.longitude, forKey: "longitude")
    coder.encode(horizontalAccuracy, forKey: "horizontalAccuracy")
  }
}

/// A beacon's identity (iOS 13). Beacons are not emulated: ranging is unavailable here.
open class CLBeaconIdentityConstraint: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
  /// The beacons' UUID.
  open private(set) var uuid: UUID
  /// The beacons' major value; nil for any.
  open private(set) var major: CLBeaconMajorValue?
  /// The beacons' minor value; nil for any.
  open private(set) var minor: CLBeaconMinorValue?

  /// The beacons with `uuid`, whatever their major and minor values.
  ///
  /// - Parameter uuid: The beacons' UUID.
  public init(uuid: UUID) {
    self.uuid = uuid
    super.init()
  }
  /// The beacons with `uuid` and `major`, whatever their minor value.
  ///
  /// - Parameters:
  ///   - uuid: The beacons' UUID.
  ///   - major: The beacons' major value.
  public init(uuid: UUID, major: CLBeaconMajorValue) {
    self.uuid = uuid
    self.major = major
    super.init()
  }
  /// The beacon with `uuid`, `major` and `minor`.
  ///
  /// - Parameters:
  ///   - uuid: The beacon's UUID.
  ///   - major: The beacon's major value.
  ///   - minor: The beacon's minor value.
  public init(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue) {
    self.uuid = uuid
    self.major = major
    self.minor = minor
    super.init()
  }

  /// The constraint itself: it cannot change, so it is its own copy.
  ///
  /// - Parameter zone: Unused.
  /// - Returns: This constraint.
  open func copy(with zone: NSZone? = nil) -> Any { self }
  /// Whether the class supports secure coding: true.
  public static var supportsSecureCoding: Bool { true }
  /// Decodes a constraint: its UUID only (a new one when missing).
  ///
  /// - Parameter coder: The archive to read from.
  public required init?(coder: NSCoder) {
    uuid = (coder.decodeObject(forKey: "uuid") as? UUID) ?? UUID()
    super.init()
  }
  /// Encodes the constraint: its UUID only.
  ///
  /// - Parameter coder: The archive to write to.
  open func encode(with coder: NSCoder) { coder.encode(uuid, forKey: "uuid") }
}

/// A beacon seen while ranging (never, here).
open class CLBeacon: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
  /// When the beacon was seen.
  open private(set) var timestamp = Date()
  /// The beacon's UUID.
  open private(set) var uuid = UUID()
  /// The beacon's UUID: the old name of `uuid`.
  @available(*, deprecated, renamed: "uuid")
  open var proximityUUID: UUID { uuid }
  /// The beacon's major value.
  open private(set) var major: NSNumber = 0
  /// The beacon's minor value.
  open private(set) var minor: NSNumber = 0
  /// How near the beacon is: immediate, near, far or unknown.
  open private(set) var proximity: CLProximity = .unknown
  /// The beacon's distance, metres, roughly; negative when unknown.
  open private(set) var accuracy: CLLocationAccuracy = -1
  /// The signal strength, decibels; 0 when unknown.
  open private(set) var rssi: Int = 0

  /// The beacon itself: it cannot change, so it is its own copy.
  ///
  /// - Parameter zone: Unused.
  /// - Returns: This beacon.
  open func copy(with zone: NSZone? = nil) -> Any { self }
  /// Whether the class supports secure coding: true.
  public static var supportsSecureCoding: Bool { true }
  /// Decodes a beacon: an empty one here (nothing is archived).
  ///
  /// - Parameter coder: The archive to read from.
  public required init?(coder: NSCoder) { super.init() }
  /// Encodes a beacon: nothing is written here.
  ///
  /// - Parameter coder: The archive to write to.
  open func encode(with coder: NSCoder) {}
}

/// A region defined by beacons (names only: monitoring one fails with `regionMonitoringFailure`).
open class CLBeaconRegion: CLRegion, @unchecked Sendable {
  /// The beacons' UUID.
  open private(set) var uuid: UUID
  /// The beacons' major value; nil for any.
  open private(set) var major: NSNumber?
  /// The beacons' minor value; nil for any.
  open private(set) var minor: NSNumber?
  /// Whether the region's state is reported when the display turns on. Kept for source compatibility: has no effect here.
  open var notifyEntryStateOnDisplay = false

  /// A region of the beacons with `uuid`.
  ///
  /// - Parameters:
  ///   - uuid: The beacons' UUID.
  ///   - identifier: The region's name.
  public init(uuid: UUID, identifier: String) {
    self.uuid = uuid
    super.init(identifier: identifier, circle: nil)
  }
  /// A region of the beacons with `uuid` and `major`.
  ///
  /// - Parameters:
  ///   - uuid: The beacons' UUID.
  ///   - major: The beacons' major value.
  ///   - identifier: The region's name.
  public init(uuid: UUID, major: CLBeaconMajorValue, identifier: String) {
    self.uuid = uuid
    self.major = NSNumber(value: major)
    super.init(identifier: identifier, circle: nil)
  }
  /// A region of the beacon with `uuid`, `major` and `minor`.
  ///
  /// - Parameters:
  ///   - uuid: The beacon's UUID.
  ///   - major: The beacon's major value.
  ///   - minor: The beacon's minor value.
  ///   - identifier: The region's name.
  public init(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue, identifier: String) {
    self.uuid = uuid
    self.major = NSNumber(value: major)
    self.minor = NSNumber(value: minor)
    super.init(identifier: identifier, circle: nil)
  }
  /// Decodes a beacon region as a region; its UUID is a new one and it has no major or minor value.
  ///
  /// - Parameter coder: The archive to read from.
  public required init?(coder: NSCoder) {
    uuid = UUID()
    super.init(coder: coder)
  }

  /// The region's beacons as an identity constraint (its UUID, major and minor).
  open var beaconIdentityConstraint: CLBeaconIdentityConstraint {
    switch (major, minor) {
    case (let major?, let minor?): CLBeaconIdentityConstraint(uuid: uuid, major: major.uint16Value, minor: minor.uint16Value)
    case (let major?, nil): CLBeaconIdentityConstraint(uuid: uuid, major: major.uint16Value)
    default: CLBeaconIdentityConstraint(uuid: uuid)
    }
  }

  /// A region of the beacons `constraint` describes.
  ///
  /// - Parameters:
  ///   - constraint: The beacons' UUID, and major and minor values when given.
  ///   - identifier: The region's name.
  public convenience init(beaconIdentityConstraint constraint: CLBeaconIdentityConstraint, identifier: String) {
    switch (constraint.major, constraint.minor) {
    case (let major?, let minor?): self.init(uuid: constraint.uuid, major: major, minor: minor, identifier: identifier)
    case (let major?, nil): self.init(uuid: constraint.uuid, major: major, identifier: identifier)
    default: self.init(uuid: constraint.uuid, identifier: identifier)
    }
  }

  /// The beacons' UUID: the old name of `uuid`.
  @available(*, deprecated, renamed: "uuid")
  open var proximityUUID: UUID { uuid }

  /// A region of the beacons with `proximityUUID`: the old name of `init(uuid:identifier:)`.
  ///
  /// - Parameters:
  ///   - proximityUUID: The beacons' UUID.
  ///   - identifier: The region's name.
  @available(*, deprecated, renamed: "init(uuid:identifier:)")
  public convenience init(proximityUUID: UUID, identifier: String) { self.init(uuid: proximityUUID, identifier: identifier) }

  /// A region of the beacons with `proximityUUID` and `major`: the old name of `init(uuid:major:identifier:)`.
  ///
  /// - Parameters:
  ///   - proximityUUID: The beacons' UUID.
  ///   - major: The beacons' major value.
  ///   - identifier: The region's name.
  @available(*, deprecated, renamed: "init(uuid:major:identifier:)")
  public convenience init(proximityUUID: UUID, major: CLBeaconMajorValue, identifier: String) {
    self.init(uuid: proximityUUID, major: major, identifier: identifier)
  }

  /// A region of the beacon with `proximityUUID`, `major` and `minor`: the old name of `init(uuid:major:minor:identifier:)`.
  ///
  /// - Parameters:
  ///   - proximityUUID: The beacon's UUID.
  ///   - major: The beacon's major value.
  ///   - minor: The beacon's minor value.
  ///   - identifier: The region's name.
  @available(*, deprecated, renamed: "init(uuid:major:minor:identifier:)")
  public convenience init(proximityUUID: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue, identifier: String) {
    self.init(uuid: proximityUUID, major: major, minor: minor, identifier: identifier)
  }

  /// The advertisement a device would send as this beacon: its UUID, major, minor and power, in
  /// the keys' order (no radio here; for code that builds and inspects it).
  open func peripheralData(withMeasuredPower measuredPower: NSNumber?) -> NSMutableDictionary {
    let data = NSMutableDictionary()
    data["kCBAdvDataAppleBeaconKey"] = [uuid.uuidString, major ?? 0, minor ?? 0, measuredPower ?? -59] as [Any]
    return data
  }
}
