import Foundation
import Geo
import NMEA
public import LocationModel

/// Writes fixes as NMEA 0183: one GGA and one RMC per fix (talker GP), what gpsd and
/// any NMEA consumer need for time, position, altitude, speed and course.
///
/// A fix without a timestamp cannot be written (RMC needs the date): give the
/// trace a start time first (see ``ReplayOptions/TimeBase``).
public enum NMEAWriter {
  /// The GGA and RMC sentences for `fix`, each with `*hh` checksum, without line endings; empty without a timestamp.
  /// - Parameters:
  ///   - fix: the fix to write.
  ///   - receiver: GGA's satellites used and fix quality as the source said them
  ///     (8 satellites and quality 1 for a fix, 0 and 0 without one, where it did not).
  public static func sentences(for fix: LocationFix, receiver: ReceiverDetails = .init()) -> [String] {
    sentences(for: fix, receiver: receiver, talker: "GP")
  }

  /// ``sentences(for:receiver:)`` with another talker (`GN` for a receiver of several systems).
  package static func sentences(for fix: LocationFix, receiver: ReceiverDetails, talker: String) -> [String] {
    guard let date = fix.timestamp else { return [] }
    let cs = Int64((date.timeIntervalSince1970 * 100).rounded())
    let days = Int(cs >= 0 ? cs / 8_640_000 : (cs - 8_639_999) / 8_640_000)
    let csOfDay = Int(cs - Int64(days) * 8_640_000)
    let time =
      pad(csOfDay / 360_000, 2) + pad(csOfDay / 6000 % 60, 2) + pad(csOfDay / 100 % 60, 2) + "." + pad(csOfDay % 100, 2)
    let civil = NMEADate(daysSinceUnixEpoch: days)
    let dateField = pad(civil.day, 2) + pad(civil.month, 2) + pad(civil.year % 100, 2)
    var lat = ",", lon = ","
    if fix.hasFix, let c = fix.coordinate {
      lat = angle(abs(c.latitude), degreeDigits: 2) + (c.latitude < 0 ? ",S" : ",N")
      lon = angle(abs(c.longitude), degreeDigits: 3) + (c.longitude < 0 ? ",W" : ",E")
    }
    let hasFix = fix.hasFix
    let quality = hasFix ? max(1, receiver.quality ?? 1) : 0
    let satellites = max(0, min(99, receiver.satellitesUsed ?? (hasFix ? 8 : 0)))
    let hdop =
      (receiver.hdop ?? fix.horizontalAccuracy.map { $0 / GPSDRangeErrors.standalone.position }).map { FixRecord.fixed($0, 2) } ?? ""
    let altitude = hasFix && fix.mode == .threeD ? fix.altitudeMSL.map { FixRecord.fixed($0, 1) } : nil
    let separation: String =
      if let msl = fix.altitudeMSL, let hae = fix.altitudeHAE { FixRecord.fixed(hae - msl, 1) } else { "" }
    let gga =
      "\(talker)GGA,\(time),\(lat),\(lon),\(quality),\(pad(satellites, 2)),\(hdop),"
      + "\(altitude ?? ""),\(altitude == nil ? "" : "M"),\(altitude == nil ? "" : separation),"
      + "\(altitude == nil || separation.isEmpty ? "" : "M"),,"
    let knots = hasFix ? fix.speed.map { FixRecord.fixed($0 / 0.514444, 3) } ?? "" : ""
    let track = hasFix ? fix.course.map { FixRecord.fixed($0, 2) } ?? "" : ""
    let rmc = "\(talker)RMC,\(time),\(hasFix ? "A" : "V"),\(lat),\(lon),\(knots),\(track),\(dateField),,,\(hasFix ? "A" : "N")"
    return [framed(gga), framed(rmc)]
  }

  /// A whole receiver epoch for `fix`, as a GPS module sends it once a second: GGA, GSA, GSV
  /// (the satellites of ``sky``, as many used as the fix says), RMC and VTG; without a fix, the
  /// same sentences empty (quality 0, mode 1, no satellites, status V). Empty without a timestamp.
  public static func receiverEpoch(for fix: LocationFix, receiver: ReceiverDetails = .init()) -> [String] {
    let base = sentences(for: fix, receiver: receiver)
    guard base.count == 2 else { return [] }
    let hasFix = fix.hasFix
    let used = hasFix ? max(3, min(sky.count, receiver.satellitesUsed ?? 8)) : 0
    let hdop = fix.horizontalAccuracy.map { $0 / GPSDRangeErrors.standalone.position } ?? 1.0
    let vdop = fix.verticalAccuracy.map { $0 / GPSDRangeErrors.standalone.vertical } ?? hdop * 1.5
    let dops = hasFix ? [(hdop * hdop + vdop * vdop).squareRoot(), hdop, vdop].map { FixRecord.fixed($0, 2) } : ["", "", ""]
    let prns = (0..<12).map { $0 < used ? pad(sky[$0].prn, 2) : "" }
    let mode = hasFix ? (fix.mode == .threeD ? 3 : 2) : 1
    let gsa = "GPGSA,A,\(mode)," + prns.joined(separator: ",") + "," + dops.joined(separator: ",")
    let gsv = Self.gsv((hasFix ? sky : []).map { ($0.prn, $0.elevation, $0.azimuth, $0.snr) })
    return [base[0], framed(gsa)] + gsv + [base[1], vtg(for: fix)]
  }

