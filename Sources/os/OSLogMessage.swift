import Foundation

/// A log message built by string interpolation, with Apple's options on each value: `privacy`,
/// and `format` and `align` where Apple has them. The options are accepted and formats applied;
/// privacy does not redact (see ``Logger``).
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral, Sendable {
  let text: String

  public init(stringLiteral value: String) { text = value }
  public init(stringInterpolation: OSLogInterpolation) { text = stringInterpolation.text }
}

/// The interpolations an ``OSLogMessage`` takes.
public struct OSLogInterpolation: StringInterpolationProtocol, Sendable {
  var text = ""

  public init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity + interpolationCount * 8) }

  public mutating func appendLiteral(_ literal: String) { text += literal }

  public mutating func appendInterpolation(
    _ argumentString: @autoclosure () -> String, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
  ) {
    text += align.apply(argumentString())
  }

  public mutating func appendInterpolation<T: CustomStringConvertible>(
    _ value: @autoclosure () -> T, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
  ) {
    text += align.apply(value().description)
  }

  public mutating func appendInterpolation<T: BinaryInteger>(
    _ number: @autoclosure () -> T, format: OSLogIntegerFormatting = .decimal, align: OSLogStringAlignment = .none,
    privacy: OSLogPrivacy = .auto
  ) {
    text += align.apply(format.apply(number()))
  }

  public mutating func appendInterpolation(
    _ number: @autoclosure () -> Double, format: OSLogFloatFormatting = .fixed, align: OSLogStringAlignment = .none,
    privacy: OSLogPrivacy = .auto
  ) {
    text += align.apply(format.apply(number()))
  }

  public mutating func appendInterpolation(
    _ number: @autoclosure () -> Float, format: OSLogFloatFormatting = .fixed, align: OSLogStringAlignment = .none,
    privacy: OSLogPrivacy = .auto
  ) {
    text += align.apply(format.apply(Double(number())))
  }

  public mutating func appendInterpolation(
    _ boolean: @autoclosure () -> Bool, format: OSLogBoolFormat = .truth, privacy: OSLogPrivacy = .auto
  ) {
    let value = boolean()
    text += format == .answer ? (value ? "YES" : "NO") : (value ? "true" : "false")
  }

  public mutating func appendInterpolation(_ error: @autoclosure () -> any Error, privacy: OSLogPrivacy = .auto) {
    text += String(describing: error())
  }

  public mutating func appendInterpolation(
    _ value: @autoclosure () -> Any.Type, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
  ) {
    text += align.apply(String(describing: value()))
  }

  public mutating func appendInterpolation<T>(
    _ value: @autoclosure () -> T, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
  ) {
    text += align.apply(String(describing: value()))
  }
}

/// Who may read a value in the log; accepted, not enforced (see ``Logger``).
public struct OSLogPrivacy: Equatable, Sendable {
  public enum Mask: Equatable, Sendable {
    case hash, none
  }
  let name: String
  public static let `public` = OSLogPrivacy(name: "public")
  public static let `private` = OSLogPrivacy(name: "private")
  public static let sensitive = OSLogPrivacy(name: "sensitive")
  public static let auto = OSLogPrivacy(name: "auto")
  public static func `private`(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(name: "private") }
  public static func sensitive(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(name: "sensitive") }
  public static func auto(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(name: "auto") }
}

/// Padding of a value to a column width.
public struct OSLogStringAlignment: Sendable {
  let columns: Int
  public static let none = OSLogStringAlignment(columns: 0)
  public static func right(columns: @autoclosure () -> Int) -> OSLogStringAlignment { OSLogStringAlignment(columns: columns()) }
  public static func left(columns: @autoclosure () -> Int) -> OSLogStringAlignment { OSLogStringAlignment(columns: -columns()) }

  func apply(_ text: String) -> String {
    let width = abs(columns)
    guard text.count < width else { return text }
    let padding = String(repeating: " ", count: width - text.count)
    return columns > 0 ? padding + text : text + padding
  }
}

