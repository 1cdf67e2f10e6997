// Shape of ReanSn0w/LocationManager's store: an ObservableObject with no delegate, which follows
// the manager's `location` through Combine's key-value observing publisher
// (`publisher(for: \.location)`), in a file that imports MapKit and Combine; and of code that
// observes the authorization with `observe(_:options:changeHandler:)`.
import Combine
import MapKit

public final class KeyValueObservingStore: ObservableObject {
  public let locationManager = CLLocationManager()
  @Published public var currentLocation: CLLocation? = nil
  public private(set) var statuses: [CLAuthorizationStatus] = []
  private var locationCancellable: AnyCancellable? = nil
  private var statusObservation: NSKeyValueObservation?

  public init() {
    locationCancellable = locationManager.publisher(for: \.location)
      .sink(receiveValue: { newLocation in
        self.currentLocation = newLocation
      })
    statusObservation = locationManager.observe(\.authorizationStatus, options: [.initial, .new]) { [weak self] manager, change in
      if let status = change.newValue { self?.statuses.append(status) }
    }
  }

  public func start() {
    locationManager.desiredAccuracy = kCLLocationAccuracyBest
    locationManager.distanceFilter = kCLDistanceFilterNone
    locationManager.requestWhenInUseAuthorization()
    locationManager.startUpdatingLocation()
  }

  public func stop() {
    locationManager.stopUpdatingLocation()
    locationCancellable = nil
    statusObservation?.invalidate()
  }
}
