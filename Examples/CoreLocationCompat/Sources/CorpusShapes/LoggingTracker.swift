// Shape of ExtensionKit's helpers: `type(of: self).description()` for a class's name (Apple's
// +[NSObject description]), in a file that imports CoreLocation.
import CoreLocation

public final class LoggingTracker: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  private let manager = CLLocationManager()
  public private(set) var log: [String] = []

  public var updates: Int { lock.withLock { count } }
  public var className: String { type(of: self).description() }

  public override init() {
    super.init()
    manager.delegate = self
  }

  public func start() { manager.startUpdatingLocation() }

  public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    let total = lock.withLock {
      count += locations.count
      return count
    }
    lock.withLock { log.append("\(className): \(total) fixes") }
  }
}
