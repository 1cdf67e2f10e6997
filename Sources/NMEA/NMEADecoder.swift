/// Counts of what a decoder saw, for the one-line summary on stderr.
public struct NMEADecoderStatistics: Hashable, Sendable {
  /// Non-empty lines read: sentences, comments and junk lines.
  public var lines = 0
  /// Sentences decoded into a typed value.
  public var accepted = 0
  /// Lines not decoded, by reason.
  public var checksum = 0
  public var framing = 0
  /// Well-formed sentences of a type the decoder does not interpret (including proprietary ones).
  public var unknown = 0
  /// Epochs reported, and those of them with a 2D or 3D fix.
  public var epochs = 0
  public var fixes = 0
  /// Epochs not reported because no cycle-ending sentence arrived in them (gpsd reporting only).
  public var unreported = 0

  public init() {}

  /// Lines not decoded.
  public var rejected: Int { checksum + framing + unknown }

  /// Adds what a decoder counted between two of its snapshots, `start` and `end`.
  package mutating func add(from start: Self, to end: Self) {
    lines += end.lines - start.lines
    accepted += end.accepted - start.accepted
    checksum += end.checksum - start.checksum
    framing += end.framing - start.framing
    unknown += end.unknown - start.unknown
    epochs += end.epochs - start.epochs
    fixes += end.fixes - start.fixes
    unreported += end.unreported - start.unreported
  }

  mutating func count(_ rejection: NMEARejection) {
    switch rejection {
    case .checksum: checksum += 1
    case .framing: framing += 1
    case .unknown: unknown += 1
    }
  }

  /// `lines 10, accepted 7, rejected 3 (checksum 1, framing 1, unknown 1), epochs 2, fixes 2`,
  /// and `, unreported 1` when an epoch was not reported.
  public var summary: String {
    let counts =
      "lines \(lines), accepted \(accepted), rejected \(rejected) (checksum \(checksum), framing \(framing), unknown \(unknown)), epochs \(epochs), fixes \(fixes)"
    return unreported > 0 ? counts + ", unreported \(unreported)" : counts
  }
}

/// A streaming NMEA 0183 decoder: bytes in, one ``NMEAFix`` per epoch out.
///
/// It chains ``NMEALineFramer``, ``NMEAMessage`` and ``NMEAEpochAssembler``
/// and reads `# Date: yyyy-mm-dd` header comments. Nothing in the input makes
/// it fail: bad lines are counted in ``statistics`` and skipped. Memory is
/// constant whatever the input size. Feed chunks of any size, then call
/// ``finish(_:)`` once at the end of the input.
///
/// ```swift
/// var decoder = NMEADecoder()
/// try decoder.decode(chunk) { fix in print(fix) }
/// try decoder.finish { fix in print(fix) }
/// print(decoder.statistics.summary)
/// ```
public struct NMEADecoder: Sendable {
  public private(set) var statistics = NMEADecoderStatistics()
  private var framer: NMEALineFramer
  private var assembler: NMEAEpochAssembler

  /// Creates a decoder.
  /// - Parameters:
  ///   - options: reporting and date resolution, see ``NMEAEpochAssembler/Options``.
  ///   - maximumLineLength: the framer's limit, see ``NMEALineFramer/maximumLength``.
  public init(options: NMEAEpochAssembler.Options = .init(), maximumLineLength: Int = 200) {
    framer = NMEALineFramer(maximumLength: maximumLineLength)
    assembler = NMEAEpochAssembler(options: options)
  }

  /// The `# Date:` header seen so far, if any.
  public var headerDate: NMEADate? { assembler.headerDate }

  /// What the decoder has counted so far: ``statistics``, with the epochs left unreported up
  /// to now (``statistics`` has those once ``finish(_:)`` has run).
  package var counts: NMEADecoderStatistics {
    var counts = statistics
    counts.unreported = assembler.unreportedEpochs
    return counts
  }

