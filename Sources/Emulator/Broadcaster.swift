import Geo

/// Publishes a value to any number of subscribers, each with its own `AsyncStream`.
///
/// A subscriber first sees the value current when it subscribed, then later
/// values in order. A subscriber that lags keeps only the newest value
/// (`bufferingNewest(1)`): it may skip values, and may see one value twice in a
/// row when the value changed away and back meanwhile, but never sees them out
/// of order and always ends on the latest. A subscriber whose stream is
/// cancelled or dropped is removed from the table at once.
///
/// Publishing is serialized: values reach every subscriber in the order they
/// were published, whatever thread publishes.
///
/// Two locks, so that no lock is held while a continuation is resumed *and*
/// taken from a termination handler: `ordering` serializes publishers (and is
/// held while yielding); `table` guards the subscriber table only briefly, and
/// is all that `onTermination` takes. (One lock for both deadlocks: a task being
/// cancelled holds its status lock and calls `onTermination`, while a publisher
/// holding the lock resumes that task and waits for the same status lock.)
public final class Broadcaster<Value: Sendable>: Sendable {
  private struct Table {
    var value: Value
    var subscribers: [Int: AsyncStream<Value>.Continuation] = [:]
    var nextID = 0
  }

  /// Serializes publishers; counts the values published. (Not `Locked<Void>`: a zero-sized value
  /// shares its address with the lock's own field, and ThreadSanitizer then reports a false race.)
  private let ordering = Locked(0)
  private let table: Locked<Table>

  public init(_ initial: Value) { table = Locked(Table(value: initial)) }

  /// The latest published value.
  public var value: Value { table.withLock { $0.value } }

  /// How many subscribers are registered now.
  public var subscriberCount: Int { table.withLock { $0.subscribers.count } }

  /// A new stream: the current value, then every change.
  public func subscribe() -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
    ordering.withLock { _ in
      let (id, current) = table.withLock { table in
        let id = table.nextID
        table.nextID += 1
        table.subscribers[id] = continuation
        return (id, table.value)
      }
      // Nobody waits on a new stream yet: this yield resumes no task.
      continuation.yield(current)
      continuation.onTermination = { [weak self] _ in
        self?.table.withLock { _ = $0.subscribers.removeValue(forKey: id) }
      }
    }
    return stream
  }

  /// Sets the value and delivers it to every subscriber.
  public func publish(_ value: Value) {
    ordering.withLock { published in
      published += 1
      let subscribers = table.withLock { table in
        table.value = value
        return Array(table.subscribers.values)
      }
      for continuation in subscribers { continuation.yield(value) }
    }
  }

  /// Sets the value and delivers it only when it differs from the current one; returns whether it did.
  @discardableResult
  public func publishIfChanged(_ value: Value) -> Bool where Value: Equatable {
    ordering.withLock { published in
      let subscribers: [AsyncStream<Value>.Continuation]? = table.withLock { table in
        guard table.value != value else { return nil }
        table.value = value
        return Array(table.subscribers.values)
      }
      guard let subscribers else { return false }
      published += 1
      for continuation in subscribers { continuation.yield(value) }
      return true
    }
  }
}

/// Delivers values to subscribers as they happen (no current value), each subscriber
/// buffering up to `buffer` values and dropping the oldest beyond that. Same locking as ``Broadcaster``.
public final class FanOut<Value: Sendable>: Sendable {
  private struct Table {
    var subscribers: [Int: AsyncStream<Value>.Continuation] = [:]
    var nextID = 0
  }

  /// Serializes publishers; counts the values published. (Not `Locked<Void>`: a zero-sized value
  /// shares its address with the lock's own field, and ThreadSanitizer then reports a false race.)
  private let ordering = Locked(0)
  private let table = Locked(Table())
  private let buffer: Int

  public init(buffer: Int = 64) { self.buffer = buffer }

  public var subscriberCount: Int { table.withLock { $0.subscribers.count } }

  public func subscribe() -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(buffer))
    let id = table.withLock { table in
      let id = table.nextID
      table.nextID += 1
      table.subscribers[id] = continuation
      return id
    }
    continuation.onTermination = { [weak self] _ in
      self?.table.withLock { _ = $0.subscribers.removeValue(forKey: id) }
    }
    return stream
  }

  public func send(_ value: Value) {
    ordering.withLock { sent in
      sent += 1
      for continuation in table.withLock({ Array($0.subscribers.values) }) { continuation.yield(value) }
    }
  }
}
