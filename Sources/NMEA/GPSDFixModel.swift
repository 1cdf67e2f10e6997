import Foundation

/// gpsd's fix as its NMEA driver builds it, sentence by sentence: the mode, the altitudes,
/// the speed and the track that gpsd reports, with the members gpsd derives.
///
/// Follows gpsd 3.27 (`drivers/driver_nmea0183.c`, `gpsd_poll` and `gpsd_error_model` in
/// `gpsd/libgpsd_core.c`). Each sentence gives new values for some members; a sentence that
/// starts a reporting cycle (a current time that moved by more than 10 ms) clears the fix first;
/// then the new values are merged and the derived members filled:
/// - the geoid separation from ``WGS84Geoid`` where no sentence gave one, and the height above
///   the ellipsoid from the altitude above sea level with it (or the reverse);
/// - the magnetic variation from ``MagneticVariation`` where no sentence gave one, and the true
///   track from a magnetic one (`$xxHDG`) with it;
/// - the speed, where no sentence gave one, from the distance to the fix of the previous time
///   stamp (``EllipsoidalDistance``) over the time between them, when both are 2D or 3D.
///
/// The mode follows gpsd's rules per sentence: a `GP`/`GN` GGA with fewer than 3 satellites
/// used is no fix and gives 3D only from 4 satellites with an altitude (other talkers, such as
/// `GL` or `BD`, are not forced to no fix); GSA sets the mode it reports unless the last GGA
/// repeated its time stamp, and a GPS GSA does not once another constellation's GSA was seen;
/// RMC and GLL give 3D when an altitude or more than 3 used satellites are known; and a 3D fix
/// is not downgraded to 2D while the last fixes had an altitude.
struct GPSDFixModel: Sendable {
  /// The members of gpsd's `gps_fix_t` this model follows; NaN is gpsd's "not set".
  struct Fix: Sendable {
    /// Nanoseconds since the Unix epoch; 0 for no time.
    var time: Int64 = 0
    /// gpsd's mode: 0 not seen, 1 no fix, 2 2D, 3 3D.
    var mode = 0
    var latitude = Double.nan
    var longitude = Double.nan
    var altitudeMSL = Double.nan
    var altitudeHAE = Double.nan
    var geoidSeparation = Double.nan
    var speed = Double.nan
    var track = Double.nan
    var magneticTrack = Double.nan
    var magneticVariation = Double.nan
    /// A speed gpsd derived from two positions, computed only when read (``speedIfKnown``):
    /// most receivers send a speed later in the epoch, which replaces it.
    var derivedSpeed: DerivedSpeed?
    /// Where gpsd filled the magnetic variation from its model; looked up only when a true
    /// track is derived from a magnetic one, or when the fix is reported (``variationIfKnown``).
    var modelVariationAt: (latitude: Double, longitude: Double)?
    /// gpsd's status (`STATUS_*`): only raised within a cycle.
    var status = 0
    var climb = Double.nan
    /// gpsd's `NED` velocity, m/s (`$PGRMV`).
    var velocityNorth = Double.nan
    var velocityEast = Double.nan
    var velocityDown = Double.nan
    /// gpsd's error members (`gpsd_error_model`).
    var ept = Double.nan
    var epx = Double.nan
    var epy = Double.nan
    var epv = Double.nan
    var eph = Double.nan
    var sep = Double.nan
    var eps = Double.nan
    var epc = Double.nan
    var epd = Double.nan

    /// The magnetic variation gpsd holds: the receiver's, else its model's at the position.
    var variationIfKnown: Double? {
      if let at = modelVariationAt { return MagneticVariation.degrees(latitude: at.latitude, longitude: at.longitude) }
      return magneticVariation.finite
    }

    /// The speed gpsd holds: the one a sentence gave, else the derived one; nil for none.
    var speedIfKnown: Double? {
      if speed.isFinite { return speed }
      return derivedSpeed?.metresPerSecond
    }
  }

