import Foundation

/// Dilutions of precision of a set of satellites: how the geometry scales range errors into
/// position (east, north, up) and clock errors.
public struct DilutionOfPrecision: Hashable, Sendable {
  /// East (gpsd's `xdop`).
  public var east: Double
  /// North (gpsd's `ydop`).
  public var north: Double
  /// Horizontal (HDOP): east and north together.
  public var horizontal: Double
  /// Vertical (VDOP).
  public var vertical: Double
  /// Position (PDOP): east, north and up together.
  public var position: Double
  /// Time (TDOP): the receiver clock.
  public var time: Double
  /// Geometric (GDOP): position and time together.
  public var geometric: Double

  /// The DOPs of satellites at these azimuths and elevations (degrees): the diagonal of
  /// (GᵀG)⁻¹ for rows (sin az cos el, cos az cos el, sin el, 1), as gpsd computes them; nil for
  /// fewer than 4 satellites or a geometry whose determinant is below 1e-4.
  public init?(azimuthsAndElevations sky: [(azimuth: Double, elevation: Double)]) {
    var sum = Sum()
    for (azimuth, elevation) in sky { sum.add(azimuth: azimuth, elevation: elevation) }
    guard let dops = sum.dilution else { return nil }
    self = dops
  }

  /// The DOPs of satellites added one at a time (a decoder's sky, filtered as it goes, with
  /// no array of directions).
  package struct Sum {
    private var m = NormalMatrix()

    package init() {}

    /// A satellite in this direction (degrees).
    package mutating func add(azimuth: Double, elevation: Double) {
      let (sinAz, cosAz) = DilutionOfPrecision.sineAndCosine(degrees: azimuth)
      let (sinEl, cosEl) = DilutionOfPrecision.sineAndCosine(degrees: elevation)
      m.add(sinAz * cosEl, cosAz * cosEl, sinEl)
    }

    /// The DOPs of the satellites added; nil for fewer than four or a singular geometry.
    package var dilution: DilutionOfPrecision? { DilutionOfPrecision(m) }
  }

  /// The DOPs of satellites in these directions, unit vectors east, north, up (for a caller
  /// that has their sines and cosines already).
  package init?(lineOfSight directions: [(east: Double, north: Double, up: Double)]) {
    var m = NormalMatrix()
    for d in directions { m.add(d.east, d.north, d.up) }
    self.init(m)
  }

  private init?(_ m: NormalMatrix) {
    guard m.count >= 4, let (i00, i11, i22, i33) = m.inverseDiagonal() else { return nil }
    func root(_ x: Double) -> Double { x >= 0 ? x.squareRoot() : .nan }
    east = root(i00)
    north = root(i11)
    horizontal = root(i00 + i11)
    vertical = root(i22)
    position = root(i00 + i11 + i22)
    time = root(i33)
    geometric = root(i00 + i11 + i22 + i33)
  }

  /// The DOPs of satellites as a receiver sees them.
  public init?(_ satellites: [SatelliteView]) {
    self.init(azimuthsAndElevations: satellites.map { ($0.azimuth, $0.elevation) })
  }

  /// The sine and cosine of an angle in degrees; from a table for whole degrees (GSV gives
  /// whole degrees), with the values `sin` and `cos` give.
  @inline(__always)
  static func sineAndCosine(degrees: Double) -> (Double, Double) {
    let whole = Int(exactly: degrees) ?? Int.min
    if whole >= -90 && whole <= 359 { return sinesAndCosines[whole &+ 90] }
    let radians = degrees * Double.pi / 180
    return (sin(radians), cos(radians))
  }

  /// Both of each whole degree in one table (one lookup, one check that it was made).
  private static let sinesAndCosines: [(Double, Double)] = (-90...359).map {
    (sin(Double($0) * Double.pi / 180), cos(Double($0) * Double.pi / 180))
  }

