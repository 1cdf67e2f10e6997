public import Foundation

/// A GPS system time: the week since 1980-01-06 00:00:00 UTC (counted in full, not modulo
/// 1024) and the seconds into it. GPS time runs ahead of UTC by the leap seconds since 1980
/// (18 since 2017-01-01).
public struct GPSTime: Hashable, Sendable, Comparable {
  /// Weeks since the GPS epoch, in full (not modulo 1024).
  public var week: Int
  /// Seconds since the start of the week (Sunday 00:00:00 GPS time).
  public var secondsOfWeek: Double

  /// The seconds in a week, 604,800.
  public static let secondsPerWeek = 604_800.0
  /// The GPS epoch, 1980-01-06T00:00:00Z.
  public static let epoch = Date(timeIntervalSince1970: 315_964_800)
  /// GPS − UTC since 2017-01-01, seconds.
  public static let currentLeapSeconds = 18

  /// A GPS time from its week and the seconds into it.
  ///
  /// - Parameters:
  ///   - week: Weeks since the GPS epoch, in full.
  ///   - secondsOfWeek: Seconds since the start of the week.
  public init(week: Int, secondsOfWeek: Double) {
    self.week = week
    self.secondsOfWeek = secondsOfWeek
  }

  /// The GPS time of a UTC instant, with `leapSeconds` between the two.
  public init(_ date: Date, leapSeconds: Int = GPSTime.currentLeapSeconds) {
    let seconds = date.timeIntervalSince(Self.epoch) + Double(leapSeconds)
    let week = (seconds / Self.secondsPerWeek).rounded(.down)
    self.week = Int(week)
    secondsOfWeek = seconds - week * Self.secondsPerWeek
  }

  /// Seconds from `other` to this time.
  public func seconds(since other: GPSTime) -> Double {
    Double(week - other.week) * Self.secondsPerWeek + (secondsOfWeek - other.secondsOfWeek)
  }

  /// The UTC instant, with `leapSeconds` between the two.
  public func date(leapSeconds: Int = GPSTime.currentLeapSeconds) -> Date {
    Self.epoch.addingTimeInterval(Double(week) * Self.secondsPerWeek + secondsOfWeek - Double(leapSeconds))
  }

  /// Whether one GPS time is earlier than another.
  ///
  /// - Parameters:
  ///   - a: A time.
  ///   - b: Another time.
  /// - Returns: Whether `a` is before `b`.
  public static func < (a: Self, b: Self) -> Bool { a.seconds(since: b) < 0 }
}