  /// Whether this decoder decodes any input exactly as `other` would: the same state but for
  /// what the two have counted (and what neither reads again). Decoding can then go on from either. It can answer "no" for
  /// states that would in fact decode alike (see `sameContents`), never "yes" for states that
  /// would not.
  package func decodesLike(_ other: NMEADecoder) -> Bool {
    let (a, b) = (comparable, other.comparable)
    return Self.sameBits(a, b) || sameContents(a, b)
  }

  /// Whether the quick comparison of ``decodesLike(_:)`` says "the same" (for tests).
  func hasSameBits(as other: NMEADecoder) -> Bool { Self.sameBits(comparable, other.comparable) }

  /// Where this decoder's state first differs from `other`'s, counts aside (a path of members,
  /// `assembler.model.sky.used`); nil when ``decodesLike(_:)``.
  package func stateDifference(from other: NMEADecoder) -> String? {
    let (a, b) = (comparable, other.comparable)
    return Self.sameBits(a, b) ? nil : contentsDifference(a, b)
  }

  /// Whether two states (counts cleared) are the same by their stored bytes (`sameInlineBytes`,
  /// padding left out), once their arrays (the framer's partial line, the sky's satellites and
  /// used PRNs) are found to hold the same elements and set aside: the bytes left are numbers,
  /// and references to the same empty array. A quick "yes" before the walk through `Mirror`
  /// (tens of microseconds for each type it reflects, looking up each member's type by its
  /// mangled name), which is then needed only for a "no" and to say where. (Equal references
  /// would not do for a class instance, whose contents can change behind both: the state holds
  /// none, which `SameContentsTests` checks.)
  private static func sameBits(_ a: NMEADecoder, _ b: NMEADecoder) -> Bool {
    var (x, y) = (a, b)
    guard x.framer.setAsideBuffer(ifSameAs: &y.framer), x.assembler.setAsideArrays(ifSameAs: &y.assembler) else {
      return false
    }
    return sameInlineBytes(x, y)
  }

  /// This decoder's state as far as it decides what the decoder does next: without what it
  /// counted, or what it has handed out.
  private var comparable: NMEADecoder {
    var copy = self
    copy.statistics = NMEADecoderStatistics()
    copy.framer = framer.comparable
    copy.assembler = assembler.comparable
    return copy
  }

  /// This decoder for input that does not follow what it read (a later part of the same log):
  /// what it learned about the log kept (dates, the `# Date:` header, the reporting cycle gpsd
  /// learned, the members gpsd carries from fix to fix), the line, epoch and cycle in progress
  /// dropped, so that the gap itself teaches it nothing.
  package var afterAGap: NMEADecoder {
    var copy = self
    copy.framer = framer.atLineStart
    copy.assembler = assembler.afterAGap
    return copy
  }

  /// Decodes a chunk; `onFix` receives every epoch completed within it (fix or no fix, see ``NMEAFix/mode``).
  public mutating func decode(_ bytes: UnsafeRawBufferPointer, _ onFix: (NMEAFix) throws -> Void) rethrows {
    // The framer is moved out while it calls back into `handle`, which mutates the rest of self.
    var framer = self.framer
    defer {
      statistics.lines = framer.lineCount
      self.framer = framer
    }
    try framer.append(bytes) { frame in try handle(frame, onFix) }
  }

  /// Decodes a chunk given as any contiguous byte collection.
  public mutating func decode(_ bytes: [UInt8], _ onFix: (NMEAFix) throws -> Void) rethrows {
    try bytes.withUnsafeBytes { try decode($0, onFix) }
  }

  /// Ends the input: completes a last line without a line ending and the last epoch.
  public mutating func finish(_ onFix: (NMEAFix) throws -> Void) rethrows {
    var framer = self.framer
    defer {
      statistics.lines = framer.lineCount
      self.framer = framer
    }
    try framer.finish { frame in try handle(frame, onFix) }
    if let fix = assembler.finish() { try emit(fix, onFix) }
    statistics.unreported = assembler.unreportedEpochs
  }

