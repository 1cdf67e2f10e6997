import Clocks
import Emulator
import Foundation
import Geo
import Synchronization

let warsaw = Coordinate(latitude: 52.2297, longitude: 21.0122)!

/// Collects what a callback or stream reports, for later inspection.
final class Recorder<Value: Sendable>: Sendable {
  private let values = Mutex<[Value]>([])
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

/// Lets tasks started by the code under test run up to their next suspension.
func settle() async {
  for _ in 0..<50 { await Task.yield() }
}