  /// The distance between the fix and the one of the previous time stamp, over the time between.
  struct DerivedSpeed: Sendable {
    var from: (latitude: Double, longitude: Double)
    var to: (latitude: Double, longitude: Double)
    var seconds: Double

    var metresPerSecond: Double? {
      guard let metres = EllipsoidalDistance.metres(from: to.latitude, to.longitude, to: from.latitude, from.longitude)
      else { return nil }
      let speed = metres / seconds
      return abs(speed) <= 9999.9 ? speed : nil
    }
  }

  /// What gpsd keeps of earlier fixes (`lastfix`, `oldfix`) for the rules that look back.
  struct Earlier: Sendable {
    var time: Int64 = 0
    var mode = 0
    var latitude = Double.nan
    var longitude = Double.nan
    var hasAltitude = false
    var altitudeHAE = Double.nan
    var epx = Double.nan
    var epy = Double.nan
    var epv = Double.nan

    init() {}

    init(_ fix: Fix) {
      time = fix.time
      mode = fix.mode
      latitude = fix.latitude
      longitude = fix.longitude
      hasAltitude = fix.altitudeHAE.isFinite || fix.altitudeMSL.isFinite
      altitudeHAE = fix.altitudeHAE
      epx = fix.epx
      epy = fix.epy
      epv = fix.epv
    }
  }

  /// What one sentence says, and which members it sets (gpsd's `newdata` and mask).
  struct NewData {
    var time: Int64?
    var position: (latitude: Double, longitude: Double)?
    var mode: Int?
    var altitudeMSL: Double?
    var altitudeHAE: Double?
    var geoidSeparation: Double?
    var speed: Double?
    var track: Double?
    var magneticTrack: Double?
    var magneticVariation: Double?
    /// gpsd's status for the sentence (`STATUS_SET`).
    var status: Int?
    /// A receiver's own error estimates (GBS, PGRME).
    var epx: Double?
    var epy: Double?
    var epv: Double?
    var sep: Double?
    var eph: Double?
    var eps: Double?
    var epd: Double?
    /// A velocity in north, east and down components (`VNED_SET`).
    var velocity: (north: Double, east: Double, down: Double)?
    /// Whether the sentence gave a DOP (`DOP_SET`): a cycle it starts keeps the DOPs.
    var setsDOP = false
    /// Whether it completed a set of satellites in view (`SATELLITE_SET`): DOPs from geometry follow.
    var completesSky = false

    /// Whether the sentence gave gpsd nothing: its error model then changes nothing either.
    var isEmpty: Bool {
      time == nil && position == nil && mode == nil && altitudeMSL == nil && altitudeHAE == nil
        && geoidSeparation == nil && speed == nil && track == nil && magneticTrack == nil
        && magneticVariation == nil && status == nil && epx == nil && epy == nil && epv == nil && sep == nil
        && eph == nil && eps == nil && epd == nil && velocity == nil && !setsDOP && !completesSky
    }
  }

  /// What gpsd takes from the sentences this decoder does not otherwise interpret.
  enum Other {
    case nothing
    /// `$xxHDG`: the sensor's magnetic heading and, when given, the magnetic variation.
    case heading(magnetic: Double, variation: Double?)
    /// Garmin's `$PGRMZ`: altitude in feet and the fix mode.
    case garminAltitude(feet: Int?, mode: Int?)
    /// `$xxGBS`: the receiver's 1-sigma errors, which gpsd takes when their time is the fix's.
    case faultDetection(time: NMEATimeOfDay?, latitudeError: Double, longitudeError: Double, altitudeError: Double)
    /// Garmin's `$PGRME`: its horizontal, vertical and spherical error estimates, metres.
    case garminErrors(horizontal: Double, vertical: Double, spherical: Double)
    /// A velocity in north, east and down components, m/s (Garmin's `$PGRMV`): gpsd's
    /// `NED` members; the error model runs again after it, so `epx` and `epy` follow the DOPs.
    case velocity(north: Double, east: Double, down: Double)
    /// SiRF's `$PSRFEPE` with status A: HDOP and the receiver's own `eph`, `epv`, `eps`, `epd`.
    case sirfErrors(hdop: Double?, eph: Double?, epv: Double?, eps: Double?, epd: Double?)
    /// A receiver status of its own (Ericsson's `$PERC,GPsts`), as a gpsd status.
    case status(Int)
    /// A sentence after which gpsd takes the satellites in view as they stand (Ericsson's
    /// `$PERC,GPppr`): DOPs from geometry follow.
    case skyComplete
    /// A position a timing receiver averaged while surveying (Ericsson's `$PERC,GPavp`), with
    /// its height above the ellipsoid.
    case averagedPosition(latitude: Double, longitude: Double, altitudeHAE: Double)
  }

