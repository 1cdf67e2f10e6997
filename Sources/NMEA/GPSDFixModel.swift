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
    /// track is derived from a magnetic one, the one use made of it here.
    var modelVariationAt: (latitude: Double, longitude: Double)?

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

    init() {}

    init(_ fix: Fix) {
      time = fix.time
      mode = fix.mode
      latitude = fix.latitude
      longitude = fix.longitude
      hasAltitude = fix.altitudeHAE.isFinite || fix.altitudeMSL.isFinite
    }
  }

  /// What one sentence says, and which members it sets (gpsd's `newdata` and mask).
  struct NewData {
    var time: Int64?
    var position: (latitude: Double, longitude: Double)?
    var mode: Int?
    var altitudeMSL: Double?
    var geoidSeparation: Double?
    var speed: Double?
    var track: Double?
    var magneticTrack: Double?
    var magneticVariation: Double?
  }

  /// What gpsd takes from the sentences this decoder does not otherwise interpret.
  enum Other {
    case nothing
    /// `$xxHDG`: the sensor's magnetic heading and, when given, the magnetic variation.
    case heading(magnetic: Double, variation: Double?)
    /// Garmin's `$PGRMZ`: altitude in feet and the fix mode.
    case garminAltitude(feet: Int?, mode: Int?)
  }

  private(set) var fix = Fix()
  private var lastFix = Earlier()
  private var oldFix = Earlier()
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

  mutating func gns(_ s: GNS, time: Int64?) {
    var new = NewData(time: s.time != nil ? time : nil)
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
      merge(new, latched: nil)
      return
    }
    new.time = time
    if let lat = s.latitude, let lon = s.longitude {
      new.position = (lat, lon)
      new.mode = lastFix.mode == 3 ? 3 : 2
    } else {
      new.mode = 1
    }
    new.speed = s.speedKnots.map { $0 * knotsToMetersPerSecond }
    new.track = s.track
    // Some receivers send 0.0 for an unknown variation; gpsd ignores it.
    if let variation = s.magneticVariation, abs(variation) > 0.09 { new.magneticVariation = variation }
    if satellitesUsed > 3 || fix.altitudeHAE.isFinite || fix.altitudeMSL.isFinite { new.mode = 3 }
    merge(new, latched: time != nil ? s.time : nil)
  }

  mutating func gll(_ s: GLL, time: Int64?) {
    var new = NewData(time: s.time != nil ? time : nil)
    if s.isValid == true, s.modeIndicator != "N", let lat = s.latitude, let lon = s.longitude {
      new.position = (lat, lon)
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
    }
    lastGSATalker = s.talker
    // gpsd ignores the mode of a GPS GSA once it has seen a GSA of another constellation.
    if s.talker != .gps { seenNonGPSGSA = true } else if seenNonGPSGSA { new.mode = nil }
    merge(new, latched: nil, keepsGSATalker: true)
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
    if time == nil, latched == nil, case .nothing = data {
      lastGSATalker = nil  // all that a sentence without data does here (GSV, most others)
      return
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
    }
    merge(new, latched: latched)
  }

  // MARK: Merging (gpsd_poll) and derived members (gpsd_error_model)

  private mutating func merge(_ new: NewData, latched: NMEATimeOfDay?, keepsGSATalker: Bool = false) {
    if !keepsGSATalker { lastGSATalker = nil }
    var mode = new.mode
    // gpsd does not downgrade a 3D fix while the last fixes had an altitude (RMC and GSA 2D
    // after a GGA with one), unless the sentence says there is no fix.
    if let m = mode, m != 1, fix.mode == 3,
      lastFix.hasAltitude || oldFix.hasAltitude
    {
      mode = 3
    }
    var changed =
      new.time != nil || new.position != nil || mode != nil || new.altitudeMSL != nil
      || new.geoidSeparation != nil || new.speed != nil || new.track != nil || new.magneticTrack != nil
      || new.magneticVariation != nil
    if let latched {
      // gpsd's last time starts at 0, so the first one starts a cycle too (unless it is midnight).
      let last = lastLatchedTime?.nanosecondsSinceMidnight ?? 0
      if abs(latched.nanosecondsSinceMidnight - last) > 10_000_000 {
        fix = Fix()  // a new reporting cycle
        changed = true
      }
      lastLatchedTime = latched
    }
    // gpsd's error model changes nothing when nothing was merged: skip it.
    guard changed else { return }
    if let time = new.time { fix.time = time }
    if let p = new.position {
      fix.latitude = p.latitude
      fix.longitude = p.longitude
    }
    if let mode { fix.mode = mode }
    if let altitude = new.altitudeMSL { fix.altitudeMSL = altitude }
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
    deriveMembers()
  }

  private mutating func deriveMembers() {
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
    if seconds > 0, fix.mode >= 2, oldFix.mode >= 2, !fix.speed.isFinite, fix.derivedSpeed == nil {
      fix.derivedSpeed = DerivedSpeed(
        from: (oldFix.latitude, oldFix.longitude), to: (fix.latitude, fix.longitude), seconds: seconds)
    }
    if fix.time > 0 { lastFix = Earlier(fix) }
  }

  /// gpsd's `DEG_NORM`: one turn added or taken away to bring an angle into 0..<360.
  private func normalizedDegrees(_ degrees: Double) -> Double {
    if degrees < 0 { return degrees + 360 }
    if degrees >= 360 { return degrees - 360 }
    return degrees
  }
}
