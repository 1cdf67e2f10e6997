public import Foundation
public import Traces

/// The bundled traces and announcements, as resources of the `SampleTraces` product, for tests
/// and demos outside this repository (each is described in `traces/README.md`).
///
/// ```swift
/// let phone = EmulatedPhone(.init(source: .trace(try SampleTraces.trace(.cityWalk))))
/// ```
public enum SampleTraces {
  /// A bundled file.
  public enum File: String, Sendable, CaseIterable {
    /// A walk round Warsaw's Old Town: 973 one-second epochs at 1.4 m/s, GGA + RMC.
    case cityWalk = "city-walk.nmea"
    /// The same walk as a GPX route without times.
    case oldTownRoute = "old-town-route.gpx"
    /// A 3.8 km drive along Aleje Jerozolimskie with two stops at traffic lights (326 epochs).
    case drive = "drive.nmea"
    case driveGPX = "drive.gpx"
    /// A drive through a tunnel: 56 fixes, 40 epochs without a fix, 83 fixes.
    case tunnel = "tunnel.nmea"
    case tunnelGPX = "tunnel.gpx"
    /// Lost-pet announcements around the walk (the backend's JSON).
    case announcements = "announcements.json"
    /// Three seconds of a KML `gx:Track` on Helsinki's Senate Square (times and altitudes).
    case helsinkiStepsKML = "helsinki-steps.kml"
  }

  /// Where the bundled `file` is.
  public static func url(_ file: File) -> URL {
    let name = file.rawValue as NSString
    guard let url = Bundle.module.url(forResource: name.deletingPathExtension, withExtension: name.pathExtension) else {
      preconditionFailure("the SampleTraces bundle has no \(file.rawValue)")
    }
    return url
  }

  /// The bundled trace `file`, ready to replay (`PhoneSource.trace(_:options:)`, `TraceReplay`).
  public static func trace(_ file: File) throws -> Trace { try Trace(path: url(file).path) }
}
