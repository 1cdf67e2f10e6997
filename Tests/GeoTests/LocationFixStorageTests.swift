import Foundation
import LocationModel
import Testing

/// A fix is plain data (no reference counting on its many copies), and its members read back
/// as they were set: nil, a number, a reported NaN, infinities and signed zeros.
struct LocationFixStorageTests {
  @Test func aFixIsPlainDataOf160BytesAtMost() {
    #expect(_isPOD(LocationFix.self))
    #expect(MemoryLayout<LocationFix>.stride <= 160)
  }

  static let values: [Double?] = [nil, 0, -0.0, 1.5, -273.15, .infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude]

  @Test(arguments: values)
  func everyMemberReadsBackWhatWasSet(value: Double?) {
    var fix = LocationFix(mode: .threeD)
    fix.altitudeMSL = value
    fix.altitudeHAE = value
    fix.speed = value
    fix.course = value
    fix.horizontalAccuracy = value
    fix.verticalAccuracy = value
    fix.climb = value
    fix.geoidSeparation = value
    fix.magneticVariation = value
    fix.errors = LocationFix.ErrorEstimates(epx: value, epy: value, eps: value, epd: value, epc: value, ept: value, sep: value)
    fix.timestamp = value.map(Date.init(timeIntervalSinceReferenceDate:))
    let members = [
      fix.altitudeMSL, fix.altitudeHAE, fix.speed, fix.course, fix.horizontalAccuracy, fix.verticalAccuracy, fix.climb,
      fix.geoidSeparation, fix.magneticVariation, fix.errors.epx, fix.errors.epy, fix.errors.eps, fix.errors.epd,
      fix.errors.epc, fix.errors.ept, fix.errors.sep, fix.timestamp?.timeIntervalSinceReferenceDate,
    ]
    for member in members {
      #expect(member?.bitPattern == value?.bitPattern)
    }
    #expect(fix == fix)
    #expect(Set([fix, fix]).count == 1)
    #expect(fix.errors.isEmpty == (value == nil))
  }

  @Test func aReportedNaNStaysANaNAndIsNotNil() {
    var fix = LocationFix(mode: .twoD, speed: .nan)
    #expect(fix.speed?.isNaN == true)
    #expect(fix != fix, "an optional NaN equals nothing, itself included, as before")
    fix.speed = nil
    #expect(fix.speed == nil && fix == fix)
  }

  @Test func theCoordinateIsThereOrNot() throws {
    let warsaw = try #require(Coordinate(latitude: 52.2297, longitude: 21.0122))
    var fix = LocationFix(mode: .twoD, coordinate: warsaw)
    #expect(fix.coordinate == warsaw && fix.hasFix)
    fix.coordinate = nil
    #expect(fix.coordinate == nil && !fix.hasFix)
    #expect(fix == LocationFix(mode: .twoD))
    let south = try #require(Coordinate(latitude: -90, longitude: -180))
    fix.coordinate = south
    #expect(fix.coordinate == south)
  }

  @Test func fixesThatDifferInOneMemberAreNotEqual() {
    let base = LocationFix(
      timestamp: Date(timeIntervalSince1970: 1_700_000_000), mode: .threeD, altitudeMSL: 100, speed: 1, status: .gnss,
      errors: LocationFix.ErrorEstimates(ept: 0.005))
    var other = base
    other.errors.sep = 3
    #expect(base != other)
    other = base
    other.status = nil
    #expect(base != other)
    other = base
    other.altitudeMSL = nil
    #expect(base != other)
    let same = LocationFix(
      timestamp: Date(timeIntervalSince1970: 1_700_000_000), mode: .threeD, altitudeMSL: 100, speed: 1, status: .gnss,
      errors: LocationFix.ErrorEstimates(ept: 0.005))
    #expect(base == same && base.hashValue == same.hashValue)
  }
}