  /// gpsd's scaling of Garmin's error estimates, which it takes for 50 % CEP, to its 95 %
  /// (`GPSD_CONFIDENCE / CEP50_SIGMA`).
  static let garminErrorScale = 2.45 / 1.18

  private(set) var fix = Fix()
  private var lastFix = Earlier()
  private var oldFix = Earlier()
  /// gpsd's DOPs: session state, cleared when a cycle starts with a sentence that gave none.
  private(set) var dops = GPSDDOPs()
  /// gpsd's satellites in view and used, for DOPs from geometry.
  private var sky = GPSDSky()
  /// The time of day of the last sentence gpsd took a time from (its `nmea.date` hour, minute
  /// and second), which a GBS must match.
  private var nmeaTime: NMEATimeOfDay?
  private var lastCourseErrorInputs: CourseErrorInputs?
  /// gpsd's `satellites_used`, counted from GSA.
  private var satellitesUsed = 0
  private var lastGSATalker: NMEATalker?
  private var seenNonGPSGSA = false
  private var lastGGATalker: NMEATalker?
  /// The time field of the last GGA; gpsd starts with an empty one, which a GGA without a time repeats.
  private var lastGGATime: NMEATimeOfDay?
  /// Whether the last GGA repeated the time stamp of the one before (gpsd's `latch_mode`).
  private var latchMode = false
  private var lastLatchedTime: NMEATimeOfDay?

  // MARK: Sentences

  /// - Parameter time: the epoch's UTC time for the sentence's time of day, nil while no date is known.
  mutating func gga(_ s: GGA, time: Int64?) {
    let lastTalker = lastGGATalker
    lastGGATalker = s.talker
    if let lastTalker, lastTalker != s.talker {
      latchMode = false
    } else {
      latchMode = s.time == lastGGATime
    }
    if !latchMode { lastGGATime = s.time }
    var new = NewData(time: s.time != nil ? time : nil)
    if let quality = s.quality, let status = Self.ggaStatus[quality] { new.status = status }
    if latchMode { new.status = 0 }
    if let hdop = s.hdop, GPSDDOPs.isValid(hdop) {
      dops.horizontal = hdop
      new.setsDOP = true
    }
    if let time = s.time { nmeaTime = time }
    let used = s.satellitesUsed ?? 0
    if let lat = s.latitude, let lon = s.longitude {
      new.position = (lat, lon)
      new.mode = 2
      new.geoidSeparation = s.geoidSeparation ?? WGS84Geoid.separation(latitude: lat, longitude: lon)
      if let altitude = s.altitudeMSL {
        new.altitudeMSL = altitude
        if used >= 4 { new.mode = 3 }
      }
      if used < 3 && (s.talker == .gps || s.talker == .gnss) { new.mode = 1 }
    } else {
      new.mode = 1
    }
    merge(new, latched: s.time)
  }

  /// gpsd's status for a GGA quality: 3 (PPS) is the Precise Positioning Service to gpsd.
  static let ggaStatus: [Int: Int] = [0: 0, 1: 1, 2: 2, 3: 9, 4: 3, 5: 4, 6: 5, 7: 7, 8: 8]

