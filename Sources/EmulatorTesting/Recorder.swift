import Geo
import LocationModel

/// Collects what a callback or stream reports, for later inspection; safe from any thread.
public final class Recorder<Value: Sendable>: Sendable {
  private let values = Locked<[Value]>([])
  /// Creates an empty recorder.
  public init() {}
  /// Records a value after those already recorded.
  ///
  /// - Parameter value: The value to record.
  public func append(_ value: Value) { values.withLock { $0.append(value) } }
  /// Everything recorded so far, in order.
  public var all: [Value] { values.withLock { $0 } }
  /// The most recently recorded value, or `nil` if nothing was recorded yet.
  public var last: Value? { values.withLock { $0.last } }
}

/// A small deterministic random generator (SplitMix64), for property tests whose failures
/// name their seed and reproduce.
public struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator whose sequence is fixed by `seed`.
  ///
  /// - Parameter seed: The starting state; the same seed gives the same numbers.
  public init(seed: UInt64) { state = seed }

  /// Advances the state and returns the next 64 random bits.
  ///
  /// - Returns: The next number of the sequence.
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
