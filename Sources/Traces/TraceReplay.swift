public import Foundation
public import Geo
public import LocationModel

/// How a replay runs: pace, repetition, where it starts, how many fixes, which timestamps.
public struct ReplayOptions: Sendable, Hashable {
  /// What the replayed fixes' timestamps say.
  public enum TimeBase: Sendable, Hashable {
    /// The trace's own times (later laps of a loop continue after the first).
    case asRecorded
    /// The first delivered epoch is stamped with this date, the rest follow at trace pace.
    case startingAt(Date)
  }

  /// Trace seconds per clock second; nil for as fast as possible (no waiting at all).
  public var speed: Double?
  /// Start again from the beginning at the end of the trace, continuing its time line.
  public var loop: Bool
  /// Seconds of trace time to skip at the start (first lap only).
  public var startOffset: Double
  /// Stop after this many epochs (gap fills included); nil for no limit.
  public var count: Int?
  /// What the replayed fixes' timestamps say.
  public var timeBase: TimeBase
  /// A pause in the trace longer than this many seconds (and longer than 2.5 times
  /// the trace's usual interval) is filled with no-fix epochs at the usual interval,
  /// as a receiver that lost its fix reports. Nil: gaps stay silent.
  public var gapThreshold: Double?
  /// With ``TimeBase/asRecorded``: the timestamp for trace time 0 of epochs that have none
  /// (GPX points without times), so that every fix gets a time. Nil: they stay without.
  public var untimedStart: Date?
  /// Seconds from one epoch to the next when the next has no trace time (fix records or NMEA
  /// without times), so that such a trace plays at a pace. Nil: it comes at once after the one
  /// before, as a receiver that repeats its last time.
  public var untimedInterval: Double?

  /// The speed range accepted from the command line.
  public static let speedRange = 0.1...1000.0

  /// Creates options; by default real time, once through, from the start, without a limit.
  /// - Parameters:
  ///   - speed: trace seconds per clock second; nil for as fast as possible.
  ///   - loop: whether to start again at the end of the trace.
  ///   - startOffset: seconds of trace time to skip at the start.
  ///   - count: the most epochs to deliver; nil for no limit.
  ///   - timeBase: what the fixes' timestamps say.
  ///   - gapThreshold: seconds of pause beyond which gaps are filled with no-fix epochs; nil for none.
  ///   - untimedStart: the timestamp for trace time 0 of epochs that have none.
  ///   - untimedInterval: seconds between epochs without trace times.
  public init(
    speed: Double? = 1, loop: Bool = false, startOffset: Double = 0, count: Int? = nil,
    timeBase: TimeBase = .asRecorded, gapThreshold: Double? = 3, untimedStart: Date? = nil, untimedInterval: Double? = nil
  ) {
    self.untimedStart = untimedStart
    self.untimedInterval = untimedInterval
    self.speed = speed
    self.loop = loop
    self.startOffset = startOffset
    self.count = count
    self.timeBase = timeBase
    self.gapThreshold = gapThreshold
  }
}

/// One replayed epoch with its place on the replay clock.
public struct ReplayedEpoch: Sendable, Hashable {
  /// The epoch, its fix's timestamp adjusted to the ``ReplayOptions/TimeBase``.
  public var epoch: TraceEpoch
  /// When it was due, measured from the start of the replay on the replay clock.
  public var scheduled: Duration
  /// When it was delivered, on the same clock (equal to `scheduled` on a test clock).
  public var elapsed: Duration
  /// 0 for the first pass through the trace, 1 for the second, …
  public var lap: Int
  /// Whether this is a no-fix epoch filled into a gap of the trace.
  public var isGapFill: Bool

  /// The epoch's fix.
  public var fix: LocationFix { epoch.fix }
}

/// Replays a trace on a clock, paced by the trace's own time stamps.
///
/// Pacing is deadline-based: epoch *n* is due at `start + (t(n) − t(first)) / speed`
/// on the clock, measured from one fixed start instant, so lateness in one step
/// never shifts the next. Epochs the trace gives no time are delivered right
/// after the previous one. The trace is read from disk as it plays (one epoch
/// in memory at a time for NMEA logs).
///
/// ```swift
/// let replay = TraceReplay(trace: try Trace(path: "walk.gpx"), options: .init(speed: 10), clock: ContinuousClock())
/// for try await replayed in replay { print(replayed.elapsed, replayed.fix) }
/// ```
public struct TraceReplay<C: Clock>: AsyncSequence, Sendable where C.Duration == Duration {
  /// The replay delivers replayed epochs.
  public typealias Element = ReplayedEpoch
  /// The replay fails with what its trace reader or its clock throws.
  public typealias Failure = any Error

