/// The sentences that carry a fix with altitude: GGA and GNS.
protocol AltitudeFixSentence {
  /// Its kind's tag for gpsd's cycle detector (`NMEASentenceKind.cycleTag`).
  var cycleTag: GPSDCycleDetector.Tag { get }
  var time: NMEATimeOfDay? { get }
  /// Whether the epoch takes its position, satellites used and HDOP.
  var takesPosition: Bool { get }
  /// Whether gpsd's decoder sets a position or a mode (`LATLON_SET`, `MODE_SET`).
  var setsFix: Bool { get }
  var latitude: Double? { get }
  var longitude: Double? { get }
  var satellitesUsed: Int? { get }
  var hdop: Double? { get }
}

extension GGA: AltitudeFixSentence {
  var cycleTag: GPSDCycleDetector.Tag { NMEASentenceKind.gga.cycleTag }
  var takesPosition: Bool { hasFix }
  var setsFix: Bool { true }
}

extension GNS: AltitudeFixSentence {
  var cycleTag: GPSDCycleDetector.Tag { NMEASentenceKind.gns.cycleTag }
  var takesPosition: Bool { gpsdTakesPosition }
  /// Mode 1 without a mode letter or with N; nothing but the time when unsafe or not valid.
  var setsFix: Bool {
    guard let first = modeIndicators.utf8.first, first != UInt8(ascii: "N") else { return true }
    return !gpsdIgnoresFix
  }
}
