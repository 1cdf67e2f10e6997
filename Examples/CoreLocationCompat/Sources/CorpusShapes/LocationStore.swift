// Shape of SwiftyForecast's and GeoMonitor's location stores: an ObservableObject with
// @Published properties in a file that imports Foundation and CoreLocation only (on Apple
// platforms Foundation makes Combine's ObservableObject and Published visible), and a
// DateComponentsFormatter for "updated 5 min ago".
import CoreLocation
import Foundation

public final class LocationStore: NSObject, ObservableObject, CLLocationManagerDelegate {
  @Published public private(set) var status: CLAuthorizationStatus = .notDetermined
  @Published public private(set) var location: CLLocation?
  private let manager = CLLocationManager()

  private let ageFormatter: DateComponentsFormatter = {
    let formatter = DateComponentsFormatter()
    formatter.allowedUnits = [.hour, .minute, .second]
    formatter.unitsStyle = .abbreviated
    formatter.maximumUnitCount = 1
    return formatter
  }()

  public override init() {
    super.init()
    manager.delegate = self
  }

  public func start() {
    manager.requestWhenInUseAuthorization()
    manager.startUpdatingLocation()
  }

  /// "5m ago", for the last location, as of `now`.
  public func age(at now: Date) -> String? {
    guard let location else { return nil }
    return ageFormatter.string(from: now.timeIntervalSince(location.timestamp)).map { "\($0) ago" }
  }

  public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) { status = manager.authorizationStatus }

  public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    location = locations.last
  }
}
