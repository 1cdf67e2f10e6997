public import Geo

/// Vincenty's distance on the WGS 84 ellipsoid, which gpsd uses to derive a speed from two
/// positions; it lives in Geo (CoreLocation's `distance(from:)` measures with it too), and this
/// name keeps code that found it in NMEA building.
public typealias EllipsoidalDistance = Geo.EllipsoidalDistance
