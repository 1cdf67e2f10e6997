public import LocationModel
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Coordinate {
  /// The mean Earth radius (IUGG), metres; the sphere all great-circle figures here use.
  public static let earthRadius = 6_371_008.8

  /// Great-circle distance to `other`, metres (haversine; within 0.5 % of the ellipsoid).
  public func distance(to other: Coordinate) -> Double {
    let φ1 = latitude.radians, φ2 = other.latitude.radians
    let Δφ = φ2 - φ1, Δλ = (other.longitude - longitude).radians
    let a = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
    return 2 * Coordinate.earthRadius * atan2(a.squareRoot(), (1 - a).squareRoot())
  }

  /// Whether ``distance(to:)`` to `other` is less than `meters`: the same answer, without
  /// trigonometry for near points (see ``isDistance(to:atMost:)``).
  public func isDistance(to other: Coordinate, lessThan meters: Double) -> Bool {
    if let near = flatDistance(to: other, deciding: meters) { return near < meters }
    return distance(to: other) < meters
  }

  /// Whether ``distance(to:)`` to `other` is at most `meters`. The same answer as comparing
  /// ``distance(to:)``, decided for near points (the rules' usual case: a filter, a stillness
  /// radius) on a local flat projection, one cosine instead of the haversine's five calls.
  public func isDistance(to other: Coordinate, atMost meters: Double) -> Bool {
    if let near = flatDistance(to: other, deciding: meters) { return near <= meters }
    return distance(to: other) <= meters
  }

  /// The distance to `other` on the flat projection at their mean latitude (equirectangular),
  /// when it decides a comparison with `meters` as the haversine would; nil otherwise. Under
  /// 20 km and within 80° of the equator the projection differs from the great circle by less
  /// than 0.01 % (terms of order (d/R)² and (Δλ·sin φ)²), so any flat distance more than 1 %
  /// away from `meters` is on the same side of it as the haversine's; nearer ones are measured.
  private func flatDistance(to other: Coordinate, deciding meters: Double) -> Double? {
    guard abs(latitude) <= 80, abs(other.latitude) <= 80 else { return nil }
    let north = (other.latitude - latitude).radians * Coordinate.earthRadius
    guard abs(north) <= 20_000 else { return nil }
    var Δλ = other.longitude - longitude
    if Δλ > 180 { Δλ -= 360 } else if Δλ < -180 { Δλ += 360 }
    let east = Δλ.radians * cos(((latitude + other.latitude) / 2).radians) * Coordinate.earthRadius
    let flat = (north * north + east * east).squareRoot()
    guard flat <= 20_000, abs(flat - meters) > 0.01 * meters + 1e-6 else { return nil }
    return flat
  }

  /// Initial great-circle bearing to `other`, degrees true in 0..<360 (0 when the points coincide).
  public func bearing(to other: Coordinate) -> Double {
    let φ1 = latitude.radians, φ2 = other.latitude.radians
    let Δλ = (other.longitude - longitude).radians
    let y = sin(Δλ) * cos(φ2)
    let x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ)
    guard x != 0 || y != 0 else { return 0 }
    let degrees = atan2(y, x) * 180 / .pi
    return degrees < 0 ? degrees + 360 : degrees
  }

  /// The point a `fraction` (0…1) of the way along the great circle to `other`.
  public func interpolated(to other: Coordinate, fraction: Double) -> Coordinate {
    if fraction <= 0 { return self }
    if fraction >= 1 { return other }
    let δ = distance(to: other) / Coordinate.earthRadius
    guard δ > 1e-12 else { return self }
    let a = sin((1 - fraction) * δ) / sin(δ), b = sin(fraction * δ) / sin(δ)
    let φ1 = latitude.radians, λ1 = longitude.radians, φ2 = other.latitude.radians, λ2 = other.longitude.radians
    let x = a * cos(φ1) * cos(λ1) + b * cos(φ2) * cos(λ2)
    let y = a * cos(φ1) * sin(λ1) + b * cos(φ2) * sin(λ2)
    let z = a * sin(φ1) + b * sin(φ2)
    let φ = atan2(z, (x * x + y * y).squareRoot()), λ = atan2(y, x)
    return Coordinate(latitude: φ * 180 / .pi, longitude: λ * 180 / .pi) ?? self
  }
}

extension Double {
  fileprivate var radians: Double { self * .pi / 180 }
}
