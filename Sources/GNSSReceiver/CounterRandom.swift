import Foundation

/// Random numbers that are a pure function of a key: a seed, a phone, a stream and an epoch
/// (and a draw within the epoch), so a run is reproducible byte for byte and independent parts
/// never shift each other: adding a phone, a satellite or a sentence changes no other draw.
///
/// The key is folded through SplitMix64's finaliser (Steele, Lea and Flood, "Fast splittable
/// pseudorandom number generators", OOPSLA 2014), whose output passes BigCrush; a counter-based
/// generator in the sense of Salmon et al. ("Parallel random numbers: as easy as 1, 2, 3", SC11).
public struct CounterRandom: Hashable, Sendable {
  /// The run's seed.
  public var seed: UInt64
  /// The phone (or receiver) within the run.
  public var phone: UInt64

  /// The key folded up to the stream, per stream (the draws of an epoch then cost two folds).
  private let prefixes: [UInt64]

  public init(seed: UInt64, phone: UInt64 = 0) {
    self.seed = seed
    self.phone = phone
    let base = Self.mix(Self.mix(seed) ^ phone)
    prefixes = Stream.allCases.map { Self.mix(base ^ $0.rawValue) }
  }

  /// What a draw is for: each stream is independent of the others.
  public enum Stream: UInt64, Sendable, CaseIterable {
    case biasEast = 1, biasNorth, biasUp
    case noiseEast, noiseNorth, noiseUp
    case velocityEast, velocityNorth, velocityUp
    case multipathStart, multipathLength, multipathEast, multipathNorth, multipathUp
    case outageStart, outageLength
    case signal, timeToFirstFix
  }

  /// 64 random bits for the key.
  public func bits(_ stream: Stream, epoch: Int64, draw: UInt64 = 0) -> UInt64 {
    Self.mix(Self.mix(prefixes[Int(stream.rawValue) - 1] ^ UInt64(bitPattern: epoch)) ^ draw)
  }

  /// Uniform in (0, 1), never 0 or 1.
  public func uniform(_ stream: Stream, epoch: Int64, draw: UInt64 = 0) -> Double {
    (Double(bits(stream, epoch: epoch, draw: draw) >> 11) + 0.5) * 0x1p-53
  }

  /// Standard normal (Box–Muller over draws `2·draw` and `2·draw + 1`).
  public func gaussian(_ stream: Stream, epoch: Int64, draw: UInt64 = 0) -> Double {
    let u1 = uniform(stream, epoch: epoch, draw: 2 &* draw)
    let u2 = uniform(stream, epoch: epoch, draw: 2 &* draw &+ 1)
    return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
  }

  /// Two independent standard normals (both outputs of one Box–Muller transform).
  public func gaussianPair(_ stream: Stream, epoch: Int64, draw: UInt64 = 0) -> (Double, Double) {
    let u1 = uniform(stream, epoch: epoch, draw: 2 &* draw)
    let u2 = uniform(stream, epoch: epoch, draw: 2 &* draw &+ 1)
    let r = (-2 * log(u1)).squareRoot(), angle = 2 * Double.pi * u2
    return (r * cos(angle), r * sin(angle))
  }

  /// Exponential with mean `mean`.
  public func exponential(_ stream: Stream, epoch: Int64, mean: Double, draw: UInt64 = 0) -> Double {
    -mean * log(uniform(stream, epoch: epoch, draw: draw))
  }

  /// SplitMix64's finaliser: a bijection of 64-bit words with full avalanche.
  @inline(__always) static func mix(_ x: UInt64) -> UInt64 {
    var z = x &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
