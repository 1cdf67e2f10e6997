import Foundation

/// gpsd's dilutions of precision (`gpsdata.dop`), NaN where unknown: what GSA, GGA and GNS
/// report, and what gpsd computes from the satellites it was told are used (``GPSDSky``).
struct GPSDDOPs: Sendable {
  var x = Double.nan
  var y = Double.nan
  var horizontal = Double.nan
  var vertical = Double.nan
  var position = Double.nan
  var time = Double.nan
  var geometric = Double.nan

  /// gpsd's range for a DOP a receiver sends (others stand for "unknown": 0.00, 99.99).
  static func isValid(_ dop: Double) -> Bool { dop >= 0.01 && dop <= 89.99 }
}

/// gpsd's view of the sky from NMEA (`gpsdata.skyview` and the NMEA driver's `sats_used`), as
/// gpsd 3.27's `processGSA` and `processGSV` build it, and the DOPs it computes from it
/// (`fill_dop` in `gpsd/libgpsd_core.c`).
///
/// GSA lists the satellites used; a GSV set lists those in view with elevation, azimuth and SNR,
/// and a satellite in view is used when the last GSA named it and its SNR is above 0. Once a
/// complete, sane GSV set arrived, gpsd computes every DOP it does not have from the geometry
/// of the used satellites (at least 4).
struct GPSDSky: Sendable {
  struct Satellite: Sendable {
    var prn: Int
    var elevation: Double
    var azimuth: Double
    var snr: Double
    var used: Bool
  }

  /// gpsd's `MAXCHANNELS`.
  static let maximumChannels = 184

  private(set) var satellites: [Satellite] = []
  /// The PRNs of the satellites used, from GSA, without duplicates.
  private(set) var used: [Int] = []
  /// The second letter of the talker of the GSV in progress (gpsd's `last_gsv_talker`); 0 once
  /// another sentence came.
  private var lastGSVTalker: UInt8 = 0
  /// The talker of the last GSV run (gpsd's `end_gsv_talker`).
  private var endGSVTalker: UInt8 = 0
  /// Whether a GSV of another constellation than GPS, or GN, was seen.
  private var seenOtherGSV = false
  /// The second letter of the talker of the GSA run in progress; 0 once another sentence came.
  private(set) var lastGSATalker: UInt8 = 0

  /// Any sentence but a GSV or GSA ends their runs (gpsd's `nmea_parse`).
  mutating func endRuns(gsv: Bool = false, gsa: Bool = false) {
    if !gsv {
      if lastGSVTalker != 0 { endGSVTalker = lastGSVTalker }
      lastGSVTalker = 0
    }
    if !gsa { lastGSATalker = 0 }
  }

  mutating func zero() { satellites.removeAll(keepingCapacity: true) }

  // MARK: GSA

  /// The satellites of a GSA: the used list starts again unless this GSA continues a run of
  /// another constellation's (or GN's, GQ's) GSAs.
  mutating func gsa(_ s: GSA) {
    let talker = UInt8(truncatingIfNeeded: s.talker.rawValue)
    if lastGSATalker == 0 || (talker == lastGSATalker && talker != 0x4E && talker != 0x51) {
      used.removeAll(keepingCapacity: true)
    }
    lastGSATalker = talker
    let gnssID = Self.gsaSystem(talker) ?? (s.systemID ?? 0)
    for id in s.satelliteIDs where (1...600).contains(id) {
      let prn = Self.prn(talker: s.talker, id, system: gnssID)
      guard prn > 0 else { continue }
      guard used.count < Self.maximumChannels else { break }
      if !used.contains(prn) { used.append(prn) }
    }
  }

