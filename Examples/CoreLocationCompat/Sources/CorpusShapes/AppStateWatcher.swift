// Shape of AsyncLocationKit's application-state monitor: the app's return to the foreground
// watched with NotificationCenter.notifications(named:) (an async sequence corelibs lacks),
// pauses written with NSEC_PER_SEC (Darwin's), in a file that imports Foundation and
// CoreLocation.
import CoreLocation
import Foundation

public actor AppStateWatcher {
  public private(set) var statusesOnReturn: [CLAuthorizationStatus] = []
  private var task: Task<Void, Never>?

  public init() {}

  /// Re-reads the authorization each time the app becomes active, until stopped.
  public func start(center: NotificationCenter = .default) {
    let name = Notification.Name("UIApplicationDidBecomeActiveNotification")
    let notifications = center.notifications(named: name)
    task = Task {
      for await _ in notifications {
        self.record(CLLocationManager().authorizationStatus)
      }
    }
  }

  private func record(_ status: CLAuthorizationStatus) { statusesOnReturn.append(status) }

  public func stop() {
    task?.cancel()
    task = nil
  }

  /// How long a retry waits, in nanoseconds.
  public static let retryDelay: UInt64 = 2 * NSEC_PER_SEC + 500 * NSEC_PER_MSEC
}
