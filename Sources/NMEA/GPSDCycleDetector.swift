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
    /// A sentence gpsd does not decode (unknown, known without a decoder, or shorter than its
    /// decoder takes): gpsd's tag 0.
    case undecoded = 0
    /// A sentence gpsd decodes that carries no current time and does not continue a cycle.
    case other
    case gga, rmc, gll, gns, zda, gbs
    /// `$ACCURACY` (MediaTek), which continues a cycle like GLL.
    case accuracy
    /// SiRF's `$PSRFEPE`, which carries the current time.
    case sirfErrors
    /// SkyTraq's `$PSTI,030`, `032`, `033`, `035` and `036`: each carries the current time
    /// under a tag of its own, so any of them can end a cycle.
    case skytraq030, skytraq032, skytraq033, skytraq035, skytraq036
    /// Ashtech's `$PASHR,POS`, which carries the current time.
    case ashtechPosition

    var bit: UInt32 { 1 << UInt32(rawValue) }
    /// gpsd's `cycle_continue` flag.
    var continuesCycle: Bool { self == .gll || self == .accuracy }
  }

  /// The cycle-ending tags, as a bit set.
  private var enders: UInt32 = 0
  /// The tag of the last time-carrying sentence; `.undecoded` (gpsd's 0) before the first.
  private var lastTag = Tag.undecoded
  private var continues = false
  /// Whether gpsd trusts its cycle enders; while it does not, it reports after every sentence
  /// that gives a position or a mode.
  private var reliable = false
  private var lastTime: NMEATimeOfDay?

  /// This detector with the cycle enders it learned but no sentence before: for input that does
  /// not follow what it read, whose first time must not make the last sentence it saw an ender.
  var forgettingLastSentence: GPSDCycleDetector {
    var copy = self
    copy.lastTag = .undecoded
    copy.lastTime = nil
    copy.continues = false
    return copy
  }

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

  /// How gpsd tags a sentence this decoder does not interpret, from its address (`GPHDG`,
  /// `PGRME`), its first field (`$PSTI,030`, `$PERC,GPppr`) and its number of fields as gpsd
  /// counts them (the commas, and one more after a checksum): `.other` for the sentences gpsd
  /// decodes, a tag of its own for those that carry the current time, `.undecoded` for those
  /// it does not decode or finds too short.
  static func tag(address: UnsafeRawBufferPointer, hasTalker: Bool, subtype: Field, fieldCount: Int) -> Tag {
    if hasTalker && address.count == 5 {
      let type = UInt32(address[2]) << 16 | UInt32(address[3]) << 8 | UInt32(address[4])
      if type == typeCode("GBS") { return fieldCount >= 7 ? .gbs : .undecoded }
      guard let least = decodedTypes[type] else { return .undecoded }
      return fieldCount >= least ? .other : .undecoded
    }
    if address.elementsEqual("PSTI".utf8) {
      // gpsd's table: 030, 032, 033, 035 and 036 have decoders (000, 001, 005 and others do not).
      let code = subtype.count == 3 ? subtype.int : nil
      let (tag, least): (Tag, Int)
      switch code {
      case 30: (tag, least) = (.skytraq030, 16)
      case 32: (tag, least) = (.skytraq032, 16)
      case 33: (tag, least) = (.skytraq033, 27)
      case 35: (tag, least) = (.skytraq035, 8)
      case 36: (tag, least) = (.skytraq036, 2)
      default: return .undecoded
      }
      return fieldCount >= least ? tag : .undecoded
    }
    if address.elementsEqual("PERC".utf8) {
      // Ericsson's: each subtype its own decoder (the fields they need: see gpsd's table).
      for (name, least) in ericssonSubtypes where subtype.equals(name) { return fieldCount >= least ? .other : .undecoded }
      return .undecoded
    }
    if address.elementsEqual("ACCURACY".utf8) { return .accuracy }
    if address.elementsEqual("PSRFEPE".utf8) { return fieldCount >= 7 ? .sirfErrors : .undecoded }
    if address.elementsEqual("PASHR".utf8) {
      guard fieldCount >= 3 else { return .undecoded }
      return subtype.equals("POS") ? .ashtechPosition : .other
    }
    for (name, least) in decodedProprietary where address.elementsEqual(name.utf8) {
      return fieldCount >= least ? .other : .undecoded
    }
    return .undecoded
  }

  /// Three-letter types gpsd decodes besides the ones this decoder interprets (`NMEASentenceKind`, with a talker),
  /// and the fields each needs (gpsd 3.27's `nmea_phrase` table).
  private static let decodedTypes: [UInt32: Int] = [
    typeCode("BWC"): 12, typeCode("DBT"): 7, typeCode("DPT"): 4, typeCode("DTM"): 2, typeCode("GRS"): 4, typeCode("HDG"): 0,
    typeCode("HDM"): 3, typeCode("HDT"): 1, typeCode("MTW"): 3, typeCode("MWD"): 0, typeCode("MWV"): 0, typeCode("ROT"): 3,
    typeCode("THS"): 0, typeCode("TXT"): 5, typeCode("XDR"): 5,
  ]

  /// Ericsson's `$PERC` subtypes gpsd decodes, and the fields each needs.
  private static let ericssonSubtypes: [(StaticString, Int)] = [
    ("FWsts", 6), ("GPavp", 6), ("GPctr", 6), ("GPdbg", 19), ("GPppf", 5), ("GPppr", 6), ("GPreh", 2), ("GPsts", 4),
    ("GPver", 4),
  ]

  /// Proprietary sentences gpsd decodes (whole address), and the fields each needs.
  private static let decodedProprietary = [
    ("PGLOR", 2), ("PGRME", 7), ("PGRMF", 15), ("PGRMM", 2), ("PGRMT", 10), ("PGRMV", 4), ("PGRMZ", 4), ("GYOACC", 14),
    ("INFO", 14), ("PAIR001", 3), ("PAIR010", 5), ("PDTINFO", 6), ("PGPSP", 18), ("PMGNST", 8), ("PMTK001", 3),
    ("PMTK424", 3), ("PMTK705", 4), ("PQTMCFGEINSMSGERROR", 1), ("PQTMCFGEINSMSGOK", 1), ("PQTMCFGORIENTATIONERROR", 1),
    ("PQTMCFGORIENTATIONOK", 1), ("PQTMCFGWHEELTICKERROR", 1), ("PQTMCFGWHEELTICKOK", 1), ("PQTMGPS", 14),
    ("PQTMIMU", 10), ("PQTMINS", 11), ("PQTMQMPTERROR", 1), ("PQTMVER", 4), ("PQVERNO", 5), ("PSTMCPU", 4),
    ("PSTMANTENNASTATUS", 4), ("PSTMVER", 1), ("PTNLRBA", 2), ("PTNLRNM", 1), ("PTNLRTP", 3), ("PTNLRXO", 2),
    ("PTNTA", 8), ("PTNTHTM", 9), ("SNRSTAT", 5),
  ]
}
