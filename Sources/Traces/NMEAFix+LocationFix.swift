import Foundation
public import Geo
public import NMEA
public import LocationModel

extension LocationFix {
  /// The fix an NMEA epoch describes, with the members gpsd reports for it.
  ///
  /// The accuracies are gpsd's: ``LocationFix/horizontalAccuracy`` is its `eph` (HDOP × 19 m
  /// without DGPS, see ``GPSDRangeErrors``), ``LocationFix/verticalAccuracy`` its `epv`, and
  /// ``LocationFix/errors`` its other estimates, so a replayed trace gives an app the
  /// accuracies gpsd would give it reading the same receiver. The altitudes, speed and course are
  /// the epoch's as gpsd reports them (``NMEAFix/altitudeHAE`` uses gpsd's geoid model where
  /// the receiver sends no separation).
  public init(_ fix: NMEAFix) {
    let coordinate: Coordinate? =
      if let lat = fix.latitude, let lon = fix.longitude { Coordinate(latitude: lat, longitude: lon) } else { nil }
    let mode: LocationFix.Mode = coordinate == nil ? .noFix : (LocationFix.Mode(rawValue: fix.mode.rawValue) ?? .noFix)
    let hasFix = coordinate != nil
    self.init(
      timestamp: fix.time.map { Date(timeIntervalSince1970: Double($0.nanosecondsSinceUnixEpoch) / 1e9) },
      mode: mode,
      coordinate: coordinate,
      altitudeMSL: hasFix ? fix.altitudeMSL : nil,
      altitudeHAE: hasFix ? fix.altitudeHAE : nil,
      speed: hasFix ? fix.speed : nil,
      course: hasFix ? fix.track : nil,
      horizontalAccuracy: hasFix ? fix.horizontalError : nil,
      verticalAccuracy: hasFix ? fix.verticalError : nil,
      climb: hasFix ? fix.climb : nil,
      geoidSeparation: hasFix ? fix.geoidSeparation : nil,
      magneticVariation: hasFix ? fix.magneticVariation : nil,
      status: fix.status,
      errors: hasFix ? fix.errors : .init(ept: fix.errors.ept)
    )
  }
}

extension NMEAFix {
  /// The members gpsd reports for this epoch that a ``LocationFix`` does not hold (its magnetic
  /// track, velocity and differential corrections), for a fix record (`locemu decode`).
  public var gpsdMembers: FixRecord.GPSDMembers {
    FixRecord.GPSDMembers(
      magneticTrack: magneticTrack, velocityNorth: velocityNorth, velocityEast: velocityEast, velocityDown: velocityDown,
      dgpsAge: dgpsAge, dgpsStation: dgpsStation)
  }
}
