#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Distances on the WGS 84 ellipsoid by Vincenty's inverse formula (T. Vincenty, "Direct and
/// inverse solutions of geodesics on the ellipsoid with application of nested equations",
/// Survey Review XXIII, 1975): the method gpsd uses to derive a speed from two positions, and the
/// model of iOS's `CLLocation.distance(from:)` (the evidence is where CoreLocation uses it).
public enum EllipsoidalDistance {
  static let semiMajorAxis = 6_378_137.0
  static let flattening = 1 / 298.257_223_563
  static let semiMinorAxis = 6_356_752.314_245

  /// Metres between two positions in degrees along the ellipsoid; 0 for the same point, nil when
  /// the iteration does not converge (nearly antipodal points).
  public static func metres(from lat1: Double, _ lon1: Double, to lat2: Double, _ lon2: Double) -> Double? {
    let f = flattening
    let radians = Double.pi / 180
    let l = (lon2 - lon1) * radians
    // Reduced latitudes.
    let u1 = atan((1 - f) * tan(lat1 * radians))
    let u2 = atan((1 - f) * tan(lat2 * radians))
    let sinU1 = sin(u1), cosU1 = cos(u1), sinU2 = sin(u2), cosU2 = cos(u2)
    var lambda = l
    var sinSigma = 0.0, cosSigma = 0.0, sigma = 0.0, cosSquaredAlpha = 0.0, cos2SigmaM = 0.0
    var converged = false
    for _ in 0..<100 {
      let sinLambda = sin(lambda), cosLambda = cos(lambda)
      let a = cosU2 * sinLambda
      let b = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
      sinSigma = (a * a + b * b).squareRoot()
      if sinSigma == 0 { return 0 }
      cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
      sigma = atan2(sinSigma, cosSigma)
      let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
      cosSquaredAlpha = 1 - sinAlpha * sinAlpha
      cos2SigmaM = cosSigma - 2 * sinU1 * sinU2 / cosSquaredAlpha
      if !cos2SigmaM.isFinite { cos2SigmaM = 0 }  // on the equator
      let c = f / 16 * cosSquaredAlpha * (4 + f * (4 - 3 * cosSquaredAlpha))
      let previous = lambda
      lambda = l + (1 - c) * f * sinAlpha * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (2 * cos2SigmaM * cos2SigmaM - 1)))
      if abs(lambda - previous) <= 1e-12 {
        converged = true
        break
      }
    }
    guard converged else { return nil }
    let a2 = semiMajorAxis * semiMajorAxis, b2 = semiMinorAxis * semiMinorAxis
    let uSquared = cosSquaredAlpha * (a2 - b2) / b2
    let bigA = 1 + uSquared / 16384 * (4096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)))
    let bigB = uSquared / 1024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)))
    let deltaSigma =
      bigB * sinSigma
      * (cos2SigmaM + bigB / 4
        * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) - bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma)
          * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
    return semiMinorAxis * bigA * (sigma - deltaSigma)
  }
}