  /// Decodes one frame from a framer the caller runs itself (for example to keep
  /// each epoch's raw sentences). `onFix` receives the epoch this frame completed,
  /// if any: the frame itself then belongs to the next epoch.
  ///
  /// Use either this and ``finishEpochs(lineCount:_:)`` or the chunk API, not both.
  public mutating func decode(frame: NMEALineFramer.Frame, _ onFix: (NMEAFix) throws -> Void) rethrows {
    try handle(frame, onFix)
  }

  /// Ends frame-by-frame input: completes the last epoch and records the caller's framer's line count.
  public mutating func finishEpochs(lineCount: Int, _ onFix: (NMEAFix) throws -> Void) rethrows {
    statistics.lines = lineCount
    if let fix = assembler.finish() { try emit(fix, onFix) }
    statistics.unreported = assembler.unreportedEpochs
  }

  private mutating func handle(_ frame: NMEALineFramer.Frame, _ onFix: (NMEAFix) throws -> Void) rethrows {
    switch frame {
    case .sentence(let line):
      let frame: SentenceFrame
      do {
        frame = try SentenceFrame(line)
      } catch {
        statistics.count(error.reason)
        return
      }
      guard let talker = frame.talker else {
        statistics.unknown += 1
        try observeOther(frame, onFix)
        return
      }
      // Typed dispatch straight into the assembler: no enum boxing.
      var f = frame.fields
      let completed: Bool
      switch frame.typeCode {
      case typeCode("GGA"): completed = assembler.add(GGA(talker: talker, &f))
      case typeCode("RMC"): completed = assembler.add(RMC(talker: talker, &f))
      case typeCode("GSA"): completed = assembler.add(GSA(talker: talker, &f))
      // GSV straight from its fields into gpsd's sky: no `GSV` built (and copied) on the way.
      case typeCode("GSV"): completed = assembler.addGSV(talker: talker, &f)
      case typeCode("VTG"): completed = assembler.add(VTG(talker: talker, &f))
      case typeCode("GLL"): completed = assembler.add(GLL(talker: talker, &f))
      case typeCode("GNS"): completed = assembler.add(GNS(talker: talker, &f))
      case typeCode("ZDA"): completed = assembler.add(ZDA(talker: talker, &f))
      case typeCode("GST"): completed = assembler.add(GST(talker: talker, &f))
      default:
        statistics.unknown += 1
        try observeOther(frame, onFix)
        return
      }
      statistics.accepted += 1
      if completed { try emit(assembler.completed, onFix) }
    case .comment(let text):
      if let date = NMEADecoder.headerDate(text) { assembler.setHeaderDate(date) }
    case .rejected(let error):
      statistics.count(error.reason)
    }
  }

