import CoreLocation

/// Written as for iOS: asks for permission, then keeps the last location it was told.
public final class Tracker: NSObject, CLLocationManagerDelegate {
  private let manager = CLLocationManager()
  public private(set) var lastLocation: CLLocation?

  public override init() {
    super.init()
    manager.delegate = self
  }

  public func start() {
    manager.requestWhenInUseAuthorization()
    manager.startUpdatingLocation()
  }

  public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    lastLocation = locations.last
  }
}
