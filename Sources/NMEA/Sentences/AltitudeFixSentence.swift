/// The sentences that carry a fix with altitude: GGA and GNS.
protocol AltitudeFixSentence {
  var kind: GPSDCycleDetector.Tag { get }
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
  var kind: GPSDCycleDetector.Tag { .gga }
  var takesPosition: Bool { hasFix }
  var setsFix: Bool { true }
}

extension GNS: AltitudeFixSentence {
  var kind: GPSDCycleDetector.Tag { .gns }
  var takesPosition: Bool { gpsdTakesPosition }
  /// Mode 1 without a mode letter or with N; nothing but the time when unsafe or not valid.
  var setsFix: Bool {
    guard let first = modeIndicators.utf8.first, first != UInt8(ascii: "N") else { return true }
    return !gpsdIgnoresFix
  }
}
