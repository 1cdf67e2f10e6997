public import Foundation

/// A formatter of durations in words or positions, as Apple's Foundation has it ("1:01:40",
/// "1h 1m 40s", "1 hour, 1 minute, 40 seconds"); swift-corelibs-foundation marks its own
/// unavailable. This one declares Apple's API and writes English (en_US), whatever the locale:
/// the units from years to seconds, the six ``UnitsStyle``s, the zero-formatting behaviours,
/// ``maximumUnitCount`` and the approximation and time-remaining phrases. Fractional units are
/// not written (the smallest unit shown is truncated).
///
/// Declared here it shadows corelibs' unavailable class for every file that imports
/// `CoreLocation` (which re-exports this module).
open class DateComponentsFormatter: Formatter, @unchecked Sendable {
  /// How units are written; Apple's raw values.
  public enum UnitsStyle: Int, Sendable {
    /// "1:01:40"
    case positional = 0
    /// "1h 1m 40s"
    case abbreviated = 1
    /// "1 hr, 1 min, 40 sec"
    case short = 2
    /// "1 hour, 1 minute, 40 seconds"
    case full = 3
    /// "one hour, one minute, forty seconds"
    case spellOut = 4
    /// "1hr 1min 40sec"
    case brief = 5
  }

  /// Which zero-valued units are written; Apple's raw values.
  public struct ZeroFormattingBehavior: OptionSet, Sendable {
    /// The raw value: Apple's bits.
    public let rawValue: UInt
    /// Creates a behaviour from its raw value.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Positional: drop leading zeros, pad the rest; other styles: drop every zero unit.
    public static let `default` = ZeroFormattingBehavior(rawValue: 1 << 0)
    /// Leading zero units are not written.
    public static let dropLeading = ZeroFormattingBehavior(rawValue: 1 << 1)
    /// Zero units between the first and last units shown are not written.
    public static let dropMiddle = ZeroFormattingBehavior(rawValue: 1 << 2)
    /// Trailing zero units are not written.
    public static let dropTrailing = ZeroFormattingBehavior(rawValue: 1 << 3)
    /// Leading, middle and trailing zero units are all dropped.
    public static let dropAll: ZeroFormattingBehavior = [.dropLeading, .dropMiddle, .dropTrailing]
    /// Positional style: the first unit is padded to two digits too ("01:05").
    public static let pad = ZeroFormattingBehavior(rawValue: 1 << 16)
    /// No behaviour: every allowed unit is written, zero or not.
    public static let none = ZeroFormattingBehavior([])
  }

  /// How units are written; positional ("1:01:40") by default.
  open var unitsStyle: UnitsStyle = .positional
  /// The units written, of `.year`, `.month`, `.weekOfMonth`, `.day`, `.hour`, `.minute`,
  /// `.second`; empty means Apple's default (years to seconds, without weeks).
  open var allowedUnits: NSCalendar.Unit = []
  /// Which zero-valued units are written; `.default` by default.
  open var zeroFormattingBehavior: ZeroFormattingBehavior = .default
  /// At most this many units, the largest first (0: no limit).
  open var maximumUnitCount: Int = 0
  /// Whether the text starts with "About ".
  open var includesApproximationPhrase = false
  /// Whether the text ends with " remaining".
  open var includesTimeRemainingPhrase = false
  /// Whether the smallest unit may be fractional. Kept for source compatibility: has no effect here (it is truncated).
  open var allowsFractionalUnits = false
  /// Whether a largest unit of exactly 1 is folded into the next unit ("1 hour, 5 minutes" becomes "65 minutes").
  open var collapsesLargestUnit = false
  /// The calendar for the units. Kept for source compatibility: not used here (fixed unit lengths).
  open var calendar: Calendar? = nil
  /// The date durations are counted from. Kept for source compatibility: not used here.
  open var referenceDate: Date? = nil
  /// The grammatical context of the text. Kept for source compatibility: not used here.
  open var formattingContext: Formatter.Context = .unknown

  /// Creates a formatter in positional style, with Apple's default units.
  public override init() { super.init() }
  /// Decoding is not supported here: always fails (nil).
  ///
  /// - Parameter coder: The archive, unused.
  public required init?(coder: NSCoder) { nil }

  /// `value` (a number of seconds as a `TimeInterval`, or `DateComponents`) written out.
  open override func string(for value: Any?) -> String? {
    switch value {
    case let seconds as TimeInterval: string(from: seconds)
    case let seconds as Int: string(from: TimeInterval(seconds))
    case let components as DateComponents: string(from: components)
    default: nil
    }
  }

  /// A number of seconds written out: "1:01:40" for 3,700 s, positionally.
  open func string(from ti: TimeInterval) -> String? {
    guard ti.isFinite else { return nil }
    return format(seconds: Int(ti.rounded(.towardZero)))
  }

  /// Components written out, as the seconds they add up to (a month counted as 30 days, a
  /// year as 365).
  open func string(from components: DateComponents) -> String? {
    let seconds = Self.units.reduce(0) { total, unit in
      let value: Int? =
        switch unit.unit {
        case .year: components.year
        case .month: components.month
        case .weekOfMonth: components.weekOfMonth ?? components.weekOfYear
        case .day: components.day
        case .hour: components.hour
        case .minute: components.minute
        default: components.second
        }
      return total + (value ?? 0) * unit.seconds
    }
    return format(seconds: seconds)
  }

  /// The time from `startDate` to `endDate` written out.
  open func string(from startDate: Date, to endDate: Date) -> String? {
    string(from: endDate.timeIntervalSince(startDate))
  }

