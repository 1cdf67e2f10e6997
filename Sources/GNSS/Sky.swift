import Foundation

/// Where a receiver is: WGS 84 latitude and longitude (degrees) and height above the ellipsoid
/// (metres).
public struct ReceiverPosition: Hashable, Sendable {
  /// WGS 84 latitude, degrees north.
  public var latitude: Double
  /// WGS 84 longitude, degrees east.
  public var longitude: Double
  /// Height above the ellipsoid, metres.
  public var height: Double

  /// A position from its coordinates.
  ///
  /// - Parameters:
  ///   - latitude: WGS 84 latitude, degrees north.
  ///   - longitude: WGS 84 longitude, degrees east.
  ///   - height: Height above the ellipsoid, metres.
  public init(latitude: Double, longitude: Double, height: Double = 0) {
    self.latitude = latitude
    self.longitude = longitude
    self.height = height
  }

  static let semiMajorAxis = 6_378_137.0
  static let flattening = 1 / 298.257_223_563

  /// The position in the Earth-fixed frame.
  public var ecef: ECEF {
    let radians = Double.pi / 180
    let lat = latitude * radians, lon = longitude * radians
    let e2 = Self.flattening * (2 - Self.flattening)
    let n = Self.semiMajorAxis / (1 - e2 * sin(lat) * sin(lat)).squareRoot()
    return ECEF(
      x: (n + height) * cos(lat) * cos(lon), y: (n + height) * cos(lat) * sin(lon),
      z: (n * (1 - e2) + height) * sin(lat))
  }

  /// Azimuth (degrees from true north, 0..<360) and elevation (degrees above the horizon of the
  /// ellipsoid's normal) of `target` seen from here, and its range in metres.
  public func lookAngles(to target: ECEF) -> (azimuth: Double, elevation: Double, range: Double) {
    let radians = Double.pi / 180
    let lat = latitude * radians, lon = longitude * radians
    let me = ecef
    let dx = target.x - me.x, dy = target.y - me.y, dz = target.z - me.z
    let east = -sin(lon) * dx + cos(lon) * dy
    let north = -sin(lat) * cos(lon) * dx - sin(lat) * sin(lon) * dy + cos(lat) * dz
    let up = cos(lat) * cos(lon) * dx + cos(lat) * sin(lon) * dy + sin(lat) * dz
    let range = (dx * dx + dy * dy + dz * dz).squareRoot()
    var azimuth = atan2(east, north) / radians
    if azimuth < 0 { azimuth += 360 }
    return (azimuth, asin(up / range) / radians, range)
  }
}

/// One satellite as a receiver sees it.
public struct SatelliteView: Hashable, Sendable {
  /// The satellite's number in its system (see ``AlmanacEntry/prn``).
  public var prn: Int
  /// The satellite's system.
  public var system: GNSSSystem
  /// Degrees from true north.
  public var azimuth: Double
  /// Degrees above the horizon.
  public var elevation: Double
  /// Metres.
  public var range: Double

  /// A satellite as seen from a receiver.
  ///
  /// - Parameters:
  ///   - prn: The satellite's number in its system.
  ///   - azimuth: Degrees from true north.
  ///   - elevation: Degrees above the horizon.
  ///   - range: Distance from the receiver, metres.
  ///   - system: The satellite's system.
  public init(prn: Int, azimuth: Double, elevation: Double, range: Double, system: GNSSSystem = .gps) {
    self.prn = prn
    self.system = system
    self.azimuth = azimuth
    self.elevation = elevation
    self.range = range
  }
}

/// The satellites of an almanac above a receiver's horizon.
public struct Sky: Sendable {
  /// The satellites' orbits.
  public var almanac: [AlmanacEntry]
  /// Satellites below this elevation, degrees, are not in view (receivers use 5–15°).
  public var elevationMask: Double

  /// A sky of these satellites above this mask.
  ///
  /// - Parameters:
  ///   - almanac: The satellites' orbits; by default GPS's nominal constellation.
  ///   - elevationMask: The lowest elevation in view, degrees.
  public init(almanac: [AlmanacEntry] = NominalConstellation.almanac, elevationMask: Double = 5) {
    self.almanac = almanac
    self.elevationMask = elevationMask
  }

  /// The healthy satellites at or above the mask at `time` from `position`, by system and PRN.
  public func satellites(at time: GPSTime, from position: ReceiverPosition) -> [SatelliteView] {
    almanac.filter { $0.health == 0 }.compactMap { entry in
      let look = position.lookAngles(to: entry.position(at: time))
      guard look.elevation >= elevationMask else { return nil }
      return SatelliteView(prn: entry.prn, azimuth: look.azimuth, elevation: look.elevation, range: look.range, system: entry.system)
    }.sorted { ($0.system, $0.prn) < ($1.system, $1.prn) }
  }
}
