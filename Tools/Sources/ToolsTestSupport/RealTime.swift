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