  /// The trace replayed; a placeholder when the replay was given `makeReader` instead.
  public var trace: Trace
  /// How the replay runs.
  public var options: ReplayOptions
  /// The clock the replay waits on.
  public var clock: C
  /// Creates readers; defaults to ``Trace/makeReader()``. Replaceable for tests.
  public var makeReader: @Sendable () throws -> any TraceReader

  /// A replay of `trace`, read anew from its start for each lap.
  /// - Parameters:
  ///   - trace: the trace to replay.
  ///   - options: how the replay runs.
  ///   - clock: the clock to wait on.
  public init(trace: Trace, options: ReplayOptions = .init(), clock: C) {
    self.trace = trace
    self.options = options
    self.clock = clock
    makeReader = { try trace.makeReader() }
  }

  /// A replay over epochs given by `makeReader` (e.g. an in-memory trace in a test).
  public init(
    options: ReplayOptions = .init(), clock: C, makeReader: @escaping @Sendable () throws -> any TraceReader
  ) {
    trace = try! Trace(path: "-", format: .nmea)
    self.options = options
    self.clock = clock
    self.makeReader = makeReader
  }

  /// The replayed fixes alone, as a `LocationSource`.
  public var fixes: TraceReplayFixes<C> { TraceReplayFixes(replay: self) }

  /// Starts a replay from the start of the trace.
  /// - Returns: an iterator that delivers the epochs as they come due.
  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(replay: self) }

  /// The replay's schedule without the waiting: a synchronous cursor, for a caller that keeps
  /// its own timers (an emulated phone).
  public func makeCursor() -> TraceReplayCursor { TraceReplayCursor(options: options, makeReader: makeReader) }

  /// Delivers a replay's epochs, waiting on the clock until each is due.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let replay: TraceReplay
    private var cursor: TraceReplayCursor
    private var origin: C.Instant?

    init(replay: TraceReplay) {
      self.replay = replay
      cursor = replay.makeCursor()
    }

    /// The next epoch, once it is due (at once when ``ReplayOptions/speed`` is nil); nil at the end.
    /// - Returns: the epoch, its `elapsed` read from the clock, or nil.
    /// - Throws: what the trace reader throws, or the clock's error when the task is cancelled while it waits.
    public mutating func next() async throws -> ReplayedEpoch? {
      guard let step = try cursor.next() else { return nil }
      let clock = replay.clock
      let origin = self.origin ?? clock.now
      self.origin = origin
      if replay.options.speed != nil {
        try await clock.sleep(until: origin.advanced(by: step.scheduled), tolerance: nil)
      }
      var epoch = step
      epoch.elapsed = origin.duration(to: clock.now)
      return epoch
    }
  }
}

/// The schedule of a replay, one epoch per call, without waiting: each epoch with the time it
/// is due, measured from the first.
///
/// Epoch *n* is due at `(t(n) − t(first)) / speed` (zero for as fast as possible); epochs the
/// trace gives no time follow the previous one at once; loops continue the time line; pauses
/// longer than the gap threshold are filled with no-fix epochs at the trace's usual interval.
/// Reads the trace as it goes (one epoch in memory for NMEA logs); ``close()`` releases the file.
public struct TraceReplayCursor {
  let options: ReplayOptions
  let makeReader: @Sendable () throws -> any TraceReader
  private var reader: (any TraceReader)?
  private var lap = 0
  /// Relative trace time of this lap's first epoch, and that epoch's absolute trace time.
  private var lapBase = 0.0
  private var lapStartTraceTime: Double?
  private var deliveredInLap = 0
  private var delivered = 0
  /// Relative trace time of the first delivered epoch (the zero of the schedule).
  private var scheduleZero: Double?
  private var lastRelative: Double?
  /// The smallest positive step seen between epochs: the trace's usual interval.
  private var interval: Double?
  private var queued: [(TraceEpoch, Double, Bool)] = []
  private var queuedIndex = 0
  private var finished = false

  /// Creates a cursor at the start of the schedule.
  /// - Parameters:
  ///   - options: how the replay runs.
  ///   - makeReader: opens the trace from its start; called again for each lap.
  public init(options: ReplayOptions, makeReader: @escaping @Sendable () throws -> any TraceReader) {
    self.options = options
    self.makeReader = makeReader
  }

  /// The next epoch and when it is due (``ReplayedEpoch/scheduled``; its `elapsed` is the
  /// same), or nil at the end.
  /// - Throws: what the trace reader throws (``TraceFileError``).
  public mutating func next() throws -> ReplayedEpoch? {
    if let count = options.count, delivered >= count {
      close()
      return nil
    }
    if queuedIndex < queued.count { return dequeue() }
    guard let (epoch, relative) = try readEpoch() else {
      close()
      return nil
    }
    // Usually no gap was filled: the epoch goes straight out, without the queue.
    if queued.isEmpty { return schedule(epoch, relative: relative, isGapFill: false) }
    queued.append((epoch, relative, false))
    return dequeue()
  }

