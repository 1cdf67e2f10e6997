/// GNS: multi-constellation fix data — time, position, per-system mode, satellites, altitude.
public struct GNS: Hashable, Sendable {
  public var talker: NMEATalker
  public var time: NMEATimeOfDay?
  public var latitude: Double?
  public var longitude: Double?
  /// One mode letter per constellation (GPS, GLONASS, Galileo, BeiDou, …): `N` no fix, `A`, `D`, `R`, `F`, `E`…
  public var modeIndicators: String
  public var satellitesUsed: Int?
  public var hdop: Double?
  public var altitudeMSL: Double?
  public var geoidSeparation: Double?
  public var dgpsAge: Double?
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
