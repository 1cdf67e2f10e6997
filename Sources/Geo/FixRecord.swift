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
    var out = "{"
    var first = true
    func member(_ name: String, _ value: String) {
      if !first { out += "," }
      first = false
      out += "\"\(name)\":\(value)"
    }
    if let t = fix.timestamp { member("time", "\"\(iso8601(t))\"") }
    member("mode", String(fix.mode.rawValue))
    if let c = fix.coordinate {
      member("lat", fixed(c.latitude, 9))
      member("lon", fixed(c.longitude, 9))
    }
    if let v = fix.altitudeMSL { member("altMSL", fixed(v, 4)) }
    if let v = fix.altitudeHAE { member("altHAE", fixed(v, 4)) }
    if let v = fix.speed { member("speed", fixed(v, 3)) }
    if let v = fix.course { member("track", fixed(v, 4)) }
    if let v = fix.horizontalAccuracy { member("eph", fixed(v, 3)) }
    if let v = fix.verticalAccuracy { member("epv", fixed(v, 3)) }
    for (name, value) in extra { member(name, value) }
    return out + "}"
  }

  /// `2019-04-07T00:02:31.420Z`: UTC with milliseconds, rounded to nearest.
  public static func iso8601(_ date: Date) -> String {
    let ms = (date.timeIntervalSince1970 * 1000).rounded()
    guard ms.isFinite, abs(ms) < 1e15 else { return "invalid" }
    let total = Int64(ms)
    var seconds = time_t(total >= 0 ? total / 1000 : (total - 999) / 1000)
    let fraction = Int(total - Int64(seconds) * 1000)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))T"
      + "\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2)).\(pad(fraction, 3))Z"
  }

  /// `value` with exactly `decimals` digits after the point, rounded half away from zero.
  public static func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "0" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e15 else { return String(value) }
    let integer = Int64(scaled)
    var p: Int64 = 1
    for _ in 0..<decimals { p *= 10 }
    let whole = integer / p
    let frac = integer % p
    let sign = value < 0 && integer != 0 ? "-" : ""
    return decimals == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(pad(Int(frac), decimals))"
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let s = String(value)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
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
