import AppleCompat
import Foundation
import Testing

/// Apple's MeasurementFormatter, which swift-corelibs-foundation marks unavailable.
@Suite("MeasurementFormatter")
struct MeasurementFormatterTests {
  static func formatter(
    _ locale: String, _ options: MeasurementFormatter.UnitOptions = [], _ style: Formatter.UnitStyle = .medium
  )
    -> MeasurementFormatter
  {
    let formatter = MeasurementFormatter()
    formatter.locale = Locale(identifier: locale)
    formatter.unitOptions = options
    formatter.unitStyle = style
    return formatter
  }

  @Test("the unit given, in three styles; the locale's numbers")
  func providedUnit() {
    let distance = Measurement(value: 1234.5, unit: UnitLength.meters)
    #expect(Self.formatter("en_US", .providedUnit).string(from: distance) == "1,234.5 m")
    #expect(Self.formatter("en_US", .providedUnit, .short).string(from: distance) == "1,234.5m")
    #expect(Self.formatter("en_US", .providedUnit, .long).string(from: distance) == "1,234.5 meters")
    #expect(Self.formatter("en_US", .providedUnit, .long).string(from: Measurement(value: 1, unit: UnitLength.kilometers)) == "1 kilometer")
    // Finnish groups thousands with a no-break space.
    let finnish = Self.formatter("fi_FI", .providedUnit).string(from: distance)
    #expect(finnish.replacingOccurrences(of: "\u{A0}", with: " ").replacingOccurrences(of: "\u{202F}", with: " ") == "1 234,5 m")
  }

  @Test("lengths and speeds in the locale's system; natural scale by magnitude")
  func localeAndScale() {
    let five = Measurement(value: 5, unit: UnitLength.kilometers)
    #expect(Self.formatter("en_US").string(from: five) == "3.107 mi")
    #expect(Self.formatter("fi_FI").string(from: five) == "5 km")
    #expect(Self.formatter("en_US").string(from: Measurement(value: 100, unit: UnitLength.meters)) == "328.084 ft")
    let walk = Measurement(value: 1500, unit: UnitLength.meters)
    #expect(Self.formatter("en_GB", .naturalScale).string(from: walk) == "0.932 mi")
    #expect(Self.formatter("de_DE", .naturalScale).string(from: walk) == "1,5 km")
    #expect(Self.formatter("de_DE", .naturalScale).string(from: Measurement(value: 800, unit: UnitLength.meters)) == "800 m")
    #expect(Self.formatter("en_US").string(from: Measurement(value: 10, unit: UnitSpeed.metersPerSecond)) == "22.369 mph")
    #expect(
      Self.formatter("fi_FI", [], .long).string(from: Measurement(value: 10, unit: UnitSpeed.metersPerSecond)) == "36 kilometers per hour")
    #expect(Self.formatter("en_US").string(from: UnitLength.kilometers) == "km")
  }
}
