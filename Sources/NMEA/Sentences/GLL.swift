/// GLL: geographic position, time and status.
public struct GLL: Hashable, Sendable {
  /// The talker that sent the sentence (`GP`, `GN`, …).
  public var talker: NMEATalker
  /// Latitude, degrees, north positive; nil when missing or invalid.
  public var latitude: Double?
  /// Longitude, degrees, east positive; nil when missing or invalid.
  public var longitude: Double?
  /// UTC time of day; nil when the field is empty or malformed.
  public var time: NMEATimeOfDay?
  /// `A` (valid) is true, `V` false; nil when the receiver leaves it out (pre-2.0 sentences).
  public var isValid: Bool?
  /// NMEA 2.3 mode indicator (`A` autonomous, `D` differential, `N` not valid, …); nil when absent.
  public var modeIndicator: NMEAFlag?

  /// Whether the sentence reports a position: a position, status not `V` and mode not `N`.
  public var hasFix: Bool { latitude != nil && longitude != nil && isValid != false && modeIndicator != "N" }

  init(talker: NMEATalker, _ f: inout FieldReader) {
    self.talker = talker
    (latitude, longitude) = f.readPosition()
    time = f.next().timeOfDay
    isValid = f.next().character.map { $0 == 0x41 }
    modeIndicator = f.next().character.map(NMEAFlag.init(ascii:))
  }
}
