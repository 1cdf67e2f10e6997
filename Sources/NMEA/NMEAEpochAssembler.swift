import LocationModel

/// Merges the sentences of one time stamp into one ``NMEAFix``, and resolves their dates.
///
/// An epoch is a run of consecutive sentences with the same time of day;
/// sentences without a time (GSA, GSV, VTG) join the epoch in progress. The
/// epoch is complete when a sentence with another time arrives, or at
/// ``finish()``. This is gpsd's unit of comparison: its last report for a time stamp.
///
/// What an epoch's fix holds depends on ``Options/reporting``:
/// - ``Reporting/gpsd`` (the default) reports what gpsd reports. gpsd learns
///   which sentence types end the receiver's reporting cycle (the last timed
///   sentence before the time of day changes) and, once it knows one, reports
///   only when such a sentence arrives. The fix's position, altitudes, speed, track,
///   status and gpsd's error members are the epoch's as they stood at its last report
///   (the DOPs, satellite counts and GST errors the receiver sent come from all of its
///   sentences); an epoch in which no cycle-ending sentence arrived is not reported at
///   all (``unreportedEpochs``). Until the first cycle ender is known, every sentence
///   with a position or a mode is reported. See `GPSDCycleDetector` for the rules.
/// - ``Reporting/everyTimeStamp`` reports every epoch with everything its sentences said.
///
/// The two agree on receivers with a fixed cycle. They differ when a cycle lacks its
/// usual last sentence, when a receiver stamps a sentence with the next second's
/// time, and when a sentence after the cycle ender changes the position or speed.
///
/// Merging, following gpsd:
/// - position from GGA (quality > 0), RMC (status `A`), GLL (status `A`) and GNS
///   (any constellation with a fix); the last one in the epoch wins; an epoch
///   without a position is ``NMEAFix/Mode/noFix``;
/// - the mode, altitudes, geoid separation, speed and track as gpsd's fix held them,
///   sentence by sentence, with the members gpsd derives (see `GPSDFixModel`): a
///   `GP`/`GN` GGA with fewer than 3 satellites used is no fix, the height above the
///   ellipsoid comes from gpsd's geoid model where the receiver gives no separation,
///   a missing speed from the distance to the previous fix.
///
/// Dates, following gpsd:
/// - the date comes from RMC (two-digit year) or ZDA (four-digit year) and is
///   carried to later epochs (moving to the next day when the time of day wraps);
///   without any date an epoch has no ``NMEAFix/time``, unless ``Options/date`` is set;
/// - a two-digit year is placed in the century of the reference year (the
///   `# Date:` header or ``Options/date``), choosing the nearest, else 2000–2079;
/// - GPS week rollover: a time more than 512 weeks before the reference date is
///   moved forward by 1024 weeks (repeatedly), as receivers with a stale week
///   counter report dates 19.6 years in the past.
public struct NMEAEpochAssembler: Sendable {
  /// Which epochs are reported, and as of which sentence.
  public enum Reporting: String, Sendable, Hashable, CaseIterable {
    /// As gpsd: each epoch as it stood at its last cycle-ending sentence; epochs without one are not reported.
    case gpsd
    /// Every epoch, with everything its sentences said.
    case everyTimeStamp = "every-time-stamp"
  }

  /// How epochs are reported and dates resolved.
  public struct Options: Sendable, Hashable {
    /// The date of the log's first epoch, for logs whose sentences carry no date. Also a rollover reference.
    public var date: NMEADate?
    /// The date GPS week rollovers are resolved against when neither ``date`` nor a `# Date:` header
    /// gives one. gpsd uses the day it started; nil (the default) corrects no rollover then,
    /// so that decoding a log does not depend on the day it is decoded.
    public var rolloverReference: NMEADate?
    /// Which epochs are reported.
    public var reporting: Reporting

