/// Merges the sentences of one time stamp into one ``NMEAFix``, and resolves their dates.
///
/// An epoch is a run of consecutive sentences with the same time of day;
/// sentences without a time (GSA, GSV, VTG) join the epoch in progress. The
/// epoch is complete when a sentence with another time arrives, or at
/// ``finish()``. This is gpsd's unit of comparison: its last report for a time stamp.
///
/// Merging, following gpsd:
/// - position from GGA (quality > 0), RMC (status `A`), GLL (status `A`) and GNS
///   (any constellation with a fix); the last one in the epoch wins;
/// - altitude MSL and geoid separation from GGA/GNS; speed and track from RMC/VTG;
/// - the mode is 3D when an altitude is known or GSA says 3D, else 2D; an epoch
///   without a position is ``NMEAFix/Mode/noFix``.
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
  /// How dates are resolved.
  public struct Options: Sendable, Hashable {
    /// The date of the log's first epoch, for logs whose sentences carry no date. Also a rollover reference.
    public var date: NMEADate?
    public init(date: NMEADate? = nil) { self.date = date }
  }

  public var options: Options
  /// The reference date from a `# Date:` header; `options.date` takes precedence.
  public private(set) var headerDate: NMEADate?

  private var epoch = Epoch()
  private var inEpoch = false
  private var lastDate: NMEADate?
  private var lastTimeOfDay: NMEATimeOfDay?

  public init(options: Options = Options()) {
    self.options = options
    lastDate = options.date
  }

  /// The date that resolves centuries and week rollovers.
  public var referenceDate: NMEADate? { options.date ?? headerDate }

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
    complete()
    return completed
  }

  /// The epoch completed last. The typed `add` overloads return whether they completed one
  /// instead of returning it, so that no fix-sized optional is copied per sentence.
  private(set) var completed = NMEAFix(mode: .noFix)

  mutating func add(_ s: GGA) -> Bool {
    guard s.time != nil else { return false }
    let didComplete = addFixData(s)
    epoch.quality = s.quality ?? epoch.quality
    return didComplete
  }

  /// GGA and GNS: a time, and when they report a fix, position, altitude, satellites used and HDOP.
  private mutating func addFixData(_ s: some AltitudeFixSentence) -> Bool {
    guard let time = s.time else { return false }
    let didComplete = begin(time)
    if s.hasFix {
      epoch.position(s.latitude, s.longitude)
      epoch.altitudeMSL = s.altitudeMSL ?? epoch.altitudeMSL
      epoch.geoidSeparation = s.geoidSeparation ?? epoch.geoidSeparation
      epoch.satellitesUsed = s.satellitesUsed ?? epoch.satellitesUsed
      epoch.hdop = s.hdop ?? epoch.hdop
    }
    return didComplete
  }

  mutating func add(_ s: RMC) -> Bool {
    guard let time = s.time else { return false }
    let didComplete = begin(time)
    // gpsd takes the date only from a valid RMC: simulators send status V with a date.
    if s.isValid, let d = s.date, let date = resolve(d) { epoch.learnedDate = date }
    if s.hasFix {
      epoch.position(s.latitude, s.longitude)
      epoch.speed = s.speedKnots.map { $0 * knotsToMetersPerSecond } ?? epoch.speed
      epoch.track = s.track ?? epoch.track
      epoch.magneticVariation = s.magneticVariation ?? epoch.magneticVariation
    }
    return didComplete
  }

  mutating func add(_ s: GLL) -> Bool {
    let didComplete = begin(s.time)
    if s.hasFix { epoch.position(s.latitude, s.longitude) }
    return didComplete
  }

  mutating func add(_ s: GNS) -> Bool { addFixData(s) }

  mutating func add(_ s: GSA) -> Bool {
    let didComplete = begin(nil)
    epoch.gsaMode = s.fixMode ?? epoch.gsaMode
    epoch.pdop = s.pdop ?? epoch.pdop
    epoch.hdop = s.hdop ?? epoch.hdop
    epoch.vdop = s.vdop ?? epoch.vdop
    return didComplete
  }

  mutating func add(_ s: GSV) -> Bool {
    let didComplete = begin(nil)
    if let n = s.satellitesInView { epoch.inView(s.talker, n) }
    return didComplete
  }

  mutating func add(_ s: VTG) -> Bool {
    let didComplete = begin(nil)
    if s.modeIndicator != "N" {
      epoch.speed = s.speedMetersPerSecond ?? epoch.speed
      epoch.track = s.trackTrue ?? epoch.track
    }
    return didComplete
  }

  mutating func add(_ s: ZDA) -> Bool {
    guard let time = s.time else { return false }
    let didComplete = begin(time)
    if let d = s.date { epoch.learnedDate = d }
    return didComplete
  }

  mutating func add(_ s: GST) -> Bool {
    let didComplete = begin(s.time)
    epoch.latitudeError = s.latitudeError ?? epoch.latitudeError
    epoch.longitudeError = s.longitudeError ?? epoch.longitudeError
    epoch.altitudeError = s.altitudeError ?? epoch.altitudeError
    return didComplete
  }

  /// Starts a new epoch when `time` differs from the one in progress and returns the completed one.
  /// A sentence without a time (nil) joins the epoch in progress, or opens one that takes the next time.
  private mutating func begin(_ time: NMEATimeOfDay?) -> Bool {
    var didComplete = false
    if let time {
      if inEpoch, let current = epoch.timeOfDay, current != time {
        complete()
        didComplete = true
      }
      if !inEpoch || epoch.timeOfDay == nil {
        epoch.timeOfDay = time
        epoch.startDate = dateCarried(to: time)
      }
    }
    inEpoch = true
    return didComplete
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

  private func resolve(_ d: RMC.Date) -> NMEADate? {
    var year = 2000 + d.yearOfCentury
    if let reference = referenceDate?.year {
      let base = reference - reference % 100 + d.yearOfCentury
      year = [base - 100, base, base + 100].min { abs($0 - reference) < abs($1 - reference) }!
    } else if year >= 2080 {
      year -= 100
    }
    return NMEADate(year: year, month: d.month, day: d.day)
  }

  private mutating func complete() {
    defer {
      epoch = Epoch()
      inEpoch = false
    }
    var fix = NMEAFix(mode: .noFix)
    fix.timeOfDay = epoch.timeOfDay
    if let lat = epoch.latitude, let lon = epoch.longitude {
      fix.latitude = lat
      fix.longitude = lon
      // As gpsd: an altitude makes the fix 3D whatever GSA says; without one, GSA's 3D stands.
      fix.mode = epoch.altitudeMSL != nil || epoch.gsaMode == 3 ? .threeD : .twoD
      fix.altitudeMSL = epoch.altitudeMSL
      fix.geoidSeparation = epoch.geoidSeparation
      fix.speed = epoch.speed
      fix.track = epoch.track
      fix.magneticVariation = epoch.magneticVariation
    }
    fix.quality = epoch.quality
    fix.satellitesUsed = epoch.satellitesUsed
    fix.satellitesInView = epoch.satellitesInViewTotal
    fix.hdop = epoch.hdop
    fix.vdop = epoch.vdop
    fix.pdop = epoch.pdop
    fix.latitudeError = epoch.latitudeError
    fix.longitudeError = epoch.longitudeError
    fix.altitudeError = epoch.altitudeError
    if let tod = epoch.timeOfDay, let date = epoch.learnedDate ?? epoch.startDate {
      fix.time = NMEATimestamp(date: date, time: tod).map(correctRollover)
      lastDate = date
      lastTimeOfDay = tod
    }
    completed = fix
  }

  private func correctRollover(_ t: NMEATimestamp) -> NMEATimestamp {
    guard let reference = referenceDate else { return t }
    let limit = Int64(reference.daysSinceUnixEpoch) * 86_400_000_000_000 - NMEATimestamp.gpsRolloverNanoseconds / 2
    var corrected = t
    while corrected.nanosecondsSinceUnixEpoch < limit {
      corrected.nanosecondsSinceUnixEpoch += NMEATimestamp.gpsRolloverNanoseconds
    }
    return corrected
  }
}

