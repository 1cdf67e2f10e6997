public import Foundation
public import LocationModel

/// Writes fixes as `locemu`'s JSON fix records, one object per line.
///
/// Member names are gpsd's TPV names: `time` (ISO 8601 UTC with milliseconds,
/// `Z`), `mode`, `lat`, `lon` (9 decimals), `altMSL`, `altHAE` (4 decimals),
/// `speed` (m/s, 3 decimals), `track` (degrees true, 4 decimals), `eph`/`epv`
/// (metres, 3 decimals), and where the source gives them gpsd's other members with gpsd's
/// precision: `status` (from 2 up, as gpsd prints it), `climb` (m/s, 3), `geoidSep` (3),
/// `magvar` (1), `epx`, `epy` (3), `eps` (m/s, 2), `epd` (degrees, 4), `epc` (m/s, 2), `ept`
/// (seconds, 3), `sep` (3), and `magtrack`, `dgpsAge`, `dgpsSta`, `velN`, `velE`, `velD` where a writer has them
/// (decoded NMEA, ``GPSDMembers``). A member that is unknown is left out, never `null`.
public enum FixRecord {
  /// Members gpsd reports that a `LocationFix` does not hold, for writers that have them (a
  /// decoded NMEA fix): `magtrack` (degrees magnetic, 4 decimals, after the track) and the
  /// velocity `velN`, `velE` (both or neither) and `velD` (m/s, 3 decimals, at the end; a value
  /// within 0.0005 of zero is written 0.000, as gpsd writes it), and the differential
  /// corrections' `dgpsAge` (s, 1 decimal) and `dgpsSta` (after `sep`).
  public struct GPSDMembers: Sendable, Hashable {
    /// The course over ground, degrees magnetic (`magtrack`).
    public var magneticTrack: Double?
    /// The velocity's north component, m/s (`velN`).
    public var velocityNorth: Double?
    /// The velocity's east component, m/s (`velE`).
    public var velocityEast: Double?
    /// The velocity's down component, m/s (`velD`).
    public var velocityDown: Double?
    /// The age of the differential corrections, seconds (`dgpsAge`).
    public var dgpsAge: Double?
    /// The differential reference station's ID (`dgpsSta`).
    public var dgpsStation: Int?

    /// Members to write: a nil one is left out, and the velocity unless its north and east are both given.
    /// - Parameters:
    ///   - magneticTrack: the course over ground, degrees magnetic.
    ///   - velocityNorth: the velocity's north component, m/s.
    ///   - velocityEast: the velocity's east component, m/s.
    ///   - velocityDown: the velocity's down component, m/s.
    ///   - dgpsAge: the age of the differential corrections, seconds.
    ///   - dgpsStation: the differential reference station's ID.
    public init(
      magneticTrack: Double? = nil, velocityNorth: Double? = nil, velocityEast: Double? = nil, velocityDown: Double? = nil,
      dgpsAge: Double? = nil, dgpsStation: Int? = nil
    ) {
      self.magneticTrack = magneticTrack
      self.velocityNorth = velocityNorth
      self.velocityEast = velocityEast
      self.velocityDown = velocityDown
      self.dgpsAge = dgpsAge
      self.dgpsStation = dgpsStation
    }
  }

