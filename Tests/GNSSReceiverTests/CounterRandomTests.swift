import Foundation
import GNSSReceiver
import EmulatorTesting
import Testing

/// The receiver's random numbers: pure functions of their key, with the distributions they name.
@Suite("Counter-based random numbers")
struct CounterRandomTests {
  /// 10⁶ pairs: each output has mean 0, variance 1, the normal's 68/95 % points and
  /// kurtosis 3; the two outputs of a pair are uncorrelated and so are successive epochs.
  @Test(.notUnderThreadSanitizer) func gaussianPairsAreIndependentStandardNormals() {
    let random = CounterRandom(seed: 11, phone: 4)
    let n = 1_000_000
    var x = [Double](), y = [Double]()
    x.reserveCapacity(n)
    y.reserveCapacity(n)
    for epoch in 0..<n {
      let (a, b) = random.gaussianPair(.noise, epoch: Int64(epoch))
      x.append(a)
      y.append(b)
    }
    func moments(_ v: [Double]) -> (mean: Double, variance: Double, kurtosis: Double) {
      let mean = v.reduce(0, +) / Double(v.count)
      let variance = v.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(v.count)
      let fourth = v.reduce(0) { $0 + pow($1 - mean, 4) } / Double(v.count)
      return (mean, variance, fourth / (variance * variance))
    }
    func correlation(_ a: ArraySlice<Double>, _ b: ArraySlice<Double>) -> Double {
      zip(a, b).reduce(0) { $0 + $1.0 * $1.1 } / Double(a.count)
    }
    let sigma = 1 / Double(n).squareRoot()
    for v in [x, y] {
      let m = moments(v)
      #expect(abs(m.mean) < 5 * sigma)
      #expect(abs(m.variance - 1) < 5 * 2.0.squareRoot() * sigma)
      #expect(abs(m.kurtosis - 3) < 5 * 24.0.squareRoot() * sigma)
      let within1 = Double(v.count { abs($0) <= 1 }) / Double(n), within2 = Double(v.count { abs($0) <= 1.959_964 }) / Double(n)
      #expect(abs(within1 - 0.682_689) < 5 * (0.68 * 0.32).squareRoot() * sigma)
      #expect(abs(within2 - 0.95) < 5 * (0.95 * 0.05).squareRoot() * sigma)
      // Beyond the ziggurat's base (its tail algorithm) and within it, as often as the normal.
      let tail = Double(v.count { abs($0) > 3.442_619_855_899 }) / Double(n), p = 5.761_1e-4
      #expect(abs(tail - p) < 5 * (p / Double(n)).squareRoot())
      let beyond3 = Double(v.count { abs($0) > 3 }) / Double(n), p3 = 2.699_8e-3
      #expect(abs(beyond3 - p3) < 5 * (p3 / Double(n)).squareRoot())
    }
    #expect(abs(correlation(x[...], y[...])) < 5 * sigma)
    #expect(abs(correlation(x.dropFirst(), x.dropLast())) < 5 * sigma)
    #expect(abs(correlation(x[...], y.dropFirst()[...])) < 5 * sigma)
  }

  /// The same key gives the same value whatever was drawn before; another stream, draw, phone
  /// or seed, another value.
  @Test func aDrawIsAFunctionOfItsKey() {
    let random = CounterRandom(seed: 3)
    let first = random.gaussianPair(.velocity, epoch: 1_000, draw: 2)
    _ = (0..<100).map { random.uniform(.signal, epoch: Int64($0)) }
    #expect(random.gaussianPair(.velocity, epoch: 1_000, draw: 2) == first)
    #expect(CounterRandom(seed: 3).gaussianPair(.velocity, epoch: 1_000, draw: 2) == first)
    #expect(random.gaussianPair(.velocity, epoch: 1_000, draw: 3) != first)
    #expect(random.gaussianPair(.noise, epoch: 1_000, draw: 2) != first)
    #expect(CounterRandom(seed: 3, phone: 1).gaussianPair(.velocity, epoch: 1_000, draw: 2) != first)
    #expect(CounterRandom(seed: 4).gaussianPair(.velocity, epoch: 1_000, draw: 2) != first)
    let u = (0..<10_000).map { random.uniform(.outageStart, epoch: Int64($0)) }
    #expect(u.allSatisfy { $0 > 0 && $0 < 1 })
  }
}