    /// Creates options; by default no date, no rollover reference and gpsd's reporting.
    /// - Parameter date: the date of the log's first epoch, for logs without dates.
    /// - Parameter rolloverReference: the date rollovers are resolved against when nothing else gives one.
    /// - Parameter reporting: which epochs are reported.
    public init(date: NMEADate? = nil, rolloverReference: NMEADate? = nil, reporting: Reporting = .gpsd) {
      self.date = date
      self.rolloverReference = rolloverReference
      self.reporting = reporting
    }
  }

  /// How epochs are reported and dates resolved.
  public var options: Options
  /// The reference date from a `# Date:` header; `options.date` takes precedence.
  public private(set) var headerDate: NMEADate?

  private var epoch = Epoch()
  private var inEpoch = false
  private var lastDate: NMEADate?
  private var lastTimeOfDay: NMEATimeOfDay?

  // gpsd's reporting (``Reporting/gpsd``).
  private var cycle = GPSDCycleDetector()
  /// Whether gpsd reported after a sentence of the epoch in progress.
  private var epochReported = false
  /// Whether sentences arrived after the epoch's last report; its motion as reported is then in `reportedMotion`.
  private var changedSinceReport = false
  private var reportedMotion = Motion()
  /// gpsd's fix, sentence by sentence: the mode, altitudes, speed and track of the fixes.
  private var model = GPSDFixModel()
  /// The model's fix as of the epoch's last report, when sentences arrived after it.
  private var reportedModelFix = GPSDFixModel.Fix()
  /// The start of the day `timestamp(of:)` last stamped, in nanoseconds since 1970 (nil: not representable).
  private var dayStart: (date: NMEADate?, nanoseconds: Int64?) = (nil, nil)

  /// Epochs that gpsd would not report, because no cycle-ending sentence arrived in them (``Reporting/gpsd``).
  public private(set) var unreportedEpochs = 0

  /// This assembler for input that does not follow what it read: what it learned (the date,
  /// gpsd's reporting cycle and fix) kept, the epoch in progress and the cycle's last sentence
  /// dropped.
  var afterAGap: NMEAEpochAssembler {
    var copy = self
    copy.epoch = Epoch()
    copy.inEpoch = false
    copy.epochReported = false
    copy.changedSinceReport = false
    copy.cycle = cycle.forgettingLastSentence
    return copy
  }

  /// Sets aside the arrays of both assemblers' skies when they hold the same elements (see
  /// `NMEADecoder.sameBits`); false otherwise.
  mutating func setAsideArrays(ifSameAs other: inout NMEAEpochAssembler) -> Bool {
    model.sky.setAsideArrays(ifSameAs: &other.model.sky)
  }

  /// This assembler's state as far as it decides what it does next: without its count of
  /// unreported epochs, the epoch it completed last (handed out already), the motion and fix
  /// it keeps from a report only while sentences that came after it are merged, and the sky's
  /// memo of its last geometry (a cache).
  var comparable: NMEAEpochAssembler {
    var copy = self
    copy.unreportedEpochs = 0
    copy.completed = NMEAFix(mode: .noFix)
    copy.model.sky.forgetGeometry()
    if !changedSinceReport {
      copy.reportedMotion = Motion()
      copy.reportedModelFix = GPSDFixModel.Fix()
    }
    return copy
  }

  /// Creates an assembler that has read nothing yet.
  /// - Parameter options: how epochs are reported and dates resolved.
  public init(options: Options = Options()) {
    self.options = options
    lastDate = options.date
  }

  /// The date that resolves centuries.
  public var referenceDate: NMEADate? { options.date ?? headerDate }

  /// The date that resolves GPS week rollovers.
  public var rolloverReferenceDate: NMEADate? { referenceDate ?? options.rolloverReference }

  /// Records a `# Date: yyyy-mm-dd` header (parsed leniently, as gpsd parses it).
  public mutating func setHeaderDate(_ date: NMEADate) { headerDate = date }

