/// Counts of what a decoder saw, for the one-line summary on stderr.
public struct NMEADecoderStatistics: Hashable, Sendable {
  /// Non-empty lines read: sentences, comments and junk lines.
  public var lines = 0
  /// Sentences decoded into a typed value.
  public var accepted = 0
  /// Lines not decoded, by reason.
  public var checksum = 0
  /// Lines that are not a well-formed sentence: junk, truncated, too long, bad address.
  public var framing = 0
  /// Well-formed sentences of a type the decoder does not interpret (including proprietary ones).
  public var unknown = 0
  /// Epochs reported, and those of them with a 2D or 3D fix.
  public var epochs = 0
  /// Reported epochs with a 2D or 3D fix.
  public var fixes = 0
  /// Epochs not reported because no cycle-ending sentence arrived in them (gpsd reporting only).
  public var unreported = 0

  /// Creates statistics with every count at zero.
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
  /// What the decoder has counted so far: lines, sentences accepted and rejected, epochs and fixes.
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
      guard let talker = frame.talker, let kind = NMEASentenceKind(code: frame.typeCode) else {
        statistics.unknown += 1
        try observeOther(frame, onFix)
        return
      }
      // Typed dispatch straight into the assembler: no enum boxing.
      var f = frame.fields
      let completed: Bool
      switch kind {
      case .gga: completed = assembler.add(GGA(talker: talker, &f))
      case .rmc: completed = assembler.add(RMC(talker: talker, &f))
      case .gsa: completed = assembler.add(GSA(talker: talker, &f))
      // GSV straight from its fields into gpsd's sky: no `GSV` built (and copied) on the way.
      case .gsv: completed = assembler.addGSV(talker: talker, &f)
      case .vtg: completed = assembler.add(VTG(talker: talker, &f))
      case .gll: completed = assembler.add(GLL(talker: talker, &f))
      case .gns: completed = assembler.add(GNS(talker: talker, &f))
      case .zda: completed = assembler.add(ZDA(talker: talker, &f))
      case .gst: completed = assembler.add(GST(talker: talker, &f))
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
  /// (3.27.6) reads into its fix give it what they give gpsd's (the proprietary `$P…` ones:
  /// `proprietary(_:address:_:)`, in `Sentences/Proprietary.swift`).
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
    default:
      if let proprietary = Self.proprietary(&tag, address: address, &f) {
        sentence = proprietary
      } else if type == typeCode("HDG") {
        sentence.data = Self.heading(&f)
        if case .heading = sentence.data { sentence.newData = true }
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
