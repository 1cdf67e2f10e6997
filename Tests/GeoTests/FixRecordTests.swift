import Foundation
import Geo
import Testing
import LocationModel

#if canImport(Glibc)
  import Glibc
#endif

/// The fix record writer: the output contract's members, digits and rounding.
struct FixRecordTests {
  @Test(arguments: [
    (52.2297, 9, "52.229700000"), (21.0122, 9, "21.012200000"), (-0.00004, 4, "0.0000"), (-1.5, 0, "-2"),
    (2.5, 0, "3"), (0.0005, 3, "0.001"), (123.4567, 2, "123.46"), (-123.4567, 2, "-123.46"), (0, 3, "0.000"),
    (99.99995, 4, "100.0000"), (Double.nan, 3, "0"), (Double.infinity, 3, "0"), (1e17, 3, "1e+17"),
  ])
  func fixedRoundsHalfAwayFromZero(value: Double, decimals: Int, text: String) {
    #expect(FixRecord.fixed(value, decimals) == text)
  }

  /// The writer rounds without libm's `round`: against `rounded()` on 100,000 values of every
  /// magnitude the writer prints in digits (halves, values just below a half, negatives).
  @Test func fixedRoundsAsRoundedDoes() {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    var values: [Double] = [0.49999999999999994, 0.5, 1.5, 2.5, -0.5, 1e-300, 4503599627370495.5 / 1e6]
    // Just below a whole number: the scaling or the rounding carries into the whole part.
    for whole in [1.0, 2, 10, 100, 52, 999_999] {
      for gap in [1e-12, 1e-10, 4e-10, 5e-10, 6e-10, 1e-9, 5e-4, 4.9e-4] { values += [whole - gap, -(whole - gap)] }
      values += [whole.nextDown, -whole.nextDown]
    }
    for _ in 0..<100_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let digits = Double(state >> 11) / Double(1 << 53)  // [0, 1)
      let magnitude = Double(Int(state >> 3 & 15)) - 6  // 1e-6 … 1e9
      let halves = state & 4 == 0 ? (digits * 2000).rounded() / 2000 : digits  // exact halves at 3 decimals
      values.append((state & 1 == 0 ? -1 : 1) * halves * pow(10, magnitude))
    }
    for (i, value) in values.enumerated() {
      let decimals = i % 10
      var p: UInt64 = 1
      for _ in 0..<decimals { p *= 10 }
      guard abs(value) * Double(p) < 9e15 else { continue }  // written in Swift's shortest form
      let integer = UInt64((abs(value) * Double(p)).rounded())
      let sign = value < 0 && integer != 0 ? "-" : ""
      let fraction = String(integer % p)
      let expected =
        sign + String(integer / p) + (decimals > 0 ? "." + String(repeating: "0", count: decimals - fraction.count) + fraction : "")
      guard FixRecord.fixed(value, decimals) == expected else {
        Issue.record("\(value) with \(decimals) decimals: \(FixRecord.fixed(value, decimals)), not \(expected)")
        return
      }
    }
  }

  @Test(arguments: [
    (1_554_595_351.42, "2019-04-07T00:02:31.420Z"), (0, "1970-01-01T00:00:00.000Z"),
    (-0.5, "1969-12-31T23:59:59.500Z"), (0.9996, "1970-01-01T00:00:01.000Z"),
    (4_102_444_799.9994, "2099-12-31T23:59:59.999Z"),
  ])
  func iso8601HasMillisecondsAndZ(seconds: Double, text: String) {
    #expect(FixRecord.iso8601(Date(timeIntervalSince1970: seconds)) == text)
  }
  /// The date arithmetic against the C library's `gmtime_r`, over 20,000 instants from about
  /// 2,000 BCE to 6,000 CE (leap days, centuries, negative years).
  @Test func iso8601AgreesWithGmtimeOverFourMillennia() {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<20_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let ms = Int64(truncatingIfNeeded: state >> 1) % 126_000_000_000_000 - 1_000_000_000_000
      var seconds = time_t(ms >= 0 ? ms / 1000 : (ms - 999) / 1000)
      var parts = tm()
      gmtime_r(&seconds, &parts)
      let year = Int(parts.tm_year) + 1900
      let expected =
        (year < 0 ? "-" : "") + pad(abs(year), 4) + "-" + pad(Int(parts.tm_mon) + 1, 2) + "-" + pad(Int(parts.tm_mday), 2)
        + "T" + pad(Int(parts.tm_hour), 2) + ":" + pad(Int(parts.tm_min), 2) + ":" + pad(Int(parts.tm_sec), 2) + "."
        + pad(Int(ms - Int64(seconds) * 1000), 3) + "Z"
      let text = FixRecord.iso8601(Date(timeIntervalSince1970: Double(ms) / 1000))
      if text != expected {
        Issue.record("\(ms) ms: \(text), gmtime says \(expected)")
        return
      }
    }
  }

  private func pad(_ n: Int, _ width: Int) -> String {
    let digits = String(n)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  @Test func aFullRecordHasEveryMemberInOrder() {
    let fix = LocationFix(
      timestamp: Date(timeIntervalSince1970: 1_554_595_351.42), mode: .threeD,
      coordinate: Coordinate(latitude: 52.2297, longitude: -21.0122), altitudeMSL: 105, altitudeHAE: 139.5,
      speed: 10.28888, course: 90.1, horizontalAccuracy: 4.5, verticalAccuracy: 6.5)
    #expect(
      FixRecord.json(fix, extra: [("elapsed", "1.000")])
        == #"{"time":"2019-04-07T00:02:31.420Z","mode":3,"lat":52.229700000,"lon":-21.012200000,"altMSL":105.0000,"altHAE":139.5000,"speed":10.289,"track":90.1000,"eph":4.500,"epv":6.500,"elapsed":1.000}"#
    )
  }

  /// gpsd's other TPV members, with gpsd's digits; the status only from 2 (DGPS) up, as gpsd prints it.
  @Test func gpsdsOtherMembersAreWrittenWithItsDigitsAndReadBack() throws {
    let fix = LocationFix(
      timestamp: Date(timeIntervalSince1970: 1_554_595_351), mode: .threeD,
      coordinate: Coordinate(latitude: 52.2297, longitude: 21.0122), altitudeMSL: 105, altitudeHAE: 139.5,
      horizontalAccuracy: 20.9, verticalAccuracy: 27.6, climb: -0.25, geoidSeparation: 34.5, magneticVariation: 5.56,
      status: .differential,
      errors: .init(epx: 9.117, epy: 13.708, eps: 25.584, epd: 58.94071, epc: 55.2, ept: 0.005, sep: 32.3))
    let text = FixRecord.json(fix)
    #expect(
      text.hasSuffix(
        #""eph":20.900,"epv":27.600,"status":2,"climb":-0.250,"geoidSep":34.500,"magvar":5.6,"epx":9.117,"epy":13.708,"eps":25.58,"epd":58.9407,"epc":55.20,"ept":0.005,"sep":32.300}"#
      ), "\(text)")
    let object = try #require(JSONValue(parsing: Data(text.utf8))?.object)
    let back = try #require(FixRecord.fix(object))
    #expect(back.status == .differential && back.climb == -0.25 && back.geoidSeparation == 34.5)
    #expect(back.errors == .init(epx: 9.117, epy: 13.708, eps: 25.58, epd: 58.9407, epc: 55.2, ept: 0.005, sep: 32.3))
    // A plain fix (status 1) has no status member; a status gpsd never prints is refused.
    var plain = fix
    plain.status = .gnss
    #expect(!FixRecord.json(plain).contains("status"))
    var bad = object
    bad["status"] = .number(2.5)
    #expect(FixRecord.fix(bad) == nil)
  }

  /// A record without a mode, as people and tools other than gpsd write them, is a fix where
  /// it has a place; gpsd's own modes stand as written.
  @Test func aRecordWithoutAModeIsAFixWhereItHasAPlace() throws {
    func fix(_ json: String) throws -> LocationFix? { FixRecord.fix(try #require(JSONValue(parsing: Data(json.utf8))?.object)) }
    #expect(try fix(#"{"lat":60.17,"lon":24.94}"#)?.mode == .twoD)
    #expect(try fix(#"{"lat":60.17,"lon":24.94}"#)?.coordinate == Coordinate(latitude: 60.17, longitude: 24.94))
    #expect(try fix(#"{"lat":60.17,"lon":24.94,"altMSL":12}"#)?.mode == .threeD)
    #expect(try fix(#"{"time":"2026-01-01T00:00:00Z"}"#)?.mode == .noFix)
    #expect(try fix(#"{"mode":1,"lat":60.17,"lon":24.94}"#)?.coordinate == nil)
    #expect(try fix(#"{"mode":2,"lat":60.17,"lon":24.94,"altMSL":12}"#)?.mode == .twoD)
  }

  @Test func unknownMembersAreLeftOutNeverNull() {
    #expect(FixRecord.json(LocationFix(mode: .noFix)) == #"{"mode":1}"#)
    var bytes = Array("x".utf8)
    FixRecord.append(LocationFix(mode: .noFix), to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == #"x{"mode":1}"#)
  }

  /// A decoded NMEA fix's members beyond a LocationFix's, as gpsd writes them: `magtrack` after
  /// the track, the velocity at the end, north and east both or neither, no -0.000.
  @Test func gpsdMembersAsGpsdWritesThem() {
    let fix = LocationFix(mode: .threeD, coordinate: Coordinate(latitude: 1, longitude: 2)!, course: 90)
    let members = FixRecord.GPSDMembers(magneticTrack: 95.8, velocityNorth: -0.0004, velocityEast: 1.25, velocityDown: 0.1)
    #expect(
      FixRecord.json(fix, gpsd: members)
        == #"{"mode":3,"lat":1.000000000,"lon":2.000000000,"track":90.0000,"magtrack":95.8000,"velN":0.000,"velE":1.250,"velD":0.100}"#)
    let differential = FixRecord.GPSDMembers(dgpsAge: 2.04, dgpsStation: 120)
    #expect(FixRecord.json(fix, gpsd: differential).hasSuffix(#""track":90.0000,"dgpsAge":2.0,"dgpsSta":120}"#))
    let northOnly = FixRecord.GPSDMembers(velocityNorth: 1, velocityDown: 0.1)
    #expect(FixRecord.json(fix, gpsd: northOnly) == FixRecord.json(fix))
  }
}
