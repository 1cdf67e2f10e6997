/// VTG: track made good and speed over ground.
public struct VTG: Hashable, Sendable {
  /// The talker that sent the sentence (`GP`, `GN`, …).
  public var talker: NMEATalker
  /// Degrees true.
  public var trackTrue: Double?
  /// Degrees magnetic.
  public var trackMagnetic: Double?
  /// Speed over ground, knots.
  public var speedKnots: Double?
  /// Speed over ground, km/h.
  public var speedKmh: Double?
  /// NMEA 2.3 mode indicator (`A`, `D`, `E`, `N`, …); nil when absent, as in NMEA 1.x sentences.
  public var modeIndicator: NMEAFlag?
  /// Whether the sentence has the NMEA 2.x layout with unit letters (gpsd reads only that one).
  var hasUnitLetters = false

  /// Speed in metres per second, from knots when present, else from km/h.
  public var speedMetersPerSecond: Double? {
    if let k = speedKnots { return k * knotsToMetersPerSecond }
    return speedKmh.map { $0 / 3.6 }
  }

  init(talker: NMEATalker, _ f: inout FieldReader) {
    self.talker = talker
    let first = f.next()
    let second = f.next()
    if second.character == 0x54 || (second.isEmpty && !f.isAtEnd) {
      // NMEA 2.x layout: value, unit letter pairs.
      hasUnitLetters = true
      trackTrue = first.double
      trackMagnetic = f.nextDouble()
      f.skip(1)
      speedKnots = f.nextDouble()
      f.skip(1)
      speedKmh = f.nextDouble()
      f.skip(1)
      modeIndicator = f.next().character.map(NMEAFlag.init(ascii:))
    } else {
      // NMEA 1.x layout without unit letters.
      trackTrue = first.double
      trackMagnetic = second.double
      speedKnots = f.nextDouble()
      speedKmh = f.nextDouble()
    }
  }
}

/// Knots to metres per second, the factor gpsd uses.
public let knotsToMetersPerSecond = 1852.0 / 3600.0
