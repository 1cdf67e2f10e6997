import Clocks
import Emulator
import Foundation
import Geo

let warsaw = Coordinate(latitude: 52.2297, longitude: 21.0122)!

/// Collects what a callback or stream reports, for later inspection.
final class Recorder<Value: Sendable>: Sendable {
  private let values = Locked<[Value]>([])
  func append(_ value: Value) { values.withLock { $0.append(value) } }
  var all: [Value] { values.withLock { $0 } }
}

/// A fixed point reporting every second on `clock`, starting at 2026-01-01T00:00:00Z.
func fixedSource(_ clock: TestClock<Duration>, at coordinate: Coordinate = warsaw, accuracy: Double = 5)
  -> FixedPointSource<TestClock<Duration>>
{
  FixedPointSource(
    coordinate: coordinate, horizontalAccuracy: accuracy, start: Date(timeIntervalSince1970: 1_767_225_600), clock: clock)
}

/// Lets tasks started by the code under test run up to their next suspension
/// (yields, and short real pauses so that other threads get to run under load).
func settle() async {
  for _ in 0..<3 {
    for _ in 0..<20 { await Task.yield() }
    try? await Task.sleep(for: .milliseconds(2))
  }
}

/// Waits (on the real clock, at most `limit`) until `condition` holds; returns whether it did.
@discardableResult
func waitUntil(_ limit: Duration = .seconds(10), _ condition: () async -> Bool) async -> Bool {
  let deadline = ContinuousClock.now + limit
  while ContinuousClock.now < deadline {
    if await condition() { return true }
    await Task.yield()
    try? await Task.sleep(for: .milliseconds(1))
  }
  return await condition()
}

extension LocationService<TestClock<Duration>> {
  /// Waits until the service has taken the source's fix stamped `seconds` after the start.
  /// (Nudges the clock: a source that falls behind sleeps until exactly `now`, which
  /// TestClock only wakes on its next advance.)
  nonisolated func processed(_ seconds: Double) async -> Bool {
    await waitUntil {
      await clock.advance()
      return await self.latestFix?.timestamp == Date(timeIntervalSince1970: 1_767_225_600 + seconds)
    }
  }
}

/// Waits until something sleeps on `clock` (a prompt's answer, a timer), so that advancing
/// the clock wakes it: TestClock does not wake a sleep registered after its advance.
func untilSleeping(_ clock: TestClock<Duration>) async {
  await waitUntil {
    do {
      try await clock.checkSuspension()
      return false
    } catch {
      return true
    }
  }
}
