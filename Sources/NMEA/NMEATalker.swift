/// The two-letter talker identifier that starts an NMEA address (`GP` in `$GPGGA`).
///
/// Every talker is accepted; the common GNSS ones have names.
public struct NMEATalker: Hashable, Sendable, CustomStringConvertible {
  /// The two ASCII letters packed big-endian (`G` << 8 | `P`).
  public let rawValue: UInt16

  /// Creates a talker from its two ASCII bytes.
  public init(_ first: UInt8, _ second: UInt8) { rawValue = UInt16(first) << 8 | UInt16(second) }

  /// Creates a talker from a two-character string such as `"GN"`; nil for any other length.
  public init?(_ code: String) {
    let bytes = Array(code.utf8)
    guard bytes.count == 2 else { return nil }
    self.init(bytes[0], bytes[1])
  }

  /// The two letters, such as `GP`.
  public var description: String {
    String(decoding: [UInt8(rawValue >> 8), UInt8(rawValue & 0xFF)], as: UTF8.self)
  }

  /// GPS (`GP`).
  public static let gps = NMEATalker(0x47, 0x50)
  /// Several constellations combined (`GN`).
  public static let gnss = NMEATalker(0x47, 0x4E)
  /// GLONASS (`GL`).
  public static let glonass = NMEATalker(0x47, 0x4C)
  /// Galileo (`GA`).
  public static let galileo = NMEATalker(0x47, 0x41)
  /// BeiDou (`GB`).
  public static let beidou = NMEATalker(0x47, 0x42)
  /// BeiDou, older identifier (`BD`).
  public static let beidouLegacy = NMEATalker(0x42, 0x44)
  /// QZSS (`QZ` or `GQ`).
  public static let qzss = NMEATalker(0x51, 0x5A)
  /// NavIC/IRNSS (`GI`).
  public static let navic = NMEATalker(0x47, 0x49)
}

/// A UTC time of day as an NMEA sentence carries it (`hhmmss.sss`).
public struct NMEATimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Nanoseconds since midnight; at most one leap second past 23:59:59.
  public let nanosecondsSinceMidnight: Int64

  /// Creates a time of day; nil when a component is out of range.
  public init?(hours: Int, minutes: Int, seconds: Int, nanoseconds: Int64 = 0) {
    guard (0..<24).contains(hours), (0..<60).contains(minutes), (0...60).contains(seconds),
      (0..<1_000_000_000).contains(nanoseconds)
    else { return nil }
    nanosecondsSinceMidnight =
      (Int64(hours) * 3600 + Int64(minutes) * 60 + Int64(seconds)) * 1_000_000_000 + nanoseconds
  }

  /// Whether this is the leap second 23:59:60.
  private var isLeapSecond: Bool { nanosecondsSinceMidnight >= 86_400_000_000_000 }
  /// The time one second earlier during a leap second, so 23:59:60 reads as 23:59 plus 60 s.
  private var componentBase: Int64 { isLeapSecond ? nanosecondsSinceMidnight - 1_000_000_000 : nanosecondsSinceMidnight }

  /// The hour, 0–23.
  public var hours: Int { Int(componentBase / 3_600_000_000_000) }
  /// The minute, 0–59.
  public var minutes: Int { Int(componentBase / 60_000_000_000 % 60) }
  /// The second, 0–59, or 60 during a leap second.
  public var seconds: Int { Int(componentBase / 1_000_000_000 % 60) + (isLeapSecond ? 1 : 0) }
  /// The nanoseconds past the second.
  public var nanoseconds: Int64 { nanosecondsSinceMidnight % 1_000_000_000 }

  /// Whether `a` is earlier in the day than `b`.
  /// - Parameters:
  ///   - a: a time of day.
  ///   - b: another time of day.
  /// - Returns: true when `a` comes before `b`.
  public static func < (a: Self, b: Self) -> Bool { a.nanosecondsSinceMidnight < b.nanosecondsSinceMidnight }

  /// The time as `hh:mm:ss.sss`, the milliseconds truncated.
  public var description: String {
    let ms = nanoseconds / 1_000_000
    return "\(pad2(hours)):\(pad2(minutes)):\(pad2(seconds)).\(pad3(Int(ms)))"
  }
}

/// A calendar date in the proleptic Gregorian calendar, UTC.
public struct NMEADate: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The year, such as 2024.
  public let year: Int
  /// The month, 1–12.
  public let month: Int
  /// The day of the month, from 1.
  public let day: Int

  /// Creates a date; nil when the year is outside 1…9999 or the month or day is out of range for the year.
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
      day <= NMEADate.daysIn(month: month, year: year)
    else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// Parses `yyyy-mm-dd` (one or two digits allowed for month and day); nil otherwise.
  public init?(iso string: some StringProtocol) {
    let parts = string.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
      (1...2).contains(parts[1].count), (1...2).contains(parts[2].count)
    else { return nil }
    self.init(year: y, month: m, day: d)
  }

  static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days since 1970-01-01 (negative before it).
  public var daysSinceUnixEpoch: Int {
    // Howard Hinnant's days_from_civil.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The date `days` days after 1970-01-01.
  public init(daysSinceUnixEpoch days: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    year = yoe + era * 400 + (m <= 2 ? 1 : 0)
    month = m
    day = d
  }

  /// The next calendar day.
  public var next: NMEADate { NMEADate(daysSinceUnixEpoch: daysSinceUnixEpoch + 1) }

  /// Whether `a` is an earlier day than `b`.
  /// - Parameters:
  ///   - a: a date.
  ///   - b: another date.
  /// - Returns: true when `a` comes before `b`.
  public static func < (a: Self, b: Self) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }

  /// The date as `yyyy-mm-dd`.
  public var description: String { "\(pad4(year))-\(pad2(month))-\(pad2(day))" }
}

@inline(__always) func pad2(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
@inline(__always) func pad3(_ v: Int) -> String { v < 10 ? "00\(v)" : v < 100 ? "0\(v)" : "\(v)" }
@inline(__always) func pad4(_ v: Int) -> String {
  v < 0 ? "-\(pad4(-v))" : v < 10 ? "000\(v)" : v < 100 ? "00\(v)" : v < 1000 ? "0\(v)" : "\(v)"
}

/// A one-letter field such as a mode indicator (`A`, `D`, `N`…), kept as its ASCII byte.
///
/// Compare it with a literal: `rmc.modeIndicator == "N"`.
public struct NMEAFlag: Hashable, Sendable, ExpressibleByUnicodeScalarLiteral, CustomStringConvertible {
  /// The ASCII byte of the letter.
  public let ascii: UInt8

  /// Creates a flag from the ASCII byte of its letter.
  /// - Parameter ascii: the letter's ASCII byte.
  public init(ascii: UInt8) { self.ascii = ascii }

  /// Creates a flag from a one-letter literal such as `"N"`; traps when the letter is not ASCII.
  /// - Parameter value: the letter.
  public init(unicodeScalarLiteral value: Unicode.Scalar) {
    precondition(value.isASCII, "an NMEA flag is one ASCII letter")
    ascii = UInt8(value.value)
  }

  /// The letter as a `Character`.
  public var character: Character { Character(Unicode.Scalar(ascii)) }

  /// The letter as a string.
  public var description: String { String(character) }
}