  /// Adds one sentence; returns the previous epoch's fix when this sentence starts a new epoch.
  ///
  /// GGA, RMC, GNS and ZDA sentences without a time are ignored; GSA, GSV,
  /// VTG, GLL and GST sentences without a time join the epoch in progress.
  public mutating func add(_ message: NMEAMessage) -> NMEAFix? {
    let didComplete =
      switch message {
      case .gga(let s): add(s)
      case .rmc(let s): add(s)
      case .gll(let s): add(s)
      case .gns(let s): add(s)
      case .gsa(let s): add(s)
      case .gsv(let s): add(s)
      case .vtg(let s): add(s)
      case .zda(let s): add(s)
      case .gst(let s): add(s)
      case .unknown: false
      }
    return didComplete ? completed : nil
  }

  /// Completes the epoch in progress at the end of the input.
  public mutating func finish() -> NMEAFix? {
    guard inEpoch else { return nil }
    return complete() ? completed : nil
  }

  /// The epoch completed last. The typed `add` overloads return whether they completed one
  /// instead of returning it, so that no fix-sized optional is copied per sentence.
  private(set) var completed = NMEAFix(mode: .noFix)

  mutating func add(_ s: GGA) -> Bool {
    guard s.time != nil else {
      // gpsd reports a no-fix GGA without a time at once.
      observeUntimed(NMEASentenceKind.gga.cycleTag, forcesReport: s.quality == 0)
      model.gga(s, time: nil)
      return false
    }
    let didComplete = addFixData(s)
    epoch.quality = s.quality ?? epoch.quality
    model.gga(s, time: s.time.flatMap { timestamp(of: $0) })
    return didComplete
  }

  /// GGA and GNS: a time, and when they report a fix, position, altitude, satellites used and HDOP.
  private mutating func addFixData(_ s: some AltitudeFixSentence) -> Bool {
    guard let time = s.time else {
      observeUntimed(s.cycleTag)
      return false
    }
    let didComplete = begin(time, s.cycleTag, latched: time, setsFix: s.setsFix)
    if s.takesPosition {
      epoch.position(s.latitude, s.longitude)
      epoch.satellitesUsed = s.satellitesUsed ?? epoch.satellitesUsed
      epoch.hdop = s.hdop ?? epoch.hdop
    }
    return didComplete
  }

  mutating func add(_ s: RMC) -> Bool {
    guard let time = s.time else {
      // gpsd reports an invalid RMC without a time at once.
      observeUntimed(NMEASentenceKind.rmc.cycleTag, forcesReport: !s.isValid)
      model.rmc(s, time: nil)
      return false
    }
    // gpsd takes the time of a valid RMC with a date only; an invalid one without a date is reported at once.
    let didComplete = begin(
      time, NMEASentenceKind.rmc.cycleTag, latched: s.isValid && s.date != nil ? time : nil, forcesReport: !s.isValid && s.date == nil)
    // gpsd takes the date only from a valid RMC: simulators send status V with a date.
    if s.isValid, let d = s.date, let date = Self.resolve(d, reference: referenceDate) { epoch.learnedDate = date }
    if s.hasFix {
      epoch.position(s.latitude, s.longitude)
      epoch.magneticVariation = s.magneticVariation ?? epoch.magneticVariation
    }
    model.rmc(s, time: s.isValid && s.date != nil ? timestamp(of: time) : nil)
    return didComplete
  }

  mutating func add(_ s: GLL) -> Bool {
    let didComplete = begin(s.time, NMEASentenceKind.gll.cycleTag, latched: s.time)
    if s.hasFix { epoch.position(s.latitude, s.longitude) }
    model.gll(s, time: s.time.flatMap { timestamp(of: $0) })
    return didComplete
  }

  mutating func add(_ s: GNS) -> Bool {
    let didComplete = addFixData(s)
    model.gns(s, time: s.time.flatMap { timestamp(of: $0) })
    return didComplete
  }

