/// gpsd's end-of-cycle detector: after which sentences gpsd reports a fix.
///
/// gpsd does not know where a receiver's reporting cycle ends, so it learns it.
/// Sentences that carry the current time ("latch" it) drive the learning: when the
/// time of day changes, the type of the previous time-carrying sentence is taken as
/// a cycle ender, and from then on gpsd reports when a sentence of a cycle-ending
/// type arrives. Until it knows one, it reports after every sentence that gives a position or
/// a mode.
///
/// The details follow gpsd 3.27's `nmea_parse`, as far as they decide reports:
/// - time-carrying sentences: GGA, GLL and GNS with a time, RMC with status A or D
///   and a date, ZDA with a valid date, GBS; GST does not count (its time refers to
///   an earlier fix);
/// - GLL "continues the cycle": no cycle ender is learned at a sentence that
///   follows a GLL, and an untimed sentence that gpsd does not decode moves the
///   ender from the last time-carrying sentence to itself (it reports then);
/// - a GGA with quality 0 and no time, or an invalid RMC without time or date,
///   forces a report and makes gpsd learn again;
/// - an untimed sentence with new data (a GSA, the last GSV of a group, a valid VTG, a
///   heading, a depth) right after a cycle ender is reported as well.
struct GPSDCycleDetector: Sendable {
  /// A sentence as gpsd's table of sentences sees it.
  enum Tag: UInt8, Sendable {
    /// A sentence gpsd does not decode (unknown, or known without a decoder): gpsd's tag 0.
    case undecoded = 0
    /// A sentence gpsd decodes that carries no current time and does not continue a cycle.
    case other
    case gga, rmc, gll, gns, zda, gbs
    /// `$ACCURACY` (MediaTek), which continues a cycle like GLL.
    case accuracy
    /// SiRF's `$PSRFEPE`, which carries the current time.
    case sirfErrors

    var bit: UInt16 { 1 << UInt16(rawValue) }
    /// gpsd's `cycle_continue` flag.
    var continuesCycle: Bool { self == .gll || self == .accuracy }
  }

  /// The cycle-ending tags, as a bit set.
  private var enders: UInt16 = 0
  /// The tag of the last time-carrying sentence; `.undecoded` (gpsd's 0) before the first.
  private var lastTag = Tag.undecoded
  private var continues = false
  /// Whether gpsd trusts its cycle enders; while it does not, it reports after every sentence
  /// that gives a position or a mode.
  private var reliable = false
  private var lastTime: NMEATimeOfDay?

  /// Feeds one sentence; returns whether gpsd reports after it.
  /// - Parameters:
  ///   - latchedTime: the time of day, when the sentence carries the current time (see above).
  ///   - forcesReport: a no-fix sentence without a time, which gpsd reports at once.
  ///   - newData: whether the sentence gave gpsd anything besides "online" (its decoder's mask);
  ///     an untimed sentence with new data right after a cycle ender is reported.
  ///   - partial: a GSV that more parts of its group follow (gpsd's `gsx_more`), which neither
  ///     reports nor ends a cycle.
  ///   - setsFix: whether the sentence gives a position or a mode (gpsd's `LATLON_SET` or
  ///     `MODE_SET`): until gpsd knows a cycle ender, it reports after those.
  mutating func observe(
    _ tag: Tag, latchedTime: NMEATimeOfDay?, forcesReport: Bool = false, newData: Bool = false, partial: Bool = false,
    setsFix: Bool = true
  ) -> Bool {
    if tag != .undecoded { continues = tag.continuesCycle }
    var reports = false
    if forcesReport {
      reliable = false
      reports = true
    }
    if partial {
      // More of the group to come: not a cycle boundary.
    } else if let time = latchedTime {
      if let last = lastTime, abs(time.nanosecondsSinceMidnight - last.nanosecondsSinceMidnight) > 10_000_000 {
        // The time changed: the previous time-carrying sentence ended a cycle.
        if lastTag != .undecoded, enders & lastTag.bit == 0, !continues {
          enders |= lastTag.bit
          reliable = true
        }
      }
      lastTime = time
    } else {
      // New data just after the cycle ender is reported too.
      if newData && enders & lastTag.bit != 0 { reports = true }
      guard continues else { return reports || (!reliable && setsFix) }
      // An untimed sentence extends the cycle: it becomes the ender instead.
      enders &= ~lastTag.bit
      enders |= tag.bit
      reliable = true
    }
    if !partial && (latchedTime != nil || continues) && enders & tag.bit != 0 { reports = true }
    if latchedTime != nil { lastTag = tag }
    return reports || (!reliable && setsFix)
  }

  /// How gpsd tags a sentence this decoder does not interpret, from its address
  /// (`GPHDG`, `PGRME`): `.other` for the types gpsd decodes, `.gbs` for GBS, else `.undecoded`.
  static func tag(address: UnsafeRawBufferPointer, hasTalker: Bool) -> Tag {
    if hasTalker && address.count == 5 {
      switch (address[2], address[3], address[4]) {
      case (0x47, 0x42, 0x53): return .gbs  // GBS
      default:
        let type = UInt32(address[2]) << 16 | UInt32(address[3]) << 8 | UInt32(address[4])
        return decodedTypes.contains(type) ? .other : .undecoded
      }
    }
    if address.elementsEqual("ACCURACY".utf8) { return .accuracy }
    if address.elementsEqual("PSRFEPE".utf8) { return .sirfErrors }
    for name in decodedProprietary where address.elementsEqual(name.utf8) { return .other }
    return .undecoded
  }

  /// Three-letter types gpsd decodes besides the ones this decoder interprets.
  private static let decodedTypes: Set<UInt32> = Set(
    ["BWC", "DBT", "DTM", "HDG", "HDT", "MWD", "MWV", "STI", "THS", "TXT"].map { name in
      name.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    })

  /// Proprietary sentences gpsd decodes (whole address).
  private static let decodedProprietary = [
    "PGLOR", "PGRME", "PGRMF", "PGRMM", "PGRMZ", "PASHR", "PMGNST", "PMTK", "PMTK001", "PMTK424", "PMTK705",
    "PSRFEPE", "PSTI", "PTNTA", "PTNTHTM", "PTNLRBA", "PTNLRTP", "PTNLRXO",
  ]
}
