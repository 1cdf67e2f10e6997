// A hang guard for the library's tests that must wait on real time (a process on a pipe, the
// real-time clock's driver): it tells work that never ends from slow work, and never measures speed.
// (The tools' tests have `bounded` in ToolsTestSupport, which also dumps the threads.)

/// `body`'s result, or nil once `limit` of real time has passed first.
///
/// A hang guard, not a time limit: `limit` is far above what the slowest machine needs, and the
/// caller records a failure naming what it waited for when nil comes back. Either way the body's
/// task is cancelled on return, and not waited for: work that cannot be cancelled (a thread blocked
/// opening or reading a pipe) is left to end on its own.
package func hangGuarded<T: Sendable>(within limit: Duration, _ body: @escaping @Sendable () async -> T) async -> T? {
  let (outcomes, outcome) = AsyncStream.makeStream(of: T?.self)
  let work = Task { outcome.yield(await body()) }
  let timer = Task {
    guard (try? await Task.sleep(for: limit)) != nil else { return }
    outcome.yield(nil)
  }
  defer {
    timer.cancel()
    work.cancel()
  }
  for await first in outcomes { return first }
  return nil
}
