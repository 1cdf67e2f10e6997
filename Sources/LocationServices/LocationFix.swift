public import Foundation

/// One position report, whatever its source (gpsd, a trace, a fixed point): what a phone's location API delivers.
///
/// Members that the source did not report are nil.
public struct LocationFix: Hashable, Sendable {
  /// The fix mode, with gpsd's numbering.
  public enum Mode: Int, Hashable, Sendable, Comparable, Codable {
    case noFix = 1
    case twoD = 2
    case threeD = 3
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
  }

  /// UTC time of the fix; nil when the source does not know the date.
  public var timestamp: Date? {
    get { Self.value(time).map(Date.init(timeIntervalSinceReferenceDate:)) }
    set { time = Self.stored(newValue?.timeIntervalSinceReferenceDate) }
  }
  public var mode: Mode
  /// The position; nil for a no-fix report.
  public var coordinate: Coordinate? {
    get { Self.value(latitude).map { Coordinate(unchecked: $0, longitude) } }
    set { (latitude, longitude) = (Self.stored(newValue?.latitude), newValue?.longitude ?? 0) }
  }
  /// Metres above mean sea level.
  public var altitudeMSL: Double? {
    get { Self.value(storedAltitudeMSL) }
    set { storedAltitudeMSL = Self.stored(newValue) }
  }
  /// Metres above the WGS 84 ellipsoid.
  public var altitudeHAE: Double? {
    get { Self.value(storedAltitudeHAE) }
    set { storedAltitudeHAE = Self.stored(newValue) }
  }
  /// Speed over ground, m/s.
  public var speed: Double? {
    get { Self.value(storedSpeed) }
    set { storedSpeed = Self.stored(newValue) }
  }
  /// Course over ground, degrees true.
  public var course: Double? {
    get { Self.value(storedCourse) }
    set { storedCourse = Self.stored(newValue) }
  }
  /// Estimated horizontal error, metres: gpsd's `eph` for fixes from gpsd or decoded NMEA
  /// (gpsd's error model: HDOP × 19 m without DGPS, a receiver's own estimate where it sends one),
  /// the configured accuracy for a set location.
  public var horizontalAccuracy: Double? {
    get { Self.value(storedHorizontalAccuracy) }
    set { storedHorizontalAccuracy = Self.stored(newValue) }
  }
  /// Estimated vertical error, metres (gpsd's `epv`).
  public var verticalAccuracy: Double? {
    get { Self.value(storedVerticalAccuracy) }
    set { storedVerticalAccuracy = Self.stored(newValue) }
  }
  /// Vertical speed, m/s, positive up (gpsd's `climb`).
  public var climb: Double? {
    get { Self.value(storedClimb) }
    set { storedClimb = Self.stored(newValue) }
  }
  /// Height of the geoid above the WGS 84 ellipsoid here, metres (gpsd's `geoidSep`).
  public var geoidSeparation: Double? {
    get { Self.value(storedGeoidSeparation) }
    set { storedGeoidSeparation = Self.stored(newValue) }
  }
  /// Magnetic variation, degrees, east positive (gpsd's `magvar`).
  public var magneticVariation: Double? {
    get { Self.value(storedMagneticVariation) }
    set { storedMagneticVariation = Self.stored(newValue) }
  }
  /// What kind of fix the receiver has (gpsd's `status`); nil when the source does not say.
  public var status: Status?
  /// The receiver's other error estimates, by gpsd's names; empty when the source gives none.
  public var errors: ErrorEstimates {
    get {
      ErrorEstimates(
        epx: Self.value(storedErrors.0), epy: Self.value(storedErrors.1), eps: Self.value(storedErrors.2),
        epd: Self.value(storedErrors.3), epc: Self.value(storedErrors.4), ept: Self.value(storedErrors.5),
        sep: Self.value(storedErrors.6))
    }
    set {
      storedErrors = (
        Self.stored(newValue.epx), Self.stored(newValue.epy), Self.stored(newValue.eps), Self.stored(newValue.epd),
        Self.stored(newValue.epc), Self.stored(newValue.ept), Self.stored(newValue.sep)
      )
    }
  }

  // The members are stored as plain doubles, a member the source did not report as a NaN of
  // its own (``absent``): the fix is plain data, 160 bytes, copied without reference counting
  // (it is copied several times on its way to the app; with an optional per member it would
  // be twice the size, with the rare ones boxed every copy took a retain and a release).
  // A NaN that a source does report (`.nan`) is another bit pattern, and stays a NaN.
  private var time: Double
  /// With `longitude` (0 when absent): the coordinate, absent when this is.
  private var latitude: Double
  private var longitude: Double
  private var storedAltitudeMSL: Double
  private var storedAltitudeHAE: Double
  private var storedSpeed: Double
  private var storedCourse: Double
  private var storedHorizontalAccuracy: Double
  private var storedVerticalAccuracy: Double
  private var storedClimb: Double
  private var storedGeoidSeparation: Double
  private var storedMagneticVariation: Double
  /// epx, epy, eps, epd, epc, ept, sep.
  private var storedErrors: (Double, Double, Double, Double, Double, Double, Double)

  /// The bits of a member that is not there: a quiet NaN with a payload no arithmetic makes.
  private static let absentBits: UInt64 = 0x7FFC_A5E5_7000_0001
  private static var absent: Double { Double(bitPattern: absentBits) }
  private static func value(_ stored: Double) -> Double? { stored.bitPattern == absentBits ? nil : stored }
  private static func stored(_ value: Double?) -> Double { value ?? absent }

