import Foundation
import Geo
public import NMEA
public import LocationServices

extension LocationFix {
  /// The fix an NMEA epoch describes.
  ///
  /// Horizontal accuracy comes from GST's 1-sigma latitude and longitude
  /// errors when the receiver sends GST, else it is estimated as HDOP × 5 m
  /// (a typical user-equivalent range error); vertical accuracy likewise from
  /// GST or VDOP. The altitudes, speed and course are the epoch's as gpsd reports them
  /// (``NMEAFix/altitudeHAE`` uses gpsd's geoid model where the receiver sends no separation).
  public init(_ fix: NMEAFix) {
    let coordinate: Coordinate? =
      if let lat = fix.latitude, let lon = fix.longitude { Coordinate(latitude: lat, longitude: lon) } else { nil }
    let mode: LocationFix.Mode = coordinate == nil ? .noFix : (LocationFix.Mode(rawValue: fix.mode.rawValue) ?? .noFix)
    var horizontal: Double?
    if let a = fix.latitudeError, let b = fix.longitudeError {
      horizontal = (a * a + b * b).squareRoot()
    } else if let hdop = fix.hdop, coordinate != nil {
      horizontal = hdop * LocationFix.userEquivalentRangeError
    }
    var vertical: Double?
    if let e = fix.altitudeError {
      vertical = e
    } else if let vdop = fix.vdop, fix.altitudeMSL != nil, coordinate != nil {
      vertical = vdop * LocationFix.userEquivalentRangeError
    }
    self.init(
      timestamp: fix.time.map { Date(timeIntervalSince1970: Double($0.nanosecondsSinceUnixEpoch) / 1e9) },
      mode: mode,
      coordinate: coordinate,
      altitudeMSL: coordinate == nil ? nil : fix.altitudeMSL,
      altitudeHAE: coordinate == nil ? nil : fix.altitudeHAE,
      speed: coordinate == nil ? nil : fix.speed,
      course: coordinate == nil ? nil : fix.track,
      horizontalAccuracy: horizontal,
      verticalAccuracy: vertical
    )
  }

  /// The range error, in metres, that multiplies a DOP into an accuracy estimate when no GST is sent.
  public static let userEquivalentRangeError = 5.0
}