  private mutating func dequeue() -> ReplayedEpoch {
    let (epoch, relative, isGap) = queued[queuedIndex]
    queuedIndex += 1
    if queuedIndex == queued.count {
      queued.removeAll(keepingCapacity: true)
      queuedIndex = 0
    }
    return schedule(epoch, relative: relative, isGapFill: isGap)
  }

  /// Closes the trace file; the cursor is at its end.
  public mutating func close() {
    reader?.close()
    reader = nil
    finished = true
    queued.removeAll()
    queuedIndex = 0
  }

  /// Reads the next epoch and its place on the schedule; queues the gap fills that come before it.
  /// Nil at the end.
  private mutating func readEpoch() throws -> (TraceEpoch, Double)? {
    while !finished {
      if reader == nil { reader = try makeReader() }
      guard var epoch = try reader!.next() else {
        guard options.loop, deliveredInLap > 0 else {
          finished = true
          return nil
        }
        reader?.close()
        reader = nil
        lap += 1
        deliveredInLap = 0
        lapBase = (lastRelative ?? 0) + (interval ?? 1)
        lapStartTraceTime = nil
        continue
      }
      var relative = lastRelative ?? lapBase
      if let t = epoch.traceTime {
        if lapStartTraceTime == nil { lapStartTraceTime = t }
        let intoLap = t - lapStartTraceTime!
        if lap == 0, intoLap < options.startOffset { continue }
        relative = Swift.max(lapBase + intoLap, lastRelative ?? -.infinity)
      } else if lap == 0, options.startOffset > 0, lastRelative == nil {
        continue
      } else if let spacing = options.untimedInterval, let last = lastRelative {
        relative = last + spacing
      }
      if lap > 0, options.timeBase == .asRecorded, let t = epoch.fix.timestamp {
        // Later laps continue the time line: stamped as if the trace went on.
        epoch.fix.timestamp = t.addingTimeInterval(lapBase)
      }
      if let last = lastRelative {
        let step = relative - last
        if step > 0 { interval = Swift.min(interval ?? step, step) }
        if let threshold = options.gapThreshold, let usual = interval, step > Swift.max(threshold, 2.5 * usual) {
          var t = last + usual
          // At most a day of no-fix epochs at 1 Hz per gap: a hostile trace's gap of decades at
          // a tenth of a second must not fill the memory.
          let end = Swift.min(relative - usual / 2, last + usual * Double(Self.maximumGapFill))
          while t < end {
            var fill = LocationFix(mode: .noFix)
            fill.timestamp = epoch.fix.timestamp.map { $0.addingTimeInterval(t - relative) }
            queued.append((TraceEpoch(fix: fill, traceTime: nil), t, true))
            t += usual
          }
        }
      }
      lastRelative = relative
      deliveredInLap += 1
      return (epoch, relative)
    }
    return nil
  }

  /// The most no-fix epochs one gap is filled with.
  static let maximumGapFill = 86_400

  private mutating func schedule(_ epoch: consuming TraceEpoch, relative: Double, isGapFill: Bool) -> ReplayedEpoch {
    let zero = scheduleZero ?? relative
    scheduleZero = zero
    let traceSeconds = relative - zero
    var scheduled = Duration.zero
    if let speed = options.speed { scheduled = .nanoseconds(Int64((traceSeconds / speed * 1e9).rounded())) }
    if case .startingAt(let date) = options.timeBase {
      epoch.fix.timestamp = date.addingTimeInterval(traceSeconds)
    } else if epoch.fix.timestamp == nil, let start = options.untimedStart {
      epoch.fix.timestamp = start.addingTimeInterval(relative)
    }
    delivered += 1
    return ReplayedEpoch(epoch: epoch, scheduled: scheduled, elapsed: scheduled, lap: lap, isGapFill: isGapFill)
  }
}

/// The fixes of a ``TraceReplay``, as a `LocationSource`.
public struct TraceReplayFixes<C: Clock>: LocationSource where C.Duration == Duration {
  /// The replay whose fixes are delivered.
  public var replay: TraceReplay<C>

  /// Delivers the fixes of a replay's epochs as they come due.
  public struct AsyncIterator: AsyncIteratorProtocol {
    var base: TraceReplay<C>.AsyncIterator
    /// The next epoch's fix, once it is due; nil at the end.
    /// - Returns: the fix, or nil.
    /// - Throws: what the replay's iterator throws.
    public mutating func next() async throws -> LocationFix? { try await base.next()?.fix }
  }

  /// Starts the replay from the start of the trace.
  /// - Returns: an iterator over its fixes.
  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: replay.makeAsyncIterator()) }
}