/// How an integer is written.
public struct OSLogIntegerFormatting: Sendable {
  let radix: Int
  let uppercase: Bool
  let prefix: Bool
  let explicitPositiveSign: Bool
  let minDigits: Int

  public static let decimal = OSLogIntegerFormatting(radix: 10, uppercase: false, prefix: false, explicitPositiveSign: false, minDigits: 0)
  public static let hex = OSLogIntegerFormatting(radix: 16, uppercase: false, prefix: false, explicitPositiveSign: false, minDigits: 0)
  public static let octal = OSLogIntegerFormatting(radix: 8, uppercase: false, prefix: false, explicitPositiveSign: false, minDigits: 0)
  public static func decimal(explicitPositiveSign: Bool = false, minDigits: @autoclosure () -> Int = 0) -> OSLogIntegerFormatting {
    OSLogIntegerFormatting(radix: 10, uppercase: false, prefix: false, explicitPositiveSign: explicitPositiveSign, minDigits: minDigits())
  }
  public static func hex(
    explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false, minDigits: @autoclosure () -> Int = 0
  ) -> OSLogIntegerFormatting {
    OSLogIntegerFormatting(
      radix: 16, uppercase: uppercase, prefix: includePrefix, explicitPositiveSign: explicitPositiveSign, minDigits: minDigits())
  }
  public static func octal(
    explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false, minDigits: @autoclosure () -> Int = 0
  ) -> OSLogIntegerFormatting {
    OSLogIntegerFormatting(
      radix: 8, uppercase: uppercase, prefix: includePrefix, explicitPositiveSign: explicitPositiveSign, minDigits: minDigits())
  }

  func apply<T: BinaryInteger>(_ value: T) -> String {
    var digits = String(value.magnitude, radix: radix, uppercase: uppercase)
    if digits.count < minDigits { digits = String(repeating: "0", count: minDigits - digits.count) + digits }
    if prefix { digits = (radix == 16 ? "0x" : "0") + digits }
    let sign = value < 0 ? "-" : explicitPositiveSign ? "+" : ""
    return sign + digits
  }
}

/// How a floating-point number is written.
public struct OSLogFloatFormatting: Sendable {
  let style: Character
  let precision: Int?
  let explicitPositiveSign: Bool

  public static let fixed = OSLogFloatFormatting(style: "f", precision: nil, explicitPositiveSign: false)
  public static let exponential = OSLogFloatFormatting(style: "e", precision: nil, explicitPositiveSign: false)
  public static let hybrid = OSLogFloatFormatting(style: "g", precision: nil, explicitPositiveSign: false)
  public static let hex = OSLogFloatFormatting(style: "a", precision: nil, explicitPositiveSign: false)
  public static func fixed(
    precision: @autoclosure () -> Int, explicitPositiveSign: Bool = false, uppercase: Bool = false
  ) -> OSLogFloatFormatting {
    OSLogFloatFormatting(style: "f", precision: precision(), explicitPositiveSign: explicitPositiveSign)
  }
  public static func fixed(explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
    OSLogFloatFormatting(style: "f", precision: nil, explicitPositiveSign: explicitPositiveSign)
  }
  public static func exponential(
    precision: @autoclosure () -> Int, explicitPositiveSign: Bool = false, uppercase: Bool = false
  ) -> OSLogFloatFormatting {
    OSLogFloatFormatting(style: "e", precision: precision(), explicitPositiveSign: explicitPositiveSign)
  }

  func apply(_ value: Double) -> String {
    let format = "%" + (explicitPositiveSign ? "+" : "") + (precision.map { ".\($0)" } ?? "") + String(style)
    return String(format: format, value)
  }
}

/// How a Boolean is written: "true"/"false" or "YES"/"NO".
public enum OSLogBoolFormat: Sendable {
  case truth, answer
}