  /// A sentence the decoder does not interpret still counts for gpsd's reporting cycle
  /// (`!` sentences, AIS, do not: gpsd parses them elsewhere), and those gpsd's NMEA driver
  /// (3.27.6) reads into its fix give it what they give gpsd's.
  private mutating func observeOther(_ frame: SentenceFrame, _ onFix: (NMEAFix) throws -> Void) rethrows {
    guard assembler.options.reporting == .gpsd, frame.line[0] == 0x24 else { return }
    let address = UnsafeRawBufferPointer(rebasing: frame.line[1..<frame.addressEnd])
    var f = frame.fields
    var peek = f
    var tag = GPSDCycleDetector.tag(
      address: address, hasTalker: frame.talker != nil, subtype: peek.next(), fieldCount: frame.gpsdFieldCount)
    var sentence = OtherSentence()
    let type = frame.talker != nil ? frame.typeCode : 0
    switch tag {
    case .undecoded: break
    case .gbs:
      sentence.time = f.next().timeOfDay
      // An empty error is NaN to gpsd (`safe_atof`), which its merge leaves out.
      let latitude = f.next().gpsdDouble, longitude = f.next().gpsdDouble, altitude = f.next().gpsdDouble
      sentence.data = .faultDetection(
        time: sentence.time, latitudeError: latitude, longitudeError: longitude, altitudeError: altitude)
    case .sirfErrors:
      let timeField = f.next()
      sentence.time = timeField.isEmpty ? nil : timeField.timeOfDay
      sentence.newData = true
      if f.next().character == 0x41 {
        func value(_ field: Field) -> Double? { field.isEmpty ? nil : (field.double ?? 0) }
        let hdop = value(f.next()), eph = value(f.next()), epv = value(f.next())
        let eps = value(f.next()), epd = value(f.next())
        sentence.data = .sirfErrors(hdop: hdop, eph: eph, epv: epv, eps: eps, epd: epd)
      }
    case .skytraq030, .skytraq032, .skytraq033, .skytraq035, .skytraq036:
      sentence = Self.skytraq(tag, &f)
    case .ashtechPosition:
      sentence = Self.ashtechPosition(&f)
    default:
      if address.elementsEqual("PERC".utf8) {
        (tag, sentence) = Self.ericsson(&f)
      } else if address.elementsEqual("PGRME".utf8) {
        let horizontal = f.next(), horizontalUnit = f.next().character
        let vertical = f.next(), verticalUnit = f.next().character
        let spherical = f.next(), sphericalUnit = f.next().character
        sentence.newData = !horizontal.isEmpty
        if horizontalUnit == 0x4D && verticalUnit == 0x4D && sphericalUnit == 0x4D {
          sentence.data = .garminErrors(
            horizontal: horizontal.gpsdDouble, vertical: vertical.gpsdDouble, spherical: spherical.gpsdDouble)
        }
      } else if address.elementsEqual("PGRMV".utf8) {
        // gpsd takes the velocity (east, north, up, m/s) only with all three fields.
        let east = f.next(), north = f.next(), up = f.next()
        if !east.isEmpty && !north.isEmpty && !up.isEmpty {
          sentence.data = .velocity(north: north.double ?? 0, east: east.double ?? 0, down: -(up.double ?? 0))
          sentence.newData = true
        }
      } else if type == typeCode("HDG") {
        sentence.data = Self.heading(&f)
        if case .heading = sentence.data { sentence.newData = true }
      } else if address.elementsEqual("PGRMZ".utf8) {
        let feet = f.next()
        let unit = f.next().character
        let mode = f.next().character.map { Int($0) - 0x30 }
        let altitude = unit == 0x66 && !feet.isEmpty ? (feet.int ?? 0) : nil
        sentence.data = .garminAltitude(feet: altitude, mode: mode)
        sentence.newData = altitude != nil || (1...3).contains(mode ?? 0)
      } else if address.elementsEqual("PGRMF".utf8) {
        sentence = Self.garminFix(&f)
      } else if address.elementsEqual("PGPSP".utf8) {
        sentence = Self.gpsp(&f)
      } else if address.elementsEqual("PMGNST".utf8) {
        // Magellan's status as gpsd reads it: the mode from field 3 when field 4 starts with T
        // (one field off the sentence's layout, so a real one gives mode 1), else no fix.
        _ = f.next()
        _ = f.next()
        let mode = f.next().int ?? 0, flag = f.next().character
        var new = GPSDFixModel.NewData()
        new.mode = flag == UInt8(ascii: "T") && (mode == 2 || mode == 3) ? mode : 1
        sentence.data = .fix(new)
        sentence.newData = true
      } else if address.elementsEqual("PTNLRNM".utf8) {
        // Trimble's navigation mode as a status: autonomous, differential, dead reckoning.
        switch f.next().character {
        case UInt8(ascii: "A"): sentence.data = .status(1)
        case UInt8(ascii: "D"): sentence.data = .status(2)
        case UInt8(ascii: "E"): sentence.data = .status(5)
        default: break
        }
        if case .status = sentence.data { sentence.newData = true }
      } else if type == typeCode("BWC") {
        // A waypoint's bearing and distance, with the time of day gpsd takes (once it knows a year).
        let timeField = f.next()
        sentence.newData = !timeField.isEmpty
        if let time = timeField.timeOfDay { sentence.stamp = .at(time) }
      } else if type == typeCode("ROT") {
        let rate = f.next(), valid = f.next().character
        sentence.newData = !rate.isEmpty && valid == UInt8(ascii: "A")
      } else if address.elementsEqual("GYOACC".utf8) {
        sentence.newData = true  // inertial data (gpsd's ATTITUDE_SET)
      } else if Self.typesWithData.contains(type) {
        sentence.newData = !f.next().isEmpty  // depth, wind, attitude: data when the first field has some
      }
    }
    if assembler.observeOther(tag, sentence) { try emit(assembler.completed, onFix) }
  }