  /// gpsd's `faa_mode`: the status an FAA mode indicator (RMC, GLL, GNS) stands for.
  static func status(modeIndicator: UInt8?) -> Int {
    switch modeIndicator {
    case nil, UInt8(ascii: "O"), UInt8(ascii: "V"), UInt8(ascii: "N"): 0
    case UInt8(ascii: "D"), UInt8(ascii: "P"): 2
    case UInt8(ascii: "E"): 5
    case UInt8(ascii: "F"): 4
    case UInt8(ascii: "M"): 7
    case UInt8(ascii: "R"): 3
    case UInt8(ascii: "S"): 8
    default: 1
    }
  }

  mutating func gns(_ s: GNS, time: Int64?) {
    var new = NewData(time: s.time != nil ? time : nil)
    new.status = Self.status(modeIndicator: s.modeIndicators.utf8.first)
    if let hdop = s.hdop {
      dops.horizontal = hdop
      new.setsDOP = true
    }
    if let time = s.time { nmeaTime = time }
    defer { merge(new, latched: s.time) }
    guard let first = s.modeIndicators.utf8.first, first != UInt8(ascii: "N") else {
      new.mode = 1
      return
    }
    if let lat = s.latitude, let lon = s.longitude {
      new.position = (lat, lon)
      new.mode = 2
      if let altitude = s.altitudeMSL {
        new.altitudeMSL = altitude
        if (s.satellitesUsed ?? 0) > 3 { new.mode = 3 }
        new.geoidSeparation = s.geoidSeparation
      }
    } else {
      new.mode = 1
    }
  }

  /// - Parameter time: the UTC time of a valid RMC with a date, else nil.
  mutating func rmc(_ s: RMC, time: Int64?) {
    var new = NewData()
    guard s.status == UInt8(ascii: "A") else {
      new.mode = 1
      new.status = 0
      merge(new, latched: nil)
      return
    }
    new.time = time
    if time != nil, let t = s.time { nmeaTime = t }
    if let lat = s.latitude, let lon = s.longitude {
      new.position = (lat, lon)
      new.mode = lastFix.mode == 3 ? 3 : 2
      new.status = 1
    } else {
      new.mode = 1
      new.status = 0
    }
    if let indicator = s.modeIndicator { new.status = Self.status(modeIndicator: indicator.ascii) }
    new.speed = s.speedKnots.map { $0 * knotsToMetersPerSecond }
    new.track = s.track
    // Some receivers send 0.0 for an unknown variation; gpsd ignores it.
    if let variation = s.magneticVariation, abs(variation) > 0.09 { new.magneticVariation = variation }
    if satellitesUsed > 3 || fix.altitudeHAE.isFinite || fix.altitudeMSL.isFinite { new.mode = 3 }
    merge(new, latched: time != nil ? s.time : nil)
  }

  mutating func gll(_ s: GLL, time: Int64?) {
    var new = NewData(time: s.time != nil ? time : nil)
    if let t = s.time { nmeaTime = t }
    new.status = 0
    if s.isValid == true, s.modeIndicator != "N", let lat = s.latitude, let lon = s.longitude {
      new.position = (lat, lon)
      new.status = s.modeIndicator.map { Self.status(modeIndicator: $0.ascii) } ?? 1
      if fix.altitudeHAE.isFinite || fix.altitudeMSL.isFinite || satellitesUsed > 3 {
        new.mode = 3
      } else if fix.mode < 2 || !oldFix.hasAltitude {
        new.mode = 2
      } else {
        new.mode = 0  // gpsd leaves its cleared "not seen" mode in place here
      }
    } else {
      new.mode = 1
    }
    merge(new, latched: s.time)
  }

