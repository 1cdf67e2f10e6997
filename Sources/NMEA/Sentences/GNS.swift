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

  /// Whether any constellation has a fix and a position is present.
  public var hasFix: Bool {
    latitude != nil && longitude != nil && modeIndicators.contains { $0 != "N" && $0 != "V" }
  }

  init(talker: NMEATalker, _ f: inout FieldReader) {
    self.talker = talker
    time = f.next().timeOfDay
    (latitude, longitude) = f.readPosition()
    modeIndicators = f.next().string
    satellitesUsed = f.next().int
    hdop = f.next().double
    altitudeMSL = f.next().double
    geoidSeparation = f.next().double
    dgpsAge = f.next().double
    dgpsStation = f.next().int
  }
}
