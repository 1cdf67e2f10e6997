public import Foundation

/// Writes fixes as `locemu`'s JSON fix records, one object per line.
///
/// Member names are gpsd's TPV names: `time` (ISO 8601 UTC with milliseconds,
/// `Z`), `mode`, `lat`, `lon` (9 decimals), `altMSL`, `altHAE` (4 decimals),
/// `speed` (m/s, 3 decimals), `track` (degrees true, 4 decimals), `eph`/`epv`
/// (metres, 3 decimals). A member that is unknown is left out, never `null`.
public enum FixRecord {
  /// The JSON object for `fix`, without a line ending; `extra` members (already JSON-encoded values) are appended.
  public static func json(_ fix: LocationFix, extra: [(String, String)] = []) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(192)
    append(fix, extra: extra, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the JSON object for `fix` (no line ending) to `out`: ``json(_:extra:)`` without
  /// making a `String`, for writers of many records (`locemu decode` writes one per epoch).
  public static func append(_ fix: LocationFix, extra: [(String, String)] = [], to out: inout [UInt8]) {
    var first = true
    out.reserveCapacity(out.count + 192)
    /// `{"name":` for the first member, `,"name":` for the others.
    func key(_ name: some Sequence<UInt8>) {
      out.append(first ? 0x7B : 0x2C)  // '{' or ','
      first = false
      out.append(0x22)
      // Byte by byte: names are a few bytes, too short for a copy call to pay.
      for byte in name { out.append(byte) }
      out.append(0x22)
      out.append(0x3A)  // ':'
    }
    func member(_ name: StaticString) {
      key(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }
    if let t = fix.timestamp {
      member("time")
      out.append(0x22)
      appendISO8601(t, to: &out)
      out.append(0x22)
    }
    member("mode")
    appendDecimal(UInt64(max(0, fix.mode.rawValue)), width: 1, to: &out)
    if let c = fix.coordinate {
      member("lat")
      appendFixed(c.latitude, 9, to: &out)
      member("lon")
      appendFixed(c.longitude, 9, to: &out)
    }
    if let v = fix.altitudeMSL { member("altMSL"); appendFixed(v, 4, to: &out) }
    if let v = fix.altitudeHAE { member("altHAE"); appendFixed(v, 4, to: &out) }
    if let v = fix.speed { member("speed"); appendFixed(v, 3, to: &out) }
    if let v = fix.course { member("track"); appendFixed(v, 4, to: &out) }
    if let v = fix.horizontalAccuracy { member("eph"); appendFixed(v, 3, to: &out) }
    if let v = fix.verticalAccuracy { member("epv"); appendFixed(v, 3, to: &out) }
    for (name, value) in extra {
      key(name.utf8)
      out.append(contentsOf: value.utf8)
    }
    out.append(0x7D)  // '}'
  }

  /// `2019-04-07T00:02:31.420Z`: UTC with milliseconds, rounded to nearest.
  public static func iso8601(_ date: Date) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    appendISO8601(date, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends ``iso8601(_:)`` of `date` to `out`.
  public static func appendISO8601(_ date: Date, to out: inout [UInt8]) {
    let ms = (date.timeIntervalSince1970 * 1000).rounded()
    guard ms.isFinite, abs(ms) < 1e15 else {
      out.append(contentsOf: "invalid".utf8)
      return
    }
    let total = Int64(ms)
    var seconds = time_t(total >= 0 ? total / 1000 : (total - 999) / 1000)
    let fraction = Int(total - Int64(seconds) * 1000)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    let year = Int(parts.tm_year) + 1900
    if year < 0 { out.append(0x2D) }
    appendDecimal(UInt64(abs(year)), width: 4, to: &out)
    out.append(0x2D)
    appendDecimal(UInt64(parts.tm_mon + 1), width: 2, to: &out)
    out.append(0x2D)
    appendDecimal(UInt64(parts.tm_mday), width: 2, to: &out)
    out.append(0x54)  // 'T'
    appendDecimal(UInt64(parts.tm_hour), width: 2, to: &out)
    out.append(0x3A)
    appendDecimal(UInt64(parts.tm_min), width: 2, to: &out)
    out.append(0x3A)
    appendDecimal(UInt64(parts.tm_sec), width: 2, to: &out)
    out.append(0x2E)
    appendDecimal(UInt64(fraction), width: 3, to: &out)
    out.append(0x5A)  // 'Z'
  }

  /// `value` with exactly `decimals` digits after the point, rounded half away from zero.
  public static func fixed(_ value: Double, _ decimals: Int) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    appendFixed(value, decimals, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends ``fixed(_:_:)`` of `value` to `out`.
  public static func appendFixed(_ value: Double, _ decimals: Int, to out: inout [UInt8]) {
    guard value.isFinite else {
      out.append(0x30)
      return
    }
    let decimals = min(max(decimals, 0), 15)
    var p: UInt64 = 1
    for _ in 0..<decimals { p &*= 10 }
    let scaled = (abs(value) * Double(p)).rounded()
    guard scaled < 9e15 else {
      out.append(contentsOf: String(value).utf8)
      return
    }
    let integer = UInt64(scaled)
    if value < 0 && integer != 0 { out.append(0x2D) }
    appendDecimal(integer / p, width: 1, to: &out)
    if decimals > 0 {
      out.append(0x2E)
      appendDecimal(integer % p, width: decimals, to: &out)
    }
  }

  /// Appends `value` in decimal, with leading zeros up to `width` digits (at most 24).
  static func appendDecimal(_ value: UInt64, width: Int, to out: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { digits in
      var i = 24
      var v = value
      repeat {
        i -= 1
        digits[i] = 0x30 &+ UInt8(truncatingIfNeeded: v % 10)
        v /= 10
      } while v > 0
      while 24 - i < width && i > 0 {
        i -= 1
        digits[i] = 0x30
      }
      while i < 24 {
        out.append(digits[i])
        i += 1
      }
    }
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