  public init(
    timestamp: Date? = nil, mode: Mode, coordinate: Coordinate? = nil, altitudeMSL: Double? = nil,
    altitudeHAE: Double? = nil, speed: Double? = nil, course: Double? = nil,
    horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil, climb: Double? = nil,
    geoidSeparation: Double? = nil, magneticVariation: Double? = nil, status: Status? = nil,
    errors: ErrorEstimates = ErrorEstimates()
  ) {
    self.time = Self.stored(timestamp?.timeIntervalSinceReferenceDate)
    self.mode = mode
    self.latitude = Self.stored(coordinate?.latitude)
    self.longitude = coordinate?.longitude ?? 0
    self.storedAltitudeMSL = Self.stored(altitudeMSL)
    self.storedAltitudeHAE = Self.stored(altitudeHAE)
    self.storedSpeed = Self.stored(speed)
    self.storedCourse = Self.stored(course)
    self.storedHorizontalAccuracy = Self.stored(horizontalAccuracy)
    self.storedVerticalAccuracy = Self.stored(verticalAccuracy)
    self.storedClimb = Self.stored(climb)
    self.storedGeoidSeparation = Self.stored(geoidSeparation)
    self.storedMagneticVariation = Self.stored(magneticVariation)
    self.status = status
    self.storedErrors = (
      Self.stored(errors.epx), Self.stored(errors.epy), Self.stored(errors.eps), Self.stored(errors.epd),
      Self.stored(errors.epc), Self.stored(errors.ept), Self.stored(errors.sep)
    )
  }

  /// Equal when every member is: both absent, or both there and equal (a reported NaN equals
  /// nothing, as an optional NaN does not).
  public static func == (a: Self, b: Self) -> Bool {
    a.timestamp == b.timestamp && a.mode == b.mode && a.coordinate == b.coordinate && a.altitudeMSL == b.altitudeMSL
      && a.altitudeHAE == b.altitudeHAE && a.speed == b.speed && a.course == b.course
      && a.horizontalAccuracy == b.horizontalAccuracy && a.verticalAccuracy == b.verticalAccuracy && a.climb == b.climb
      && a.geoidSeparation == b.geoidSeparation && a.magneticVariation == b.magneticVariation && a.status == b.status
      && a.errors == b.errors
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(timestamp)
    hasher.combine(mode)
    hasher.combine(coordinate)
    hasher.combine(altitudeMSL)
    hasher.combine(altitudeHAE)
    hasher.combine(speed)
    hasher.combine(course)
    hasher.combine(horizontalAccuracy)
    hasher.combine(verticalAccuracy)
    hasher.combine(climb)
    hasher.combine(geoidSeparation)
    hasher.combine(magneticVariation)
    hasher.combine(status)
    hasher.combine(errors)
  }

  /// What kind of fix a receiver has: gpsd's `status` (`STATUS_*` in `gps.h`), whose numbers
  /// these are. gpsd reports it from 2 up; 0 and 1 are what it leaves out.
  public enum Status: Int, Hashable, Sendable, Codable, CaseIterable {
    /// No fix, or not known.
    case unknown = 0
    /// A plain GNSS fix.
    case gnss = 1
    /// Corrected by a differential station (DGPS, SBAS).
    case differential = 2
    /// Real-time kinematic, fixed integer ambiguities.
    case rtkFixed = 3
    /// Real-time kinematic, float ambiguities.
    case rtkFloat = 4
    /// Dead reckoning alone.
    case deadReckoning = 5
    /// GNSS with dead reckoning.
    case gnssDeadReckoning = 6
    /// Time only: a surveyed-in or manual position.
    case timeOnly = 7
    /// A simulator's fix.
    case simulated = 8
    /// The Precise Positioning Service (the encrypted P(Y) code).
    case precise = 9
  }

  /// A receiver's error estimates beyond ``LocationFix/horizontalAccuracy`` and
  /// ``LocationFix/verticalAccuracy``, by the names of gpsd's TPV members. gpsd states no
  /// confidence for them ("maybe 50 %, maybe 95 %"); its error model scales DOPs by range errors
  /// it calls 95 %. Nil where the source gives none.
  public struct ErrorEstimates: Hashable, Sendable {
    /// Longitude error, metres (`epx`).
    public var epx: Double?
    /// Latitude error, metres (`epy`).
    public var epy: Double?
    /// Speed error, m/s (`eps`; CoreLocation's `speedAccuracy`).
    public var eps: Double?
    /// Course error, degrees (`epd`; CoreLocation's `courseAccuracy`).
    public var epd: Double?
    /// Climb error, m/s (`epc`).
    public var epc: Double?
    /// Time error, seconds (`ept`).
    public var ept: Double?
    /// Spherical (3D) position error, metres (`sep`).
    public var sep: Double?

    public init(
      epx: Double? = nil, epy: Double? = nil, eps: Double? = nil, epd: Double? = nil, epc: Double? = nil,
      ept: Double? = nil, sep: Double? = nil
    ) {
      self.epx = epx
      self.epy = epy
      self.eps = eps
      self.epd = epd
      self.epc = epc
      self.ept = ept
      self.sep = sep
    }

    /// Whether no estimate is given.
    public var isEmpty: Bool { self == ErrorEstimates() }
  }

  /// Whether the fix has a 2D or 3D position.
  public var hasFix: Bool { mode >= .twoD && coordinate != nil }
}
