import UnixSignals

/// Runs `body` until it ends, or until SIGINT or SIGTERM arrives: then `body` is cancelled, and
/// this returns once it has ended (its files finished, its ports closed), with nil. A command
/// that runs until interrupted ends cleanly that way (exit 0) instead of dying by the signal.
func untilSignal<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T? {
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { try await body() }
    group.addTask {
      for await _ in await UnixSignalsSequence(trapping: .sigint, .sigterm) { return nil }
      // The sequence ends only when this task is cancelled (the body ended first).
      try Task.checkCancellation()
      return nil
    }
    defer { group.cancelAll() }
    guard let first = try await group.next() else { return nil }
    return first
  }
}
