/// Helpers for end-to-end tests of real processes, where real time cannot be avoided.

/// Waits on the real clock, at most `limit`, until `condition` holds; returns whether it did.
///
/// Only for end-to-end tests of real processes and servers (a server that reports its port, a
/// gpsd that delivers): the bound keeps a broken condition from hanging the suite, and the
/// result is what the test should `#expect`, with a message. Tests of the emulator itself use
/// the phone's clock (`advance`, `runUntilIdle`) and never wait on real time.
@discardableResult
package func waitUntil(_ limit: Duration = .seconds(10), _ condition: () async -> Bool) async -> Bool {
  let deadline = ContinuousClock.now + limit
  while ContinuousClock.now < deadline {
    if await condition() { return true }
    try? await Task.sleep(for: .milliseconds(2))
  }
  return await condition()
}
