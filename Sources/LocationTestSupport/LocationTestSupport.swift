public import Clocks
public import Geo
public import Foundation

/// Collects what a callback or stream reports, for later inspection; safe from any thread.
public final class Recorder<Value: Sendable>: Sendable {
  private let values = Locked<[Value]>([])
  public init() {}
  public func append(_ value: Value) { values.withLock { $0.append(value) } }
  /// Everything recorded so far, in order.
  public var all: [Value] { values.withLock { $0 } }
  public var last: Value? { values.withLock { $0.last } }
}

/// Waits (on the real clock, at most `limit`) until `condition` holds; returns whether it did.
///
/// For tests that wait for other tasks or threads: the bound keeps a broken condition from
/// hanging the suite, and the result is what the test should `#expect`.
@discardableResult
public func waitUntil(_ limit: Duration = .seconds(10), _ condition: () async -> Bool) async -> Bool {
  let deadline = ContinuousClock.now + limit
  while ContinuousClock.now < deadline {
    if await condition() { return true }
    await Task.yield()
    try? await Task.sleep(for: .milliseconds(1))
  }
  return await condition()
}

/// Lets tasks started by the code under test run up to their next suspension
/// (yields, and short real pauses so that other threads get to run under load).
public func settle() async {
  for _ in 0..<3 {
    for _ in 0..<20 { await Task.yield() }
    try? await Task.sleep(for: .milliseconds(2))
  }
}

/// Waits until something sleeps on `clock` (a prompt's answer, a timer), so that advancing
/// the clock wakes it: `TestClock` does not wake a sleep registered after its advance.
public func untilSleeping(_ clock: TestClock<Duration>) async {
  await waitUntil {
    do {
      try await clock.checkSuspension()
      return false
    } catch {
      return true
    }
  }
}

/// A location source the test drives by hand: every ``send(_:)`` reaches every iteration
/// running at that moment (as a GPS reaches every listener); ``finish()`` ends them all.
/// A fix sent while nobody iterates is gone, as on a device.
public final class ManualLocationSource: LocationSource {
  private struct State {
    var listeners: [Int: AsyncStream<LocationFix>.Continuation] = [:]
    var next = 0
    var finished = false
  }

  private let state = Locked(State())

  public init() {}

  /// How many iterations are listening now.
  public var listenerCount: Int { state.withLock { $0.listeners.count } }

  public func send(_ fix: LocationFix) {
    for listener in state.withLock({ Array($0.listeners.values) }) { listener.yield(fix) }
  }

  /// Sends a 2D fix at `coordinate`, stamped `timestamp`.
  public func send(_ coordinate: Coordinate, at timestamp: Date? = nil) {
    send(LocationFix(timestamp: timestamp, mode: .twoD, coordinate: coordinate, horizontalAccuracy: 5))
  }

  public func finish() {
    let listeners = state.withLock { s in
      s.finished = true
      return Array(s.listeners.values)
    }
    for listener in listeners { listener.finish() }
  }

  public struct AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncStream<LocationFix>.Iterator
    public mutating func next() async throws -> LocationFix? { await base.next(isolation: #isolation) }
  }

  public func makeAsyncIterator() -> AsyncIterator {
    let (stream, continuation) = AsyncStream.makeStream(of: LocationFix.self)
    let finished = state.withLock { s -> Bool in
      guard !s.finished else { return true }
      let id = s.next
      s.next += 1
      s.listeners[id] = continuation
      continuation.onTermination = { [weak self] _ in
        self?.state.withLock { _ = $0.listeners.removeValue(forKey: id) }
      }
      return false
    }
    if finished { continuation.finish() }
    return AsyncIterator(base: stream.makeAsyncIterator())
  }
}

/// Runs `call` in a task and advances `clock` by `step` until it returns (at most `limit` of real
/// time, see ``waitUntil(_:_:)``); then its result. For calls that wait on the clock (a prompt's
/// answer, the next fix of a source) when the test does not know how far to advance.
public func advancing<T: Sendable>(
  _ clock: TestClock<Duration>, by step: Duration, limit: Duration = .seconds(10),
  _ call: @escaping @Sendable () async -> T
) async -> T {
  let done = Recorder<Bool>()
  let task = Task {
    let value = await call()
    done.append(true)
    return value
  }
  await waitUntil(limit) {
    await clock.advance(by: step)
    return !done.all.isEmpty
  }
  return await task.value
}

/// A small deterministic random generator (SplitMix64), for property tests whose failures
/// name their seed and reproduce.
public struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `low..<high`.
  public mutating func uniform(_ low: Double, _ high: Double) -> Double {
    low + (high - low) * Double(next() >> 11) / Double(1 << 53)
  }
}
