/// GSA: fix mode, satellites used in the solution and dilutions of precision.
public struct GSA: Hashable, Sendable {
  /// The talker that sent the sentence (`GP`, `GN`, …).
  public var talker: NMEATalker
  /// `M` manual or `A` automatic 2D/3D selection.
  public var selectionMode: NMEAFlag?
  /// 1 no fix, 2 2D, 3 3D.
  public var fixMode: Int?
  /// The IDs of the satellites used (up to 12, empty fields left out).
  public var satelliteIDs: [Int] {
    get { Array(ids) }
    set { ids = InlineList(newValue, filler: 0) }
  }
  /// ``satelliteIDs``, stored inline.
  var ids = InlineList<12, Int>(filler: 0)
  /// Position (3D) dilution of precision.
  public var pdop: Double?
  /// Horizontal dilution of precision.
  public var hdop: Double?
  /// Vertical dilution of precision.
  public var vdop: Double?
  /// NMEA 4.1 GNSS system ID (1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou, 5 QZSS, 6 NavIC).
  public var systemID: Int?
  /// How many satellite fields name a satellite (1–600), as gpsd counts satellites used.
  var usedCount = 0

  init(talker: NMEATalker, _ f: inout FieldReader) {
    self.talker = talker
    selectionMode = f.next().character.map(NMEAFlag.init(ascii:))
    fixMode = f.nextInt()
    for _ in 0..<12 {
      guard let id = f.nextInt() else { continue }
      ids.append(id)
      if id >= 1 && id <= 600 { usedCount += 1 }
    }
    pdop = f.nextDouble()
    hdop = f.nextDouble()
    vdop = f.nextDouble()
    systemID = f.nextInt()
  }
}
