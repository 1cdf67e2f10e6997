import CoreLocation
import Foundation

/// What a tracker tells its delegate; the status call is optional, as in Objective-C-era APIs.
@objc public protocol PlaceTrackerDelegate: AnyObject {
  func tracker(_ tracker: PlaceTracker, didFind location: CLLocation)
  @objc optional func tracker(_ tracker: PlaceTracker, didChangeStatus status: CLAuthorizationStatus)
}

/// A location wrapper over CLLocationManager, in the delegate era's shape.
@objc public final class PlaceTracker: NSObject, CLLocationManagerDelegate {
  private let manager = CLLocationManager()
  public weak var delegate: PlaceTrackerDelegate?
  public private(set) var statuses: [CLAuthorizationStatus] = []
  public private(set) var becameActive = 0

  public override init() {
    super.init()
    manager.delegate = self
    NotificationCenter.default.addObserver(self, selector: #selector(appDidBecomeActive(_:)), name: PlaceTracker.didBecomeActive, object: nil)
  }

  public static let didBecomeActive = Notification.Name("PlaceKitDidBecomeActive")

  @objc private func appDidBecomeActive(_ notification: Notification) { becameActive += 1 }

  public func locate() { manager.requestLocation() }

  public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
    statuses.append(manager.authorizationStatus)
    delegate?.tracker?(self, didChangeStatus: manager.authorizationStatus)
  }

  public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    guard let last = locations.last else { return }
    delegate?.tracker(self, didFind: last)
  }

  public func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) {}
}
