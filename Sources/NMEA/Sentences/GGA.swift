/// GGA: time, position, fix quality, satellites used, HDOP, altitude and geoid separation.
public struct GGA: Hashable, Sendable {
  /// The talker that sent the sentence (`GP`, `GN`, …).
  public var talker: NMEATalker
  /// UTC time of day; nil when the field is empty or malformed.
  public var time: NMEATimeOfDay?
  /// Latitude, degrees, north positive; nil when missing or invalid.
  public var latitude: Double?
  /// Longitude, degrees, east positive; nil when missing or invalid.
  public var longitude: Double?
  /// 0 invalid, 1 GPS, 2 DGPS, 3 PPS, 4 RTK fixed, 5 RTK float, 6 estimated, 7 manual, 8 simulated.
  public var quality: Int?
  /// Number of satellites used in the fix.
  public var satellitesUsed: Int?
  /// Horizontal dilution of precision.
  public var hdop: Double?
  /// Altitude above mean sea level, metres.
  public var altitudeMSL: Double?
  /// Height of the geoid above the WGS 84 ellipsoid, metres.
  public var geoidSeparation: Double?
  /// Age of the differential correction, seconds.
  public var dgpsAge: Double?
  /// ID of the differential reference station.
  public var dgpsStation: Int?

  /// Whether the sentence reports a measured position: a position, and a quality other than
  /// 0 (invalid) or 6 (estimated by dead reckoning, which gpsd does not report as a fix).
  public var hasFix: Bool {
    guard let quality, quality > 0, quality != 6 else { return false }
    return latitude != nil && longitude != nil
  }

  init(talker: NMEATalker, _ f: inout FieldReader) {
    self.talker = talker
    time = f.next().timeOfDay
    (latitude, longitude) = f.readPosition()
    quality = f.nextInt()
    satellitesUsed = f.nextInt()
    hdop = f.nextDouble()
    altitudeMSL = f.nextDouble()
    f.skip(1)  // unit, M
    geoidSeparation = f.nextDouble()
    f.skip(1)
    dgpsAge = f.nextDouble()
    dgpsStation = f.nextInt()
  }
}
