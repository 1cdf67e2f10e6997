// Shape of D3AsyncLocation's permission observer: Combine's NotificationCenter publisher, by
// Apple's names (publisher(for:), NotificationCenter.Publisher.Output), received on the main
// queue.
import Combine
import CoreLocation
import Foundation

fileprivate typealias Output = NotificationCenter.Publisher.Output

public final class NotificationRelay {
  public private(set) var received: [String] = []
  private var cancellable: AnyCancellable?

  public init() {}

  public func watch(_ name: Notification.Name, center: NotificationCenter = .default) {
    cancellable = center.publisher(for: name)
      .map { (notification: Output) in notification.name.rawValue }
      .sink { [weak self] in self?.received.append($0) }
  }

  public func watchOnMain(_ name: Notification.Name, center: NotificationCenter = .default, _ done: @escaping () -> Void) {
    cancellable = center.publisher(for: name)
      .receive(on: DispatchQueue.main)
      .sink { [weak self] notification in
        self?.received.append(notification.name.rawValue)
        done()
      }
  }
}
