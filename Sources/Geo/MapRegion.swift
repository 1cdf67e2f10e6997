public import LocationModel
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A rectangular area of the map, as MapKit's `MKCoordinateRegion`: a centre and the
/// latitude/longitude extent around it, in degrees.
public struct MapRegion: Hashable, Sendable, CustomStringConvertible {
  /// The region's centre.
  public var center: Coordinate
  /// North-to-south extent, degrees.
  public var latitudeDelta: Double
  /// East-to-west extent, degrees.
  public var longitudeDelta: Double

  /// The region `latitudeDelta` by `longitudeDelta` degrees around `center`.
  /// - Parameters:
  ///   - center: the region's centre.
  ///   - latitudeDelta: the north-to-south extent, degrees.
  ///   - longitudeDelta: the east-to-west extent, degrees.
  public init(center: Coordinate, latitudeDelta: Double, longitudeDelta: Double) {
    self.center = center
    self.latitudeDelta = latitudeDelta
    self.longitudeDelta = longitudeDelta
  }

  /// The region `latitudinalMeters` tall and `longitudinalMeters` wide around `center`
  /// (as `MKCoordinateRegion(center:latitudinalMeters:longitudinalMeters:)`).
  public init(center: Coordinate, latitudinalMeters: Double, longitudinalMeters: Double) {
    let metersPerDegree = Coordinate.earthRadius * .pi / 180
    let latitudeDelta = min(180, latitudinalMeters / metersPerDegree)
    let parallel = max(1e-9, cos(center.latitude * .pi / 180))
    let longitudeDelta = min(360, longitudinalMeters / (metersPerDegree * parallel))
    self.init(center: center, latitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta)
  }

  /// The southern, northern, western and eastern edges (latitudes clamped to ±90; longitudes may pass ±180).
  public var south: Double { max(-90, center.latitude - latitudeDelta / 2) }
  /// The northern edge's latitude (at most 90).
  public var north: Double { min(90, center.latitude + latitudeDelta / 2) }
  /// The western edge's longitude (may be below -180).
  public var west: Double { center.longitude - longitudeDelta / 2 }
  /// The eastern edge's longitude (may be above 180).
  public var east: Double { center.longitude + longitudeDelta / 2 }

  /// Whether `coordinate` lies inside the region (longitudes compared across the antimeridian).
  public func contains(_ coordinate: Coordinate) -> Bool {
    guard coordinate.latitude >= south, coordinate.latitude <= north else { return false }
    var dLon = (coordinate.longitude - center.longitude).truncatingRemainder(dividingBy: 360)
    if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
    return abs(dLon) <= longitudeDelta / 2
  }

  /// The smallest region around the same centre that contains this one and whose Web Mercator
  /// frame has the aspect ratio `width / height` (16/9 for the landing-page preview).
  public func fitted(aspectRatio: Double) -> MapRegion {
    let frame = WebMercator.frame(of: self)
    let (width, height) =
      frame.width / frame.height >= aspectRatio
      ? (frame.width, frame.width / aspectRatio) : (frame.height * aspectRatio, frame.height)
    return WebMercator.region(centeredAt: center, width: width, height: height)
  }

  /// The centre and the half-extents, as "… ±0.05°lat ±0.1°lon".
  public var description: String {
    "\(center) ±\(latitudeDelta / 2)°lat ±\(longitudeDelta / 2)°lon"
  }
}

extension Coordinate {
  /// The region of `radiusMeters` around this point in every direction (the iOS app's
  /// `Coordinate.mapRegion(radiusMeters:)`; 10 km by default).
  public func mapRegion(radiusMeters: Double = 10_000) -> MapRegion {
    MapRegion(center: self, latitudinalMeters: 2 * radiusMeters, longitudinalMeters: 2 * radiusMeters)
  }
}

/// The Web Mercator projection (EPSG:3857) of web maps and tile servers, in "world units":
/// x and y run 0…1 across the whole world, y growing southwards; multiply by `256 · 2^zoom`
/// for pixels of slippy-map tiles.
public enum WebMercator {
  /// The latitude where the projection is cut off (the world square), degrees.
  public static let maxLatitude = 85.051_128_779_806_59

  /// World coordinates of `coordinate` (x, y in 0…1; latitude clamped to ±``maxLatitude``).
  public static func project(_ coordinate: Coordinate) -> (x: Double, y: Double) {
    project(latitude: coordinate.latitude, longitude: coordinate.longitude)
  }

  /// World coordinates of a latitude and longitude (x, y in 0…1 for longitudes within ±180).
  /// - Parameters:
  ///   - latitude: degrees; clamped to ±``maxLatitude``.
  ///   - longitude: degrees.
  /// - Returns: the world coordinates, y growing southwards.
  public static func project(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
    let φ = min(maxLatitude, max(-maxLatitude, latitude)) * .pi / 180
    let x = (longitude + 180) / 360
    let y = (1 - log(tan(φ) + 1 / cos(φ)) / .pi) / 2
    return (x, y)
  }

  /// The coordinate at world coordinates (x wraps around, y is clamped to the world square).
  public static func coordinate(x: Double, y: Double) -> Coordinate {
    var longitude = x * 360 - 180
    longitude = (longitude + 180).truncatingRemainder(dividingBy: 360)
    if longitude < 0 { longitude += 360 }
    longitude -= 180
    let n = Double.pi * (1 - 2 * min(1, max(0, y)))
    let latitude = atan(sinh(n)) * 180 / .pi
    return Coordinate(latitude: latitude, longitude: longitude)!
  }

  /// How far `coordinate` lies from `origin` in world units, east and south positive, the short
  /// way round the antimeridian (dx in -0.5…0.5).
  public static func displacement(of coordinate: Coordinate, from origin: Coordinate) -> (dx: Double, dy: Double) {
    let o = project(origin), p = project(coordinate)
    var dx = p.x - o.x
    if dx > 0.5 { dx -= 1 } else if dx < -0.5 { dx += 1 }
    return (dx, p.y - o.y)
  }

  /// The width and height of `region` in world units.
  public static func frame(of region: MapRegion) -> (width: Double, height: Double) {
    let top = project(latitude: region.north, longitude: 0).y
    let bottom = project(latitude: region.south, longitude: 0).y
    return (region.longitudeDelta / 360, bottom - top)
  }

  /// The region whose world frame is `width` × `height` world units around `center`.
  public static func region(centeredAt center: Coordinate, width: Double, height: Double) -> MapRegion {
    let c = project(center)
    let north = coordinate(x: c.x, y: c.y - height / 2).latitude
    let south = coordinate(x: c.x, y: c.y + height / 2).latitude
    // The centre of a Mercator frame is not the middle latitude; keep the requested centre and
    // take the larger half so the frame is contained.
    let half = max(north - center.latitude, center.latitude - south)
    return MapRegion(center: center, latitudeDelta: min(180, 2 * half), longitudeDelta: min(360, width * 360))
  }

  /// Metres on the ground per world unit at `latitude` (the scale of the projection there).
  public static func metersPerWorldUnit(atLatitude latitude: Double) -> Double {
    2 * .pi * Coordinate.earthRadius * cos(min(maxLatitude, abs(latitude)) * .pi / 180)
  }
}