  mutating func add(_ s: GSA) -> Bool {
    let didComplete = begin(nil, NMEASentenceKind.gsa.cycleTag, latched: nil, newData: model.hasNewData(s))
    epoch.pdop = s.pdop ?? epoch.pdop
    epoch.hdop = s.hdop ?? epoch.hdop
    epoch.vdop = s.vdop ?? epoch.vdop
    model.gsa(s)
    return didComplete
  }

  mutating func add(_ s: GSV) -> Bool {
    let didComplete = beginGSV(talker: s.talker, GSV.Header(s))
    model.gsv(s)
    return didComplete
  }

  /// A GSV read from its fields as it goes (``add(_:)-GSV`` without the `GSV`).
  mutating func addGSV(talker: NMEATalker, _ f: inout FieldReader) -> Bool {
    let header = GSV.Header(&f)
    let didComplete = beginGSV(talker: talker, header)
    model.gsv(talker: talker, header, &f)
    return didComplete
  }

  private mutating func beginGSV(talker: NMEATalker, _ header: GSV.Header) -> Bool {
    let partial = header.isPartial
    let didComplete = begin(
      nil, NMEASentenceKind.gsv.cycleTag, latched: nil, newData: !partial, partial: partial, setsFix: false)
    if let n = header.satellitesInView { epoch.inView(talker, n) }
    return didComplete
  }

  mutating func add(_ s: VTG) -> Bool {
    let didComplete = begin(
      nil, NMEASentenceKind.vtg.cycleTag, latched: nil, newData: GPSDFixModel.hasNewData(s), setsFix: false)
    model.vtg(s)
    return didComplete
  }

  mutating func add(_ s: ZDA) -> Bool {
    guard let time = s.time else {
      observeUntimed(NMEASentenceKind.zda.cycleTag, setsFix: false)
      model.other(time: nil, latched: nil)
      return false
    }
    let didComplete = begin(time, NMEASentenceKind.zda.cycleTag, latched: s.date != nil ? time : nil, setsFix: false)
    if let d = s.date { epoch.learnedDate = d }
    model.other(time: s.date != nil ? timestamp(of: time) : nil, latched: s.date != nil ? time : nil)
    return didComplete
  }

  mutating func add(_ s: GST) -> Bool {
    // gpsd does not take GST's time: it refers to the fix of the same time stamp.
    let didComplete = begin(s.time, NMEASentenceKind.gst.cycleTag, latched: nil, newData: s.time != nil, setsFix: false)
    epoch.latitudeError = s.latitudeError ?? epoch.latitudeError
    epoch.longitudeError = s.longitudeError ?? epoch.longitudeError
    epoch.altitudeError = s.altitudeError ?? epoch.altitudeError
    model.other(time: nil, latched: nil)
    return didComplete
  }

  /// Starts a new epoch when `time` differs from the one in progress and returns whether one completed
  /// (an unreported epoch completes too, but returns false).
  /// A sentence without a time (nil) joins the epoch in progress, or opens one that takes the next time.
  /// `tag`, `latched` and `forcesReport` describe the sentence to gpsd's cycle detector.
  private mutating func begin(
    _ time: NMEATimeOfDay?, _ tag: GPSDCycleDetector.Tag, latched: NMEATimeOfDay?, forcesReport: Bool = false,
    newData: Bool = false, partial: Bool = false, setsFix: Bool = true
  ) -> Bool {
    var didComplete = false
    if let time {
      if inEpoch, let current = epoch.timeOfDay, current != time {
        didComplete = complete()
      }
      if !inEpoch || epoch.timeOfDay == nil {
        epoch.timeOfDay = time
        epoch.startDate = dateCarried(to: time)
      }
    }
    inEpoch = true
    if options.reporting == .gpsd {
      noteReport(
        cycle.observe(
          tag, latchedTime: latched, forcesReport: forcesReport, newData: newData, partial: partial, setsFix: setsFix))
    }
    return didComplete
  }