  /// The NMEA system a GSA talker stands for (GP is GPS: 1); nil for GN, where field 18 says.
  private static func gsaSystem(_ talker: UInt8) -> Int? {
    switch talker {
    case 0x41: 3  // GA Galileo
    case 0x42, 0x44: 4  // GB, BD BeiDou
    case 0x49: 6  // GI NavIC
    case 0x4C: 2  // GL GLONASS
    case 0x50: 1  // GP GPS
    case 0x51, 0x5A: 5  // GQ, QZ QZSS
    default: nil
    }
  }

  // MARK: GSV

  /// One GSV sentence; returns whether it completed a sane set gpsd takes (its
  /// `SATELLITE_SET`), after which ``fillDOPs(_:)`` runs.
  mutating func gsv(_ s: GSV) -> Bool {
    guard let part = s.messageNumber, part >= 1 else {
      zero()
      return false
    }
    let talker = UInt8(truncatingIfNeeded: s.talker.rawValue)
    if part == 1 && lastGSVTalker == 0 { zero() }
    lastGSVTalker = talker
    let gnssID: Int
    switch talker {
    case 0x41: gnssID = 3
    case 0x42, 0x44: gnssID = 4
    case 0x49: gnssID = 6
    case 0x4C: gnssID = 2
    case 0x51, 0x5A: gnssID = 5
    default: gnssID = 0
    }
    switch talker {
    case 0x41, 0x42, 0x44, 0x49, 0x4C, 0x4E, 0x51, 0x5A: seenOtherGSV = true
    default: break
    }
    for satellite in s.satellites where satellite.id != 0 {
      guard satellites.count < Self.maximumChannels else {
        zero()
        break
      }
      let prn = Self.prn(talker: s.talker, satellite.id, system: gnssID)
      let snr = Double(satellite.snr ?? 0)
      satellites.append(
        Satellite(
          prn: prn, elevation: Double(satellite.elevation ?? 0), azimuth: Double(satellite.azimuth ?? 0), snr: snr,
          used: prn > 0 && snr > 0 && used.contains(prn)))
    }
    if part < (s.totalMessages ?? 0) { return false }
    guard satellites.contains(where: { $0.azimuth != 0 }) else {
      zero()
      return false
    }
    // gpsd takes a GPS set only as the last of the cycle's GSV runs once it saw other constellations'.
    if seenOtherGSV && talker == 0x50 && endGSVTalker != 0x50 { return false }
    return true
  }

  // MARK: DOPs from geometry

  /// gpsd's `fill_dop`: the DOPs of the used satellites' geometry, stored where `dops` has none.
  func fillDOPs(_ dops: inout GPSDDOPs) {
    guard !satellites.isEmpty else { return }
    // Σ rowᵀ·row over the rows (x, y, z, 1) of the usable satellites: a symmetric 4 × 4.
    var m = Matrix4()
    var n = 0
    for sp in satellites where sp.used && sp.prn >= 1 {
      guard sp.azimuth.isFinite, sp.azimuth >= 0, sp.azimuth <= 359 else { continue }
      guard sp.elevation.isFinite, abs(sp.elevation) <= 90 else { continue }
      let (sinAz, cosAz) = Self.sineAndCosine(degrees: sp.azimuth)
      let (sinEl, cosEl) = Self.sineAndCosine(degrees: sp.elevation)
      m.add(sinAz * cosEl, cosAz * cosEl, sinEl)
      n += 1
    }
    guard n >= 4 else { return }
    guard let inverse = Self.inverseDiagonal(m) else { return }
    func root(_ x: Double) -> Double { x >= 0 ? x.squareRoot() : .nan }
    let (i00, i11, i22, i33) = inverse
    if !dops.x.isFinite { dops.x = root(i00) }
    if !dops.y.isFinite { dops.y = root(i11) }
    if !dops.horizontal.isFinite { dops.horizontal = root(i00 + i11) }
    if !dops.vertical.isFinite { dops.vertical = root(i22) }
    if !dops.position.isFinite { dops.position = root(i00 + i11 + i22) }
    if !dops.time.isFinite { dops.time = root(i33) }
    if !dops.geometric.isFinite { dops.geometric = root(i00 + i11 + i22 + i33) }
  }

