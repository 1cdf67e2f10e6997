import Geo
import LocationModel
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `isDistance(to:lessThan:)` and `isDistance(to:atMost:)` decide near pairs on a flat
/// projection: they must answer as comparing `distance(to:)` does, for every pair.
struct DistanceComparisonTests {
  /// A small deterministic generator (SplitMix64), so that a failure names its pair.
  struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func between(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }
  }

  @Test(arguments: [0.5, 5, 10, 25, 100, 500, 5_000, 19_000, 50_000])
  func nearComparisonsAnswerAsTheHaversine(threshold: Double) throws {
    var random = SplitMix(state: UInt64(threshold * 1000))
    var decided = 0
    for _ in 0..<20_000 {
      // Anywhere (poles and the antimeridian included), a second point at about the threshold
      // (a quarter of the pairs at 0.98–1.02 of it, where the flat projection defers).
      let from = try #require(Coordinate(latitude: random.between(-90, 90), longitude: random.between(-180, 180)))
      let scale = random.unit() < 0.25 ? random.between(0.98, 1.02) : random.between(0, 3)
      let meters = threshold * scale
      let bearing = random.between(0, 2 * .pi)
      let north = meters * cos(bearing) / Coordinate.earthRadius * 180 / .pi
      var longitude =
        from.longitude + meters * sin(bearing) / Coordinate.earthRadius * 180 / .pi / max(cos(from.latitude * .pi / 180), 1e-6)
      longitude = longitude > 180 ? longitude - 360 : (longitude < -180 ? longitude + 360 : longitude)
      guard let to = Coordinate(latitude: min(90, max(-90, from.latitude + north)), longitude: longitude) else { continue }
      let exact = from.distance(to: to)
      #expect(from.isDistance(to: to, lessThan: threshold) == (exact < threshold), "\(from) → \(to): \(exact) m")
      #expect(from.isDistance(to: to, atMost: threshold) == (exact <= threshold), "\(from) → \(to): \(exact) m")
      decided += 1
    }
    #expect(decided > 19_000)
  }

  @Test func equalPointsAndExactThresholds() throws {
    let here = try #require(Coordinate(latitude: 60.1699, longitude: 24.9384))
    #expect(here.isDistance(to: here, atMost: 0))
    #expect(!here.isDistance(to: here, lessThan: 0))
    let there = try #require(Coordinate(latitude: 60.1709, longitude: 24.9384))
    let exact = here.distance(to: there)
    #expect(here.isDistance(to: there, atMost: exact))
    #expect(!here.isDistance(to: there, lessThan: exact))
    // Across the antimeridian, 2 km apart.
    let west = try #require(Coordinate(latitude: 0, longitude: 179.99))
    let east = try #require(Coordinate(latitude: 0, longitude: -179.992))
    #expect(west.isDistance(to: east, lessThan: 3_000))
    #expect(!west.isDistance(to: east, lessThan: 1_000))
  }
}