  mutating func gsa(_ s: GSA) {
    var new = NewData()
    let lastTalker = lastGSATalker
    if !latchMode {
      if let mode = s.fixMode, (1...3).contains(mode) { new.mode = mode }
      let n = NMEATalker(0x47, 0x4E), q = UInt8(ascii: "Q")
      if lastTalker == nil || (lastTalker == s.talker && s.talker != n && UInt8(s.talker.rawValue & 0xFF) != q) {
        satellitesUsed = 0
      }
      satellitesUsed += s.usedCount
      if let pdop = s.pdop, GPSDDOPs.isValid(pdop) {
        dops.position = pdop
        new.setsDOP = true
      }
      if let hdop = s.hdop, GPSDDOPs.isValid(hdop) {
        dops.horizontal = hdop
        new.setsDOP = true
      }
      if let vdop = s.vdop, GPSDDOPs.isValid(vdop) {
        dops.vertical = vdop
        new.setsDOP = true
      }
      sky.gsa(s)
    }
    lastGSATalker = s.talker
    // gpsd ignores the mode of a GPS GSA once it has seen a GSA of another constellation.
    if s.talker != .gps { seenNonGPSGSA = true } else if seenNonGPSGSA { new.mode = nil }
    merge(new, latched: nil, keepsGSATalker: true)
  }

  /// A GSV: the satellites in view; a complete set gives DOPs from geometry where none are known.
  mutating func gsv(_ s: GSV) {
    var new = NewData()
    new.completesSky = sky.gsv(s)
    merge(new, latched: nil, isGSV: true)
  }

  /// Whether gpsd's GSA decoder reports anything besides "online" for this sentence.
  func hasNewData(_ s: GSA) -> Bool {
    if s.talker == .gps && seenNonGPSGSA { return false }
    if latchMode { return s.talker == .gnss && lastGSATalker != .gnss }
    return true
  }

  /// Whether gpsd takes the track and speed of a VTG: the NMEA 2.x layout with both, and not
  /// estimated or invalid.
  static func hasNewData(_ s: VTG) -> Bool {
    s.hasUnitLetters && s.trackTrue != nil && s.speedKnots != nil && s.modeIndicator != "E" && s.modeIndicator != "N"
  }

  mutating func vtg(_ s: VTG) {
    var new = NewData()
    if Self.hasNewData(s), let track = s.trackTrue, let knots = s.speedKnots {
      new.track = track
      new.speed = knots * knotsToMetersPerSecond
      new.magneticTrack = s.trackMagnetic
    }
    merge(new, latched: nil)
  }

  /// Any other sentence: it may carry the current time (ZDA, GBS), a heading or an altitude,
  /// and it ends a run of GSAs.
  mutating func other(time: Int64?, latched: NMEATimeOfDay?, _ data: Other = .nothing) {
    switch data {
    case .nothing, .sirfErrors: if let latched, time != nil { nmeaTime = latched }  // ZDA, PSRFEPE
    default: break
    }
    var new = NewData(time: time)
    switch data {
    case .nothing: break
    case .heading(let magnetic, let variation):
      new.magneticTrack = magnetic
      new.magneticVariation = variation
    case .garminAltitude(let feet, let mode):
      new.altitudeMSL = feet.map { Double($0) * 0.3048 }
      if let mode, (1...3).contains(mode) { new.mode = mode }
    case .faultDetection(let time, let latitudeError, let longitudeError, let altitudeError):
      // gpsd compares the hour, minute and second with the fix's time of day.
      if let time, let current = nmeaTime,
        time.nanosecondsSinceMidnight / 1_000_000_000 == current.nanosecondsSinceMidnight / 1_000_000_000
      {
        new.epy = latitudeError
        new.epx = longitudeError
        new.epv = altitudeError
      }
    case .garminErrors(let horizontal, let vertical, let spherical):
      new.epx = horizontal * (1 / 2.0.squareRoot()) * Self.garminErrorScale
      new.epy = new.epx
      new.epv = vertical * Self.garminErrorScale
      new.sep = spherical * Self.garminErrorScale
    case .sirfErrors(let hdop, let eph, let epv, let eps, let epd):
      if let hdop {
        dops.horizontal = hdop
        new.setsDOP = true
      }
      new.eph = eph
      new.epv = epv
      new.eps = eps
      new.epd = epd
    case .velocity(let north, let east, let down):
      new.velocity = (north, east, down)
    case .status(let status):
      new.status = status
    case .skyComplete:
      new.completesSky = true
    case .averagedPosition(let latitude, let longitude, let altitudeHAE):
      new.position = (latitude, longitude)
      new.altitudeHAE = altitudeHAE
    }
    merge(new, latched: latched)
  }