  /// A sentence that adds nothing to the epoch but counts for gpsd's cycle detector.
  private mutating func observeUntimed(
    _ tag: GPSDCycleDetector.Tag, forcesReport: Bool = false, newData: Bool = false, setsFix: Bool = true
  ) {
    guard options.reporting == .gpsd else { return }
    let reports = cycle.observe(tag, latchedTime: nil, forcesReport: forcesReport, newData: newData, setsFix: setsFix)
    if inEpoch { noteReport(reports) }
  }

  /// Records whether gpsd reports after the sentence about to be merged (called before its data is).
  private mutating func noteReport(_ reports: Bool) {
    if reports {
      epochReported = true
      changedSinceReport = false
    } else if epochReported && !changedSinceReport {
      reportedMotion = epoch.motion
      reportedModelFix = model.fix
      changedSinceReport = true
    }
  }

  /// Feeds gpsd's cycle detector and fix model a sentence this assembler does not interpret
  /// (only ``Reporting/gpsd`` uses them); returns whether it completed an epoch, as the typed
  /// `add` overloads do.
  /// - Parameters:
  ///   - tag: how gpsd classifies the sentence, see ``GPSDCycleDetector/tag(address:hasTalker:subtype:fieldCount:)``.
  ///   - sentence: what it gives gpsd.
  mutating func observeOther(_ tag: GPSDCycleDetector.Tag, _ sentence: OtherSentence) -> Bool {
    guard options.reporting == .gpsd else { return false }
    var position: (latitude: Double, longitude: Double)?
    var setsFix = false
    switch sentence.data {
    case .garminAltitude(_, let mode?): setsFix = (1...3).contains(mode)
    case .averagedPosition(let latitude, let longitude, _): (position, setsFix) = ((latitude, longitude), true)
    case .fix(let given, _): (position, setsFix) = (given.position, given.position != nil || given.mode != nil)
    default: break
    }
    let didComplete: Bool
    if let time = sentence.time {
      didComplete = begin(time, tag, latched: time, setsFix: setsFix)
    } else {
      observeUntimed(tag, newData: sentence.newData, setsFix: setsFix)
      didComplete = false
    }
    // The sentence's data goes in after gpsd's report decision, as it does for the others.
    if let d = sentence.date, let date = Self.resolve(d, reference: referenceDate) { epoch.learnedDate = date }
    if let position { epoch.position(position.latitude, position.longitude) }
    var time = sentence.time.flatMap { timestamp(of: $0) }
    switch sentence.stamp {
    case .last?: time = model.nmeaTime.flatMap { timestamp(of: $0) }
    case .at(let t)?:
      model.nmeaTime = t
      time = timestamp(of: t)
    case nil: break
    }
    model.other(time: time, latched: sentence.time, sentence.data)
    return didComplete
  }

  /// The UTC instant of a time of day in the epoch in progress, as gpsd stamps a sentence:
  /// nil while no date is known.
  private mutating func timestamp(of time: NMEATimeOfDay) -> Int64? {
    guard let date = epoch.learnedDate ?? epoch.startDate else { return nil }
    if date != dayStart.date {
      // Once per day, not per sentence.
      let representable = NMEATimestamp.representableYears.contains(date.year)
      dayStart = (date, representable ? Int64(date.daysSinceUnixEpoch) * 86_400_000_000_000 : nil)
    }
    return dayStart.nanoseconds.map { $0 + time.nanosecondsSinceMidnight }
  }

  /// The last known date, moved to the next day when the time of day wrapped past midnight.
  private func dateCarried(to time: NMEATimeOfDay) -> NMEADate? {
    guard let last = lastDate else { return nil }
    if let lastTime = lastTimeOfDay,
      time.nanosecondsSinceMidnight + 43_200_000_000_000 < lastTime.nanosecondsSinceMidnight
    {
      return last.next
    }
    return last
  }

