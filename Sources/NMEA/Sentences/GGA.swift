/// GGA: time, position, fix quality, satellites used, HDOP, altitude and geoid separation.
public struct GGA: Hashable, Sendable {
  public var talker: NMEATalker
  public var time: NMEATimeOfDay?
  public var latitude: Double?
  public var longitude: Double?
  /// 0 invalid, 1 GPS, 2 DGPS, 3 PPS, 4 RTK fixed, 5 RTK float, 6 estimated, 7 manual, 8 simulated.
  public var quality: Int?
  public var satellitesUsed: Int?
  public var hdop: Double?
  /// Altitude above mean sea level, metres.
  public var altitudeMSL: Double?
  /// Height of the geoid above the WGS 84 ellipsoid, metres.
  public var geoidSeparation: Double?
  /// Age of the differential correction, seconds.
  public var dgpsAge: Double?
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
