import Foundation
import Geo

// How gpsd merges a sentence's members into its fix (`gpsd_poll`) and fills the members it
// derives (`gpsd_error_model`).
extension GPSDFixModel {

  mutating func merge(
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
    if let climb = new.climb { fix.climb = climb }
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
    if let dgps = new.dgps, dgps.age.isFinite, dgps.station >= 0 {
      fix.dgpsAge = dgps.age
      fix.dgpsStation = dgps.station
    }
    if let velocity = new.velocity {
      fix.velocityNorth = velocity.north
      fix.velocityEast = velocity.east
      fix.velocityDown = velocity.down
    }
    if new.completesSky { sky.fillDOPs(&dops) }
    deriveMembers(receiverGaveHorizontalErrors: new.epx != nil, receiverGaveSpeedError: new.eps != nil)
  }

  /// gpsd's error model after every sentence (`gpsd_error_model`).
  mutating func deriveMembers(receiverGaveHorizontalErrors: Bool, receiverGaveSpeedError: Bool) {
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
    // (Written out: an array of key paths here was made and freed after every sentence.)
    if abs(fix.velocityNorth) > 9999.9 { fix.velocityNorth = .nan }
    if abs(fix.velocityEast) > 9999.9 { fix.velocityEast = .nan }
    if abs(fix.velocityDown) > 9999.9 { fix.velocityDown = .nan }
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
    // And a magnetic track from the true one, where the variation is known (gpsd derives it
    // once in a cycle: from then on it holds one).
    if !fix.magneticTrack.isFinite, fix.derivedMagneticTrack == nil, fix.track.isFinite,
      fix.modelVariationAt != nil || fix.magneticVariation.isFinite
    {
      fix.derivedMagneticTrack = (fix.track, fix.magneticVariation, fix.modelVariationAt)
    }
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
  mutating func deriveErrors(
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
  struct CourseErrorInputs: Equatable {
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
  static func roughMetres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    let radians = Double.pi / 180
    var dLon = abs(lon2 - lon1)
    if dLon > 180 { dLon = 360 - dLon }
    let x = dLon * radians * cos((lat1 + lat2) / 2 * radians)
    let y = (lat2 - lat1) * radians
    return (x * x + y * y).squareRoot() * 6_371_000
  }

  /// gpsd's `DEG_NORM`: one turn added or taken away to bring an angle into 0..<360.
  func normalizedDegrees(_ degrees: Double) -> Double { Self.normalizedDegrees(degrees) }

  static func normalizedDegrees(_ degrees: Double) -> Double {
    if degrees < 0 { return degrees + 360 }
    if degrees >= 360 { return degrees - 360 }
    return degrees
  }
}
