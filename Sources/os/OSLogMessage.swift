import Foundation

/// A log message built by string interpolation, with Apple's options on each value: `privacy`,
/// and `format` and `align` where Apple has them. The options are accepted and formats applied;
/// privacy does not redact (see ``Logger``).
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral, Sendable {
  let text: String

  /// A message without interpolated values.
  /// - Parameter value: the message's text.
  public init(stringLiteral value: String) { text = value }
  /// A message from its interpolations, as the compiler builds it from a string with `\(…)`.
  /// - Parameter stringInterpolation: the literal parts and values, as written.
  public init(stringInterpolation: OSLogInterpolation) { text = stringInterpolation.text }
}

/// The interpolations an ``OSLogMessage`` takes.
public struct OSLogInterpolation: StringInterpolationProtocol, Sendable {
  var text = ""

  /// An empty interpolation with room reserved for the message, as the compiler makes it.
  /// - Parameters:
  ///   - literalCapacity: the length of the message's literal parts.
  ///   - interpolationCount: how many values are interpolated.
  public init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity + interpolationCount * 8) }

  /// Appends a literal part of the message.
  /// - Parameter literal: the text to append.
  public mutating func appendLiteral(_ literal: String) { text += literal }

  /// Appends a string, padded to `align`'s width.
  /// - Parameters:
  ///   - argumentString: the string.
  ///   - align: the column width to pad it to; none by default.
  ///   - privacy: who may read the value; accepted, not enforced.
  public mutating func appendInterpolation(
    _ argumentString: @autoclosure () -> String, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
  ) {
    text += align.apply(argumentString())
  }

  /// Appends a value's `description`, padded to `align`'s width.
  /// - Parameters:
  ///   - value: the value.
  ///   - align: the column width to pad it to; none by default.
  ///   - privacy: who may read the value; accepted, not enforced.
  public mutating func appendInterpolation<T: CustomStringConvertible>(
    _ value: @autoclosure () -> T, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
  ) {
    text += align.apply(value().description)
  }

  /// Appends an integer in `format` (decimal by default), padded to `align`'s width.
  /// - Parameters:
  ///   - number: the integer.
  ///   - format: the radix, sign, prefix and digits to write it with.
  ///   - align: the column width to pad it to; none by default.
  ///   - privacy: who may read the value; accepted, not enforced.
  public mutating func appendInterpolation<T: BinaryInteger>(
    _ number: @autoclosure () -> T, format: OSLogIntegerFormatting = .decimal, align: OSLogStringAlignment = .none,
    privacy: OSLogPrivacy = .auto
  ) {
    text += align.apply(format.apply(number()))
  }

  /// Appends a `Double` in `format` (fixed, six decimals, by default), padded to `align`'s width.
  /// - Parameters:
  ///   - number: the number.
  ///   - format: the notation and precision to write it with.
  ///   - align: the column width to pad it to; none by default.
  ///   - privacy: who may read the value; accepted, not enforced.
  public mutating func appendInterpolation(
    _ number: @autoclosure () -> Double, format: OSLogFloatFormatting = .fixed, align: OSLogStringAlignment = .none,
    privacy: OSLogPrivacy = .auto
  ) {
    text += align.apply(format.apply(number()))
  }

  /// Appends a `Float` in `format` (fixed, six decimals, by default), padded to `align`'s width.
  /// - Parameters:
  ///   - number: the number.
  ///   - format: the notation and precision to write it with.
  ///   - align: the column width to pad it to; none by default.
  ///   - privacy: who may read the value; accepted, not enforced.
  public mutating func appendInterpolation(
    _ number: @autoclosure () -> Float, format: OSLogFloatFormatting = .fixed, align: OSLogStringAlignment = .none,
    privacy: OSLogPrivacy = .auto
  ) {
    text += align.apply(format.apply(Double(number())))
  }

  /// Appends a Boolean as "true"/"false" or, with `.answer`, "YES"/"NO".
  /// - Parameters:
  ///   - boolean: the Boolean.
  ///   - format: how to write it.
  ///   - privacy: who may read the value; accepted, not enforced.
  public mutating func appendInterpolation(
    _ boolean: @autoclosure () -> Bool, format: OSLogBoolFormat = .truth, privacy: OSLogPrivacy = .auto
  ) {
    let value = boolean()
    text += format == .answer ? (value ? "YES" : "NO") : (value ? "true" : "false")
  }

  /// Appends an error's description.
  /// - Parameters:
  ///   - error: the error.
  ///   - privacy: who may read the value; accepted, not enforced.
  public mutating func appendInterpolation(_ error: @autoclosure () -> any Error, privacy: OSLogPrivacy = .auto) {
    text += String(describing: error())
  }

  /// Appends a type's name, padded to `align`'s width.
  /// - Parameters:
  ///   - value: the type.
  ///   - align: the column width to pad it to; none by default.
  ///   - privacy: who may read the value; accepted, not enforced.
  public mutating func appendInterpolation(
    _ value: @autoclosure () -> Any.Type, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
  ) {
    text += align.apply(String(describing: value()))
  }

  /// Appends any other value as `String(describing:)` writes it, padded to `align`'s width.
  /// - Parameters:
  ///   - value: the value.
  ///   - align: the column width to pad it to; none by default.
  ///   - privacy: who may read the value; accepted, not enforced.
  public mutating func appendInterpolation<T>(
    _ value: @autoclosure () -> T, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
  ) {
    text += align.apply(String(describing: value()))
  }
}

