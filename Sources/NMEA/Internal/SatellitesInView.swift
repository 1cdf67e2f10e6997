/// The satellites in view that one epoch's GSV sentences announced: the latest count of
/// each talker (`GP`, `GL`, `GA`, …), summed.
///
/// Stored inline, so that an epoch stays a plain value that costs nothing to create or copy
/// (a dictionary here cost reference counting on every epoch). It holds up to
/// ``capacity`` talkers; a sentence from a further talker in the same epoch is ignored,
/// which no receiver comes near (NMEA 4.11 names seven GNSS talkers).
struct SatellitesInView: Sendable {
  static let capacity = 8

  private var talkers: (UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16) = (0, 0, 0, 0, 0, 0, 0, 0)
  private var counts: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
  private var used = 0

  /// Records that `talker` has `count` satellites in view, replacing its earlier count.
  mutating func record(_ talker: NMEATalker, _ count: Int) {
    let used = self.used
    let slot = withUnsafeBytes(of: talkers) { raw in
      let talkers = raw.bindMemory(to: UInt16.self)
      return (0..<used).first { talkers[$0] == talker.rawValue } ?? used
    }
    guard slot < SatellitesInView.capacity else { return }
    withUnsafeMutableBytes(of: &talkers) { $0.bindMemory(to: UInt16.self)[slot] = talker.rawValue }
    withUnsafeMutableBytes(of: &counts) { $0.bindMemory(to: Int.self)[slot] = count }
    if slot == used { self.used += 1 }
  }

  /// The sum over talkers; nil when no GSV gave a count.
  var total: Int? {
    guard used > 0 else { return nil }
    let used = self.used
    return withUnsafeBytes(of: counts) { raw in
      let counts = raw.bindMemory(to: Int.self)
      return (0..<used).reduce(0) { $0 &+ counts[$1] }
    }
  }
}