  // MARK: Merging (gpsd_poll) and derived members (gpsd_error_model)

  private mutating func merge(
    _ new: NewData, latched: NMEATimeOfDay?, keepsGSATalker: Bool = false, isGSV: Bool = false
  ) {
    if !keepsGSATalker { lastGSATalker = nil }
    sky.endRuns(gsv: isGSV, gsa: keepsGSATalker)
    var mode = new.mode
    // gpsd does not downgrade a 3D fix while the last fixes had an altitude (RMC and GSA 2D
    // after a GGA with one), unless the sentence says there is no fix.
    if let m = mode, m != 1, fix.mode == 3,
      lastFix.hasAltitude || oldFix.hasAltitude
    {
      mode = 3
    }
    var newCycle = false
    if let latched {
      // gpsd's last time starts at 0, so the first one starts a cycle too (unless it is midnight).
      let last = lastLatchedTime?.nanosecondsSinceMidnight ?? 0
      if abs(latched.nanosecondsSinceMidnight - last) > 10_000_000 {
        // A new reporting cycle: the fix is cleared, and the DOPs unless this sentence gave one.
        if !new.setsDOP { dops = GPSDDOPs() }
        fix = Fix()
        newCycle = true
      }
      lastLatchedTime = latched
    }
    // gpsd runs its error model after every sentence, but on the same fix and DOPs it gives
    // the same members: a sentence that gave nothing (a GSV before the last of its set, one
    // gpsd does not decode) is skipped.
    if new.isEmpty && !newCycle && mode == nil { return }
    if let time = new.time { fix.time = time }
    if let p = new.position {
      fix.latitude = p.latitude
      fix.longitude = p.longitude
    }
    if let mode { fix.mode = mode }
    if let altitude = new.altitudeMSL { fix.altitudeMSL = altitude }
    if let altitude = new.altitudeHAE, altitude.isFinite { fix.altitudeHAE = altitude }
    if let separation = new.geoidSeparation { fix.geoidSeparation = separation }
    if let speed = new.speed {
      fix.speed = speed
      fix.derivedSpeed = nil
    }
    if let track = new.track { fix.track = track }
    if let magnetic = new.magneticTrack { fix.magneticTrack = magnetic }
    if let variation = new.magneticVariation {
      fix.magneticVariation = variation
      fix.modelVariationAt = nil
    }
    // The status only rises within a cycle.
    if let status = new.status, status > fix.status { fix.status = status }
    if let epx = new.epx, let epy = new.epy, epx.isFinite, epy.isFinite {
      fix.epx = epx
      fix.epy = epy
    }
    if let epv = new.epv, epv.isFinite { fix.epv = epv }
    if let sep = new.sep, sep.isFinite { fix.sep = sep }
    if let eph = new.eph, eph.isFinite { fix.eph = eph }
    if let eps = new.eps, eps.isFinite { fix.eps = eps }
    if let epd = new.epd, epd.isFinite { fix.epd = epd }
    if let velocity = new.velocity {
      fix.velocityNorth = velocity.north
      fix.velocityEast = velocity.east
      fix.velocityDown = velocity.down
    }
    if new.completesSky { sky.fillDOPs(&dops) }
    deriveMembers(receiverGaveHorizontalErrors: new.epx != nil, receiverGaveSpeedError: new.eps != nil)
  }

