import Foundation

/// A point in the Earth-centred, Earth-fixed frame (WGS 84), metres.
public struct ECEF: Hashable, Sendable {
  /// Metres along the axis from the centre through 0° latitude, 0° longitude.
  public var x: Double
  /// Metres along the axis from the centre through 0° latitude, 90° E.
  public var y: Double
  /// Metres along the Earth's rotation axis, towards the North Pole.
  public var z: Double

  /// A point from its three coordinates.
  ///
  /// - Parameters:
  ///   - x: Metres towards 0° latitude, 0° longitude.
  ///   - y: Metres towards 0° latitude, 90° E.
  ///   - z: Metres towards the North Pole.
  public init(x: Double, y: Double, z: Double) {
    self.x = x
    self.y = y
    self.z = z
  }

  /// Distance from the Earth's centre, metres.
  public var radius: Double { (x * x + y * y + z * z).squareRoot() }
}

/// One satellite's almanac: the coarse Keplerian orbit the satellites broadcast for every
/// satellite, good to a few kilometres over days, as YUMA and SEM files give it for GPS (the
/// other systems' nominal constellations use the same elements, on GPS time). Angles in
/// radians, rates in radians per second.
public struct AlmanacEntry: Hashable, Sendable {
  /// The satellite's number in its system (GPS's PRN 1–32, GLONASS's slot 1–24, Galileo's and
  /// BeiDou's PRN).
  public var prn: Int
  /// Its system (GPS for YUMA and SEM files).
  public var system: GNSSSystem
  /// 0 when the satellite is healthy.
  public var health: Int
  /// The orbit's eccentricity (0 for a circle).
  public var eccentricity: Double
  /// The time the elements refer to (the almanac's week and time of applicability).
  public var reference: GPSTime
  /// The orbital plane's inclination to the equator, radians.
  public var inclination: Double
  /// Rate of right ascension of the ascending node.
  public var rateOfRightAscension: Double
  /// Square root of the semi-major axis, √m.
  public var sqrtSemiMajorAxis: Double
  /// Longitude of the ascending node at the start of the reference week (IS-GPS-200's Ω₀).
  public var longitudeOfAscendingNode: Double
  /// The argument of perigee, radians.
  public var argumentOfPerigee: Double
  /// The mean anomaly at the reference time, radians.
  public var meanAnomaly: Double
  /// Clock bias, seconds.
  public var clockBias: Double
  /// Clock drift, seconds per second.
  public var clockDrift: Double

  /// An almanac entry from its elements; angles in radians, rates in radians per second.
  ///
  /// - Parameters:
  ///   - prn: The satellite's number in its system.
  ///   - health: 0 when the satellite is healthy.
  ///   - eccentricity: The orbit's eccentricity.
  ///   - reference: The time the elements refer to.
  ///   - inclination: The orbital plane's inclination.
  ///   - rateOfRightAscension: The rate of right ascension of the ascending node.
  ///   - sqrtSemiMajorAxis: The square root of the semi-major axis, √m.
  ///   - longitudeOfAscendingNode: The node's longitude at the start of the reference week.
  ///   - argumentOfPerigee: The argument of perigee.
  ///   - meanAnomaly: The mean anomaly at the reference time.
  ///   - clockBias: The clock bias, seconds.
  ///   - clockDrift: The clock drift, seconds per second.
  ///   - system: The satellite's system.
  public init(
    prn: Int, health: Int = 0, eccentricity: Double, reference: GPSTime, inclination: Double,
    rateOfRightAscension: Double, sqrtSemiMajorAxis: Double, longitudeOfAscendingNode: Double,
    argumentOfPerigee: Double, meanAnomaly: Double, clockBias: Double = 0, clockDrift: Double = 0, system: GNSSSystem = .gps
  ) {
    self.prn = prn
    self.system = system
    self.health = health
    self.eccentricity = eccentricity
    self.reference = reference
    self.inclination = inclination
    self.rateOfRightAscension = rateOfRightAscension
    self.sqrtSemiMajorAxis = sqrtSemiMajorAxis
    self.longitudeOfAscendingNode = longitudeOfAscendingNode
    self.argumentOfPerigee = argumentOfPerigee
    self.meanAnomaly = meanAnomaly
    self.clockBias = clockBias
    self.clockDrift = clockDrift
  }

  /// WGS 84's gravitational constant for GPS, m³/s² (IS-GPS-200).
  public static let gravitationalConstant = 3.986005e14
  /// The Earth's rotation rate, rad/s (IS-GPS-200).
  public static let earthRotationRate = 7.2921151467e-5

  /// The satellite's position at `time` by IS-GPS-200's user algorithm for almanac data (table
  /// 20-IV without the harmonic corrections): mean motion, Kepler's equation by Newton's method,
  /// the argument of latitude, and the orbital plane rotated by the node's longitude, which moves
  /// with its own rate less the Earth's rotation.
  public func position(at time: GPSTime) -> ECEF {
    let a = sqrtSemiMajorAxis * sqrtSemiMajorAxis
    let n = (Self.gravitationalConstant / (a * a * a)).squareRoot()
    let tk = time.seconds(since: reference)
    let mk = meanAnomaly + n * tk
    let e = eccentricity
    var ek = mk
    for _ in 0..<20 {
      let step = (ek - e * sin(ek) - mk) / (1 - e * cos(ek))
      ek -= step
      if abs(step) < 1e-14 { break }
    }
    let nu = atan2((1 - e * e).squareRoot() * sin(ek), cos(ek) - e)
    let phi = nu + argumentOfPerigee
    let r = a * (1 - e * cos(ek))
    let xPlane = r * cos(phi), yPlane = r * sin(phi)
    let omega =
      longitudeOfAscendingNode + (rateOfRightAscension - Self.earthRotationRate) * tk
      - Self.earthRotationRate * reference.secondsOfWeek
    let cosO = cos(omega), sinO = sin(omega), cosI = cos(inclination)
    return ECEF(
      x: xPlane * cosO - yPlane * cosI * sinO, y: xPlane * sinO + yPlane * cosI * cosO, z: yPlane * sin(inclination))
  }
}
