/// GNS: multi-constellation fix data — time, position, per-system mode, satellites, altitude.
public struct GNS: Hashable, Sendable {
  /// The talker that sent the sentence (`GP`, `GN`, …).
  public var talker: NMEATalker
  /// UTC time of day; nil when the field is empty or malformed.
  public var time: NMEATimeOfDay?
  /// Latitude, degrees, north positive; nil when missing or invalid.
  public var latitude: Double?
  /// Longitude, degrees, east positive; nil when missing or invalid.
  public var longitude: Double?
  /// One mode letter per constellation (GPS, GLONASS, Galileo, BeiDou, …): `N` no fix, `A`, `D`, `R`, `F`, `E`…
  public var modeIndicators: String
  /// Number of satellites used in the fix, all constellations.
  public var satellitesUsed: Int?
  /// Horizontal dilution of precision.
  public var hdop: Double?
  /// Altitude above mean sea level, metres.
  public var altitudeMSL: Double?
  /// Height of the geoid above the WGS 84 ellipsoid, metres.
  public var geoidSeparation: Double?
  /// Age of the differential corrections, seconds.
  public var dgpsAge: Double?
  /// ID of the differential reference station.
  public var dgpsStation: Int?
  /// NMEA 4.10's navigational status: `S` safe, `C` caution, `U` unsafe, `V` not valid.
  public var navigationalStatus: NMEAFlag?

  /// Whether any constellation has a fix and a position is present.
  public var hasFix: Bool {
    latitude != nil && longitude != nil && modeIndicators.contains { $0 != "N" && $0 != "V" }
  }

  init(talker: NMEATalker, _ f: inout FieldReader) {
    self.talker = talker
    time = f.next().timeOfDay
    (latitude, longitude) = f.readPosition()
    modeIndicators = f.next().string
    satellitesUsed = f.nextInt()
    hdop = f.nextDouble()
    altitudeMSL = f.nextDouble()
    geoidSeparation = f.nextDouble()
    dgpsAge = f.nextDouble()
    dgpsStation = f.nextInt()
    navigationalStatus = f.next().character.map(NMEAFlag.init(ascii:))
  }

  /// Whether gpsd takes a position from it: the first mode letter (gpsd reads no other) is
  /// there and not `N`, and the navigational status is not unsafe or not valid.
  var gpsdTakesPosition: Bool {
    guard let first = modeIndicators.utf8.first, first != UInt8(ascii: "N") else { return false }
    return !gpsdIgnoresFix && latitude != nil && longitude != nil
  }

  /// A navigational status of `U` (unsafe) or `V` (not valid): gpsd takes only the time.
  var gpsdIgnoresFix: Bool { navigationalStatus == "U" || navigationalStatus == "V" }
}
