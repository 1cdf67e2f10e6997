import CoreLocation
import Foundation

extension MKMapView {
  /// Whether the user's place is within the region shown.
  public var isUserLocationVisible: Bool {
    guard showsUserLocation, let here = userLocation.location?.coordinate else { return false }
    let shown = region
    return abs(here.latitude - shown.center.latitude) <= shown.span.latitudeDelta / 2
      && abs(remainder(here.longitude - shown.center.longitude, 360)) <= shown.span.longitudeDelta / 2
  }

  func startLocatingUser() {
    delegate?.mapViewWillStartLocatingUser(self)
    let locator = UserLocator(map: self)
    userLocator = locator
    userLocation.isUpdating = true
    locator.manager.startUpdatingLocation()
  }

  func stopLocatingUser() {
    userLocator?.manager.stopUpdatingLocation()
    userLocator = nil
    userLocation.isUpdating = false
    delegate?.mapViewDidStopLocatingUser(self)
  }
}

/// The map's own location manager and its delegate: the fixes move ``MKMapView/userLocation``.
@MainActor
final class UserLocator: NSObject, CLLocationManagerDelegate {
  let manager = CLLocationManager()
  private weak var map: MKMapView?

  init(map: MKMapView) {
    self.map = map
    super.init()
    manager.delegate = self
  }

  nonisolated func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    let last = locations.last
    MainActor.assumeIsolated {
      guard let map, let last, map.userLocator === self else { return }
      map.userLocation.location = last
      map.delegate?.mapView(map, didUpdate: map.userLocation)
    }
  }

  nonisolated func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
    MainActor.assumeIsolated {
      guard let map, map.userLocator === self else { return }
      map.delegate?.mapView(map, didFailToLocateUserWithError: error)
    }
  }
}