/// Who may read a value in the log; accepted, not enforced (see ``Logger``).
public struct OSLogPrivacy: Equatable, Sendable {
  /// How a private value is masked in the log; accepted, has no effect here.
  public enum Mask: Equatable, Sendable {
    /// A hash of the value instead of the value.
    case hash
    /// No mask.
    case none
  }
  let name: String
  /// Anyone may read the value.
  public static let `public` = OSLogPrivacy(name: "public")
  /// On iOS, redacted unless a debugger is attached; written as it is here.
  public static let `private` = OSLogPrivacy(name: "private")
  /// On iOS, always redacted; written as it is here.
  public static let sensitive = OSLogPrivacy(name: "sensitive")
  /// The system decides by the value's type (the default); written as it is here.
  public static let auto = OSLogPrivacy(name: "auto")
  /// Private, with a mask.
  /// - Parameter mask: how to mask the value; ignored.
  /// - Returns: the private privacy level.
  public static func `private`(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(name: "private") }
  /// Sensitive, with a mask.
  /// - Parameter mask: how to mask the value; ignored.
  /// - Returns: the sensitive privacy level.
  public static func sensitive(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(name: "sensitive") }
  /// Automatic, with a mask.
  /// - Parameter mask: how to mask the value; ignored.
  /// - Returns: the automatic privacy level.
  public static func auto(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(name: "auto") }
}

/// Padding of a value to a column width.
public struct OSLogStringAlignment: Sendable {
  let columns: Int
  /// No padding.
  public static let none = OSLogStringAlignment(columns: 0)
  /// Right-aligned: spaces before the value up to `columns` characters; a longer value is not cut.
  /// - Parameter columns: the column width.
  /// - Returns: the alignment.
  public static func right(columns: @autoclosure () -> Int) -> OSLogStringAlignment { OSLogStringAlignment(columns: columns()) }
  /// Left-aligned: spaces after the value up to `columns` characters; a longer value is not cut.
  /// - Parameter columns: the column width.
  /// - Returns: the alignment.
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