  /// GSV sentences (four satellites a page, at least one page) for satellites given by PRN,
  /// elevation and azimuth in whole degrees, and SNR (empty when not tracked); with NMEA 4.10's
  /// signal ID as the last field when `signalID` is given.
  package static func gsv(
    _ satellites: [(prn: Int, elevation: Int, azimuth: Int, snr: Int?)], talker: String = "GP", signalID: Int? = nil
  ) -> [String] {
    let pages = max(1, (satellites.count + 3) / 4)
    return (0..<pages).map { page in
      var body = "\(talker)GSV,\(pages),\(page + 1),\(pad(satellites.count, 2))"
      for s in satellites.dropFirst(page * 4).prefix(4) {
        body += ",\(pad(s.prn, 2)),\(pad(s.elevation, 2)),\(pad(s.azimuth, 3)),\(s.snr.map { pad($0, 2) } ?? "")"
      }
      if let signalID { body += ",\(String(signalID, radix: 16, uppercase: true))" }
      return framed(body)
    }
  }

  /// The VTG sentence for `fix`: track, knots and km/h, status A; empty fields and N without a fix.
  package static func vtg(for fix: LocationFix, talker: String = "GP") -> String {
    let hasFix = fix.hasFix
    let track = hasFix ? fix.course.map { FixRecord.fixed($0, 2) } ?? "" : ""
    let knots = hasFix ? fix.speed.map { FixRecord.fixed($0 / 0.514444, 3) } ?? "" : ""
    let kmh = hasFix ? fix.speed.map { FixRecord.fixed($0 * 3.6, 3) } ?? "" : ""
    return framed("\(talker)VTG,\(track),T,,M,\(knots),N,\(kmh),K,\(hasFix ? "A" : "N")")
  }

  /// The satellites an emulated receiver sees: twelve GPS satellites spread over the sky,
  /// the highest first (so the used ones are those a receiver would pick).
  public static let sky: [(prn: Int, elevation: Int, azimuth: Int, snr: Int)] = [
    (5, 78, 41, 47), (13, 66, 252, 45), (15, 59, 118, 44), (18, 52, 307, 43), (20, 45, 184, 41), (24, 38, 72, 40),
    (26, 31, 221, 38), (29, 25, 349, 36), (2, 19, 143, 33), (10, 14, 286, 30), (12, 9, 20, 27), (31, 5, 199, 22),
  ]

  /// `$body*hh` with the XOR checksum of `body`.
  public static func framed(_ body: String) -> String {
    var sum: UInt8 = 0
    for byte in body.utf8 { sum ^= byte }
    let hex = Array("0123456789ABCDEF".utf8)
    return "$" + body + "*" + String(decoding: [hex[Int(sum >> 4)], hex[Int(sum & 15)]], as: UTF8.self)
  }

  /// `ddmm.mmmmmm` (latitude) or `dddmm.mmmmmm` (longitude): 6 decimals of a minute (about 2 mm).
  static func angle(_ degrees: Double, degreeDigits: Int) -> String {
    var whole = Int(degrees)
    var minutes = ((degrees - Double(whole)) * 60 * 1_000_000).rounded() / 1_000_000
    if minutes >= 60 {
      whole += 1
      minutes -= 60
    }
    let m = FixRecord.fixed(minutes, 6)
    return pad(whole, degreeDigits) + (minutes < 10 ? "0" : "") + m
  }

  package static func pad(_ value: Int, _ width: Int) -> String {
    let s = String(value)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
  }
}

/// Writes a GPX 1.1 track, one `trkpt` per fix, streaming: a new `trkseg` starts after each stretch without a fix.
public struct GPXWriter {
  private var inSegment = false
  /// The `trkpt` elements written so far.
  public private(set) var points = 0

  /// Creates a writer with no segment open and no point written.
  public init() {}

  /// The document's opening, up to the first segment.
  public func header(name: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="locemu" xmlns="http://www.topografix.com/GPX/1/1">
      <trk>
        <name>\(escaped(name))</name>

    """
  }

  /// The markup for one fix (a segment break for a no-fix).
  /// - Parameters:
  ///   - fix: the fix to write.
  ///   - receiver: written as `<sat>` and, for differential or PPS fixes, `<fix>`.
  public mutating func append(_ fix: LocationFix, receiver: ReceiverDetails = .init()) -> String {
    guard fix.hasFix, let c = fix.coordinate else {
      defer { inSegment = false }
      return inSegment ? "    </trkseg>\n" : ""
    }
    var out = inSegment ? "" : "    <trkseg>\n"
    inSegment = true
    points += 1
    out += "      <trkpt lat=\"\(FixRecord.fixed(c.latitude, 9))\" lon=\"\(FixRecord.fixed(c.longitude, 9))\">"
    if let e = fix.altitudeMSL { out += "<ele>\(FixRecord.fixed(e, 3))</ele>" }
    if let t = fix.timestamp { out += "<time>\(FixRecord.iso8601(t))</time>" }
    if let msl = fix.altitudeMSL, let hae = fix.altitudeHAE {
      out += "<geoidheight>\(FixRecord.fixed(hae - msl, 3))</geoidheight>"
    }
    let fixType =
      switch receiver.quality {
      case 2?: "dgps"
      case 3?: "pps"
      default: fix.mode == .threeD ? "3d" : "2d"
      }
    out += "<fix>\(fixType)</fix>"
    if let satellites = receiver.satellitesUsed { out += "<sat>\(satellites)</sat>" }
    if let h = fix.horizontalAccuracy {
      out += "<hdop>\(FixRecord.fixed(h / GPSDRangeErrors.standalone.position, 2))</hdop>"
    }
    if let v = fix.verticalAccuracy {
      out += "<vdop>\(FixRecord.fixed(v / GPSDRangeErrors.standalone.vertical, 2))</vdop>"
    }
    return out + "</trkpt>\n"
  }

  /// Closes the open segment, the track and the document.
  public mutating func footer() -> String {
    defer { inSegment = false }
    return (inSegment ? "    </trkseg>\n" : "") + "  </trk>\n</gpx>\n"
  }

  private func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }
}