/// What the sentences of one epoch have said so far.
private struct Epoch: Sendable {
  var timeOfDay: NMEATimeOfDay?
  /// The date carried from earlier epochs.
  var startDate: NMEADate?
  /// The last date a sentence of this epoch carried.
  var learnedDate: NMEADate?
  var latitude: Double?
  var longitude: Double?
  var altitudeMSL: Double?
  var geoidSeparation: Double?
  var speed: Double?
  var track: Double?
  var magneticVariation: Double?
  var quality: Int?
  var satellitesUsed: Int?
  var gsaMode: Int?
  var hdop: Double?
  var vdop: Double?
  var pdop: Double?
  var latitudeError: Double?
  var longitudeError: Double?
  var altitudeError: Double?
  var inViewTalkers: (NMEATalker, Int)?
  var inViewOthers: [NMEATalker: Int] = [:]

  mutating func position(_ lat: Double?, _ lon: Double?) {
    guard let lat, let lon else { return }
    latitude = lat
    longitude = lon
  }

  mutating func inView(_ talker: NMEATalker, _ count: Int) {
    if inViewTalkers == nil || inViewTalkers!.0 == talker {
      inViewTalkers = (talker, count)
    } else {
      inViewOthers[talker] = count
    }
  }

  var satellitesInViewTotal: Int? {
    guard let first = inViewTalkers else { return nil }
    return first.1 + inViewOthers.values.reduce(0, +)
  }
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
    default: nil
    }
  }
}

/// The sentences that carry a fix with altitude: GGA and GNS.
protocol AltitudeFixSentence {
  var time: NMEATimeOfDay? { get }
  var hasFix: Bool { get }
  var latitude: Double? { get }
  var longitude: Double? { get }
  var altitudeMSL: Double? { get }
  var geoidSeparation: Double? { get }
  var satellitesUsed: Int? { get }
  var hdop: Double? { get }
}

extension GGA: AltitudeFixSentence {}
extension GNS: AltitudeFixSentence {}
