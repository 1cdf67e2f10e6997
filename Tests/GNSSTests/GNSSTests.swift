import Foundation
import GNSS
import Testing

/// The sky from an almanac: IS-GPS-200's orbit, the nominal constellation, look angles, DOPs.
struct GNSSTests {
  static let yuma = """
    ******** Week 250 almanac for PRN-07 ********
    ID:                         07
    Health:                     000
    Eccentricity:               1.0634422300E-02
    Time of Applicability(s):  405504.0000
    Orbital Inclination(rad):   0.9672646523
    Rate of Right Ascen(r/s):  -7.8631840240E-09
    SQRT(A)  (m 1/2):           5153.620117
    Right Ascen at Week(rad):  -1.1954301660E+00
    Argument of Perigee(rad):   0.681137681
    Mean Anom(rad):             2.3895225530E+00
    Af0(s):                     2.5749206540E-04
    Af1(s/s):                   1.0913936420E-11
    week:                        250
    """

  static let sem = """
    1 TEST.ALM
    250 405504

    7
    57
    0
     1.06344223000000E-02  7.88990138321688E-03  -2.50292921172164E-09
     5.15362011700000E+03  -3.80517240080130E-01  2.16812857714601E-01
     7.60608651879031E-01  2.57492065400000E-04  1.09139364200000E-11
    0
    11
    """

  @Test func gpsTimeRunsEighteenSecondsAheadOfUTCFromItsEpoch() {
    // The third GPS week era began at 2019-04-07T00:00:00 GPS time, 18 s before that UTC midnight.
    let t = GPSTime(Date(timeIntervalSince1970: 1_554_595_200))
    #expect(t.week == 2048 && t.secondsOfWeek == 18)
    #expect(t.date().timeIntervalSince1970 == 1_554_595_200)
    #expect(GPSTime(week: 2049, secondsOfWeek: 1).seconds(since: GPSTime(week: 2048, secondsOfWeek: 604_799)) == 2)
  }

