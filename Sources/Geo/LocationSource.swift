public import Foundation
public import LocationModel

/// Anything that delivers positions the way a phone's location API does: an
/// asynchronous sequence of `LocationFix` values, ending when the source has
/// nothing more (a replayed trace ran out) and throwing when it fails for good
/// (gpsd could not be reached within its timeout).
///
/// A no-fix report is a fix with mode `LocationFix.Mode.noFix`; sources
/// deliver it rather than going silent, so consumers can tell "lost fix" from
/// "nothing happened". Each iteration is independent: iterating a trace
/// source twice replays the trace twice.
///
/// The sources in this package: `FixedPointSource` (here), `TraceReplay`
/// (module Traces), `GPSDSource` (module GPSD).
public protocol LocationSource: AsyncSequence, Sendable where Element == LocationFix, Failure == any Error {}

/// A device standing still: the same position, reported every `interval` on `clock`.
///
/// Timestamps are `start` plus the time elapsed on the clock, so a test clock
/// gives exact, repeatable times.
public struct FixedPointSource<C: Clock>: LocationSource where C.Duration == Duration {
  /// The fix reported each time, stamped anew.
  public var fix: LocationFix
  /// The time between reports; the first comes at once.
  public var interval: Duration
  /// How many reports before the sequence ends; nil: until cancelled.
  public var count: Int?
  /// The timestamp of the first report.
  public var start: Date
  /// The clock that paces the reports and whose elapsed time stamps them.
  public var clock: C

  /// - Parameters:
  ///   - coordinate: where the device is.
  ///   - horizontalAccuracy: the accuracy to report, metres (nil: unknown).
  ///   - altitude: metres above mean sea level (nil: a 2D fix).
  ///   - interval: time between reports; the first comes at once.
  ///   - count: how many reports before the sequence ends (nil: until cancelled).
  ///   - start: the timestamp of the first report.
  ///   - clock: the clock that paces the reports and whose elapsed time stamps them.
  public init(
    coordinate: Coordinate, horizontalAccuracy: Double? = nil, altitude: Double? = nil,
    interval: Duration = .seconds(1), count: Int? = nil, start: Date = Date(), clock: C
  ) {
    fix = LocationFix(
      mode: altitude == nil ? .twoD : .threeD, coordinate: coordinate, altitudeMSL: altitude,
      speed: 0, horizontalAccuracy: horizontalAccuracy)
    self.interval = interval
    self.count = count
    self.start = start
    self.clock = clock
  }

  /// One iteration of the source: its reports from the first `next()` on.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let source: FixedPointSource
    var origin: C.Instant?
    var delivered = 0

    /// Waits on the clock until the next report is due and returns it.
    /// - Returns: the fix, stamped with `start` plus the time since the first report; nil after `count` reports.
    /// - Throws: what the clock's `sleep(until:tolerance:)` throws, such as `CancellationError` when the task is cancelled.
    public mutating func next() async throws -> LocationFix? {
      if let count = source.count, delivered >= count { return nil }
      let origin = self.origin ?? source.clock.now
      self.origin = origin
      let offset = source.interval * delivered
      if delivered > 0 { try await source.clock.sleep(until: origin.advanced(by: offset), tolerance: nil) }
      delivered += 1
      var fix = source.fix
      fix.timestamp = source.start.addingTimeInterval(offset.seconds)
      return fix
    }
  }

  /// Starts a new iteration: its first report comes at once, timed from then.
  /// - Returns: the iterator.
  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: self) }
}

extension Duration {
  /// The duration in seconds, as a floating-point number.
  public var seconds: Double {
    let (s, attoseconds) = components
    return Double(s) + Double(attoseconds) * 1e-18
  }
}