  /// SkyTraq's `$PSTI` sentences gpsd decodes: 030 is a whole fix (position, MSL altitude, the
  /// velocity east, north and up, a status), 032, 033, 035 and 036 (RTK baselines, attitude)
  /// give it only their time. Each carries the current time with its date when it has both.
  private static func skytraq(_ tag: GPSDCycleDetector.Tag, _ f: inout FieldReader) -> OtherSentence {
    var sentence = OtherSentence()
    _ = f.next()  // 030, 032, …
    // The time and date when both are there and good, as gpsd merges them.
    func timeAndDate(_ time: Field, _ date: Field) {
      guard !time.isEmpty, !date.isEmpty, let t = time.timeOfDay, let d = date.ddmmyy else { return }
      sentence.time = t
      sentence.date = d
    }
    switch tag {
    case .skytraq030:
      let timeField = f.next(), status = f.next().character
      let position = f.readCoordinates()
      let altitude = f.next(), east = f.next().gpsdDouble, north = f.next().gpsdDouble, up = f.next().gpsdDouble
      let dateField = f.next(), mode = f.next().character
      var new = GPSDFixModel.NewData()
      if status == UInt8(ascii: "V") || mode == UInt8(ascii: "N") {
        // Not valid: no fix, and nothing else.
        new.mode = 1
        new.status = 0
      } else if status == UInt8(ascii: "A") {
        timeAndDate(timeField, dateField)
        new.status = GPSDFixModel.status(modeIndicator: mode)
        if let position {
          new.position = position
          new.mode = 2
          if !altitude.isEmpty {
            new.altitudeMSL = altitude.gpsdDouble
            new.mode = 3
          }
        }
        new.velocity = (north, east, -up)
      } else {
        break
      }
      sentence.data = .fix(new)
      sentence.newData = true
    case .skytraq032:
      let timeField = f.next(), dateField = f.next()
      if f.next().character == UInt8(ascii: "A") { timeAndDate(timeField, dateField) }
    case .skytraq033:
      let timeField = f.next(), dateField = f.next()
      let version = f.next().character, receiver = f.next().character
      if version == UInt8(ascii: "2"), receiver == UInt8(ascii: "B") || receiver == UInt8(ascii: "R") {
        timeAndDate(timeField, dateField)
      }
    default:
      let timeField = f.next(), dateField = f.next()
      timeAndDate(timeField, dateField)
    }
    if sentence.time != nil { sentence.newData = true }
    return sentence
  }

  /// Ashtech's `$PASHR,POS`: a 3D fix (mode 3, its status from the fix type) with the time,
  /// position, height above the ellipsoid, track, speed (km/h), climb and four DOPs; an empty
  /// fix type is no fix.
  private static func ashtechPosition(_ f: inout FieldReader) -> OtherSentence {
    var sentence = OtherSentence()
    sentence.newData = true
    _ = f.next()  // POS
    let fixType = f.next()
    var new = GPSDFixModel.NewData()
    guard !fixType.isEmpty else {
      new.mode = 1
      new.status = 0
      sentence.data = .fix(new)
      return sentence
    }
    new.mode = 3
    new.status = (fixType.int ?? 0) >= 1 ? 2 : 1
    _ = f.next()  // satellites used
    sentence.time = f.next().timeOfDay
    new.position = f.readCoordinates()
    let height = f.next()
    if new.position != nil && !height.isEmpty { new.altitudeHAE = height.gpsdDouble }
    _ = f.next()  // reserved
    new.track = f.next().gpsdDouble
    new.speed = f.next().gpsdDouble / 3.6
    new.climb = f.next().gpsdDouble
    let dops = GPSDFixModel.GivenDOPs(
      position: f.next().gpsdDOP, horizontal: f.next().gpsdDOP, vertical: f.next().gpsdDOP, time: f.next().gpsdDOP)
    sentence.data = .fix(new, dops: dops)
    return sentence
  }

