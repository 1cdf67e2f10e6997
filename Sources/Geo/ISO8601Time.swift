public import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// ISO 8601 time stamps as GPX, gpsd and the announcements backend write them:
/// `2024-05-01T10:00:00Z`, an optional fraction, `Z` or `±hh:mm` (a space instead of `T` is accepted).
public enum ISO8601Time {
  /// The instant `text` names, or nil when it is not such a time stamp (or names an impossible date).
  public static func parse(_ text: String) -> Date? {
    var text = text
    return text.withUTF8 { parse(bytes: $0) }
  }

  static func parse(bytes b: UnsafeBufferPointer<UInt8>) -> Date? {
    func number(_ from: Int, _ count: Int) -> Int? {
      guard from + count <= b.count else { return nil }
      var v = 0
      for i in from..<from + count {
        guard b[i] >= 0x30 && b[i] <= 0x39 else { return nil }
        v = v * 10 + Int(b[i] - 0x30)
      }
      return v
    }
    guard b.count >= 19, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54 || b[10] == 0x20, b[13] == 0x3A, b[16] == 0x3A,
      let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
      let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
      (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
      hour < 24, minute < 60, second <= 60
    else { return nil }
    var i = 19
    var fraction = 0.0
    if i < b.count, b[i] == 0x2E {
      i += 1
      var scale = 0.1
      while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 {
        fraction += Double(b[i] - 0x30) * scale
        scale /= 10
        i += 1
      }
    }
    var offset = 0
    if i < b.count {
      if b[i] == 0x5A {
        i += 1
      } else if b[i] == 0x2B || b[i] == 0x2D, b.count >= i + 6, b[i + 3] == 0x3A,
        let h = number(i + 1, 2), let m = number(i + 4, 2)
      {
        offset = (h * 3600 + m * 60) * (b[i] == 0x2B ? 1 : -1)
        i += 6
      } else {
        return nil
      }
    }
    guard i == b.count else { return nil }
    var parts = tm()
    parts.tm_year = Int32(year - 1900)
    parts.tm_mon = Int32(month - 1)
    parts.tm_mday = Int32(day)
    parts.tm_hour = Int32(hour)
    parts.tm_min = Int32(minute)
    parts.tm_sec = Int32(second)
    let seconds = Int(timegm(&parts)) - offset
    return Date(timeIntervalSince1970: Double(seconds) + fraction)
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}