  /// The date of an RMC's two-digit year: the century that puts it nearest `reference`'s year
  /// (the earlier on a tie); without one, 2000–2079 or 1980–1999. Static: a method of the
  /// assembler called while it is being changed copied all of it (2.2 KB) for each RMC.
  private static func resolve(_ d: RMC.Date, reference: NMEADate?) -> NMEADate? {
    var year = 2000 + d.yearOfCentury
    if let reference = reference?.year {
      let base = reference - reference % 100 + d.yearOfCentury
      year = base - 100
      if abs(base - reference) < abs(year - reference) { year = base }
      if abs(base + 100 - reference) < abs(year - reference) { year = base + 100 }
    } else if year >= 2080 {
      year -= 100
    }
    return NMEADate(year: year, month: d.month, day: d.day)
  }

  /// Ends the epoch in progress; returns whether it is reported, in `completed`.
  private mutating func complete() -> Bool {
    defer {
      epoch = Epoch()
      inEpoch = false
      epochReported = false
      changedSinceReport = false
    }
    // Dates are learned from every sentence, reported or not, as gpsd keeps them apart from its reports.
    let date = epoch.learnedDate ?? epoch.startDate
    if let tod = epoch.timeOfDay, let date {
      lastDate = date
      lastTimeOfDay = tod
    }
    if options.reporting == .gpsd {
      guard epochReported else {
        unreportedEpochs += 1
        return false
      }
      // Position, altitude and velocity as gpsd reported them; the epoch's DOPs, satellites
      // and error estimates stay complete.
      if changedSinceReport { epoch.motion = reportedMotion }
    }
    let gpsd = options.reporting == .gpsd && changedSinceReport ? reportedModelFix : model.fix
    // Built where it is kept: a local fix assigned at the end was one more 553-byte copy per epoch.
    completed = NMEAFix(mode: .noFix)
    completed.timeOfDay = epoch.timeOfDay
    if let lat = epoch.latitude, let lon = epoch.longitude {
      completed.latitude = lat
      completed.longitude = lon
      // The mode, altitudes, speed and track as gpsd's fix had them (see GPSDFixModel).
      completed.mode = NMEAFix.Mode(rawValue: gpsd.mode) ?? .noFix
      completed.altitudeMSL = gpsd.altitudeMSL.finite
      completed.altitudeHAE = gpsd.altitudeHAE.finite
      completed.geoidSeparation = gpsd.geoidSeparation.finite
      completed.speed = gpsd.speedIfKnown
      completed.track = gpsd.track.finite
      // The members gpsd prints with a 2D or 3D fix, and those it prints only in 3D.
      if gpsd.mode >= 2 {
        if gpsd.dgpsStation >= 0 { (completed.dgpsAge, completed.dgpsStation) = (gpsd.dgpsAge.finite, gpsd.dgpsStation) }
        completed.magneticTrack = gpsd.magneticTrackIfKnown
        completed.magneticVariation = gpsd.variationIfKnown
        completed.horizontalError = gpsd.eph.finite
        completed.verticalError = gpsd.epv.finite
        completed.errors.epx = gpsd.epx.finite
        completed.errors.epy = gpsd.epy.finite
        completed.errors.eps = gpsd.eps.finite
        completed.errors.epd = gpsd.epd.finite
        completed.errors.sep = gpsd.sep.finite
      }
      if gpsd.mode >= 3 {
        if let north = gpsd.velocityNorth.finite, let east = gpsd.velocityEast.finite {
          (completed.velocityNorth, completed.velocityEast, completed.velocityDown) = (north, east, gpsd.velocityDown.finite)
        }
        completed.climb = gpsd.climb.finite
        completed.errors.epc = gpsd.epc.finite
      } else {
        completed.geoidSeparation = nil
      }
    }
    completed.status = LocationFix.Status(rawValue: gpsd.status)
    if gpsd.time > 0 { completed.errors.ept = gpsd.ept.finite }
    completed.quality = epoch.quality
    completed.satellitesUsed = epoch.satellitesUsed
    completed.satellitesInView = epoch.satellitesInView.total
    completed.hdop = epoch.hdop
    completed.vdop = epoch.vdop
    completed.pdop = epoch.pdop
    completed.latitudeError = epoch.latitudeError
    completed.longitudeError = epoch.longitudeError
    completed.altitudeError = epoch.altitudeError
    if let tod = completed.timeOfDay, let date {
      completed.time = NMEATimestamp(date: date, time: tod).map(correctRollover)
    }
    return true
  }

