import Synchronization

/// Publishes a value to any number of subscribers, each with its own `AsyncStream`.
///
/// A subscriber first sees the value current when it subscribed, then every
/// later value in order. A subscriber that lags keeps only the newest value
/// (`bufferingNewest(1)`): it may skip intermediate values but never sees
/// them out of order, and always ends on the latest. A subscriber whose stream
/// is cancelled or dropped is removed from the table at once.
///
/// Publishing is serialized: values reach every subscriber in the order they
/// were published, whatever thread publishes.
public final class Broadcaster<Value: Sendable>: Sendable {
  private struct Table {
    var value: Value
    var subscribers: [Int: AsyncStream<Value>.Continuation] = [:]
    var nextID = 0
  }

  private let table: Mutex<Table>

  public init(_ initial: Value) { table = Mutex(Table(value: initial)) }

  /// The latest published value.
  public var value: Value { table.withLock { $0.value } }

  /// How many subscribers are registered now.
  public var subscriberCount: Int { table.withLock { $0.subscribers.count } }

  /// A new stream: the current value, then every change.
  public func subscribe() -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
    let id = table.withLock { table in
      let id = table.nextID
      table.nextID += 1
      table.subscribers[id] = continuation
      continuation.yield(table.value)
      return id
    }
    continuation.onTermination = { [weak self] _ in
      self?.table.withLock { _ = $0.subscribers.removeValue(forKey: id) }
    }
    return stream
  }

  /// Sets the value and delivers it to every subscriber.
  public func publish(_ value: Value) {
    table.withLock { table in
      table.value = value
      for continuation in table.subscribers.values { continuation.yield(value) }
    }
  }

  /// Sets the value and delivers it only when it differs from the current one; returns whether it did.
  @discardableResult
  public func publishIfChanged(_ value: Value) -> Bool where Value: Equatable {
    table.withLock { table in
      guard table.value != value else { return false }
      table.value = value
      for continuation in table.subscribers.values { continuation.yield(value) }
      return true
    }
  }

  /// Ends every subscriber's stream.
  public func finish() {
    let continuations = table.withLock { table in
      defer { table.subscribers.removeAll() }
      return Array(table.subscribers.values)
    }
    for continuation in continuations { continuation.finish() }
  }
}

/// Delivers values to subscribers as they happen (no current value), each subscriber
/// buffering up to `buffer` values and dropping the oldest beyond that.
public final class FanOut<Value: Sendable>: Sendable {
  private struct Table {
    var subscribers: [Int: AsyncStream<Value>.Continuation] = [:]
    var nextID = 0
  }

  private let table = Mutex(Table())
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
    table.withLock { table in
      for continuation in table.subscribers.values { continuation.yield(value) }
    }
  }
}
