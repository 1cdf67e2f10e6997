public import Foundation

// The types and constants of CoreLocation's CLLocation.h, with Apple's names and values.

/// An angle in degrees: a latitude, a longitude or a heading.
public typealias CLLocationDegrees = Double
/// An accuracy in metres: the radius of uncertainty; negative means invalid.
public typealias CLLocationAccuracy = Double
/// A speed in metres per second; negative means unknown.
public typealias CLLocationSpeed = Double
/// The uncertainty of a speed, metres per second; negative means unknown.
public typealias CLLocationSpeedAccuracy = Double
/// A direction in degrees from north, clockwise; negative means unknown.
public typealias CLLocationDirection = Double
/// The uncertainty of a direction, degrees; negative means unknown.
public typealias CLLocationDirectionAccuracy = Double
/// A distance in metres.
public typealias CLLocationDistance = Double
/// One axis of the geomagnetic field, microteslas.
public typealias CLHeadingComponentValue = Double
/// A beacon's major value: a group of beacons.
public typealias CLBeaconMajorValue = UInt16
/// A beacon's minor value: one beacon of a group.
public typealias CLBeaconMinorValue = UInt16

/// Every location, however little it moved (`distanceFilter`).
public let kCLDistanceFilterNone: CLLocationDistance = -1
/// The highest accuracy, with additional sensor data (for navigation).
public let kCLLocationAccuracyBestForNavigation: CLLocationAccuracy = -2
/// The best accuracy available (the default `desiredAccuracy`).
public let kCLLocationAccuracyBest: CLLocationAccuracy = -1
/// An accuracy of about ten metres.
public let kCLLocationAccuracyNearestTenMeters: CLLocationAccuracy = 10
/// An accuracy of about a hundred metres.
public let kCLLocationAccuracyHundredMeters: CLLocationAccuracy = 100
/// An accuracy of about a kilometre. As a desired accuracy, it and coarser ones get network fixes (no altitude, speed or course).
public let kCLLocationAccuracyKilometer: CLLocationAccuracy = 1000
/// An accuracy of about three kilometres.
public let kCLLocationAccuracyThreeKilometers: CLLocationAccuracy = 3000
/// The accuracy an app gets with approximate location (iOS 14). Here, the emulator's
/// reduced-accuracy grid (3 km).
public let kCLLocationAccuracyReduced: CLLocationAccuracy = 3000
/// The largest distance.
public let CLLocationDistanceMax: CLLocationDistance = .greatestFiniteMagnitude
/// The longest time interval.
public let CLTimeIntervalMax: TimeInterval = .greatestFiniteMagnitude
/// Every heading change (`headingFilter`).
public let kCLHeadingFilterNone: CLLocationDegrees = -1

/// A latitude and longitude in degrees, WGS 84. As in the SDK, it is neither Equatable nor
/// Hashable nor Codable: apps that want those add them.
public struct CLLocationCoordinate2D: Sendable {
  /// Degrees north of the equator (south when negative), -90…90.
  public var latitude: CLLocationDegrees
  /// Degrees east of the prime meridian (west when negative), -180…180.
  public var longitude: CLLocationDegrees

  /// (0, 0).
  public init() {
    latitude = 0
    longitude = 0
  }

  /// A coordinate from its latitude and longitude; it is not checked (see `CLLocationCoordinate2DIsValid(_:)`).
  ///
  /// - Parameters:
  ///   - latitude: Degrees north, -90…90.
  ///   - longitude: Degrees east, -180…180.
  public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
    self.latitude = latitude
    self.longitude = longitude
  }
}

/// The invalid coordinate: (-180, -180).
public let kCLLocationCoordinate2DInvalid = CLLocationCoordinate2D(latitude: -180, longitude: -180)

/// Whether `coord` is a coordinate: latitude within ±90, longitude within ±180.
public func CLLocationCoordinate2DIsValid(_ coord: CLLocationCoordinate2D) -> Bool {
  (-90...90).contains(coord.latitude) && (-180...180).contains(coord.longitude)
}

/// A coordinate from its latitude and longitude.
public func CLLocationCoordinate2DMake(_ latitude: CLLocationDegrees, _ longitude: CLLocationDegrees) -> CLLocationCoordinate2D {
  CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}

/// The app's authorization to use location services.
public enum CLAuthorizationStatus: Int32, Sendable {
  /// The user has not been asked yet.
  case notDetermined = 0
  /// The app may not use location, and the user cannot change that (parental controls, a profile).
  case restricted = 1
  /// The user denied the app, or Location Services are off.
  case denied = 2
  /// The app may use location at any time, in the background too.
  case authorizedAlways = 3
  /// The app may use location while it is in use.
  case authorizedWhenInUse = 4

  /// Authorized (the name before iOS 8): `authorizedAlways`.
  @available(*, deprecated, message: "Use authorizedAlways")
  public static var authorized: CLAuthorizationStatus { .authorizedAlways }
}

/// Precise or approximate location (iOS 14).
public enum CLAccuracyAuthorization: Int, Sendable {
  /// Precise location.
  case fullAccuracy = 0
  /// Approximate location only.
  case reducedAccuracy = 1
}

/// What the user does while the app gets locations: decides when updates may pause.
public enum CLActivityType: Int, Sendable {
  /// An unknown or other activity: the default.
  case other = 1
  /// Driving a vehicle on roads.
  case automotiveNavigation = 2
  /// Walking, running or cycling.
  case fitness = 3
  /// Travelling other than by car, such as by boat or train.
  case otherNavigation = 4
  /// Flying.
  case airborne = 5
}

/// The device's physical orientation (for headings).
public enum CLDeviceOrientation: Int32, Sendable {
  /// Not known.
  case unknown = 0
  /// Upright, the home button at the bottom.
  case portrait = 1
  /// Upside down, the home button at the top.
  case portraitUpsideDown = 2
  /// On its side, the home button on the right.
  case landscapeLeft = 3
  /// On its side, the home button on the left.
  case landscapeRight = 4
  /// Flat, the screen up.
  case faceUp = 5
  /// Flat, the screen down.
  case faceDown = 6
}

/// Where the device is relative to a region.
public enum CLRegionState: Int, Sendable {
  /// Not decided yet.
  case unknown = 0
  /// Inside the region.
  case inside = 1
  /// Outside the region.
  case outside = 2
}

/// How near a beacon is.
public enum CLProximity: Int, Sendable {
  /// Not known.
  case unknown = 0
  /// Very close: centimetres away.
  case immediate = 1
  /// Near: a few metres away.
  case near = 2
  /// Further away, or the signal is weak.
  case far = 3
}