  @Test func yumaAndSEMOfTheSameSatelliteGiveTheSameOrbit() throws {
    let yuma = try AlmanacFile.parseYUMA(Self.yuma)
    let sem = try AlmanacFile.parseSEM(Self.sem)
    #expect(yuma.count == 1 && sem.count == 1)
    let a = try #require(yuma.first), b = try #require(sem.first)
    #expect(a.prn == 7 && b.prn == 7 && a.health == 0 && b.health == 0)
    // Week 250 of 1024 in the era that began in 2019: week 2298.
    #expect(a.reference == GPSTime(week: 2298, secondsOfWeek: 405_504) && b.reference == a.reference)
    for hours in stride(from: -12.0, through: 36, by: 6) {
      var t = a.reference
      t.secondsOfWeek += hours * 3600
      let p = a.position(at: t), q = b.position(at: t)
      let gap = ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y) + (p.z - q.z) * (p.z - q.z)).squareRoot()
      #expect(gap < 0.01, "\(gap) m apart after \(hours) h")
    }
  }

  @Test func theOrbitKeepsKeplersShapeAndAltitude() throws {
    let entry = try #require(try AlmanacFile.parseYUMA(Self.yuma).first)
    let a = entry.sqrtSemiMajorAxis * entry.sqrtSemiMajorAxis
    for minutes in stride(from: 0.0, to: 720, by: 7) {
      var t = entry.reference
      t.secondsOfWeek += minutes * 60
      let r = entry.position(at: t).radius
      #expect(r >= a * (1 - entry.eccentricity) - 1e-3 && r <= a * (1 + entry.eccentricity) + 1e-3)
    }
    // About 20,200 km above the surface, as GPS satellites fly.
    #expect(abs(a - 26_560_000) < 20_000)
  }

  @Test func badAlmanacFilesSayWhereAndWhy() {
    #expect(throws: AlmanacFileError(line: 5, message: "\"time of applicability\" is not a number: x")) {
      try AlmanacFile.parseYUMA(Self.yuma.replacingOccurrences(of: "405504.0000", with: "x"))
    }
    #expect(throws: AlmanacFileError.self) { try AlmanacFile.parseYUMA(Self.yuma.replacingOccurrences(of: "week:", with: "wek:")) }
    #expect(throws: AlmanacFileError.self) { try AlmanacFile.parseYUMA("") }
    #expect(throws: AlmanacFileError.self) { try AlmanacFile.parseSEM(String(Self.sem.dropLast(12))) }
    #expect(throws: AlmanacFileError.self) { try AlmanacFile.parseSEM("99 X\n250 405504\n") }
  }

  @Test func aWeekModulo1024IsPlacedInTheEraNearestAGivenDay() throws {
    let near2001 = Date(timeIntervalSince1970: 1_000_000_000)
    let entry = try #require(try AlmanacFile.parseYUMA(Self.yuma, near: near2001).first)
    #expect(entry.reference.week == 1274)
    #expect(
      try AlmanacFile.parseYUMA(Self.yuma.replacingOccurrences(of: "week:                        250", with: "week: 2400")).first?.reference
        .week == 2400)
  }

  /// A GPS orbit is half a sidereal day: the satellite is back over the same ground after one
  /// sidereal day, less the plane's slow westward drift.
  @Test func nominalSatellitesRepeatTheirGroundTrackEverySiderealDay() {
    #expect(NominalConstellation.almanac.count == 24)
    for entry in NominalConstellation.almanac {
      let t0 = GPSTime(Date(timeIntervalSince1970: 1_780_000_000))
      var t1 = t0
      t1.secondsOfWeek += 86_164.0905
      let p = entry.position(at: t0), q = entry.position(at: t1)
      let gap = ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y) + (p.z - q.z) * (p.z - q.z)).squareRoot()
      #expect(gap < 60_000, "PRN \(entry.prn): \(gap) m")
      #expect(abs(p.radius - NominalConstellation.semiMajorAxis) < 1e-3)
    }
  }

  /// The constellation is designed so that at least four satellites are in view above 5°
  /// everywhere, always: checked over a grid of places and a day of times.
  @Test func theNominalConstellationShowsAtLeastFourSatellitesEverywhere() {
    let sky = Sky()
    var fewest = Int.max, worstPDOP = 0.0
    for latitude in stride(from: -80.0, through: 80, by: 20) {
      for longitude in stride(from: -180.0, to: 180, by: 30) {
        for hour in stride(from: 0.0, to: 24, by: 1.5) {
          let time = GPSTime(Date(timeIntervalSince1970: 1_780_000_000 + hour * 3600))
          let inView = sky.satellites(at: time, from: ReceiverPosition(latitude: latitude, longitude: longitude))
          fewest = min(fewest, inView.count)
          if let dop = DilutionOfPrecision(inView) { worstPDOP = max(worstPDOP, dop.position) }
          #expect(inView.allSatisfy { $0.elevation >= 5 && $0.azimuth >= 0 && $0.azimuth < 360 })
        }
      }
    }
    #expect(fewest >= 4, "fewest in view: \(fewest)")
    #expect(worstPDOP < 20, "worst PDOP \(worstPDOP)")
  }

  @Test func lookAnglesPointUpNorthAndEast() {
    let here = ReceiverPosition(latitude: 60.17, longitude: 24.94, height: 20)
    // 20,000 km straight up along the ellipsoid's normal.
    let up = ReceiverPosition(latitude: 60.17, longitude: 24.94, height: 20_000_000).ecef
    #expect(abs(here.lookAngles(to: up).elevation - 90) < 1e-6)
    #expect(abs(here.lookAngles(to: up).range - 19_999_980) < 1e-3)
    // A point a little north and one a little east, on the same height: azimuth 0 and 90.
    let north = ReceiverPosition(latitude: 60.18, longitude: 24.94, height: 20).ecef
    let east = ReceiverPosition(latitude: 60.17, longitude: 24.96, height: 20).ecef
    #expect(abs(here.lookAngles(to: north).azimuth - 0) < 0.01 || abs(here.lookAngles(to: north).azimuth - 360) < 0.01)
    #expect(abs(here.lookAngles(to: east).azimuth - 90) < 0.02)
    #expect(abs(here.lookAngles(to: east).elevation) < 0.01)
  }

  static func dop(_ sky: [(Double, Double)]) -> DilutionOfPrecision? {
    DilutionOfPrecision(azimuthsAndElevations: sky.map { (azimuth: $0.0, elevation: $0.1) })
  }

  /// DOPs against numpy's inverse of GᵀG (computed once when the test was written).
  @Test func dopsAreTheDiagonalOfTheInverseNormalMatrix() throws {
    let square = try #require(Self.dop([(0, 90), (0, 0), (120, 0), (240, 0)]))
    #expect(abs(square.horizontal - 1.1547005383792517) < 1e-12 && abs(square.vertical - 1.1547005383792515) < 1e-12)
    #expect(abs(square.time - 0.5773502691896257) < 1e-12 && abs(square.geometric - 1.7320508075688774) < 1e-12)
    let five = try #require(
      Self.dop([(45, 30), (135, 45), (225, 60), (315, 15), (10, 80)]))
    #expect(abs(five.east - 0.9303880374964454) < 1e-12 && abs(five.north - 1.2341280915532769) < 1e-12)
    #expect(abs(five.position - 2.7820902145578383) < 1e-12 && abs(five.geometric - 3.2575345859505926) < 1e-12)
    // Three satellites, or four in one plane, fix nothing.
    #expect(Self.dop([(0, 10), (90, 20), (180, 30)]) == nil)
    #expect(Self.dop([(0, 0), (90, 0), (180, 0), (270, 0)]) == nil)
  }
}