  /// Σ vᵀ·v over rows v = (x, y, z, 1): a symmetric 4 × 4, and its inverse's diagonal by
  /// cofactors, as gpsd's `matrix_invert` computes it.
  struct NormalMatrix {
    private var xx = 0.0, xy = 0.0, xz = 0.0, x1 = 0.0
    private var yy = 0.0, yz = 0.0, y1 = 0.0
    private var zz = 0.0, z1 = 0.0
    private(set) var count = 0

    mutating func add(_ x: Double, _ y: Double, _ z: Double) {
      xx += x * x
      xy += x * y
      xz += x * z
      x1 += x
      yy += y * y
      yz += y * z
      y1 += y
      zz += z * z
      z1 += z
      count += 1
    }

    subscript(_ i: Int, _ j: Int) -> Double {
      switch (min(i, j), max(i, j)) {
      case (0, 0): xx
      case (0, 1): xy
      case (0, 2): xz
      case (0, 3): x1
      case (1, 1): yy
      case (1, 2): yz
      case (1, 3): y1
      case (2, 2): zz
      case (2, 3): z1
      default: Double(count)
      }
    }

    /// nil when the determinant is below 1e-4.
    func inverseDiagonal() -> (Double, Double, Double, Double)? {
      let m = self
      let d2_12_01 = m[1, 0] * m[2, 1] - m[1, 1] * m[2, 0]
      let d2_12_02 = m[1, 0] * m[2, 2] - m[1, 2] * m[2, 0]
      let d2_12_12 = m[1, 1] * m[2, 2] - m[1, 2] * m[2, 1]
      let d2_13_01 = m[1, 0] * m[3, 1] - m[1, 1] * m[3, 0]
      let d2_13_03 = m[1, 0] * m[3, 3] - m[1, 3] * m[3, 0]
      let d2_13_13 = m[1, 1] * m[3, 3] - m[1, 3] * m[3, 1]
      let d2_23_01 = m[2, 0] * m[3, 1] - m[2, 1] * m[3, 0]
      let d2_23_02 = m[2, 0] * m[3, 2] - m[2, 2] * m[3, 0]
      let d2_23_03 = m[2, 0] * m[3, 3] - m[2, 3] * m[3, 0]
      let d2_23_12 = m[2, 1] * m[3, 2] - m[2, 2] * m[3, 1]
      let d2_23_13 = m[2, 1] * m[3, 3] - m[2, 3] * m[3, 1]
      let d2_23_23 = m[2, 2] * m[3, 3] - m[2, 3] * m[3, 2]
      let d3_012_012 = m[0, 0] * d2_12_12 - m[0, 1] * d2_12_02 + m[0, 2] * d2_12_01
      let d3_013_013 = m[0, 0] * d2_13_13 - m[0, 1] * d2_13_03 + m[0, 3] * d2_13_01
      let d3_023_023 = m[0, 0] * d2_23_23 - m[0, 2] * d2_23_03 + m[0, 3] * d2_23_02
      let d3_123_012 = m[1, 0] * d2_23_12 - m[1, 1] * d2_23_02 + m[1, 2] * d2_23_01
      let d3_123_013 = m[1, 0] * d2_23_13 - m[1, 1] * d2_23_03 + m[1, 3] * d2_23_01
      let d3_123_023 = m[1, 0] * d2_23_23 - m[1, 2] * d2_23_03 + m[1, 3] * d2_23_02
      let d3_123_123 = m[1, 1] * d2_23_23 - m[1, 2] * d2_23_13 + m[1, 3] * d2_23_12
      let det = m[0, 0] * d3_123_123 - m[0, 1] * d3_123_023 + m[0, 2] * d3_123_013 - m[0, 3] * d3_123_012
      guard abs(det) >= 0.0001 else { return nil }
      return (d3_123_123 / det, d3_023_023 / det, d3_013_013 / det, d3_012_012 / det)
    }
  }
}
