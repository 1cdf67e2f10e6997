import Foundation
import Geo

/// Helpers for end-to-end tests of real processes, where real time cannot be avoided.

/// Waits on the real clock, at most `limit`, until `condition` holds; returns whether it did.
///
/// Only for end-to-end tests of real processes and servers (a server that reports its port, a
/// gpsd that delivers): the bound keeps a broken condition from hanging the suite, and the
/// result is what the test should `#expect`, with a message. Tests of the emulator itself use
/// the phone's clock (`advance`, `runUntilIdle`) and never wait on real time.
@discardableResult
public func waitUntil(_ limit: Duration = .seconds(10), _ condition: () async -> Bool) async -> Bool {
  let deadline = ContinuousClock.now + limit
  while ContinuousClock.now < deadline {
    if await condition() { return true }
    try? await Task.sleep(for: .milliseconds(2))
  }
  return await condition()
}

/// Runs `body`, failing with "`what`: nothing within `limit`" instead of waiting past `limit`
/// of real time (end-to-end tests of real processes only, as ``waitUntil(_:_:)``).
public func bounded<T: Sendable>(
  _ what: String, _ limit: Duration = .seconds(30), _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { try await body() }
    group.addTask {
      try await Task.sleep(for: limit)
      return nil
    }
    defer { group.cancelAll() }
    guard let first = try await group.next(), let value = first else {
      throw LoopbackError(description: "\(what): nothing within \(limit)")
    }
    return value
  }
}

/// A value another thread changes (bytes that arrived over a socket, the clients a server
/// holds), and waits for what it becomes: each change wakes the waiters whose condition now
/// holds, so a test resumes as soon as it holds, with no polling. A wait is bounded on the real
/// clock (the change comes from outside the test's clock) and says whether the condition held.
public final class Watched<Value: Sendable>: @unchecked Sendable {
  private struct Waiter {
    let condition: @Sendable (Value) -> Bool
    let continuation: CheckedContinuation<Bool, Never>
  }

  private let lock = NSLock()
  private var value: Value
  private var waiters: [UInt64: Waiter] = [:]
  private var nextWaiter: UInt64 = 0

  public init(_ value: Value) { self.value = value }

  /// The value now.
  public var current: Value { lock.withLock { value } }

  /// Changes the value; the waiters whose condition holds now resume (with true).
  public func update(_ change: (inout Value) -> Void) {
    lock.lock()
    change(&value)
    let value = self.value
    let ready = waiters.filter { $0.value.condition(value) }
    for id in ready.keys { waiters[id] = nil }
    lock.unlock()
    for waiter in ready.values { waiter.continuation.resume(returning: true) }
  }

  /// Waits until `condition` holds of the value, at most `limit` of real time.
  /// - Returns: whether it held (false: the bound passed first).
  public func wait(within limit: Duration = .seconds(60), until condition: @escaping @Sendable (Value) -> Bool) async -> Bool {
    await withCheckedContinuation { continuation in
      lock.lock()
      guard !condition(value) else {
        lock.unlock()
        continuation.resume(returning: true)
        return
      }
      nextWaiter += 1
      let id = nextWaiter
      waiters[id] = Waiter(condition: condition, continuation: continuation)
      lock.unlock()
      DispatchQueue.global().asyncAfter(deadline: .now() + limit.seconds) { [self] in
        let expired = lock.withLock { waiters.removeValue(forKey: id) }
        expired?.continuation.resume(returning: false)
      }
    }
  }
}
