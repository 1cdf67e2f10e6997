import Geo
import LocationServices

/// Collects what a callback or stream reports, for later inspection; safe from any thread.
public final class Recorder<Value: Sendable>: Sendable {
  private let values = Locked<[Value]>([])
  public init() {}
  public func append(_ value: Value) { values.withLock { $0.append(value) } }
  /// Everything recorded so far, in order.
  public var all: [Value] { values.withLock { $0 } }
  public var last: Value? { values.withLock { $0.last } }
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
