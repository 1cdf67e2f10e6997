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

  /// The seed and phone folded (kept in the value rather than in a table per stream: a fold is
  /// cheaper than a cache miss on a table of its own).
  private let base: UInt64

  /// A generator for one phone of a run.
  /// - Parameters:
  ///   - seed: the run's seed.
  ///   - phone: the phone (or receiver) within the run; phones of one seed draw independently.
  public init(seed: UInt64, phone: UInt64 = 0) {
    self.seed = seed
    self.phone = phone
    base = Self.mix(Self.mix(seed) ^ phone)
  }

  /// What a draw is for: each stream is independent of the others.
  public enum Stream: UInt64, Sendable, CaseIterable {
    /// The range bias's east and north kicks.
    case bias = 1
    /// The range bias's up kick and the east white noise.
    case biasUpAndNoiseEast
    /// The north and up white noise.
    case noise
    /// The horizontal velocity noise.
    case velocity
    /// The vertical velocity noise.
    case velocityUp
    /// Whether a multipath jump starts.
    case multipathStart
    /// How long a multipath jump lasts.
    case multipathLength
    /// A multipath jump's east offset.
    case multipathEast
    /// A multipath jump's north offset.
    case multipathNorth
    /// A multipath jump's up offset.
    case multipathUp
    /// Whether an outage starts.
    case outageStart
    /// How long an outage lasts.
    case outageLength
    /// Each satellite's signal flicker.
    case signal
    /// The spread of the time to first fix and to reacquire.
    case timeToFirstFix
  }

  /// 64 random bits for the key.
  public func bits(_ stream: Stream, epoch: Int64, draw: UInt64 = 0) -> UInt64 {
    Self.mix(epochKey(stream, epoch) ^ draw)
  }

  /// Uniform in (0, 1), never 0 or 1.
  public func uniform(_ stream: Stream, epoch: Int64, draw: UInt64 = 0) -> Double {
    Self.uniform(Self.mix(epochKey(stream, epoch) ^ draw))
  }

  /// Standard normal, by the ziggurat method (Marsaglia and Tsang, "The Ziggurat Method for
  /// Generating Random Variables", 2000, with Doornik's 128-layer tables, "An Improved Ziggurat
  /// Method to Generate Normal Random Samples", 2005): one 64-bit draw about 99 % of the time,
  /// no logarithm or sine. Its draws are `64·draw` onwards, so it stays a pure function of its
  /// key; the 64th draw in a row without a result (probability below 10⁻¹⁰⁰) gives 0.
  public func gaussian(_ stream: Stream, epoch: Int64, draw: UInt64 = 0) -> Double {
    gaussian(key: epochKey(stream, epoch), draw: draw)
  }

  /// ``gaussian(_:epoch:draw:)`` from the key folded up to the epoch (a pair folds it once).
  private func gaussian(key: UInt64, draw: UInt64) -> Double {
    let first = draw &* 64
    var word = first
    func next() -> UInt64 {
      defer { word &+= 1 }
      return Self.mix(key ^ word)
    }
    let x = Ziggurat.x, ratio = Ziggurat.ratio, r = Ziggurat.r
    while word &- first < 62 {
      let bits = next()
      // The layer from the low 7 bits, the position from the top 53: independent bits.
      let layer = Int(bits & 0x7F), u = 2 * Self.uniform(bits) - 1
      if abs(u) < ratio[layer] { return u * x[layer] }
      if layer == 0 {
        // The tail beyond r (Marsaglia's method for it).
        while word &- first < 62 {
          let a = log(Self.uniform(next())) / r, b = log(Self.uniform(next()))
          if -2 * b >= a * a { return u < 0 ? a - r : r - a }
        }
        return 0
      }
      let z = u * x[layer]
      let f0 = exp(-0.5 * (x[layer] * x[layer] - z * z)), f1 = exp(-0.5 * (x[layer + 1] * x[layer + 1] - z * z))
      if f1 + Self.uniform(next()) * (f0 - f1) < 1 { return z }
    }
    return 0
  }

  /// Two independent standard normals: ``gaussian(_:epoch:draw:)`` at draws `2·draw` and
  /// `2·draw + 1`.
  public func gaussianPair(_ stream: Stream, epoch: Int64, draw: UInt64 = 0) -> (Double, Double) {
    let key = epochKey(stream, epoch)
    return (gaussian(key: key, draw: 2 &* draw), gaussian(key: key, draw: 2 &* draw &+ 1))
  }

  /// Exponential with mean `mean`.
  public func exponential(_ stream: Stream, epoch: Int64, mean: Double, draw: UInt64 = 0) -> Double {
    -mean * log(uniform(stream, epoch: epoch, draw: draw))
  }

  /// The key folded up to the epoch: each draw of it is one more fold.
  @inline(__always) private func epochKey(_ stream: Stream, _ epoch: Int64) -> UInt64 {
    Self.mix(Self.mix(base ^ stream.rawValue) ^ UInt64(bitPattern: epoch))
  }

  /// The top 53 bits as a double in (0, 1).
  @inline(__always) private static func uniform(_ bits: UInt64) -> Double {
    (Double(bits >> 11) + 0.5) * 0x1p-53
  }

  /// SplitMix64's finaliser: a bijection of 64-bit words with full avalanche.
  @inline(__always) static func mix(_ x: UInt64) -> UInt64 {
    var z = x &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// The ziggurat's 128 layers of equal area under the normal density's right half (Doornik's
/// ZIGNOR construction): `x[i]` the layers' right edges (`x[0]` the base strip's equivalent
/// width, `x[1]` = r where the tail starts, `x[128]` = 0) and `ratio[i]` = `x[i+1] / x[i]`, the
/// share of a layer inside the density for sure.
private enum Ziggurat {
  static let layers = 128
  static let r = 3.442_619_855_899
  /// Each layer's area.
  static let area = 9.912_563_035_262_17e-3

  static let x: [Double] = {
    var x = [Double](repeating: 0, count: layers + 1)
    var f = exp(-0.5 * r * r)
    x[0] = area / f
    x[1] = r
    for i in 2..<layers {
      x[i] = (-2 * log(area / x[i - 1] + f)).squareRoot()
      f = exp(-0.5 * x[i] * x[i])
    }
    return x
  }()

  static let ratio: [Double] = (0..<layers).map { x[$0 + 1] / x[$0] }
}
