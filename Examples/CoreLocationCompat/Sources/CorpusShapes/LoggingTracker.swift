// Shape of CalmGeo's and SpearLocationProvider's trackers: os.Logger with privacy options,
// `import os.log`, OSAllocatedUnfairLock, and ExtensionKit's `type(of: self).description()`.
import CoreLocation
import os
import os.log

public final class LoggingTracker: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
  private static let logger = Logger(subsystem: "com.example.tracker", category: "location")
  private let count = OSAllocatedUnfairLock(initialState: 0)
  private let manager = CLLocationManager()

  public var updates: Int { count.withLock { $0 } }
  public var className: String { type(of: self).description() }

  public override init() {
    super.init()
    manager.delegate = self
  }

  public func start() { manager.startUpdatingLocation() }

  public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    let total = count.withLock { value -> Int in
      value += locations.count
      return value
    }
    guard let location = locations.last else { return }
    Self.logger.debug("fix \(location.coordinate.latitude, format: .fixed(precision: 5), privacy: .private) #\(total, privacy: .public)")
    os_log("fixes so far: %{public}d", log: .default, type: .info, total)
  }

  public func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) {
    Self.logger.error("failed: \(error.localizedDescription, privacy: .public)")
  }
}
