import CoreLocation
import Foundation

/// Hours of daylight at the equinox: twelve everywhere but at the poles.
public func equinoxDaylightHours(at coordinate: CLLocationCoordinate2D) -> Double {
  abs(coordinate.latitude) >= 89.99 ? 0 : 12
}
