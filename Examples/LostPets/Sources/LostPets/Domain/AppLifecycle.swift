import Foundation

#if canImport(UIKit)
  import UIKit

  /// The application's lifecycle notifications.
  enum AppLifecycle {
    static let willEnterForeground = UIApplication.willEnterForegroundNotification
    static let didEnterBackground = UIApplication.didEnterBackgroundNotification
  }
#else
  /// The application's lifecycle notifications, by UIKit's names (posted on Linux by the
  /// location emulator's phone when the app changes state).
  enum AppLifecycle {
    static let willEnterForeground = Notification.Name("UIApplicationWillEnterForegroundNotification")
    static let didEnterBackground = Notification.Name("UIApplicationDidEnterBackgroundNotification")
  }
#endif