  /// The JSON object for `fix`, without a line ending; `gpsd`'s members as in
  /// ``append(_:gpsd:extra:to:)``; `extra` members (already JSON-encoded values) are appended.
  public static func json(_ fix: LocationFix, gpsd: GPSDMembers = GPSDMembers(), extra: [(String, String)] = []) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(192)
    append(fix, gpsd: gpsd, extra: extra, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the JSON object for `fix` (no line ending) to `out`: ``json(_:gpsd:extra:)`` without
  /// making a `String`, for writers of many records (`locemu decode` writes one per epoch).
  ///
  /// The record is written into a buffer on the stack and appended to `out` in one copy.
  /// - Parameters:
  ///   - fix: the fix to write.
  ///   - gpsd: members gpsd reports that a `LocationFix` does not hold (``GPSDMembers``).
  ///   - extra: members to append after the fix's, each a name and an already JSON-encoded value.
  ///   - out: the bytes to append the record to.
  public static func append(
    _ fix: LocationFix, gpsd: GPSDMembers = GPSDMembers(), extra: [(String, String)] = [], to out: inout [UInt8]
  ) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumRecordLength) { buffer in
      var w = ByteWriter(buffer.baseAddress!)
      var first = true
      /// `{"name":` for the first member, `,"name":` for the others.
      func member(_ name: StaticString) {
        w.byte(first ? 0x7B : 0x2C)  // '{' or ','
        first = false
        w.byte(0x22)
        w.bytes(name)
        w.byte(0x22)
        w.byte(0x3A)  // ':'
      }
      if let t = fix.timestamp {
        member("time")
        w.byte(0x22)
        w.iso8601(t)
        w.byte(0x22)
      }
      member("mode")
      w.decimal(UInt64(max(0, fix.mode.rawValue)), width: 1)
      if let c = fix.coordinate {
        member("lat")
        w.fixed(c.latitude, 9)
        member("lon")
        w.fixed(c.longitude, 9)
      }
      if let v = fix.altitudeMSL {
        member("altMSL")
        w.fixed(v, 4)
      }
      if let v = fix.altitudeHAE {
        member("altHAE")
        w.fixed(v, 4)
      }
      if let v = fix.speed {
        member("speed")
        w.fixed(v, 3)
      }
      if let v = fix.course {
        member("track")
        w.fixed(v, 4)
      }
      if let v = gpsd.magneticTrack {
        member("magtrack")
        w.fixed(v, 4)
      }
      if let v = fix.horizontalAccuracy {
        member("eph")
        w.fixed(v, 3)
      }
      if let v = fix.verticalAccuracy {
        member("epv")
        w.fixed(v, 3)
      }
      if let status = fix.status, status.rawValue >= 2 {
        member("status")
        w.decimal(UInt64(status.rawValue), width: 1)
      }
      if let v = fix.climb {
        member("climb")
        w.fixed(v, 3)
      }
      if let v = fix.geoidSeparation {
        member("geoidSep")
        w.fixed(v, 3)
      }
      if let v = fix.magneticVariation {
        member("magvar")
        w.fixed(v, 1)
      }
      let e = fix.errors
      if let v = e.epx {
        member("epx")
        w.fixed(v, 3)
      }
      if let v = e.epy {
        member("epy")
        w.fixed(v, 3)
      }
      if let v = e.eps {
        member("eps")
        w.fixed(v, 2)
      }
      if let v = e.epd {
        member("epd")
        w.fixed(v, 4)
      }
      if let v = e.epc {
        member("epc")
        w.fixed(v, 2)
      }
      if let v = e.ept {
        member("ept")
        w.fixed(v, 3)
      }
      if let v = e.sep {
        member("sep")
        w.fixed(v, 3)
      }
      if let v = gpsd.dgpsAge {
        member("dgpsAge")
        w.fixed(v, 1)
      }
      if let v = gpsd.dgpsStation {
        member("dgpsSta")
        if v < 0 { w.byte(0x2D) }  // '-'
        w.decimal(UInt64(v.magnitude), width: 1)
      }
      if let north = gpsd.velocityNorth, let east = gpsd.velocityEast {
        // gpsd's `fix_zero`: no -0.000.
        func zeroed(_ v: Double) -> Double { abs(v) < 0.0005 ? 0 : v }
        member("velN")
        w.fixed(zeroed(north), 3)
        member("velE")
        w.fixed(zeroed(east), 3)
        if let down = gpsd.velocityDown {
          member("velD")
          w.fixed(zeroed(down), 3)
        }
      }
      out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: w.count))
      // Extra members are the caller's, of any length: appended after the buffer.
      for (name, value) in extra {
        out.append(0x2C)
        out.append(0x22)
        out.append(contentsOf: name.utf8)
        out.append(0x22)
        out.append(0x3A)
        out.append(contentsOf: value.utf8)
      }
      out.append(0x7D)  // '}'
    }
  }

  /// The longest record ``append(_:gpsd:extra:to:)`` writes before its extra members: the time,
  /// and every number at the largest magnitude ``appendFixed(_:_:to:)`` prints digit by digit.
  static let maximumRecordLength = 1024

  /// `2019-04-07T00:02:31.420Z`: UTC with milliseconds, rounded to nearest.
  public static func iso8601(_ date: Date) -> String {
    var bytes: [UInt8] = []
    appendISO8601(date, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends ``iso8601(_:)`` of `date` to `out`.
  public static func appendISO8601(_ date: Date, to out: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
      var w = ByteWriter(buffer.baseAddress!)
      w.iso8601(date)
      out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: w.count))
    }
  }

  /// `value` with exactly `decimals` digits after the point, rounded half away from zero.
  public static func fixed(_ value: Double, _ decimals: Int) -> String {
    var bytes: [UInt8] = []
    appendFixed(value, decimals, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends ``fixed(_:_:)`` of `value` to `out`.
  public static func appendFixed(_ value: Double, _ decimals: Int, to out: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
      var w = ByteWriter(buffer.baseAddress!)
      w.fixed(value, decimals)
      out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: w.count))
    }
  }
}

