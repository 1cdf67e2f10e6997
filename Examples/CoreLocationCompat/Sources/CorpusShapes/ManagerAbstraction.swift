// Shape of CombineLocationManager's "system location manager": a protocol that lists the
// manager's own members by Apple's signatures, met by CLLocationManager (and a subclass with a
// required initializer) through an empty extension. A member here only as a defaulted form
// (`withPurposeKey:completion: = nil`) or only async does not meet the requirement of the same
// name; on iOS each of these is a method of its own.
import CoreLocation

/// Every member an abstraction of the manager names, as Apple declares it.
public protocol LocationManaging: AnyObject {
  var delegate: (any CLLocationManagerDelegate)? { get set }
  var desiredAccuracy: CLLocationAccuracy { get set }
  var distanceFilter: CLLocationDistance { get set }
  var activityType: CLActivityType { get set }
  var pausesLocationUpdatesAutomatically: Bool { get set }
  var allowsBackgroundLocationUpdates: Bool { get set }
  var showsBackgroundLocationIndicator: Bool { get set }
  var headingFilter: CLLocationDegrees { get set }
  var headingOrientation: CLDeviceOrientation { get set }
  var location: CLLocation? { get }
  var heading: CLHeading? { get }
  var authorizationStatus: CLAuthorizationStatus { get }
  var accuracyAuthorization: CLAccuracyAuthorization { get }
  var monitoredRegions: Set<CLRegion> { get }
  var maximumRegionMonitoringDistance: CLLocationDistance { get }
  var rangedBeaconConstraints: Set<CLBeaconIdentityConstraint> { get }

  static func locationServicesEnabled() -> Bool
  static func headingAvailable() -> Bool
  static func significantLocationChangeMonitoringAvailable() -> Bool
  static func isMonitoringAvailable(for regionClass: AnyClass) -> Bool
  static func isRangingAvailable() -> Bool

  func requestWhenInUseAuthorization()
  func requestAlwaysAuthorization()
  func requestTemporaryFullAccuracyAuthorization(withPurposeKey purposeKey: String)
  func requestTemporaryFullAccuracyAuthorization(withPurposeKey purposeKey: String, completion: (@Sendable ((any Error)?) -> Void)?)
  func requestLocation()
  func startUpdatingLocation()
  func stopUpdatingLocation()
  func startMonitoringSignificantLocationChanges()
  func stopMonitoringSignificantLocationChanges()
  func startMonitoringVisits()
  func stopMonitoringVisits()
  func startUpdatingHeading()
  func stopUpdatingHeading()
  func dismissHeadingCalibrationDisplay()
  func startMonitoring(for region: CLRegion)
  func stopMonitoring(for region: CLRegion)
  func requestState(for region: CLRegion)
  func startRangingBeacons(satisfying constraint: CLBeaconIdentityConstraint)
  func stopRangingBeacons(satisfying constraint: CLBeaconIdentityConstraint)
}

extension CLLocationManager: LocationManaging {}

/// The subclass such a library makes, with the initializer its protocol requires.
public final class SystemLocationManager: CLLocationManager {
  public private(set) var label: String

  public required init(label: String) {
    self.label = label
    super.init()
  }
}

/// What the app does through the abstraction alone: asks, then one location.
public final class AbstractedLocator: NSObject, CLLocationManagerDelegate {
  private let manager: any LocationManaging
  public private(set) var locations: [CLLocation] = []

  public init(manager: any LocationManaging) {
    self.manager = manager
    super.init()
    manager.delegate = self
  }

  public func start() { manager.requestWhenInUseAuthorization() }

  public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
    if manager.authorizationStatus == .authorizedWhenInUse { self.manager.requestLocation() }
  }

  public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    self.locations += locations
  }
}
