/// RMC: the recommended minimum — time, status, position, speed, track, date, variation.
public struct RMC: Hashable, Sendable {
  /// The day, month and two-digit year of an RMC date field (`ddmmyy`).
  public struct Date: Hashable, Sendable {
    /// The day of the month, 1–31.
    public var day: Int
    /// The month, 1–12.
    public var month: Int
    /// The year modulo 100, as sent.
    public var yearOfCentury: Int

    /// Creates a date as RMC sends it.
    /// - Parameters:
    ///   - day: the day of the month.
    ///   - month: the month.
    ///   - yearOfCentury: the year modulo 100.
    public init(day: Int, month: Int, yearOfCentury: Int) {
      self.day = day
      self.month = month
      self.yearOfCentury = yearOfCentury
    }
  }

  /// The talker that sent the sentence (`GP`, `GN`, …).
  public var talker: NMEATalker
  /// UTC time of day; nil when the field is empty or malformed.
  public var time: NMEATimeOfDay?
  /// Status `A` (valid) or `D` (differential, valid, NMEA 4.1) is true; `V` (warning) false.
  public var isValid: Bool
  /// Latitude, degrees, north positive; nil when missing or invalid.
  public var latitude: Double?
  /// Longitude, degrees, east positive; nil when missing or invalid.
  public var longitude: Double?
  /// Speed over ground, knots.
  public var speedKnots: Double?
  /// Course over ground, degrees true.
  public var track: Double?
  /// The date (`ddmmyy`); nil when the field is empty or out of range.
  public var date: Date?
  /// Magnetic variation, degrees, east positive.
  public var magneticVariation: Double?
  /// NMEA 2.3 mode indicator (`A` autonomous, `D` differential, `E` estimated, `N` not valid, …).
  public var modeIndicator: NMEAFlag?
  /// The status letter as sent (`A`, `D`, `V`), nil when empty.
  var status: UInt8?

  /// Whether the sentence reports a position fix: status `A`, a position, and a mode other than `N`.
  public var hasFix: Bool { isValid && latitude != nil && longitude != nil && modeIndicator != "N" }

  init(talker: NMEATalker, _ f: inout FieldReader) {
    self.talker = talker
    time = f.next().timeOfDay
    status = f.next().character
    isValid = status == 0x41 || status == 0x44
    (latitude, longitude) = f.readPosition()
    speedKnots = f.nextDouble()
    track = f.nextDouble()
    date = f.next().ddmmyy
    let variation = f.nextDouble()
    let direction = f.next().character
    magneticVariation = variation.map { direction == 0x57 ? -$0 : $0 }
    modeIndicator = f.next().character.map(NMEAFlag.init(ascii:))
  }
}