/// Writes the bytes of a fix record through a pointer into a buffer the caller sized
/// (``FixRecord/maximumRecordLength``): no bounds or uniqueness checks per byte.
struct ByteWriter {
  private let base: UnsafeMutablePointer<UInt8>
  private(set) var count = 0

  init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

  @inline(__always)
  mutating func byte(_ b: UInt8) {
    base[count] = b
    count &+= 1
  }

  @inline(__always)
  mutating func bytes(_ s: StaticString) {
    (base + count).update(from: s.utf8Start, count: s.utf8CodeUnitCount)
    count &+= s.utf8CodeUnitCount
  }

  /// `value` in decimal, with leading zeros up to `width` digits.
  @inline(__always)
  mutating func decimal(_ value: UInt64, width: Int) {
    var digits = 1
    var limit: UInt64 = 10
    while digits < 20 && value >= limit {
      digits &+= 1
      limit = limit &* 10
    }
    self.digits(value, exactly: max(digits, width))
  }

  private static let digitPairs: StaticString = """
    0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
    5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899
    """

  /// 10^`n` for 0 ≤ `n` ≤ 15, without a chain of multiplications.
  @inline(__always)
  private static func powerOfTen(_ n: Int) -> UInt64 {
    switch n {
    case 0: 1
    case 1: 10
    case 2: 100
    case 3: 1_000
    case 4: 10_000
    case 5: 100_000
    case 6: 1_000_000
    case 7: 10_000_000
    case 8: 100_000_000
    case 9: 1_000_000_000
    case 10: 10_000_000_000
    case 11: 100_000_000_000
    case 12: 1_000_000_000_000
    case 13: 10_000_000_000_000
    case 14: 100_000_000_000_000
    default: 1_000_000_000_000_000
    }
  }

  /// `value` (below 10^`count`) in exactly `count` decimal digits, leading zeros included: a
  /// fraction's digits, with no count of them to work out first.
  @inline(__always)
  mutating func digits(_ value: UInt64, exactly count: Int) {
    var v = value
    var i = self.count &+ count
    let pairs = Self.digitPairs.utf8Start
    while i &- self.count >= 2 {
      let pair = Int(truncatingIfNeeded: v % 100) &* 2
      v /= 100
      i &-= 2
      base[i] = pairs[pair]
      base[i &+ 1] = pairs[pair &+ 1]
    }
    if i > self.count { base[self.count] = 0x30 &+ UInt8(truncatingIfNeeded: v % 10) }
    self.count &+= count
  }

  /// ``FixRecord/fixed(_:_:)``: `decimals` digits after the point, rounded half away from zero;
  /// 0 for a value that is not finite; Swift's shortest form beyond 9e15 units of the last digit.
  mutating func fixed(_ value: Double, _ decimals: Int) {
    guard value.isFinite else {
      byte(0x30)
      return
    }
    let decimals = min(max(decimals, 0), 15)
    let p = Self.powerOfTen(decimals)
    let scaled = abs(value) * Double(p)
    guard scaled < 9e15 else {
      for b in String(value).utf8 { byte(b) }  // at most 24 bytes
      return
    }
    // Rounded half away from zero without a call to libm's round: below 2^53 the conversion
    // truncates exactly and the fraction left is exact. Through Int64 (it is below 9e15): one
    // instruction each way, where UInt64's conversions take a sequence of them.
    let truncated = Int64(scaled)
    let integer = UInt64(scaled - Double(truncated) >= 0.5 ? truncated &+ 1 : truncated)
    if value < 0 && integer != 0 { byte(0x2D) }
    let whole = integer / p
    decimal(whole, width: 1)
    if decimals > 0 {
      byte(0x2E)
      digits(integer &- whole &* p, exactly: decimals)
    }
  }

  /// `2019-04-07T00:02:31.420Z`, UTC with milliseconds rounded to nearest; `invalid` for a date
  /// more than about 31,000 years away.
  mutating func iso8601(_ date: Date) {
    let ms = (date.timeIntervalSince1970 * 1000).rounded()
    guard ms.isFinite, abs(ms) < 1e15 else {
      bytes("invalid")
      return
    }
    let total = Int64(ms)
    let days = total >= 0 ? total / 86_400_000 : (total - 86_399_999) / 86_400_000
    let msOfDay = Int(total - days * 86_400_000)
    let (year, month, day) = Self.civil(daysSinceUnixEpoch: days)
    if year < 0 { byte(0x2D) }
    decimal(UInt64(abs(year)), width: 4)
    byte(0x2D)
    decimal(UInt64(month), width: 2)
    byte(0x2D)
    decimal(UInt64(day), width: 2)
    byte(0x54)  // 'T'
    decimal(UInt64(msOfDay / 3_600_000), width: 2)
    byte(0x3A)
    decimal(UInt64(msOfDay / 60_000 % 60), width: 2)
    byte(0x3A)
    decimal(UInt64(msOfDay / 1000 % 60), width: 2)
    byte(0x2E)
    decimal(UInt64(msOfDay % 1000), width: 3)
    byte(0x5A)  // 'Z'
  }

