import CoreLocation
import Foundation

/// Geofences the classic way: circular regions, entry and exit from the delegate, the 20-region
/// limit met by keeping the nearest ones.
public final class GeofenceManager: NSObject, CLLocationManagerDelegate {
  public private(set) var events: [String] = []
  public var onEvent: ((String) -> Void)?
  public let locationManager = CLLocationManager()

  public override init() {
    super.init()
    locationManager.delegate = self
  }

  /// Monitors up to 20 places nearest to `location` (iOS's limit per app).
  @discardableResult
  public func monitor(
    _ places: [(id: String, center: CLLocationCoordinate2D, radius: CLLocationDistance)], near location: CLLocation
  )
    -> Int
  {
    guard CLLocationManager.isMonitoringAvailable(for: CLCircularRegion.self) else { return 0 }
    for region in locationManager.monitoredRegions { locationManager.stopMonitoring(for: region) }
    let nearest = places.sorted {
      location.distance(from: CLLocation(latitude: $0.center.latitude, longitude: $0.center.longitude))
        < location.distance(from: CLLocation(latitude: $1.center.latitude, longitude: $1.center.longitude))
    }
    for place in nearest.prefix(20) {
      let radius = min(place.radius, locationManager.maximumRegionMonitoringDistance)
      let region = CLCircularRegion(center: place.center, radius: radius, identifier: place.id)
      region.notifyOnEntry = true
      region.notifyOnExit = true
      locationManager.startMonitoring(for: region)
    }
    return min(nearest.count, 20)
  }

  private func record(_ event: String) {
    events.append(event)
    onEvent?(event)
  }

  public func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
    record("enter \(region.identifier)")
  }

  public func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
    record("exit \(region.identifier)")
  }

  public func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {
    switch state {
    case .inside: record("inside \(region.identifier)")
    case .outside: record("outside \(region.identifier)")
    case .unknown: record("unknown \(region.identifier)")
    @unknown default: break
    }
  }

  public func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: Error) {
    record("failed \(region?.identifier ?? "-") \((error as NSError).code)")
  }
}