  /// Garmin's `$PGRMF`: the fix with its time (gpsd stamps it with its last time when the GPS
  /// week and time of week are there with leap seconds, else with the sentence's UTC time and
  /// date), and with an `A` in field 10 the position, mode, speed (km/h), track, PDOP and TDOP.
  private static func garminFix(_ f: inout FieldReader) -> OtherSentence {
    var sentence = OtherSentence()
    sentence.newData = true
    let week = f.next(), timeOfWeek = f.next(), dateField = f.next(), timeField = f.next(), leap = f.next()
    let digit = { (field: Field) in field.character.map { $0 &- 0x30 < 10 } ?? false }
    if digit(week) && digit(timeOfWeek) && digit(leap) && (leap.int ?? 0) > 0 {
      sentence.stamp = .last
    } else if let time = timeField.timeOfDay, let date = dateField.ddmmyy {
      sentence.stamp = .at(time)
      sentence.date = date
    }
    let position = f.readCoordinates()
    guard f.next().character == UInt8(ascii: "A") else { return sentence }
    var new = GPSDFixModel.NewData()
    new.position = position
    new.mode =
      switch f.next().character {
      case UInt8(ascii: "0"): 1
      case UInt8(ascii: "1"): 2
      case UInt8(ascii: "2"): 3
      default: nil
      }
    new.speed = f.next().gpsdDouble / 3.6
    new.track = f.next().gpsdDouble
    sentence.data = .fix(new, dops: GPSDFixModel.GivenDOPs(position: f.next().gpsdDOP, time: f.next().gpsdDOP))
    return sentence
  }

  /// `$PGPSP` (GPS navigation data): the mode and status from its status word's second byte,
  /// with 2D or 3D the position in degrees, with 3D both altitudes, and gpsd's last time as the
  /// fix's time.
  private static func gpsp(_ f: inout FieldReader) -> OtherSentence {
    var sentence = OtherSentence()
    sentence.newData = true
    _ = f.next()  // time of week, ms
    _ = f.next()  // week
    let word = f.next().int ?? 0
    let latitude = f.next().gpsdDouble, longitude = f.next().gpsdDouble
    let altitudeHAE = f.next().gpsdDouble, altitudeMSL = f.next().gpsdDouble
    let (status, mode): (Int, Int) =
      switch (word >> 8) & 0xFF {
      case 0: (0, 1)
      case 1: (5, 3)
      case 2: (1, 2)
      case 3: (1, 3)
      case 4: (6, 3)
      case 5: (7, 3)
      case 8: (2, 3)
      case 9: (1, 3)
      case 10, 11: (4, 3)
      case 12: (3, 3)
      default: (0, 0)
      }
    var new = GPSDFixModel.NewData()
    (new.mode, new.status) = (mode, status)
    if mode >= 2 {
      // gpsd takes the degrees as they come; a position is only one that is a position.
      if abs(latitude) <= 90 && abs(longitude) <= 180 { new.position = (latitude, longitude) }
      sentence.stamp = .last
    }
    if mode == 3 { (new.altitudeHAE, new.altitudeMSL) = (altitudeHAE, altitudeMSL) }
    sentence.data = .fix(new)
    return sentence
  }