  /// gpsd's error model after every sentence (`gpsd_error_model`).
  private mutating func deriveMembers(receiverGaveHorizontalErrors: Bool, receiverGaveSpeedError: Bool) {
    var seconds = -1.0
    if fix.time > 0 {
      seconds = Double(fix.time - lastFix.time) / 1e9
      if abs(seconds) > 0.0099 {
        oldFix = lastFix  // the time moved: the last fix is now the previous time stamp's
      } else {
        seconds = Double(fix.time - oldFix.time) / 1e9
      }
    }
    if abs(fix.speed) > 9999.9 { fix.speed = .nan }
    // A velocity gives the climb, speed and track a sentence did not.
    for keyPath in [\Fix.velocityNorth, \Fix.velocityEast, \Fix.velocityDown] where abs(fix[keyPath: keyPath]) > 9999.9 {
      fix[keyPath: keyPath] = .nan
    }
    if abs(fix.climb) > 9999.9 { fix.climb = .nan }
    if fix.velocityDown.isFinite && !fix.climb.isFinite { fix.climb = -fix.velocityDown }
    if fix.velocityNorth.isFinite && fix.velocityEast.isFinite {
      if !fix.speed.isFinite {
        fix.speed = (fix.velocityNorth * fix.velocityNorth + fix.velocityEast * fix.velocityEast).squareRoot()
        fix.derivedSpeed = nil
      }
      if !fix.track.isFinite { fix.track = atan2(fix.velocityEast, fix.velocityNorth) * 180 / .pi }
    }
    if fix.latitude.isFinite, fix.longitude.isFinite {
      if !fix.geoidSeparation.isFinite {
        fix.geoidSeparation = WGS84Geoid.separation(latitude: fix.latitude, longitude: fix.longitude)
      }
      if (!fix.magneticVariation.isFinite || abs(fix.magneticVariation) <= 0.09) && fix.modelVariationAt == nil {
        fix.modelVariationAt = (fix.latitude, fix.longitude)
      }
    }
    // A true track from a magnetic one. (gpsd also derives the magnetic track from the true one,
    // which nothing here reports.)
    if fix.magneticTrack.isFinite && !fix.track.isFinite {
      let variation =
        fix.modelVariationAt.map { MagneticVariation.degrees(latitude: $0.latitude, longitude: $0.longitude) }
        ?? fix.magneticVariation
      if variation.isFinite { fix.track = normalizedDegrees(fix.magneticTrack - variation) }
    }
    fix.track = normalizedDegrees(fix.track)
    if fix.geoidSeparation.isFinite {
      if fix.altitudeHAE.isFinite && !fix.altitudeMSL.isFinite {
        fix.altitudeMSL = fix.altitudeHAE - fix.geoidSeparation
      } else if !fix.altitudeHAE.isFinite && fix.altitudeMSL.isFinite {
        fix.altitudeHAE = fix.altitudeMSL + fix.geoidSeparation
      }
    }
    if abs(fix.climb) > 9999.9 { fix.climb = .nan }
    if seconds > 0, fix.mode >= 2, oldFix.mode >= 2 {
      if !fix.speed.isFinite, fix.derivedSpeed == nil {
        fix.derivedSpeed = DerivedSpeed(
          from: (oldFix.latitude, oldFix.longitude), to: (fix.latitude, fix.longitude), seconds: seconds)
      }
      if fix.mode >= 3, oldFix.mode >= 3, !fix.climb.isFinite, fix.altitudeHAE.isFinite, oldFix.altitudeHAE.isFinite {
        fix.climb = (fix.altitudeHAE - oldFix.altitudeHAE) / seconds
        if abs(fix.climb) > 9999.9 { fix.climb = .nan }
      }
    }
    if fix.time > 0, !fix.ept.isFinite { fix.ept = GPSDRangeErrors.timeError }
    if fix.mode >= 2 {
      deriveErrors(
        seconds: seconds, receiverGaveHorizontalErrors: receiverGaveHorizontalErrors,
        receiverGaveSpeedError: receiverGaveSpeedError)
    }
    if fix.time > 0 { lastFix = Earlier(fix) }
  }

