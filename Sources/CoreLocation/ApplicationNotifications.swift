public import Emulator
public import Foundation
import LocationModel

extension EmulatedPhone {
  /// UIKit's application notifications, by their names: posts
  /// `UIApplicationWillResignActiveNotification` and `UIApplicationDidEnterBackgroundNotification`
  /// when the phone's app goes to the background, `UIApplicationWillEnterForegroundNotification`
  /// and `UIApplicationDidBecomeActiveNotification` when it comes back, on `center`,
  /// synchronously in the phone's order. For app code that observes them (a permission re-check
  /// on returning to the foreground); on Apple platforms UIKit posts them.
  ///
  /// - Returns: the observation; cancel it (or shut the phone down) to stop.
  public func postApplicationNotifications(to center: NotificationCenter = .default) -> PhoneObservation {
    observe(.stateChanged) { event in
      guard case .stateChanged(let from, let to) = event, from.app != to.app else { return }
      let names =
        to.app == .background
        ? ["UIApplicationWillResignActiveNotification", "UIApplicationDidEnterBackgroundNotification"]
        : ["UIApplicationWillEnterForegroundNotification", "UIApplicationDidBecomeActiveNotification"]
      for name in names { center.post(name: Notification.Name(name), object: nil) }
    }
  }
}
