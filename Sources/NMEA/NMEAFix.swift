public import LocationModel

/// A UTC instant with nanosecond resolution, as nanoseconds since 1970-01-01T00:00:00Z.
public struct NMEATimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Nanoseconds since 1970-01-01T00:00:00Z (negative before it).
  public var nanosecondsSinceUnixEpoch: Int64

  /// Creates a timestamp from nanoseconds since the Unix epoch.
  /// - Parameter nanosecondsSinceUnixEpoch: nanoseconds since 1970-01-01T00:00:00Z.
  public init(nanosecondsSinceUnixEpoch: Int64) { self.nanosecondsSinceUnixEpoch = nanosecondsSinceUnixEpoch }

  /// The years a timestamp can hold: nanoseconds in an `Int64` reach from 1677 to 2262.
  public static let representableYears = 1700...2200

  /// The instant `time` on `date`, UTC; nil when the year is outside ``representableYears``.
  public init?(date: NMEADate, time: NMEATimeOfDay) {
    guard NMEATimestamp.representableYears.contains(date.year) else { return nil }
    nanosecondsSinceUnixEpoch = Int64(date.daysSinceUnixEpoch) * 86_400_000_000_000 + time.nanosecondsSinceMidnight
  }

  /// Seconds since the Unix epoch, as a `Double`.
  public var secondsSinceUnixEpoch: Double { Double(nanosecondsSinceUnixEpoch) / 1e9 }

  /// The UTC calendar date of the instant.
  public var date: NMEADate {
    NMEADate(daysSinceUnixEpoch: Int(nanosecondsSinceUnixEpoch.floorDiv(86_400_000_000_000)))
  }

  /// Whether `a` is earlier than `b`.
  /// - Parameters:
  ///   - a: a timestamp.
  ///   - b: another timestamp.
  /// - Returns: true when `a` comes before `b`.
  public static func < (a: Self, b: Self) -> Bool { a.nanosecondsSinceUnixEpoch < b.nanosecondsSinceUnixEpoch }

  /// ISO 8601 with milliseconds and `Z`, as gpsd prints it: `2019-04-07T00:02:31.420Z`.
  ///
  /// Milliseconds are rounded to nearest, as gpsd rounds.
  public var iso8601: String {
    let ms = (nanosecondsSinceUnixEpoch + 500_000).floorDiv(1_000_000)
    let days = ms.floorDiv(86_400_000)
    let msOfDay = Int(ms - days * 86_400_000)
    let d = NMEADate(daysSinceUnixEpoch: Int(days))
    let h = msOfDay / 3_600_000, m = msOfDay / 60_000 % 60, s = msOfDay / 1000 % 60, f = msOfDay % 1000
    return "\(d)T\(pad2(h)):\(pad2(m)):\(pad2(s)).\(pad3(f))Z"
  }

  /// The instant as ``iso8601`` writes it.
  public var description: String { iso8601 }

  /// 1024 GPS weeks, the period of the GPS week counter, in nanoseconds.
  public static let gpsRolloverNanoseconds: Int64 = 1024 * 7 * 86_400 * 1_000_000_000
}

extension Int64 {
  @inline(__always) func floorDiv(_ d: Int64) -> Int64 {
    let q = self / d
    return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
  }
}

/// One epoch of a receiver's output merged into one fix: everything its sentences said about one time stamp.
///
/// Members that no sentence of the epoch reported are nil.
public struct NMEAFix: Hashable, Sendable {
  /// The fix mode, with gpsd's numbering.
  public enum Mode: Int, Hashable, Sendable, Comparable {
    /// No fix (gpsd's mode 1).
    case noFix = 1
    /// A 2D fix: latitude and longitude (mode 2).
    case twoD = 2
    /// A 3D fix: latitude, longitude and altitude (mode 3).
    case threeD = 3
    /// Whether `a` is a lesser mode than `b`: no fix, then 2D, then 3D.
    /// - Parameters:
    ///   - a: a mode.
    ///   - b: another mode.
    /// - Returns: true when `a` ranks below `b`.
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
  }

