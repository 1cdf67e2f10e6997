public import Foundation

/// One position report, whatever its source (gpsd, a trace, a fixed point): what a phone's location API delivers.
///
/// Members that the source did not report are nil.
public struct LocationFix: Hashable, Sendable {
  /// The fix mode, with gpsd's numbering.
  public enum Mode: Int, Hashable, Sendable, Comparable, Codable {
    /// No position.
    case noFix = 1
    /// A horizontal position only.
    case twoD = 2
    /// A position with altitude.
    case threeD = 3
    /// Orders modes by their number: no fix, 2D, 3D.
    ///
    /// - Parameters:
    ///   - a: A mode.
    ///   - b: Another mode.
    /// - Returns: Whether `a` is a lesser fix than `b`.
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
  }

  // The members are stored as plain doubles (``Reported``): the fix is plain data, 160 bytes,
  // copied without reference counting (it is copied several times on its way to the app; with
  // an optional per member it would be twice the size, and with the rare ones boxed every copy
  // took a retain and a release). Equality and hashing are synthesized from them.

  /// UTC time of the fix; nil when the source does not know the date.
  public var timestamp: Date? {
    get { time.value.map(Date.init(timeIntervalSinceReferenceDate:)) }
    set { time.value = newValue?.timeIntervalSinceReferenceDate }
  }
  /// The fix mode: none, 2D or 3D.
  public var mode: Mode
  /// The position; nil for a no-fix report.
  public var coordinate: Coordinate? {
    get { latitude.value.map { Coordinate(unchecked: $0, longitude) } }
    set { (latitude.value, longitude) = (newValue?.latitude, newValue?.longitude ?? 0) }
  }
  /// Metres above mean sea level.
  public var altitudeMSL: Double? {
    get { reported.altitudeMSL.value }
    set { reported.altitudeMSL.value = newValue }
  }
  /// Metres above the WGS 84 ellipsoid.
  public var altitudeHAE: Double? {
    get { reported.altitudeHAE.value }
    set { reported.altitudeHAE.value = newValue }
  }
  /// Speed over ground, m/s.
  public var speed: Double? {
    get { reported.speed.value }
    set { reported.speed.value = newValue }
  }
  /// Course over ground, degrees true.
  public var course: Double? {
    get { reported.course.value }
    set { reported.course.value = newValue }
  }
  /// Estimated horizontal error, metres: gpsd's `eph` for fixes from gpsd or decoded NMEA
  /// (gpsd's error model: HDOP × 19 m without DGPS, a receiver's own estimate where it sends one),
  /// the configured accuracy for a set location.
  public var horizontalAccuracy: Double? {
    get { reported.horizontalAccuracy.value }
    set { reported.horizontalAccuracy.value = newValue }
  }
  /// Estimated vertical error, metres (gpsd's `epv`).
  public var verticalAccuracy: Double? {
    get { reported.verticalAccuracy.value }
    set { reported.verticalAccuracy.value = newValue }
  }
  /// Vertical speed, m/s, positive up (gpsd's `climb`).
  public var climb: Double? {
    get { reported.climb.value }
    set { reported.climb.value = newValue }
  }
  /// Height of the geoid above the WGS 84 ellipsoid here, metres (gpsd's `geoidSep`).
  public var geoidSeparation: Double? {
    get { reported.geoidSeparation.value }
    set { reported.geoidSeparation.value = newValue }
  }
  /// Magnetic variation, degrees, east positive (gpsd's `magvar`).
  public var magneticVariation: Double? {
    get { reported.magneticVariation.value }
    set { reported.magneticVariation.value = newValue }
  }
  /// What kind of fix the receiver has (gpsd's `status`); nil when the source does not say.
  public var status: Status?
  /// The receiver's other error estimates, by gpsd's names; empty when the source gives none.
  public var errors: ErrorEstimates {
    get { reported.errors.estimates }
    set { reported.errors = ReportedErrors(newValue) }
  }

  /// Seconds since the reference date.
  private var time: Reported
  /// With `longitude` (0 when absent): the coordinate, absent when this is.
  private var latitude: Reported
  private var longitude: Double
  /// The other numbers, each absent or reported.
  private var reported = ReportedMembers()