  /// Decimal digits, a sign only when negative.
  public static let decimal = OSLogIntegerFormatting(radix: 10, uppercase: false, prefix: false, explicitPositiveSign: false, minDigits: 0)
  /// Lowercase hexadecimal digits, without a prefix.
  public static let hex = OSLogIntegerFormatting(radix: 16, uppercase: false, prefix: false, explicitPositiveSign: false, minDigits: 0)
  /// Octal digits, without a prefix.
  public static let octal = OSLogIntegerFormatting(radix: 8, uppercase: false, prefix: false, explicitPositiveSign: false, minDigits: 0)
  /// Decimal digits, with options.
  /// - Parameters:
  ///   - explicitPositiveSign: whether to write `+` before a positive number.
  ///   - minDigits: the fewest digits, with leading zeros.
  /// - Returns: the formatting.
  public static func decimal(explicitPositiveSign: Bool = false, minDigits: @autoclosure () -> Int = 0) -> OSLogIntegerFormatting {
    OSLogIntegerFormatting(radix: 10, uppercase: false, prefix: false, explicitPositiveSign: explicitPositiveSign, minDigits: minDigits())
  }
  /// Hexadecimal digits, with options.
  /// - Parameters:
  ///   - explicitPositiveSign: whether to write `+` before a positive number.
  ///   - includePrefix: whether to write `0x` before the digits.
  ///   - uppercase: whether to write the digits A–F in uppercase.
  ///   - minDigits: the fewest digits, with leading zeros.
  /// - Returns: the formatting.
  public static func hex(
    explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false, minDigits: @autoclosure () -> Int = 0
  ) -> OSLogIntegerFormatting {
    OSLogIntegerFormatting(
      radix: 16, uppercase: uppercase, prefix: includePrefix, explicitPositiveSign: explicitPositiveSign, minDigits: minDigits())
  }
  /// Octal digits, with options.
  /// - Parameters:
  ///   - explicitPositiveSign: whether to write `+` before a positive number.
  ///   - includePrefix: whether to write `0` before the digits.
  ///   - uppercase: accepted for Apple's signature; octal digits have no case.
  ///   - minDigits: the fewest digits, with leading zeros.
  /// - Returns: the formatting.
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

  /// Fixed-point notation with six decimals (`%f`).
  public static let fixed = OSLogFloatFormatting(style: "f", precision: nil, explicitPositiveSign: false)
  /// Exponential notation (`%e`).
  public static let exponential = OSLogFloatFormatting(style: "e", precision: nil, explicitPositiveSign: false)
  /// Fixed or exponential, whichever is shorter (`%g`).
  public static let hybrid = OSLogFloatFormatting(style: "g", precision: nil, explicitPositiveSign: false)
  /// Hexadecimal floating point (`%a`).
  public static let hex = OSLogFloatFormatting(style: "a", precision: nil, explicitPositiveSign: false)
  /// Fixed-point notation with a number of decimals.
  /// - Parameters:
  ///   - precision: the number of decimals.
  ///   - explicitPositiveSign: whether to write `+` before a positive number.
  ///   - uppercase: accepted for Apple's signature; has no effect here.
  /// - Returns: the formatting.
  public static func fixed(
    precision: @autoclosure () -> Int, explicitPositiveSign: Bool = false, uppercase: Bool = false
  ) -> OSLogFloatFormatting {
    OSLogFloatFormatting(style: "f", precision: precision(), explicitPositiveSign: explicitPositiveSign)
  }
  /// Fixed-point notation with six decimals, with options.
  /// - Parameters:
  ///   - explicitPositiveSign: whether to write `+` before a positive number.
  ///   - uppercase: accepted for Apple's signature; has no effect here.
  /// - Returns: the formatting.
  public static func fixed(explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
    OSLogFloatFormatting(style: "f", precision: nil, explicitPositiveSign: explicitPositiveSign)
  }
  /// Exponential notation with a number of decimals.
  /// - Parameters:
  ///   - precision: the number of decimals.
  ///   - explicitPositiveSign: whether to write `+` before a positive number.
  ///   - uppercase: accepted for Apple's signature; has no effect here (the `e` stays lowercase).
  /// - Returns: the formatting.
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
  /// "true" or "false".
  case truth
  /// "YES" or "NO".
  case answer
}
