import Clocks
@_exported import LocationTestSupport
import Emulator
import Foundation
import Geo

let warsaw = Coordinate(latitude: 52.2297, longitude: 21.0122)!

/// A fixed point reporting every second on `clock`, starting at 2026-01-01T00:00:00Z.
func fixedSource(_ clock: TestClock<Duration>, at coordinate: Coordinate = warsaw, accuracy: Double = 5)
  -> FixedPointSource<TestClock<Duration>>
{
  FixedPointSource(
    coordinate: coordinate, horizontalAccuracy: accuracy, start: Date(timeIntervalSince1970: 1_767_225_600), clock: clock)
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