  /// The diagonal of the inverse of a symmetric 4 × 4 matrix by cofactors, as gpsd's
  /// `matrix_invert` computes it; nil when the determinant is below 1e-4.
  static func inverseDiagonal(_ m: Matrix4) -> (Double, Double, Double, Double)? {
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

  /// The sine and cosine of an angle in degrees; from a table for whole degrees (GSV gives
  /// whole degrees), with the same values `sin` and `cos` give.
  static func sineAndCosine(degrees: Double) -> (Double, Double) {
    let whole = Int(degrees)
    if Double(whole) == degrees, whole >= -90, whole <= 359 {
      return (sines[whole + 90], cosines[whole + 90])
    }
    let radians = degrees * Double.pi / 180
    return (sin(radians), cos(radians))
  }

  private static let sines: [Double] = (-90...359).map { sin(Double($0) * Double.pi / 180) }
  private static let cosines: [Double] = (-90...359).map { cos(Double($0) * Double.pi / 180) }

  /// A symmetric 4 × 4 matrix built as Σ vᵀ·v with v = (x, y, z, 1), subscripted like gpsd's.
  struct Matrix4 {
    private var xx = 0.0, xy = 0.0, xz = 0.0, x1 = 0.0
    private var yy = 0.0, yz = 0.0, y1 = 0.0
    private var zz = 0.0, z1 = 0.0
    private var ones = 0.0

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
      ones += 1
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
      default: ones
      }
    }
  }

  // MARK: Satellite numbers

  /// gpsd's `nmeaid_to_prn`: the PRN gpsd files a satellite under, from its NMEA number, the
  /// talker and the NMEA system ID (0 when the talker does not say); 0 for none.
  static func prn(talker: NMEATalker, _ n: Int, system: Int) -> Int {
    guard n >= 1 else { return 0 }
    if system > 0 {
      switch system {
      case 1:
        switch n {
        case ..<137: return n
        case ..<152: return 0
        case ..<158: return n
        case ..<193: return 0
        case ..<265: return n
        default: return 0
        }
      case 2: return 64 + ((n < 64 ? n : n - 64) & 0xFF)
      case 3:
        var svid = 0
        if n < 100 { svid = n } else if n > 100 && n < 200 { svid = n - 100 } else if n > 300 && n < 400 { svid = n - 300 }
        return 300 + (svid & 0xFF)
      case 4:
        var svid = 0
        if n < 100 { svid = n } else if n > 200 && n < 300 { svid = n - 200 } else if n > 400 && n < 500 { svid = n - 400 }
        return 400 + (svid & 0xFF)
      case 5: return 192 + ((n < 100 ? n : n - 192) & 0xFF)
      case 6: return n + 500
      default: return 0
      }
    }
    let first = UInt8(truncatingIfNeeded: talker.rawValue >> 8), second = UInt8(truncatingIfNeeded: talker.rawValue)
    switch n {
    case ...32:
      switch (first, second) {
      case (0x47, 0x41): return 300 + n  // GA
      case (0x47, 0x42), (0x42, 0x44), (0x50, 0x51): return 400 + n  // GB, BD, PQ
      case (0x47, 0x49): return 500 + n  // GI
      case (0x47, 0x4C): return 64 + n  // GL
      case (0x47, 0x51), (0x51, 0x5A): return 192 + n  // GQ, QZ
      default: return n
      }
    case ...96: return n
    case ..<120: return 0
    case ...158: return n
    case ..<173: return 0
    case ...182: return n
    case ..<193: return 0
    case ...197: return n
    case ..<201: return 0
    case ...237: return n + 200
    case ..<301: return 0
    case ...356: return n
    case ..<401: return 0
    case ...437: return n
    case ...499: return 0
    case ...518: return n
    case ...900: return 0
    case ...918: return n
    default: return 0
    }
  }
}
