import Foundation
import GNSS

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
  /// The azimuths and elevations (in pairs) of the last geometry ``fillDOPs(_:)`` computed, and
  /// its DOPs: a memo, not state (a decoder's comparable state forgets it). A satellite's whole
  /// degrees change every few minutes, so most sets give the geometry of the one before: 79 %
  /// of consecutive epochs in the 31 receiver logs of `shared/corpus/gpsd-nmea` with ten or more.
  private var lastGeometry: [Double] = []
  private var lastDilution: DilutionOfPrecision?

  /// Any sentence but a GSV or GSA ends their runs (gpsd's `nmea_parse`).
  mutating func endRuns(gsv: Bool = false, gsa: Bool = false) {
    if !gsv {
      if lastGSVTalker != 0 { endGSVTalker = lastGSVTalker }
      lastGSVTalker = 0
    }
    if !gsa { lastGSATalker = 0 }
  }

  mutating func zero() { satellites.removeAll(keepingCapacity: true) }

  /// Drops the memo of the last geometry (see ``fillDOPs(_:)``).
  mutating func forgetGeometry() {
    lastGeometry = []
    lastDilution = nil
  }

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
    // By index: a `for … in` over the list copied it (and its overflow array) into an iterator.
    for i in s.ids.indices {
      let id = s.ids[i]
      guard (1...600).contains(id) else { continue }
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

  /// Empties both skies' satellites and used PRNs when they hold the same elements, bit for bit
  /// (see `NMEADecoder.sameBits`); false, and both left as they were, otherwise.
  mutating func setAsideArrays(ifSameAs other: inout GPSDSky) -> Bool {
    guard sameContents(satellites, other.satellites), used == other.used else { return false }
    (satellites, other.satellites, used, other.used) = ([], [], [], [])
    return true
  }

  // MARK: GSV

  /// One GSV sentence; returns whether it completed a sane set gpsd takes (its
  /// `SATELLITE_SET`), after which ``fillDOPs(_:)`` runs.
  mutating func gsv(_ s: GSV) -> Bool {
    let header = GSV.Header(s)
    guard let system = beginGSV(talker: s.talker, header) else { return false }
    // By index: a `for … in` over the list copied its 224 bytes into an iterator.
    for i in s.inline.indices {
      guard addGSV(s.inline[i], talker: s.talker, system: system) else { break }
    }
    return endGSV(header)
  }

  /// ``gsv(_:)`` with the satellites read from `f` as they come (the decoder's way: no `GSV`).
  mutating func gsv(talker: NMEATalker, _ header: GSV.Header, _ f: inout FieldReader) -> Bool {
    guard let system = beginGSV(talker: talker, header) else { return false }
    _ = GSV.readSatellites(&f) { addGSV($0, talker: talker, system: system) }
    return endGSV(header)
  }

  /// The start of a GSV: the set's first sentence empties the sky; the NMEA system its talker
  /// names (0 for GP and GN), or nil for a sentence without a valid number, which empties it.
  private mutating func beginGSV(talker: NMEATalker, _ header: GSV.Header) -> Int? {
    guard let part = header.messageNumber, part >= 1 else {
      zero()
      return nil
    }
    let talker = UInt8(truncatingIfNeeded: talker.rawValue)
    if part == 1 && lastGSVTalker == 0 { zero() }
    lastGSVTalker = talker
    switch talker {
    case 0x41, 0x42, 0x44, 0x49, 0x4C, 0x4E, 0x51, 0x5A: seenOtherGSV = true
    default: break
    }
    switch talker {
    case 0x41: return 3
    case 0x42, 0x44: return 4
    case 0x49: return 6
    case 0x4C: return 2
    case 0x51, 0x5A: return 5
    default: return 0
    }
  }

  /// One satellite of a GSV; false when the sky is full (gpsd's `MAXCHANNELS`): it is emptied,
  /// and the sentence's other satellites are left out.
  @inline(__always)
  private mutating func addGSV(_ satellite: GSV.Satellite, talker: NMEATalker, system: Int) -> Bool {
    guard satellite.id != 0 else { return true }
    guard satellites.count < Self.maximumChannels else {
      zero()
      return false
    }
    let prn = Self.prn(talker: talker, satellite.id, system: system)
    let snr = Double(satellite.snr ?? 0)
    // Both elevation and azimuth, or neither (NaN: out of the geometry); an elevation beyond
    // ±90° or an azimuth outside 0–359° (360 is 0) stays unknown too.
    var elevation = Double.nan, azimuth = Double.nan
    if let el = satellite.elevation, let az = satellite.azimuth {
      if abs(el) <= 90 { elevation = Double(el) }
      let a = az == 360 ? 0 : az
      if (0..<360).contains(a) { azimuth = Double(a) }
    }
    satellites.append(
      Satellite(prn: prn, elevation: elevation, azimuth: azimuth, snr: snr, used: prn > 0 && snr > 0 && used.contains(prn)))
    return true
  }

  /// The end of a GSV (whose talker ``beginGSV(talker:_:)`` kept in `lastGSVTalker`): whether it
  /// completed a sane set gpsd takes.
  private mutating func endGSV(_ header: GSV.Header) -> Bool {
    if header.isPartial { return false }
    // gpsd's sanity check: some azimuth not 0 (an unknown one counts, as NaN != 0).
    guard satellites.contains(where: { $0.azimuth != 0 }) else {
      zero()
      return false
    }
    // gpsd takes a GPS set only as the last of the cycle's GSV runs once it saw other constellations'.
    if seenOtherGSV && lastGSVTalker == 0x50 && endGSVTalker != 0x50 { return false }
    return true
  }

  // MARK: DOPs from geometry

  /// gpsd's `fill_dop`: the DOPs of the used satellites' geometry (``DilutionOfPrecision``, from
  /// at least 4 satellites with a PRN, an azimuth in 0–359° and an elevation within ±90°),
  /// stored where `dops` has none.
  mutating func fillDOPs(_ dops: inout GPSDDOPs) {
    guard !satellites.isEmpty else { return }
    func counts(_ sp: Satellite) -> Bool {
      sp.used && sp.prn >= 1 && sp.azimuth.isFinite && sp.azimuth >= 0 && sp.azimuth <= 359 && sp.elevation.isFinite
        && abs(sp.elevation) <= 90
    }
    // The same directions, bit for bit and in the same order, as last time: the same DOPs.
    var same = true
    var i = 0
    for sp in satellites where counts(sp) {
      same =
        same && i + 1 < lastGeometry.count && lastGeometry[i].bitPattern == sp.azimuth.bitPattern
        && lastGeometry[i + 1].bitPattern == sp.elevation.bitPattern
      i += 2
    }
    if !same || i != lastGeometry.count {
      var sum = DilutionOfPrecision.Sum()
      lastGeometry.removeAll(keepingCapacity: true)
      for sp in satellites where counts(sp) {
        sum.add(azimuth: sp.azimuth, elevation: sp.elevation)
        lastGeometry.append(sp.azimuth)
        lastGeometry.append(sp.elevation)
      }
      lastDilution = sum.dilution
    }
    guard let geometry = lastDilution else { return }
    if !dops.x.isFinite { dops.x = geometry.east }
    if !dops.y.isFinite { dops.y = geometry.north }
    if !dops.horizontal.isFinite { dops.horizontal = geometry.horizontal }
    if !dops.vertical.isFinite { dops.vertical = geometry.vertical }
    if !dops.position.isFinite { dops.position = geometry.position }
    if !dops.time.isFinite { dops.time = geometry.time }
    if !dops.geometric.isFinite { dops.geometric = geometry.geometric }
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