  /// The proleptic Gregorian date of a day count from 1970-01-01, by 400-year eras of 146,097
  /// days counted from 0000-03-01 (so that the leap day ends a year).
  static func civil(daysSinceUnixEpoch: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = daysSinceUnixEpoch + 719_468  // days since 0000-03-01
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097  // 0...146096
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365  // 0...399
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // from March 1st
    let shiftedMonth = (5 * dayOfYear + 2) / 153  // 0 = March ... 11 = February
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }
}

/// Small helpers for writing JSON by hand (the output contract's exact member order and digits).
public enum JSONText {
  /// `text` as a JSON string literal, quotes included.
  public static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case let c where c.value < 0x20:
        let hex = String(c.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}

extension FixRecord {
  /// The members a fix record may have, gpsd's TPV names. An object with none of them (`{}`, or
  /// only members of another kind) is not a fix record, unless gpsd labels it `"class":"TPV"`.
  public static let members: Set<String> = [
    "time", "mode", "lat", "lon", "altMSL", "altHAE", "speed", "track", "eph", "epv", "status", "climb",
    "geoidSep", "magvar", "epx", "epy", "eps", "epd", "epc", "ept", "sep",
  ]

  /// The fix a fix record describes (a JSON object: time, mode, lat, lon, altMSL, altHAE,
  /// speed, track, eph, epv, status, climb, geoidSep, magvar, epx, epy, eps, epd, epc, ept,
  /// sep, each optional, at least one of them there); nil when a member has the wrong type or
  /// range, or when the object has none of ``members``. gpsd's mode 0 ("not seen yet") is no fix. A record without a mode (written by hand, or by
  /// a tool that is not gpsd) is a fix where it has a place: 3D with an altitude, else 2D.
  public static func fix(_ object: [String: JSONValue]) -> LocationFix? {
    guard object["class"]?.string == "TPV" || object.keys.contains(where: members.contains) else { return nil }
    func number(_ key: String) -> Double?? {
      guard let value = object[key] else { return .some(nil) }
      guard let d = value.number, d.isFinite else { return nil }
      return .some(d)
    }
    var timestamp: Date?
    if let text = object["time"] {
      guard let text = text.string, let date = ISO8601Time.parse(text) else { return nil }
      timestamp = date
    }
    guard let modeNumber = number("mode"), let latitude = number("lat"), let longitude = number("lon"),
      let altMSL = number("altMSL"), let altHAE = number("altHAE"), let speed = number("speed"),
      let track = number("track"), let eph = number("eph"), let epv = number("epv"), let climb = number("climb"),
      let geoidSep = number("geoidSep"), let magvar = number("magvar"), let statusNumber = number("status"),
      let epx = number("epx"), let epy = number("epy"), let eps = number("eps"), let epd = number("epd"),
      let epc = number("epc"), let ept = number("ept"), let sep = number("sep")
    else { return nil }
    let placed = latitude != nil && longitude != nil
    let raw = modeNumber.map { Int($0) } ?? (placed ? (altMSL != nil || altHAE != nil ? 3 : 2) : 1)
    guard let mode = LocationFix.Mode(rawValue: max(raw, 1)) else { return nil }
    var status: LocationFix.Status?
    if let statusNumber {
      // gpsd leaves out 0 and 1; a status it printed is one of its numbers.
      guard let s = LocationFix.Status(rawValue: Int(statusNumber)), Double(s.rawValue) == statusNumber else {
        return nil
      }
      status = s
    }
    var coordinate: Coordinate?
    if let latitude, let longitude {
      guard let c = Coordinate(latitude: latitude, longitude: longitude) else { return nil }
      coordinate = c
    }
    let fix = LocationFix(
      timestamp: timestamp, mode: coordinate == nil ? .noFix : mode, coordinate: coordinate, altitudeMSL: altMSL,
      altitudeHAE: altHAE, speed: speed, course: track, horizontalAccuracy: eph, verticalAccuracy: epv,
      climb: climb, geoidSeparation: geoidSep, magneticVariation: magvar, status: status,
      errors: .init(epx: epx, epy: epy, eps: eps, epd: epd, epc: epc, ept: ept, sep: sep))
    return fix.mode == .noFix ? LocationFix(timestamp: timestamp, mode: .noFix, status: status, errors: .init(ept: ept)) : fix
  }
}