  /// UTC time of the epoch; nil while the date is not yet known (no RMC/ZDA date and no `--date`).
  public var time: NMEATimestamp?
  /// The time of day the sentences carried; nil for epochs of sentences without time.
  public var timeOfDay: NMEATimeOfDay?
  /// The fix mode as gpsd's fix had it; ``NMEAFix/Mode/noFix`` when the epoch has no position.
  public var mode: Mode
  /// Degrees, WGS 84; nil when there is no fix.
  public var latitude: Double?
  /// Degrees, WGS 84, east positive; nil when there is no fix.
  public var longitude: Double?
  /// Metres above mean sea level.
  public var altitudeMSL: Double?
  /// Geoid separation, metres: the receiver's, or gpsd's geoid model (``WGS84Geoid``) where it gives none.
  public var geoidSeparation: Double?
  /// Speed over ground, m/s.
  public var speed: Double?
  /// Course over ground, degrees true.
  public var track: Double?
  /// Course over ground, degrees magnetic (gpsd's `magtrack`): the receiver's (VTG, HDG), or
  /// the true track plus the magnetic variation, as gpsd derives it.
  public var magneticTrack: Double?
  /// gpsd's `NED` velocity, m/s, with a 3D fix, from a receiver that sends one (Garmin's
  /// `$PGRMV`, SkyTraq's `$PSTI,030`): north and east both or neither, down when known.
  public var velocityNorth: Double?
  /// gpsd's east velocity, m/s (see ``velocityNorth``).
  public var velocityEast: Double?
  /// gpsd's down velocity, m/s, down positive; nil when the receiver does not give it.
  public var velocityDown: Double?
  /// The age (seconds) and reference station of the differential corrections, as gpsd reports
  /// them (GGA's or GNS's, both or neither).
  public var dgpsAge: Double?
  /// The reference station of the differential corrections (see ``dgpsAge``).
  public var dgpsStation: Int?
  /// Magnetic variation, degrees, east positive: the receiver's (RMC, HDG), or gpsd's model
  /// (``MagneticVariation``) where it gives none or 0.0, as gpsd fills it.
  public var magneticVariation: Double?
  /// gpsd's fix status: what kind of fix (GGA's quality, RMC/GLL/GNS mode indicators), the
  /// highest any sentence of the epoch said, as gpsd merges it; nil when none said.
  public var status: LocationFix.Status?
  /// Vertical speed, m/s, up positive: the change of ``altitudeHAE`` since the previous time
  /// stamp, as gpsd derives it (3D fixes on both sides).
  public var climb: Double?
  /// gpsd's `eph`, metres: HDOP × ``GPSDRangeErrors/position`` (a receiver's own estimate where it
  /// sends one), see ``GPSDRangeErrors``.
  public var horizontalError: Double?
  /// gpsd's `epv`, metres: VDOP × ``GPSDRangeErrors/vertical`` in 3D, or a receiver's estimate
  /// (GBS, PGRME).
  public var verticalError: Double?
  /// gpsd's other error members (`epx`, `epy`, `eps`, `epd`, `epc`, `ept`, `sep`), as its error
  /// model derives them; see ``GPSDRangeErrors``.
  public var errors = LocationFix.ErrorEstimates()
  /// GGA fix quality (0 invalid, 1 GPS, 2 DGPS, 4 RTK fixed, 5 RTK float, …).
  public var quality: Int?
  /// Satellites used in the fix, from the epoch's last GGA or GNS with a position.
  public var satellitesUsed: Int?
  /// The satellites in view over all constellations: the sum of the last GSV count of each
  /// talker in the epoch (up to eight talkers).
  public var satellitesInView: Int?
  /// Horizontal dilution of precision: the last the epoch's GGA, GNS or GSA sentences gave.
  public var hdop: Double?
  /// Vertical dilution of precision, from the epoch's last GSA.
  public var vdop: Double?
  /// Position (3D) dilution of precision, from the epoch's last GSA.
  public var pdop: Double?
  /// 1-sigma errors from GST, metres: the receiver's GST sentence as sent (gpsd reports them in
  /// its GST report, not in the fix).
  public var latitudeError: Double?
  /// GST's 1-sigma longitude error, metres.
  public var longitudeError: Double?
  /// GST's 1-sigma altitude error, metres.
  public var altitudeError: Double?

  /// Height above the WGS 84 ellipsoid, metres, as gpsd derives it: the altitude above sea level
  /// plus the geoid separation when the altitude came, the separation being the receiver's or, where
  /// it gives none, gpsd's geoid model (``WGS84Geoid``).
  public var altitudeHAE: Double?

  /// Creates a fix with `mode` and nothing else known.
  /// - Parameter mode: the fix mode.
  public init(mode: Mode) { self.mode = mode }
}