  private struct ReportedMembers: Hashable, Sendable {
    var altitudeMSL = Reported(), altitudeHAE = Reported(), speed = Reported(), course = Reported()
    var horizontalAccuracy = Reported(), verticalAccuracy = Reported(), climb = Reported()
    var geoidSeparation = Reported(), magneticVariation = Reported()
    var errors = ReportedErrors(ErrorEstimates())
  }

  private struct ReportedErrors: Hashable, Sendable {
    var epx, epy, eps, epd, epc, ept, sep: Reported

    init(_ e: ErrorEstimates) {
      (epx, epy, eps, epd) = (Reported(e.epx), Reported(e.epy), Reported(e.eps), Reported(e.epd))
      (epc, ept, sep) = (Reported(e.epc), Reported(e.ept), Reported(e.sep))
    }

    var estimates: ErrorEstimates {
      ErrorEstimates(epx: epx.value, epy: epy.value, eps: eps.value, epd: epd.value, epc: epc.value, ept: ept.value, sep: sep.value)
    }
  }

  /// A fix from what the source reported; members left out are nil (`errors` empty).
  ///
  /// - Parameters:
  ///   - timestamp: UTC time of the fix.
  ///   - mode: The fix mode.
  ///   - coordinate: The position.
  ///   - altitudeMSL: Metres above mean sea level.
  ///   - altitudeHAE: Metres above the WGS 84 ellipsoid.
  ///   - speed: Speed over ground, m/s.
  ///   - course: Course over ground, degrees true.
  ///   - horizontalAccuracy: Estimated horizontal error, metres.
  ///   - verticalAccuracy: Estimated vertical error, metres.
  ///   - climb: Vertical speed, m/s, positive up.
  ///   - geoidSeparation: Height of the geoid above the ellipsoid, metres.
  ///   - magneticVariation: Magnetic variation, degrees, east positive.
  ///   - status: What kind of fix the receiver has.
  ///   - errors: The receiver's other error estimates.
  public init(
    timestamp: Date? = nil, mode: Mode, coordinate: Coordinate? = nil, altitudeMSL: Double? = nil,
    altitudeHAE: Double? = nil, speed: Double? = nil, course: Double? = nil,
    horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil, climb: Double? = nil,
    geoidSeparation: Double? = nil, magneticVariation: Double? = nil, status: Status? = nil,
    errors: ErrorEstimates = ErrorEstimates()
  ) {
    self.time = Reported(timestamp?.timeIntervalSinceReferenceDate)
    self.mode = mode
    self.latitude = Reported(coordinate?.latitude)
    self.longitude = coordinate?.longitude ?? 0
    self.status = status
    self.altitudeMSL = altitudeMSL
    self.altitudeHAE = altitudeHAE
    self.speed = speed
    self.course = course
    self.horizontalAccuracy = horizontalAccuracy
    self.verticalAccuracy = verticalAccuracy
    self.climb = climb
    self.geoidSeparation = geoidSeparation
    self.magneticVariation = magneticVariation
    self.errors = errors
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

    /// Error estimates from gpsd's TPV members; those left out are nil.
    ///
    /// - Parameters:
    ///   - epx: Longitude error, metres.
    ///   - epy: Latitude error, metres.
    ///   - eps: Speed error, m/s.
    ///   - epd: Course error, degrees.
    ///   - epc: Climb error, m/s.
    ///   - ept: Time error, seconds.
    ///   - sep: Spherical (3D) position error, metres.
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

/// A number a source may not have reported, stored as a plain double: an unreported one as a NaN
/// of its own (a quiet NaN with a payload no arithmetic makes), so that a fix holding many of them
/// is plain data. A NaN a source does report (`.nan`) is another bit pattern and stays a NaN.
/// Equality and hashing are the optional's: absent equals absent, a reported NaN equals nothing.
struct Reported: Hashable, Sendable {
  private static let absentBits: UInt64 = 0x7FFC_A5E5_7000_0001
  private var stored = Double(bitPattern: absentBits)

  init(_ value: Double? = nil) { self.value = value }

  var value: Double? {
    get { stored.bitPattern == Self.absentBits ? nil : stored }
    set { stored = newValue ?? Double(bitPattern: Self.absentBits) }
  }

  static func == (a: Self, b: Self) -> Bool { a.value == b.value }
  func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
