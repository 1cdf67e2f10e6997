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
  public var timestamp: Date?
  public var mode: Mode
  /// The position; nil for a no-fix report.
  public var coordinate: Coordinate?
  /// Metres above mean sea level.
  public var altitudeMSL: Double?
  /// Metres above the WGS 84 ellipsoid.
  public var altitudeHAE: Double? {
    get { rare?.values.altitudeHAE }
    set { setRare(\.altitudeHAE, newValue) }
  }
  /// Speed over ground, m/s.
  public var speed: Double?
  /// Course over ground, degrees true.
  public var course: Double?
  /// Estimated horizontal error, metres: gpsd's `eph` for fixes from gpsd or decoded NMEA
  /// (gpsd's error model: HDOP × 19 m without DGPS, a receiver's own estimate where it sends one),
  /// the configured accuracy for a set location.
  public var horizontalAccuracy: Double?
  /// Estimated vertical error, metres (gpsd's `epv`).
  public var verticalAccuracy: Double?
  /// Vertical speed, m/s, positive up (gpsd's `climb`).
  public var climb: Double? {
    get { rare?.values.climb }
    set { setRare(\.climb, newValue) }
  }
  /// Height of the geoid above the WGS 84 ellipsoid here, metres (gpsd's `geoidSep`).
  public var geoidSeparation: Double? {
    get { rare?.values.geoidSeparation }
    set { setRare(\.geoidSeparation, newValue) }
  }
  /// Magnetic variation, degrees, east positive (gpsd's `magvar`).
  public var magneticVariation: Double? {
    get { rare?.values.magneticVariation }
    set { setRare(\.magneticVariation, newValue) }
  }
  /// What kind of fix the receiver has (gpsd's `status`); nil when the source does not say.
  public var status: Status? {
    get { rare?.values.status }
    set { setRare(\.status, newValue) }
  }
  /// The receiver's other error estimates, by gpsd's names; empty when the source gives none.
  public var errors: ErrorEstimates {
    get { rare?.values.errors ?? ErrorEstimates() }
    set { setRare(\.errors, newValue) }
  }

  /// The members most sources leave out, kept out of line (copy on write): a fix is copied
  /// several times on its way to the app, and stored inline they would more than double its
  /// size. Nil exactly when all of them are unset, so that the synthesized equality holds.
  private var rare: RareBox?

  private struct Rare: Hashable, Sendable {
    var altitudeHAE: Double?
    var climb: Double?
    var geoidSeparation: Double?
    var magneticVariation: Double?
    var status: Status?
    var errors = ErrorEstimates()
  }

  private final class RareBox: Hashable, @unchecked Sendable {
    // Mutated only through `setRare`, on a box no other fix shares.
    var values: Rare
    init(_ values: Rare) { self.values = values }
    static func == (a: RareBox, b: RareBox) -> Bool { a === b || a.values == b.values }
    func hash(into hasher: inout Hasher) { hasher.combine(values) }
  }

  private mutating func setRare<Value>(_ member: WritableKeyPath<Rare, Value>, _ value: Value) {
    guard rare != nil else {
      var values = Rare()
      values[keyPath: member] = value
      if values != Rare() { rare = RareBox(values) }
      return
    }
    if !isKnownUniquelyReferenced(&rare) { rare = RareBox(rare!.values) }
    rare!.values[keyPath: member] = value
    if rare!.values == Rare() { rare = nil }
  }

  public init(
    timestamp: Date? = nil, mode: Mode, coordinate: Coordinate? = nil, altitudeMSL: Double? = nil,
    altitudeHAE: Double? = nil, speed: Double? = nil, course: Double? = nil,
    horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil, climb: Double? = nil,
    geoidSeparation: Double? = nil, magneticVariation: Double? = nil, status: Status? = nil,
    errors: ErrorEstimates = ErrorEstimates()
  ) {
    self.timestamp = timestamp
    self.mode = mode
    self.coordinate = coordinate
    self.altitudeMSL = altitudeMSL
    self.speed = speed
    self.course = course
    self.horizontalAccuracy = horizontalAccuracy
    self.verticalAccuracy = verticalAccuracy
    let rare = Rare(
      altitudeHAE: altitudeHAE, climb: climb, geoidSeparation: geoidSeparation, magneticVariation: magneticVariation,
      status: status, errors: errors)
    self.rare = rare == Rare() ? nil : RareBox(rare)
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