  private func correctRollover(_ t: NMEATimestamp) -> NMEATimestamp {
    guard let reference = rolloverReferenceDate else { return t }
    let limit = Int64(reference.daysSinceUnixEpoch) * 86_400_000_000_000 - NMEATimestamp.gpsRolloverNanoseconds / 2
    var corrected = t
    while corrected.nanosecondsSinceUnixEpoch < limit {
      corrected.nanosecondsSinceUnixEpoch += NMEATimestamp.gpsRolloverNanoseconds
    }
    return corrected
  }
}

/// The members of a fix that gpsd's reports fix in time.
private struct Motion: Sendable {
  var latitude: Double?
  var longitude: Double?
  var magneticVariation: Double?
}

/// What the sentences of one epoch have said so far.
private struct Epoch: Sendable {
  var timeOfDay: NMEATimeOfDay?
  /// The date carried from earlier epochs.
  var startDate: NMEADate?
  /// The last date a sentence of this epoch carried.
  var learnedDate: NMEADate?
  /// Where the receiver is and how it moves: what gpsd's reports carry (``Reporting/gpsd``).
  var motion = Motion()
  var quality: Int?
  var satellitesUsed: Int?
  var hdop: Double?
  var vdop: Double?
  var pdop: Double?
  var latitudeError: Double?
  var longitudeError: Double?
  var altitudeError: Double?
  var satellitesInView = SatellitesInView()

  var latitude: Double? { motion.latitude }
  var longitude: Double? { motion.longitude }
  var magneticVariation: Double? {
    get { motion.magneticVariation }
    set { motion.magneticVariation = newValue }
  }

  mutating func position(_ lat: Double?, _ lon: Double?) {
    guard let lat, let lon else { return }
    motion.latitude = lat
    motion.longitude = lon
  }

  mutating func inView(_ talker: NMEATalker, _ count: Int) { satellitesInView.record(talker, count) }
}

extension NMEAMessage {
  /// The time of day the sentence carries, if its type has one.
  public var timeOfDay: NMEATimeOfDay? {
    switch self {
    case .gga(let s): s.time
    case .rmc(let s): s.time
    case .gll(let s): s.time
    case .gns(let s): s.time
    case .zda(let s): s.time
    case .gst(let s): s.time
    case .gsa, .gsv, .vtg, .unknown: nil
    }
  }
}

extension Double {
  /// The value, or nil for NaN and infinities (gpsd's "not set").
  var finite: Double? { isFinite ? self : nil }
}

/// What a sentence the decoder does not type gives gpsd (``NMEADecoder``'s `observeOther`).
struct OtherSentence {
  /// A time gpsd stamps its fix with without taking it as the current time (its TIME_SET
  /// without a latch): its last one, or this time of day, merged first.
  enum Stamp {
    case last
    case at(NMEATimeOfDay)
  }

  /// The time of day it carries as the current time (GBS, PSRFEPE, PSTI, PASHR,POS).
  var time: NMEATimeOfDay?
  /// A `ddmmyy` date it carries, learned as an RMC's.
  var date: RMC.Date?
  var stamp: Stamp?
  /// What gpsd takes from it for its fix.
  var data = GPSDFixModel.Other.nothing
  /// Whether gpsd's decoder found anything in it (see ``GPSDCycleDetector``).
  var newData = false
}
