// Shape of CalmGeo's and SpearLocationProvider's trackers: `import os` and `import os.log`, a
// static os.Logger with privacy and format options, os_log with a printf-style format, a count
// behind OSAllocatedUnfairLock, and a signposted interval around each batch.
import CoreLocation
import os
import os.log

public final class OSLoggingTracker: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
  private static let logger = Logger(subsystem: "com.example.tracker", category: "location")
  private static let signposter = OSSignposter(logger: logger)
  private let count = OSAllocatedUnfairLock(initialState: 0)
  private let manager = CLLocationManager()

  public var updates: Int { count.withLock { $0 } }

  public override init() {
    super.init()
    manager.delegate = self
  }

  public func start() {
    Self.logger.info("starting updates")
    manager.startUpdatingLocation()
  }

  public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    let state = Self.signposter.beginInterval("batch")
    defer { Self.signposter.endInterval("batch", state) }
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
