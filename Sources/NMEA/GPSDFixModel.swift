import Foundation
import Geo

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
    /// A magnetic track gpsd derived from the true one (`track + magnetic_var`), kept as what it
    /// was derived from (the variation: the receiver's, or its model's at a place) and worked
    /// out only when reported (``magneticTrackIfKnown``).
    var derivedMagneticTrack: (track: Double, variation: Double, modelAt: (latitude: Double, longitude: Double)?)?
    /// gpsd's status (`STATUS_*`): only raised within a cycle.
    var status = 0
    var climb = Double.nan
    /// gpsd's differential corrections' age (s) and station (-1: none).
    var dgpsAge = Double.nan
    var dgpsStation = -1
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

    /// The magnetic track gpsd holds (normalized to 0–360°): a sentence's, else the derived one.
    var magneticTrackIfKnown: Double? {
      if magneticTrack.isFinite { return GPSDFixModel.normalizedDegrees(magneticTrack) }
      guard let derived = derivedMagneticTrack else { return nil }
      let variation =
        derived.modelAt.map { MagneticVariation.degrees(latitude: $0.latitude, longitude: $0.longitude) } ?? derived.variation
      return variation.isFinite ? GPSDFixModel.normalizedDegrees(derived.track + variation) : nil
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

    /// Inlined: a call took the 328-byte fix by copy, after every sentence.
    @inline(__always)
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
  struct NewData: Sendable {
    var time: Int64?
    var position: (latitude: Double, longitude: Double)?
    var mode: Int?
    var altitudeMSL: Double?
    var altitudeHAE: Double?
    var geoidSeparation: Double?
    var speed: Double?
    var track: Double?
    /// A climb the sentence gives (`CLIMB_SET`: Ashtech's `$PASHR,POS`).
    var climb: Double?
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
    /// The age and station of differential corrections (GGA, GNS), merged when both are there.
    var dgps: (age: Double, station: Int)?
    /// Whether the sentence gave a DOP (`DOP_SET`): a cycle it starts keeps the DOPs.
    var setsDOP = false
    /// Whether it completed a set of satellites in view (`SATELLITE_SET`): DOPs from geometry follow.
    var completesSky = false

    /// Whether the sentence gave gpsd nothing: its error model then changes nothing either.
    var isEmpty: Bool {
      time == nil && position == nil && mode == nil && altitudeMSL == nil && altitudeHAE == nil
        && geoidSeparation == nil && speed == nil && track == nil && climb == nil && magneticTrack == nil
        && magneticVariation == nil && status == nil && epx == nil && epy == nil && epv == nil && sep == nil
        && eph == nil && eps == nil && epd == nil && velocity == nil && dgps == nil && !setsDOP && !completesSky
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
    case skyComplete(satellitesUsed: Int)
    /// A position a timing receiver averaged while surveying (Ericsson's `$PERC,GPavp`), with
    /// its height above the ellipsoid.
    case averagedPosition(latitude: Double, longitude: Double, altitudeHAE: Double)
    /// A proprietary fix (SkyTraq's `$PSTI,030`, Garmin's `$PGRMF`, Ashtech's `$PASHR,POS`,
    /// `$PGPSP`, Magellan's `$PMGNST`): the members its gpsd decoder sets, as the decoder read
    /// them, and the DOPs it gives.
    case fix(NewData, dops: GivenDOPs = GivenDOPs())
  }

  /// DOPs a proprietary sentence gives, taken as sent (nil: not given).
  struct GivenDOPs: Sendable {
    var position: Double?
    var horizontal: Double?
    var vertical: Double?
    var time: Double?
  }

  /// gpsd's scaling of Garmin's error estimates, which it takes for 50 % CEP, to its 95 %
  /// (`GPSD_CONFIDENCE / CEP50_SIGMA`).
  static let garminErrorScale = 2.45 / 1.18

  var fix = Fix()
  var lastFix = Earlier()
  var oldFix = Earlier()
  /// gpsd's DOPs: session state, cleared when a cycle starts with a sentence that gave none.
  var dops = GPSDDOPs()
  /// gpsd's satellites in view and used, for DOPs from geometry.
  var sky = GPSDSky()
  /// The time of day of the last sentence gpsd took a time from (its `nmea.date` hour, minute
  /// and second), which a GBS must match.
  var nmeaTime: NMEATimeOfDay?
  var lastCourseErrorInputs: CourseErrorInputs?
  /// gpsd's `satellites_used`, counted from GSA.
  var satellitesUsed = 0
  var lastGSATalker: NMEATalker?
  var seenNonGPSGSA = false
  var lastGGATalker: NMEATalker?
  /// The time field of the last GGA; gpsd starts with an empty one, which a GGA without a time repeats.
  var lastGGATime: NMEATimeOfDay?
  /// Whether the last GGA repeated the time stamp of the one before (gpsd's `latch_mode`).
  var latchMode = false
  var lastLatchedTime: NMEATimeOfDay?

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
    if let quality = s.quality, let status = Self.ggaStatus(quality) { new.status = status }
    if latchMode { new.status = 0 }
    if let hdop = s.hdop, GPSDDOPs.isValid(hdop) {
      dops.horizontal = hdop
      new.setsDOP = true
    }
    if let time = s.time { nmeaTime = time }
    // Both or neither, and not both zero.
    if let age = s.dgpsAge, let station = s.dgpsStation, age > 0.09 || station > 0 { new.dgps = (age, station) }
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

  /// gpsd's status for a GGA quality: 3 (PPS) is the Precise Positioning Service to gpsd; nil
  /// for a quality gpsd does not know. (A switch: a dictionary was hashed for every GGA.)
  static func ggaStatus(_ quality: Int) -> Int? {
    switch quality {
    case 0, 1, 2, 7, 8: quality
    case 3: 9
    case 4...6: quality - 1
    default: nil
    }
  }

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
    if let time = s.time { nmeaTime = time }
    defer { merge(new, latched: s.time) }
    // No mode letter, or N: no fix, and nothing else (gpsd reads only the first letter).
    guard let first = s.modeIndicators.utf8.first, first != UInt8(ascii: "N") else {
      new.mode = 1
      return
    }
    // Unsafe or not valid: the time only.
    guard !s.gpsdIgnoresFix else { return }
    new.status = Self.status(modeIndicator: first)
    if let age = s.dgpsAge, let station = s.dgpsStation { new.dgps = (age, station) }
    if let hdop = s.hdop {
      dops.horizontal = hdop
      new.setsDOP = true
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
  mutating func gsv(_ s: GSV) { mergeGSV(completesSky: sky.gsv(s)) }

  /// A GSV whose satellites are still to be read from `f`.
  mutating func gsv(talker: NMEATalker, _ header: GSV.Header, _ f: inout FieldReader) {
    mergeGSV(completesSky: sky.gsv(talker: talker, header, &f))
  }

  private mutating func mergeGSV(completesSky: Bool) {
    var new = NewData()
    new.completesSky = completesSky
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
    // A time taken as the current one is gpsd's `nmea.date` from now on (ZDA, PSRFEPE, PSTI,
    // PASHR); a GBS's is only compared with it.
    if case .faultDetection = data {
    } else if let latched, time != nil {
      nmeaTime = latched
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
    case .skyComplete(let used):
      satellitesUsed = used
      new.completesSky = true
    case .averagedPosition(let latitude, let longitude, let altitudeHAE):
      new.position = (latitude, longitude)
      new.altitudeHAE = altitudeHAE
    case .fix(var given, let givenDOPs):
      given.time = new.time
      new = given
      if let v = givenDOPs.position { dops.position = v }
      if let v = givenDOPs.horizontal { dops.horizontal = v }
      if let v = givenDOPs.vertical { dops.vertical = v }
      if let v = givenDOPs.time { dops.time = v }
      if givenDOPs.position ?? givenDOPs.horizontal ?? givenDOPs.vertical ?? givenDOPs.time != nil { new.setsDOP = true }
    }
    merge(new, latched: latched)
  }
}
