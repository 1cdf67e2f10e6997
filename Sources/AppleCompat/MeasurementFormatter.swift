public import Foundation

/// A formatter of measurements as Apple's Foundation has it ("1.5 km", "0.932 mi", "5 meters");
/// swift-corelibs-foundation marks its own unavailable. Declared here, it shadows that one for
/// every file that imports `CoreLocation` (which re-exports this module).
///
/// Lengths and speeds follow the locale as Apple's do: converted to its measurement system
/// (metres and km/h in a metric locale; miles, feet and mph in the US) unless
/// ``UnitOptions/providedUnit``; with ``UnitOptions/naturalScale`` a length takes the unit of its
/// magnitude (m or km; ft or mi). Other units are written in the unit given. Numbers are written
/// by ``numberFormatter`` (the locale's decimal style, up to three fraction digits); unit names
/// are English.
open class MeasurementFormatter: Formatter, @unchecked Sendable {
  /// How units are chosen (Apple's raw values).
  public struct UnitOptions: OptionSet, Sendable {
    /// The raw value: the bits of the options in the set.
    public let rawValue: UInt
    /// Creates a set of options from its raw value.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The unit of the measurement, never another.
    public static let providedUnit = UnitOptions(rawValue: 1 << 0)
    /// The unit that suits the magnitude (km for 1,500 m).
    public static let naturalScale = UnitOptions(rawValue: 1 << 1)
    /// A temperature's number without its unit.
    public static let temperatureWithoutUnit = UnitOptions(rawValue: 1 << 2)
  }

  /// How the unit of a measurement is chosen; empty (follow the locale) by default.
  open var unitOptions: UnitOptions = []
  /// `.short` "5km", `.medium` "5 km", `.long` "5 kilometers".
  open var unitStyle: Formatter.UnitStyle = .medium
  /// The locale that picks the measurement system and how numbers are written; the current one by default.
  open var locale: Locale! = .current {
    didSet { numberFormatter.locale = locale }
  }
  /// How the number is written.
  open var numberFormatter: NumberFormatter! = {
    let formatter = NumberFormatter()
    formatter.numberStyle = .decimal
    formatter.maximumFractionDigits = 3
    return formatter
  }()

  /// Creates a formatter with the default options: medium style, the current locale.
  public override init() { super.init() }
  /// Creates a formatter from an archive, as `Formatter` requires.
  /// - Parameter coder: The archive to read.
  public required init?(coder: NSCoder) { super.init(coder: coder) }

  /// Writes a measurement in the unit the options and the locale choose, such as "1.5 km".
  /// - Parameter measurement: The measurement to write.
  /// - Returns: The number followed by the unit, in ``unitStyle``.
  open func string(from measurement: Measurement<Unit>) -> String { format(measurement.value, measurement.unit) }

  /// Writes a measurement of a given unit type in the unit the options and the locale choose.
  /// - Parameter measurement: The measurement to write.
  /// - Returns: The number followed by the unit, in ``unitStyle``.
  open func string<UnitType: Unit>(from measurement: Measurement<UnitType>) -> String { format(measurement.value, measurement.unit) }

  /// The unit alone: its symbol, or its name with `.long`.
  open func string(from unit: Unit) -> String { unitStyle == .long ? Self.name(of: unit, plural: true) : unit.symbol }

  /// Writes a measurement passed as `Any`: of `Unit`, `UnitLength` or `UnitSpeed`.
  /// - Parameter obj: The value to write.
  /// - Returns: The text, or nil if `obj` is not such a measurement.
  open override func string(for obj: Any?) -> String? {
    if let measurement = obj as? Measurement<Unit> { return string(from: measurement) }
    if let measurement = obj as? Measurement<UnitLength> { return string(from: measurement) }
    if let measurement = obj as? Measurement<UnitSpeed> { return string(from: measurement) }
    return nil
  }

  private func format(_ value: Double, _ unit: Unit) -> String {
    let (value, unit) = chosen(value, unit)
    if unitOptions.contains(.temperatureWithoutUnit), unit is UnitTemperature { return number(value) + "°" }
    switch unitStyle {
    case .short: return number(value) + unit.symbol
    case .long: return number(value) + " " + Self.name(of: unit, plural: value != 1)
    default: return number(value) + " " + unit.symbol
    }
  }

  private func number(_ value: Double) -> String {
    numberFormatter.locale = locale
    return numberFormatter.string(from: NSNumber(value: value)) ?? String(value)
  }

  /// The value in the unit the options and the locale choose.
  private func chosen(_ value: Double, _ unit: Unit) -> (Double, Unit) {
    guard !unitOptions.contains(.providedUnit) else { return (value, unit) }
    let metric = (locale ?? .current).measurementSystem == .metric
    if let unit = unit as? UnitLength {
      let meters = Measurement(value: value, unit: unit).converted(to: .meters).value
      let target: UnitLength
      if unitOptions.contains(.naturalScale) {
        target = metric ? (abs(meters) >= 1_000 ? .kilometers : .meters) : (abs(meters) >= 160.9344 ? .miles : .feet)
      } else {
        target = metric ? (Self.isMetric(unit) ? unit : .meters) : (Self.isMetric(unit) ? (unit == .kilometers ? .miles : .feet) : unit)
      }
      return (Measurement(value: meters, unit: UnitLength.meters).converted(to: target).value, target)
    }
    if let unit = unit as? UnitSpeed {
      let target: UnitSpeed = metric ? .kilometersPerHour : .milesPerHour
      return (Measurement(value: value, unit: unit).converted(to: target).value, target)
    }
    return (value, unit)
  }

  private static func isMetric(_ unit: UnitLength) -> Bool {
    [UnitLength.millimeters, .centimeters, .decimeters, .meters, .kilometers].contains(unit)
  }

  /// English names of the units location code writes; the symbol for others.
  static func name(of unit: Unit, plural: Bool) -> String {
    let names: [String: (String, String)] = [
      "m": ("meter", "meters"), "km": ("kilometer", "kilometers"), "cm": ("centimeter", "centimeters"),
      "mm": ("millimeter", "millimeters"), "mi": ("mile", "miles"), "ft": ("foot", "feet"), "yd": ("yard", "yards"),
      "in": ("inch", "inches"), "m/s": ("meter per second", "meters per second"),
      "km/h": ("kilometer per hour", "kilometers per hour"), "mph": ("mile per hour", "miles per hour"),
      "kn": ("knot", "knots"), "s": ("second", "seconds"), "min": ("minute", "minutes"), "hr": ("hour", "hours"),
    ]
    guard let name = names[unit.symbol] else { return unit.symbol }
    return plural ? name.1 : name.0
  }
}
