import EmulatorTesting
import Foundation
import Geo
public import Testing

/// Helpers for end-to-end tests of real processes, where real time cannot be avoided.
///
/// Every bound on real time in these tests is a hang guard of 600 s (10 minutes) or more, never a
/// speed a test expects. Its basis: the longest single step measured in this suite was a
/// `locemu serve` under ThreadSanitizer taking more than a minute to print its port while twenty
/// others started beside a build on two cores (2026-11-22); ten times that is 600 s. The steps
/// that take seconds on a quiet machine (a process start under ThreadSanitizer, 10–16 s at worst
/// measured) are far below it, on one busy core too (`scripts/slow.sh`, four times slower).

/// Waits on the real clock, at most `limit`, until `condition` holds; returns whether it did.
///
/// Only for end-to-end tests of real processes and servers (a server that reports its port, a
/// gpsd that delivers), and only where there is no event to await (``Watched`` is one): the
/// condition is checked every 10 ms. The bound is a hang guard, not a speed a test expects (10
/// minutes: far longer than any step has taken under ThreadSanitizer on a loaded machine), and
/// the result is what the test should `#expect`, with a message that says what it waited for.
/// Tests of the emulator itself use the phone's clock (`advance`, `runUntilIdle`) and never wait
/// on real time.
@discardableResult
public func waitUntil(_ limit: Duration = .seconds(600), _ condition: () async -> Bool) async -> Bool {
  let deadline = ContinuousClock.now + limit
  while ContinuousClock.now < deadline {
    if await condition() { return true }
    try? await Task.sleep(for: .milliseconds(10))
  }
  return await condition()
}

/// Waits as ``waitUntil(_:_:)`` does, and fails with "`what`: not within `limit`" when the
/// bound passes first.
public func waitUntil(_ what: String, _ limit: Duration = .seconds(600), _ condition: () async -> Bool) async throws {
  guard await waitUntil(limit, condition) else { throw LoopbackError(description: "\(what): not within \(limit)") }
}

/// Runs `body`, failing with "`what`: nothing within `limit`" instead of waiting past `limit`
/// of real time (end-to-end tests of real processes only, as ``waitUntil(_:_:)``; the bound is
/// a hang guard). At the bound it looks at this process first (``examineHang(of:frames:limit:)``):
/// a stall on a lost wakeup below our code, which the look ends, gets a second bound, and a body
/// that then returns is a warning at `sourceLocation`.
public func bounded<T: Sendable>(
  _ what: String, _ limit: Duration = .seconds(600), sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { try await body() }
    group.addTask {
      try await Task.sleep(for: limit)
      return nil
    }
    defer { group.cancelAll() }
    if let first = try await group.next(), let value = first { return value }
    // What each thread was doing, while the body still hangs: the hang's only witness.
    let hang = await offPool { examineHang() }
    if hang.lostHandover {
      // The look ended a lost wakeup below our code: a second bound, and the body's own result.
      group.addTask {
        try await Task.sleep(for: .seconds(300))
        return nil
      }
      if let second = try await group.next(), let value = second {
        recordEndAfterLook(what, bound: limit, look: hang.text, sourceLocation: sourceLocation)
        return value
      }
    }
    throw LoopbackError(description: "\(what): nothing within \(limit)\n\(hang.text)")
  }
}

/// A value another thread changes (bytes that arrived over a socket, the clients a server
/// holds), and waits for what it becomes: each change wakes the waiters whose condition now
/// holds, so a test resumes as soon as it holds, with no polling. A wait is bounded on the real
/// clock (the change comes from outside the test's clock; the bound is a hang guard) and ends
/// early when the waiting task is cancelled.
public final class Watched<Value: Sendable>: @unchecked Sendable {
  /// How a wait ended.
  private enum Ending { case held, expired, cancelled }

  private struct Waiter {
    let condition: @Sendable (Value) -> Bool
    let continuation: CheckedContinuation<Ending, Never>
  }

  private let lock = NSLock()
  private var value: Value
  private var waiters: [UInt64: Waiter] = [:]
  /// Waits begun and not yet registered; one that the task's cancellation took out of here
  /// ends at once when it comes to register.
  private var unregistered: Set<UInt64> = []
  private var nextWaiter: UInt64 = 0

  public init(_ value: Value) { self.value = value }

  /// The value now.
  public var current: Value { lock.withLock { value } }

  /// Changes the value; the waiters whose condition holds now resume.
  public func update(_ change: (inout Value) -> Void) {
    lock.lock()
    change(&value)
    let value = self.value
    let ready = waiters.filter { $0.value.condition(value) }
    for id in ready.keys { waiters[id] = nil }
    lock.unlock()
    for waiter in ready.values { waiter.continuation.resume(returning: .held) }
  }

  /// Waits until `condition` holds of the value, at most `limit` of real time (a hang guard).
  /// - Returns: whether it held (false: the bound passed first, or the task was cancelled).
  public func wait(within limit: Duration = .seconds(600), until condition: @escaping @Sendable (Value) -> Bool) async -> Bool {
    await ending(within: limit, until: condition) == .held
  }

  /// Waits until `condition` holds of the value, at most `limit` of real time (a hang guard).
  /// - Throws: "`what`: not within `limit`" when the bound passed first; `CancellationError`
  ///   when the task was cancelled.
  public func wait(
    for what: String, within limit: Duration = .seconds(600), until condition: @escaping @Sendable (Value) -> Bool
  ) async throws {
    switch await ending(within: limit, until: condition) {
    case .held: return
    case .expired: throw LoopbackError(description: "\(what): not within \(limit)")
    case .cancelled: throw CancellationError()
    }
  }

  private func ending(within limit: Duration, until condition: @escaping @Sendable (Value) -> Bool) async -> Ending {
    let id = lock.withLock {
      nextWaiter += 1
      unregistered.insert(nextWaiter)
      return nextWaiter
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        lock.lock()
        guard unregistered.remove(id) != nil else {
          lock.unlock()
          continuation.resume(returning: .cancelled)
          return
        }
        guard !condition(value) else {
          lock.unlock()
          continuation.resume(returning: .held)
          return
        }
        waiters[id] = Waiter(condition: condition, continuation: continuation)
        lock.unlock()
        // A timer, not a wait: nothing blocks a thread while it runs.
        DispatchQueue.global().asyncAfter(deadline: .now() + limit.seconds) { [self] in
          let expired = lock.withLock { waiters.removeValue(forKey: id) }
          expired?.continuation.resume(returning: .expired)
        }
      }
    } onCancel: {
      let waiter = lock.withLock { () -> Waiter? in
        if let waiter = waiters.removeValue(forKey: id) { return waiter }
        // Not registered yet (it ends when it comes to register), or ended already.
        unregistered.remove(id)
        return nil
      }
      waiter?.continuation.resume(returning: .cancelled)
    }
  }
}
