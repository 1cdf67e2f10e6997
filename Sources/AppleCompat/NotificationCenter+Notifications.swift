public import Foundation

extension NotificationCenter {
  /// An asynchronous sequence of the notifications a center posts with one name, as Apple's
  /// Foundation declares it (iOS 15, macOS 12); swift-corelibs-foundation has none.
  ///
  /// The observation starts when the sequence is made (``NotificationCenter/notifications(named:object:)``),
  /// so a notification posted between making it and iterating it is not lost. Every notification
  /// is buffered until it is read (unbounded, as Apple's is). The sequence never finishes on its
  /// own: end the iteration by cancelling the task that iterates (`next()` then returns nil), or
  /// by breaking out of the loop. The center's observer is removed when the sequence goes away.
  public final class Notifications: AsyncSequence, @unchecked Sendable {
    /// The elements: the notifications posted.
    public typealias Element = Notification
    /// The sequence never fails.
    public typealias Failure = Never

    /// A notification crossing from the poster's thread to the iterating task (Notification is
    /// not Sendable in swift-corelibs-foundation; it is handed over, not shared).
    struct Handoff: @unchecked Sendable { let notification: Notification }

    private let stream: AsyncStream<Handoff>
    private let center: NotificationCenter
    private let observer: any NSObjectProtocol

    init(center: NotificationCenter, name: Notification.Name?, object: AnyObject?) {
      let (stream, continuation) = AsyncStream.makeStream(of: Handoff.self, bufferingPolicy: .unbounded)
      self.stream = stream
      self.center = center
      observer = center.addObserver(forName: name, object: object, queue: nil) { notification in
        continuation.yield(Handoff(notification: notification))
      }
    }

    deinit { center.removeObserver(observer) }

    /// The iterator of ``NotificationCenter/Notifications``; `next()` returns nil once the
    /// iterating task is cancelled.
    public final class Iterator: AsyncIteratorProtocol {
      // The sequence is kept alive while it is iterated (its observer feeds the stream).
      private let sequence: Notifications
      private var base: AsyncStream<Handoff>.Iterator

      init(_ sequence: Notifications) {
        self.sequence = sequence
        base = sequence.stream.makeAsyncIterator()
      }

      /// The next notification, waiting until one is posted; nil once the iterating task is cancelled.
      ///
      /// - Returns: The next notification, or nil when the task is cancelled.
      public func next() async -> Notification? { await base.next(isolation: #isolation)?.notification }
    }

    /// Creates an iterator over the notifications, which keeps this sequence alive while it iterates.
    ///
    /// - Returns: A new iterator.
    public func makeAsyncIterator() -> Iterator { Iterator(self) }
  }

  /// The notifications this center posts with `name` (and from `object`, when given), as an
  /// asynchronous sequence: Apple's `notifications(named:object:)`, which swift-corelibs-foundation
  /// lacks. See ``Notifications`` for buffering and termination.
  ///
  /// An `EmulatedPhone` posts UIKit's application notifications
  /// (`UIApplicationDidBecomeActiveNotification` and the rest) when told to
  /// (`postApplicationNotifications(to:)`), so a loop over this sequence sees the app come and go.
  public func notifications(named name: Notification.Name, object: AnyObject? = nil) -> Notifications {
    Notifications(center: self, name: name, object: object)
  }
}
