import DequeModule
import Geo
import LocationModel

/// One subscriber's stream of a phone's values: a buffer of the newest `limit` values and the
/// consumer waiting for the next, which waits on the phone's clock (a task the clock started is
/// woken through the clock's loop, so an advance waits for it to take the value).
///
/// Package-wide: the CoreLocation module's sequences (live updates, a monitor's events, a
/// session's diagnostics) are made of it, so that an advance waits for their consumers too.
package final class PhoneSubscription<Value: Sendable>: Sendable {
  private struct State {
    var buffer = Deque<Value>()
    var waiter: ClockWaiter<Value?>?
    var finished = false
  }

  package let clock: EmulatorClock
  package let limit: Int
  private let state = Locked(State())
  private let onEnd = Locked<(@Sendable () -> Void)?>(nil)

  package init(clock: EmulatorClock, limit: Int) {
    self.clock = clock
    self.limit = limit
  }

  /// Called once when the subscription ends by ``finish()`` (cancelled, or the phone shut
  /// down). A dropped stream is not told: its table holds it weakly and skips it. (Its
  /// `deinit` may run wherever the last reference goes, even inside the phone's lock.)
  package func whenEnded(_ body: @escaping @Sendable () -> Void) { onEnd.withLock { $0 = body } }

  private func end() {
    let body = onEnd.withLock { body -> (@Sendable () -> Void)? in
      defer { body = nil }
      return body
    }
    body?()
  }

  /// Adds a value (the oldest is dropped beyond `limit`), or hands it to the waiting consumer.
  package func deliver(_ value: Value) {
    let waiter: ClockWaiter<Value?>? = state.withLock { s in
      guard !s.finished else { return nil }
      if let waiter = s.waiter {
        s.waiter = nil
        return waiter
      }
      s.buffer.append(value)
      if s.buffer.count > limit { s.buffer.removeFirst() }
      return nil
    }
    waiter?.resolve(value)
  }

  /// No more values: the consumer gets what is buffered, then the end.
  package func finish() {
    let waiter: ClockWaiter<Value?>? = state.withLock { s in
      s.finished = true
      let waiter = s.waiter
      s.waiter = nil
      return waiter
    }
    if waiter?.resolve(nil) == true { clock.drive() }
    end()
  }

  package func next() async -> Value? {
    let waiter: ClockWaiter<Value?>
    let ready: Value?? = state.withLock { s in
      if let value = s.buffer.popFirst() { return .some(value) }
      if s.finished { return .some(nil) }
      return nil
    }
    if let ready { return ready }
    waiter = clock.makeWaiter(of: Value?.self)
    let parked = state.withLock { s -> Value?? in
      if let value = s.buffer.popFirst() { return .some(value) }
      if s.finished { return .some(nil) }
      s.waiter = waiter
      return nil
    }
    if let parked { return parked }
    return await waiter.wait(register: {}, onCancel: { [self] in finish() })
  }

  /// The subscription as an `AsyncStream`: one consumer; cancelling it, or dropping the
  /// stream, ends the subscription.
  package func stream() -> AsyncStream<Value> {
    AsyncStream(unfolding: { [self] in await next() }, onCancel: { [self] in finish() })
  }
}

/// The subscribers of one kind of value, in the order they subscribed, held weakly: a dropped
/// stream leaves the table.
struct SubscriptionTable<Value: Sendable> {
  private struct Entry {
    let id: UInt64
    weak var subscription: PhoneSubscription<Value>?
  }

  private var entries: [Entry] = []

  mutating func add(_ subscription: PhoneSubscription<Value>, id: UInt64) {
    entries.removeAll { $0.subscription == nil }
    entries.append(Entry(id: id, subscription: subscription))
  }

  mutating func remove(_ id: UInt64) {
    if let index = entries.firstIndex(where: { $0.id == id }) { entries.remove(at: index) }
  }

  mutating func removeAll() -> [PhoneSubscription<Value>] {
    defer { entries.removeAll() }
    return live
  }

  /// The live subscriptions, in the order they subscribed.
  var live: [PhoneSubscription<Value>] { entries.compactMap(\.subscription) }
  /// Whether the table holds no entry (live or not).
  var isEmpty: Bool { entries.isEmpty }

  /// How many subscriptions are alive.
  var count: Int { entries.reduce(0) { $0 + ($1.subscription == nil ? 0 : 1) } }
}

/// Feeds a stream made by ``EmulatorClock/makeStream(of:bufferingNewest:)``.
public struct ClockStreamContinuation<Element: Sendable>: Sendable {
  let subscription: PhoneSubscription<Element>

  /// Adds a value (the oldest is dropped beyond the buffer), or hands it to the waiting consumer.
  public func yield(_ value: Element) {
    subscription.deliver(value)
    subscription.clock.drive()
  }

  /// Ends the stream after what is buffered.
  public func finish() { subscription.finish() }
}

extension EmulatorClock {
  /// A stream whose consumer waits on this clock: a consumer the clock tracks counts as waiting
  /// while it waits for the next value, and is woken through the clock's loop. For code that
  /// hands values between its own tasks on an emulated phone without stalling the clock (a plain
  /// `AsyncStream` is invisible to it).
  public func makeStream<Element: Sendable>(
    of: Element.Type = Element.self, bufferingNewest limit: Int = 1 << 20
  )
    -> (stream: AsyncStream<Element>, continuation: ClockStreamContinuation<Element>)
  {
    let subscription = PhoneSubscription<Element>(clock: self, limit: limit)
    return (subscription.stream(), ClockStreamContinuation(subscription: subscription))
  }
}
