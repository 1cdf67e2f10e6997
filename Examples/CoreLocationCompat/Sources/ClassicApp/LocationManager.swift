import Combine
import CoreLocation
import Foundation

/// The app-wide location manager of many Swift 5 apps: a singleton ObservableObject that is its
/// manager's delegate, publishes the status and the last location, and keeps a log of errors.
public class LocationManager: NSObject, ObservableObject, CLLocationManagerDelegate {
  public static let shared = LocationManager()

  @Published public private(set) var authorizationStatus: CLAuthorizationStatus = .notDetermined
  @Published public private(set) var lastLocation: CLLocation?
  @Published public private(set) var lastError: String?
  @Published public private(set) var isPaused = false

  public let manager: CLLocationManager

  public override init() {
    manager = CLLocationManager()
    super.init()
    manager.delegate = self
    manager.desiredAccuracy = kCLLocationAccuracyNearestTenMeters
    manager.distanceFilter = 10
    manager.activityType = .fitness
    manager.pausesLocationUpdatesAutomatically = true
    authorizationStatus = manager.authorizationStatus
  }

  public var statusText: String {
    switch authorizationStatus {
    case .notDetermined: return "notDetermined"
    case .restricted: return "restricted"
    case .denied: return "denied"
    case .authorizedAlways: return "authorizedAlways"
    case .authorizedWhenInUse: return "authorizedWhenInUse"
    @unknown default: return "unknown"
    }
  }

  public func requestPermission() {
    guard CLLocationManager.locationServicesEnabled() else {
      lastError = "Location Services are off"
      return
    }
    if manager.authorizationStatus == .notDetermined {
      manager.requestWhenInUseAuthorization()
    }
  }

  public func start() { manager.startUpdatingLocation() }
  public func stop() { manager.stopUpdatingLocation() }

  // MARK: CLLocationManagerDelegate

  public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
    authorizationStatus = manager.authorizationStatus
    switch manager.authorizationStatus {
    case .authorizedWhenInUse, .authorizedAlways:
      if manager.accuracyAuthorization == .reducedAccuracy { lastError = "approximate location only" }
      manager.startUpdatingLocation()
    case .denied, .restricted:
      manager.stopUpdatingLocation()
    default:
      break
    }
  }

  public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    guard let location = locations.last, location.horizontalAccuracy >= 0 else { return }
    // Old cached fixes are ignored, as apps do.
    if abs(location.timestamp.timeIntervalSinceNow) > 60 * 60 * 24 * 365 * 100 { return }
    lastLocation = location
  }

  public func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) {
    if let clError = error as? CLError {
      switch clError.code {
      case .denied: lastError = "denied"
      case .locationUnknown: lastError = "locationUnknown"
      default: lastError = "CLError \(clError.code.rawValue)"
      }
    } else {
      lastError = (error as NSError).localizedDescription
    }
  }

  public func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager) { isPaused = true }
  public func locationManagerDidResumeLocationUpdates(_ manager: CLLocationManager) { isPaused = false }
}
