import Foundation
@_exported import EmulatorTesting
@_exported import TestSupport
import Geo
import Traces
import LocationModel

/// An in-memory trace: epochs at the given trace times (nil: no time), each a fix at a distinct latitude.
final class ListTraceReader: TraceReader {
  private var epochs: [TraceEpoch]
  init(_ epochs: [TraceEpoch]) { self.epochs = epochs.reversed() }
  func next() throws -> TraceEpoch? { epochs.popLast() }
  var summary: String { "" }

  static func times(_ times: [Double?], noFix: Set<Int> = []) -> @Sendable () -> ListTraceReader {
    let epochs = times.enumerated().map { i, t in
      TraceEpoch(
        fix: noFix.contains(i)
          ? LocationFix(timestamp: t.map { Date(timeIntervalSince1970: 1_700_000_000 + $0) }, mode: .noFix)
          : LocationFix(
            timestamp: t.map { Date(timeIntervalSince1970: 1_700_000_000 + $0) }, mode: .twoD,
            coordinate: Coordinate(latitude: Double(i), longitude: 0)),
        traceTime: t.map { 1_700_000_000 + $0 })
    }
    return { ListTraceReader(epochs) }
  }
}

extension Duration {
  /// Milliseconds, rounded, for readable expectations.
  var ms: Int64 { Int64((seconds * 1000).rounded()) }
}

/// A clock whose every sleep wakes `lateness` after its deadline, as a busy machine would.
final class LateClock: Clock, @unchecked Sendable {
  struct Instant: InstantProtocol {
    var offset: Duration
    func advanced(by duration: Duration) -> Self { Instant(offset: offset + duration) }
    func duration(to other: Self) -> Duration { other.offset - offset }
    static func < (a: Self, b: Self) -> Bool { a.offset < b.offset }
  }

  let lateness: Duration
  private let current = Locked(Instant(offset: .zero))
  init(lateness: Duration) { self.lateness = lateness }
  var now: Instant { current.withLock { $0 } }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    current.withLock { now in now = Swift.max(now, deadline.advanced(by: lateness)) }
  }
}
