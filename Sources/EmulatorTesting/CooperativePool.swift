import Foundation
public import Testing
import CPoolCanary

/// Work that blocks a thread (waiting for a process, a pipe, a socket, a semaphore), kept off
/// Swift's cooperative pool.
///
/// The pool has as many threads as the machine has cores: a test that blocks one of them in
/// `poll`, `read`, `waitpid` or a semaphore halves every other test's progress, and as many
/// blocked tests as cores stop them all (on a one-core CI runner, one is enough). Run such work
/// through `offPool { … }`, and call ``expectOffPool(_:sourceLocation:)`` at the top of a helper
/// that blocks, so that a caller who forgets is told by name.
///
/// With `LOCEMU_POOL_CANARY` set, a test process also watches its pool from a thread of its own
/// and reports a pool thread that sits in a blocking system call for longer than
/// `LOCEMU_POOL_CANARY_SECONDS` (default 10), with its stack (see the module's article).
public enum CooperativePool {
  private static let offPoolKey = "LocationEmulator.offPool"

  /// Whether the calling code runs on Swift's cooperative pool: inside a task, on a thread that
  /// no `offPool` (or ``markCurrentThreadOffPool()``) made its own.
  public static var isCurrent: Bool {
    guard withUnsafeCurrentTask(body: { $0 != nil }) else { return false }
    return Thread.current.threadDictionary[offPoolKey] == nil
  }

  /// Marks the calling thread as one of the program's own (a task executor's thread, say): code
  /// that blocks on it blocks no thread of the pool.
  public static func markCurrentThreadOffPool() {
    Thread.current.threadDictionary[offPoolKey] = true
  }

  /// Whether this process's pool canary runs (`LOCEMU_POOL_CANARY` set when it started).
  public static var canaryIsWatching: Bool { locemu_pool_canary_is_running() != 0 }
}

/// Runs `body` on a thread of its own and waits for it without blocking a thread of Swift's
/// cooperative pool: for tests that wait for processes, pipes, sockets and semaphores.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread {
      CooperativePool.markCurrentThreadOffPool()
      continuation.resume(with: Result { try body() })
    }.start()
  }
}

/// Runs `body` on a thread of its own, as the throwing `offPool` does, for work that cannot throw.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    Thread {
      CooperativePool.markCurrentThreadOffPool()
      continuation.resume(returning: body())
    }.start()
  }
}

/// Records an issue naming `what` when the caller runs on Swift's cooperative pool: call it at
/// the top of a synchronous helper that blocks, so that a test that calls it from async code
/// without `offPool` fails with the helper's name (and Swift Testing's with the test's).
public func expectOffPool(_ what: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation) {
  guard CooperativePool.isCurrent else { return }
  Issue.record(
    "\(what()) blocks a thread of Swift's cooperative pool: run it through offPool { … }",
    sourceLocation: sourceLocation)
}