  /// Ericsson's timing receivers' `$PERC` sentences as gpsd (3.27.6) reads them: `GPsts` gives
  /// a status (7, time only, while surveying or holding a position; 1 while acquiring), `GPppr`
  /// stamps the fix with gpsd's last time, sets the satellites used and makes gpsd take the
  /// satellites in view (and DOPs from them), `GPppf` has oscillator data.
  private static func ericsson(_ f: inout FieldReader) -> (GPSDCycleDetector.Tag, OtherSentence) {
    var sentence = OtherSentence()
    let subtype = f.next()
    if subtype.equals("GPsts") {
      switch f.next().int ?? 0 {
      case 1, 2, 4: sentence.data = .status(7)
      case 0: sentence.data = .status(1)
      default: return (.other, sentence)
      }
      sentence.newData = true
    } else if subtype.equals("GPppr") {
      _ = f.next()  // time of week
      _ = f.next()  // week
      _ = f.next()  // cable delay
      sentence.data = .skyComplete(satellitesUsed: f.next().int ?? 0)
      sentence.stamp = .last
      sentence.newData = true
    } else if subtype.equals("GPppf") {
      sentence.newData = true
    } else if subtype.equals("GPavp") {
      guard let (latitude, longitude) = f.readCoordinates() else { return (.other, sentence) }
      sentence.data = .averagedPosition(latitude: latitude, longitude: longitude, altitudeHAE: f.next().gpsdDouble)
      sentence.newData = true
    }
    return (.other, sentence)
  }

  /// Types whose gpsd decoders report data of their own (depth, wind, attitude, a waypoint's time).
  private static let typesWithData: Set<UInt32> = [
    typeCode("DBT"), typeCode("DPT"), typeCode("MWV"), typeCode("MWD"), typeCode("XDR"), typeCode("HDT"),
    typeCode("HDM"),
  ]

  /// `$xxHDG,heading,deviation,E/W,variation,E/W` as gpsd reads it: the heading as the magnetic
  /// track (gpsd does not apply the deviation), the variation when both of its fields are there.
  private static func heading(_ f: inout FieldReader) -> GPSDFixModel.Other {
    let headingField = f.next()
    guard !headingField.isEmpty, let heading = headingField.double, (0...360).contains(heading) else { return .nothing }
    let deviation = f.next()
    if !deviation.isEmpty, !(0...360).contains(deviation.double ?? 0) { return .nothing }
    // gpsd reads the variation from the deviation's direction field and the next one.
    let variationField = f.next()
    let direction = f.next().character
    var variation: Double?
    if !variationField.isEmpty, let direction, let value = variationField.double {
      variation = direction == 0x45 ? value : direction == 0x57 ? -value : nil
    }
    return .heading(magnetic: heading, variation: variation)
  }

  private mutating func emit(_ fix: NMEAFix, _ onFix: (NMEAFix) throws -> Void) rethrows {
    statistics.unreported = assembler.unreportedEpochs
    statistics.epochs += 1
    if fix.mode >= .twoD { statistics.fixes += 1 }
    try onFix(fix)
  }

  /// Parses a `# Date: yyyy-mm-dd` comment as gpsd does: the year is required
  /// (1968–2200), a missing or out-of-range month or day becomes 1.
  static func headerDate(_ text: UnsafeRawBufferPointer) -> NMEADate? {
    let prefix = Array("# Date: ".utf8)
    guard text.count > prefix.count, text.starts(with: prefix) else { return nil }
    var numbers: [Int] = []
    var current: Int?
    for byte in text.dropFirst(prefix.count) {
      if byte >= 0x30 && byte <= 0x39 {
        current = (current ?? 0) * 10 + Int(byte - 0x30)
        if current! > 100_000 { return nil }
      } else {
        guard let value = current else { break }
        numbers.append(value)
        current = nil
        if byte != 0x2D || numbers.count == 3 { break }
      }
    }
    if let current, numbers.count < 3 { numbers.append(current) }
    guard let year = numbers.first, (1968...2200).contains(year) else { return nil }
    let month = numbers.count > 1 && (1...12).contains(numbers[1]) ? numbers[1] : 1
    let day = numbers.count > 2 ? numbers[2] : 1
    return NMEADate(year: year, month: month, day: day) ?? NMEADate(year: year, month: month, day: 1)
  }
}
