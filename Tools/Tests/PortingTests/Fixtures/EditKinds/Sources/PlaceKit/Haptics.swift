// The file imports UIKit only for a notification's name, which it spells itself.
import Foundation
import UIKit

public enum PlaceKitNotifications {
  public static let refreshed = Notification.Name("PlaceKitRefreshed")
}
