public import Foundation

// The types and constants of CoreLocation's CLLocation.h, with Apple's names and values.

public typealias CLLocationDegrees = Double
public typealias CLLocationAccuracy = Double
public typealias CLLocationSpeed = Double
public typealias CLLocationSpeedAccuracy = Double
public typealias CLLocationDirection = Double
public typealias CLLocationDirectionAccuracy = Double
public typealias CLLocationDistance = Double
public typealias CLHeadingComponentValue = Double
public typealias CLBeaconMajorValue = UInt16
public typealias CLBeaconMinorValue = UInt16

/// Every location, however little it moved (`distanceFilter`).
public let kCLDistanceFilterNone: CLLocationDistance = -1
/// The highest accuracy, with additional sensor data (for navigation).
public let kCLLocationAccuracyBestForNavigation: CLLocationAccuracy = -2
/// The best accuracy available (the default `desiredAccuracy`).
public let kCLLocationAccuracyBest: CLLocationAccuracy = -1
public let kCLLocationAccuracyNearestTenMeters: CLLocationAccuracy = 10
public let kCLLocationAccuracyHundredMeters: CLLocationAccuracy = 100
public let kCLLocationAccuracyKilometer: CLLocationAccuracy = 1000
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
  public var latitude: CLLocationDegrees
  public var longitude: CLLocationDegrees

  /// (0, 0).
  public init() {
    latitude = 0
    longitude = 0
  }

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
  case notDetermined = 0
  case restricted = 1
  case denied = 2
  case authorizedAlways = 3
  case authorizedWhenInUse = 4

  /// Authorized (the name before iOS 8): `authorizedAlways`.
  @available(*, deprecated, message: "Use authorizedAlways")
  public static var authorized: CLAuthorizationStatus { .authorizedAlways }
}

/// Precise or approximate location (iOS 14).
public enum CLAccuracyAuthorization: Int, Sendable {
  case fullAccuracy = 0
  case reducedAccuracy = 1
}

/// What the user does while the app gets locations: decides when updates may pause.
public enum CLActivityType: Int, Sendable {
  case other = 1
  case automotiveNavigation = 2
  case fitness = 3
  case otherNavigation = 4
  case airborne = 5
}

/// The device's physical orientation (for headings).
public enum CLDeviceOrientation: Int32, Sendable {
  case unknown = 0
  case portrait = 1
  case portraitUpsideDown = 2
  case landscapeLeft = 3
  case landscapeRight = 4
  case faceUp = 5
  case faceDown = 6
}

/// Where the device is relative to a region.
public enum CLRegionState: Int, Sendable {
  case unknown = 0
  case inside = 1
  case outside = 2
}

/// How near a beacon is.
public enum CLProximity: Int, Sendable {
  case unknown = 0
  case immediate = 1
  case near = 2
  case far = 3
}