  /// The error members from the DOPs and the previous time stamp's fix, as gpsd derives them.
  private mutating func deriveErrors(
    seconds: Double, receiverGaveHorizontalErrors: Bool, receiverGaveSpeedError: Bool
  ) {
    let ranges = fix.status == 2 ? GPSDRangeErrors.differential : .standalone
    // epx and epy follow the DOPs after every sentence that gave none of its own.
    if !receiverGaveHorizontalErrors {
      if dops.x.isFinite { fix.epx = dops.x * ranges.horizontal }
      if dops.y.isFinite { fix.epy = dops.y * ranges.horizontal }
    }
    // The others keep the first value of the cycle.
    if fix.mode >= 3, !fix.epv.isFinite, dops.vertical.isFinite { fix.epv = dops.vertical * ranges.vertical }
    if !fix.eph.isFinite, dops.horizontal.isFinite { fix.eph = dops.horizontal * ranges.position }
    if !fix.sep.isFinite, dops.position.isFinite { fix.sep = dops.position * ranges.position }
    guard seconds > 0, oldFix.mode >= 2 else { return }
    func larger(_ a: Double, _ b: Double) -> Double { a > b ? a : b }  // gpsd's EMAX, NaN and all
    if !receiverGaveSpeedError, oldFix.epx.isFinite, oldFix.epy.isFinite {
      fix.eps = (larger(oldFix.epx, oldFix.epy) + larger(fix.epx, fix.epy)) / seconds
    }
    if !fix.epd.isFinite {
      let opp = larger(fix.epx, fix.epy)
      let inputs = CourseErrorInputs(
        from: (oldFix.latitude, oldFix.longitude), to: (fix.latitude, fix.longitude), positionError: opp)
      // The same positions and error as the last sentence's give the same (missing) answer.
      if inputs != lastCourseErrorInputs {
        lastCourseErrorInputs = inputs
        // The track error needs the distance moved only when it exceeds the position error: a
        // flat-earth distance (within 1 % at these ranges) spares Vincenty's iteration otherwise.
        if Self.roughMetres(oldFix.latitude, oldFix.longitude, fix.latitude, fix.longitude) >= opp * 0.97,
          let adj = EllipsoidalDistance.metres(
            from: oldFix.latitude, oldFix.longitude, to: fix.latitude, fix.longitude),
          adj.isFinite, adj > opp
        {
          let hyp = (adj * adj + opp * opp).squareRoot()
          fix.epd = 2 * asin(opp / hyp) * 180 / .pi
        }
      }
    }
    if fix.epv.isFinite, oldFix.epv.isFinite { fix.epc = (oldFix.epv + fix.epv) / seconds }
  }

  /// What gpsd's course error was last tried with (it is tried after every sentence until it
  /// can be computed).
  private struct CourseErrorInputs: Equatable {
    var from: (Double, Double)
    var to: (Double, Double)
    var positionError: Double

    static func == (a: Self, b: Self) -> Bool {
      // Bitwise, so that NaN inputs compare equal to themselves.
      a.from.0.bitPattern == b.from.0.bitPattern && a.from.1.bitPattern == b.from.1.bitPattern
        && a.to.0.bitPattern == b.to.0.bitPattern && a.to.1.bitPattern == b.to.1.bitPattern
        && a.positionError.bitPattern == b.positionError.bitPattern
    }
  }

  /// An equirectangular distance, metres: NaN for positions not finite; within 1 % of the
  /// ellipsoidal distance for anything shorter than a few hundred kilometres.
  private static func roughMetres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    let radians = Double.pi / 180
    var dLon = abs(lon2 - lon1)
    if dLon > 180 { dLon = 360 - dLon }
    let x = dLon * radians * cos((lat1 + lat2) / 2 * radians)
    let y = (lat2 - lat1) * radians
    return (x * x + y * y).squareRoot() * 6_371_000
  }

  /// gpsd's `DEG_NORM`: one turn added or taken away to bring an angle into 0..<360.
  private func normalizedDegrees(_ degrees: Double) -> Double {
    if degrees < 0 { return degrees + 360 }
    if degrees >= 360 { return degrees - 360 }
    return degrees
  }
}
