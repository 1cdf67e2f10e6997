public import CoreLocation
public import Foundation

/// Distances as people read them ("350 m", "1.2 km", "0.7 mi", "500 ft"), in the units of a
/// locale (imperial for the United States, Liberia and Myanmar; metric elsewhere) or of
/// ``units``. Rounding as MapKit does for the common cases: metres to the nearest 10 (to 50
/// from 500 m), kilometres and miles to one decimal under 10, whole above; feet to the nearest
/// 10 (to 50 from 500 ft), yards likewise.
open class MKDistanceFormatter: Formatter, @unchecked Sendable {
  /// Which units.
  public enum Units: UInt, Sendable {
    /// The locale's.
    case `default` = 0
    /// Metres and kilometres.
    case metric = 1
    /// Feet and miles.
    case imperial = 2
    /// Yards and miles.
    case imperialWithYards = 3
  }

  /// Abbreviated ("km") or full ("kilometers") unit names.
  public enum DistanceUnitStyle: UInt, Sendable {
    /// Abbreviated unit names, as `abbreviated`.
    case `default` = 0
    /// Abbreviated unit names ("km", "mi").
    case abbreviated = 1
    /// Full unit names ("kilometers", "miles").
    case full = 2
  }

  /// The locale (the current one by default; set nil to reset).
  open var locale: Locale! {
    get { chosenLocale ?? .current }
    set { chosenLocale = newValue }
  }
  private var chosenLocale: Locale?
  /// The units to write distances in; the locale's by default.
  open var units = Units.default
  /// How unit names are written; abbreviated by default.
  open var unitStyle = DistanceUnitStyle.default

  /// Creates a formatter with the locale's units and abbreviated unit names.
  public override init() { super.init() }
  /// Creates a formatter from an archive, as `Formatter` requires.
  /// - Parameter coder: The archive to read.
  public required init?(coder: NSCoder) { super.init(coder: coder) }

  private var effectiveUnits: Units {
    if units != .default { return units }
    let region = locale.region?.identifier ?? ""
    return ["US", "LR", "MM"].contains(region) ? .imperial : .metric
  }

  /// `distance` metres as text.
  open func string(fromDistance distance: CLLocationDistance) -> String {
    guard distance.isFinite else { return "" }
    let full = unitStyle == .full
    let d = abs(distance)
    func number(_ value: Double, decimals: Int) -> String {
      let formatter = NumberFormatter()
      formatter.locale = locale
      formatter.numberStyle = .decimal
      formatter.minimumFractionDigits = 0
      formatter.maximumFractionDigits = decimals
      return formatter.string(from: NSNumber(value: value)) ?? String(value)
    }
    func roundTo(_ value: Double, _ step: Double) -> Double { (value / step).rounded() * step }
    func named(_ value: String, _ one: String, _ many: String, _ short: String) -> String {
      full ? "\(value) \(value == "1" ? one : many)" : "\(value) \(short)"
    }
    switch effectiveUnits {
    case .metric, .default:
      if d < 1000 {
        let m = d < 500 ? roundTo(d, 10) : roundTo(d, 50)
        if m >= 1000 { return named("1", "kilometer", "kilometers", "km") }
        return named(number(m, decimals: 0), "meter", "meters", "m")
      }
      let km = d / 1000
      return named(number(km < 10 ? roundTo(km, 0.1) : km.rounded(), decimals: km < 10 ? 1 : 0), "kilometer", "kilometers", "km")
    case .imperial, .imperialWithYards:
      let miles = d / 1609.344
      if miles >= 0.1 {
        return named(number(miles < 10 ? roundTo(miles, 0.1) : miles.rounded(), decimals: miles < 10 ? 1 : 0), "mile", "miles", "mi")
      }
      if effectiveUnits == .imperialWithYards {
        let yards = d / 0.9144
        return named(number(yards < 500 ? roundTo(yards, 10) : roundTo(yards, 50), decimals: 0), "yard", "yards", "yd")
      }
      let feet = d / 0.3048
      return named(number(feet < 500 ? roundTo(feet, 10) : roundTo(feet, 50), decimals: 0), "foot", "feet", "ft")
    }
  }

  /// The metres a text says ("1.2 km", "350 meters", "2 mi", "500 ft", "30 yd"); -1 when it
  /// says no distance.
  open func distance(from distance: String) -> CLLocationDistance {
    let scanner = Scanner(string: distance.trimmingCharacters(in: .whitespacesAndNewlines))
    scanner.locale = locale
    guard let value = scanner.scanDouble() else { return -1 }
    let unit = distance[scanner.currentIndex...].trimmingCharacters(in: .whitespaces).lowercased()
    let metres: [String: Double] = [
      "m": 1, "meter": 1, "meters": 1, "metre": 1, "metres": 1, "km": 1000, "kilometer": 1000, "kilometers": 1000,
      "kilometre": 1000, "kilometres": 1000, "mi": 1609.344, "mile": 1609.344, "miles": 1609.344, "ft": 0.3048, "foot": 0.3048,
      "feet": 0.3048, "yd": 0.9144, "yard": 0.9144, "yards": 0.9144,
    ]
    guard let factor = metres[unit] else { return -1 }
    return value * factor
  }

  /// Writes a distance in metres passed as a `Double` or an `NSNumber`.
  /// - Parameter obj: The distance.
  /// - Returns: The text, or nil if `obj` is not a number.
  open override func string(for obj: Any?) -> String? {
    switch obj {
    case let value as Double: string(fromDistance: value)
    case let value as NSNumber: string(fromDistance: value.doubleValue)
    default: nil
    }
  }
}
