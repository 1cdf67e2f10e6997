public import Foundation

/// A region to monitor: the abstract base of ``CLCircularRegion`` (and the SDK's beacon regions).
open class CLRegion: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
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

  @available(*, deprecated, message: "Please see CLCircularRegion")
  public init(circularRegionWithCenter center: CLLocationCoordinate2D, radius: CLLocationDistance, identifier: String) {
    self.identifier = identifier
    circle = (center, radius)
    super.init()
  }

  @available(*, deprecated, message: "Please see CLCircularRegion")
  open var center: CLLocationCoordinate2D { circle?.center ?? kCLLocationCoordinate2DInvalid }
  @available(*, deprecated, message: "Please see CLCircularRegion")
  open var radius: CLLocationDistance { circle?.radius ?? 0 }
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

  open override var hash: Int { identifier.hashValue }

  open func copy(with zone: NSZone? = nil) -> Any { self }
  public static var supportsSecureCoding: Bool { true }
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
  public init(center: CLLocationCoordinate2D, radius: CLLocationDistance, identifier: String) {
    super.init(identifier: identifier, circle: (center, radius))
  }

  public required init?(coder: NSCoder) { super.init(coder: coder) }

  open override var center: CLLocationCoordinate2D { circle?.center ?? kCLLocationCoordinate2DInvalid }
  open override var radius: CLLocationDistance { circle?.radius ?? 0 }
  /// Whether `coordinate` is within the circle.
  open override func contains(_ coordinate: CLLocationCoordinate2D) -> Bool { Self.circle(circle, contains: coordinate) }
}

/// A heading report (never produced here: the emulated phone has no magnetometer,
/// ``CLLocationManager/headingAvailable()`` is false). Not Sendable, as in the SDK.
open class CLHeading: NSObject, NSCopying, NSSecureCoding {
  open private(set) var magneticHeading: CLLocationDirection = -1
  open private(set) var trueHeading: CLLocationDirection = -1
  open private(set) var headingAccuracy: CLLocationDirection = -1
  open private(set) var x: CLHeadingComponentValue = 0
  open private(set) var y: CLHeadingComponentValue = 0
  open private(set) var z: CLHeadingComponentValue = 0
  open private(set) var timestamp: Date = Date()

  /// An empty heading (-1 everywhere), as `CLHeading()` makes one on iOS; tests subclass it.
  public override init() { super.init() }

  open func copy(with zone: NSZone? = nil) -> Any { self }
  public static var supportsSecureCoding: Bool { true }
  public required init?(coder: NSCoder) { super.init() }
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
  open private(set) var coordinate = kCLLocationCoordinate2DInvalid
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

  open func copy(with zone: NSZone? = nil) -> Any { self }
  public static var supportsSecureCoding: Bool { true }
  public required init?(coder: NSCoder) {
    arrivalDate = Date(timeIntervalSinceReferenceDate: coder.decodeDouble(forKey: "arrival"))
    departureDate = Date(timeIntervalSinceReferenceDate: coder.decodeDouble(forKey: "departure"))
    coordinate = CLLocationCoordinate2D(
      latitude: coder.decodeDouble(forKey: "latitude"), longitude: coder.decodeDouble(forKey: "longitude"))
    horizontalAccuracy = coder.decodeDouble(forKey: "horizontalAccuracy")
    super.init()
  }
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
  open private(set) var uuid: UUID
  open private(set) var major: CLBeaconMajorValue?
  open private(set) var minor: CLBeaconMinorValue?

  public init(uuid: UUID) {
    self.uuid = uuid
    super.init()
  }
  public init(uuid: UUID, major: CLBeaconMajorValue) {
    self.uuid = uuid
    self.major = major
    super.init()
  }
  public init(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue) {
    self.uuid = uuid
    self.major = major
    self.minor = minor
    super.init()
  }

  open func copy(with zone: NSZone? = nil) -> Any { self }
  public static var supportsSecureCoding: Bool { true }
  public required init?(coder: NSCoder) {
    uuid = (coder.decodeObject(forKey: "uuid") as? UUID) ?? UUID()
    super.init()
  }
  open func encode(with coder: NSCoder) { coder.encode(uuid, forKey: "uuid") }
}

/// A beacon seen while ranging (never, here).
open class CLBeacon: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
  open private(set) var timestamp = Date()
  open private(set) var uuid = UUID()
  @available(*, deprecated, renamed: "uuid")
  open var proximityUUID: UUID { uuid }
  open private(set) var major: NSNumber = 0
  open private(set) var minor: NSNumber = 0
  open private(set) var proximity: CLProximity = .unknown
  open private(set) var accuracy: CLLocationAccuracy = -1
  open private(set) var rssi: Int = 0

  open func copy(with zone: NSZone? = nil) -> Any { self }
  public static var supportsSecureCoding: Bool { true }
  public required init?(coder: NSCoder) { super.init() }
  open func encode(with coder: NSCoder) {}
}

/// A region defined by beacons (names only: monitoring one fails with `regionMonitoringFailure`).
open class CLBeaconRegion: CLRegion, @unchecked Sendable {
  open private(set) var uuid: UUID
  open private(set) var major: NSNumber?
  open private(set) var minor: NSNumber?
  open var notifyEntryStateOnDisplay = false

  public init(uuid: UUID, identifier: String) {
    self.uuid = uuid
    super.init(identifier: identifier, circle: nil)
  }
  public init(uuid: UUID, major: CLBeaconMajorValue, identifier: String) {
    self.uuid = uuid
    self.major = NSNumber(value: major)
    super.init(identifier: identifier, circle: nil)
  }
  public init(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue, identifier: String) {
    self.uuid = uuid
    self.major = NSNumber(value: major)
    self.minor = NSNumber(value: minor)
    super.init(identifier: identifier, circle: nil)
  }
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

  public convenience init(beaconIdentityConstraint constraint: CLBeaconIdentityConstraint, identifier: String) {
    switch (constraint.major, constraint.minor) {
    case (let major?, let minor?): self.init(uuid: constraint.uuid, major: major, minor: minor, identifier: identifier)
    case (let major?, nil): self.init(uuid: constraint.uuid, major: major, identifier: identifier)
    default: self.init(uuid: constraint.uuid, identifier: identifier)
    }
  }

  @available(*, deprecated, renamed: "uuid")
  open var proximityUUID: UUID { uuid }

  @available(*, deprecated, renamed: "init(uuid:identifier:)")
  public convenience init(proximityUUID: UUID, identifier: String) { self.init(uuid: proximityUUID, identifier: identifier) }

  @available(*, deprecated, renamed: "init(uuid:major:identifier:)")
  public convenience init(proximityUUID: UUID, major: CLBeaconMajorValue, identifier: String) {
    self.init(uuid: proximityUUID, major: major, identifier: identifier)
  }

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