  /// `components` in `unitsStyle`, with Apple's default units.
  open class func localizedString(from components: DateComponents, unitsStyle: UnitsStyle) -> String? {
    let formatter = DateComponentsFormatter()
    formatter.unitsStyle = unitsStyle
    return formatter.string(from: components)
  }

  // MARK: Writing

  private struct UnitName {
    let unit: NSCalendar.Unit
    let seconds: Int
    let abbreviated: String
    let short: (one: String, other: String)
    let full: (one: String, other: String)
  }

  private static let units: [UnitName] = [
    UnitName(unit: .year, seconds: 31_536_000, abbreviated: "y", short: ("yr", "yrs"), full: ("year", "years")),
    UnitName(unit: .month, seconds: 2_592_000, abbreviated: "mo", short: ("mth", "mths"), full: ("month", "months")),
    UnitName(unit: .weekOfMonth, seconds: 604_800, abbreviated: "w", short: ("wk", "wks"), full: ("week", "weeks")),
    UnitName(unit: .day, seconds: 86_400, abbreviated: "d", short: ("day", "days"), full: ("day", "days")),
    UnitName(unit: .hour, seconds: 3_600, abbreviated: "h", short: ("hr", "hr"), full: ("hour", "hours")),
    UnitName(unit: .minute, seconds: 60, abbreviated: "m", short: ("min", "min"), full: ("minute", "minutes")),
    UnitName(unit: .second, seconds: 1, abbreviated: "s", short: ("sec", "sec"), full: ("second", "seconds")),
  ]

  private func format(seconds total: Int) -> String? {
    let allowed: NSCalendar.Unit = allowedUnits.isEmpty ? [.year, .month, .day, .hour, .minute, .second] : allowedUnits
    let units = Self.units.filter { allowed.contains($0.unit) }
    guard !units.isEmpty else { return nil }
    // Each unit takes what it can of the rest, largest first.
    var rest = abs(total)
    var values = units.map { unit -> Int in
      defer { rest %= unit.seconds }
      return rest / unit.seconds
    }
    var shown = Array(units.indices)
    let behavior = zeroFormattingBehavior
    let positional = unitsStyle == .positional
    // Apple's default: positional drops leading zeros (keeping minutes and seconds, "0:05"),
    // the other styles drop every zero unit.
    let dropLeading = behavior.contains(.dropLeading) || behavior.contains(.default)
    let dropMiddle = behavior.contains(.dropMiddle) || (behavior.contains(.default) && !positional)
    let dropTrailing = behavior.contains(.dropTrailing) || (behavior.contains(.default) && !positional)
    let keep = positional && !behavior.contains(.dropLeading) ? min(2, shown.count) : 1
    if dropLeading {
      while shown.count > keep, values[shown[0]] == 0 { shown.removeFirst() }
    }
    if dropTrailing {
      while shown.count > 1, values[shown[shown.count - 1]] == 0 { shown.removeLast() }
    }
    if dropMiddle, shown.count > 2 {
      shown = [shown[0]] + shown[1..<(shown.count - 1)].filter { values[$0] != 0 } + [shown[shown.count - 1]]
    }
    if maximumUnitCount > 0, shown.count > maximumUnitCount {
      let nonzeroFirst = shown.firstIndex { values[$0] != 0 } ?? 0
      shown = Array(shown[nonzeroFirst..<min(shown.count, nonzeroFirst + maximumUnitCount)])
    }
    if collapsesLargestUnit, shown.count > 1, values[shown[0]] == 1 {
      // "1 hour, 5 minutes" stays; only a largest unit of exactly 1 with a next unit folds in.
      values[shown[1]] += units[shown[0]].seconds / units[shown[1]].seconds
      shown.removeFirst()
    }
    let sign = total < 0 ? "-" : ""
    var text: String
    switch unitsStyle {
    case .positional:
      text = shown.enumerated().map { index, unit in
        index == 0 && !behavior.contains(.pad) ? "\(values[unit])" : Self.pad(values[unit])
      }.joined(separator: ":")
    case .abbreviated:
      text = shown.map { "\(values[$0])\(units[$0].abbreviated)" }.joined(separator: " ")
    case .brief:
      text = shown.map { "\(values[$0])\(Self.word(units[$0].short, values[$0]))" }.joined(separator: " ")
    case .short:
      text = shown.map { "\(values[$0]) \(Self.word(units[$0].short, values[$0]))" }.joined(separator: ", ")
    case .full:
      text = shown.map { "\(values[$0]) \(Self.word(units[$0].full, values[$0]))" }.joined(separator: ", ")
    case .spellOut:
      text = shown.map { "\(Self.spell(values[$0])) \(Self.word(units[$0].full, values[$0]))" }.joined(separator: ", ")
    }
    text = sign + text
    if includesApproximationPhrase { text = "About " + text }
    if includesTimeRemainingPhrase { text += " remaining" }
    return text
  }

  /// The unit's word for `value`: singular for 1, plural otherwise.
  private static func word(_ forms: (one: String, other: String), _ value: Int) -> String { value == 1 ? forms.one : forms.other }

  private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  private static let ones = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
  ]
  private static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

  /// A whole number in English words ("forty-two", "one thousand two hundred").
  static func spell(_ value: Int) -> String {
    if value < 20 { return ones[value] }
    if value < 100 { return tens[value / 10] + (value % 10 == 0 ? "" : "-" + ones[value % 10]) }
    if value < 1_000 { return ones[value / 100] + " hundred" + (value % 100 == 0 ? "" : " " + spell(value % 100)) }
    if value < 1_000_000 { return spell(value / 1_000) + " thousand" + (value % 1_000 == 0 ? "" : " " + spell(value % 1_000)) }
    return spell(value / 1_000_000) + " million" + (value % 1_000_000 == 0 ? "" : " " + spell(value % 1_000_000))
  }
}
