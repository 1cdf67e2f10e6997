import NMEA
import Testing

/// gpsd's rules for the members beyond the position (`GPSDFixModel`), on sentences written here.
struct GPSDFixMembersTests {
  static let date = NMEADate(year: 2026, month: 3, day: 1)

  /// Every fix of `sentences` (bodies without `$` and checksum), decoded as gpsd reports.
  static func fixes(_ sentences: [String]) -> [NMEAFix] {
    EpochAssemblerTests.decode(
      sentences.map(EpochAssemblerTests.sentence).joined(), options: .init(date: date)
    ).0
  }

  static func gga(
    _ talker: String, time: String = "120000", quality: Int = 1, satellites: String, altitude: String = "545.4"
  )
    -> String
  {
    "\(talker)GGA,\(time),4807.038,N,01131.000,E,\(quality),\(satellites),0.9,\(altitude),M,46.9,M,,"
  }

  // MARK: The GGA satellites-used rule (gpsd's processGGA)

  @Test(arguments: [("00", NMEAFix.Mode.noFix), ("02", .noFix), ("03", .twoD), ("04", .threeD), ("12", .threeD)])
  func gpsGGAModeFollowsSatellitesUsed(satellites: String, mode: NMEAFix.Mode) {
    let fix = Self.fixes([Self.gga("GP", satellites: satellites)])
    #expect(fix.map(\.mode) == [mode])
    // The position is still there: gpsd keeps it, it only says there is no fix.
    #expect(fix.first?.latitude != nil)
  }

  @Test func withoutAnAltitudeFourSatellitesGiveTwoD() {
    #expect(Self.fixes([Self.gga("GP", satellites: "08", altitude: "")]).map(\.mode) == [.twoD])
  }

  @Test func aGNSSGGAFollowsTheSameRule() {
    #expect(Self.fixes([Self.gga("GN", satellites: "02")]).map(\.mode) == [.noFix])
    #expect(Self.fixes([Self.gga("GN", satellites: "05")]).map(\.mode) == [.threeD])
  }

  /// gpsd's limit: a GGA of a single other constellation may see few satellites while the
  /// receiver has a fix, so it is not forced to no fix.
  @Test func otherTalkersAreNotForcedToNoFix() {
    #expect(Self.fixes([Self.gga("GL", satellites: "02")]).map(\.mode) == [.twoD])
    #expect(Self.fixes([Self.gga("BD", satellites: "00")]).map(\.mode) == [.twoD])
  }

  /// The receiver of the issue: quality 1 and 00 satellites used for a stretch before it locks.
  @Test func aReceiverThatHasNotLockedReportsNoFixes() {
    let sentences =
      (0..<5).map { Self.gga("GP", time: "12000\($0)", satellites: "00") }
      + [Self.gga("GP", time: "120005", satellites: "07")]
    let fixes = Self.fixes(sentences)
    #expect(fixes.map(\.mode) == [.noFix, .noFix, .noFix, .noFix, .noFix, .threeD])
  }

  /// A GSA saying 2D does not downgrade a 3D fix whose last fixes had an altitude (gpsd's rule
  /// for RMC/GSA after GGA); a GSA saying no fix does.
  @Test func aThreeDFixIsNotDowngradedByATwoDGSA() {
    let first = Self.gga("GP", time: "120000", satellites: "08")
    let second = Self.gga("GP", time: "120001", satellites: "08")
    #expect(Self.fixes([first, second, "GPGSA,A,2,04,05,09,12,,,,,,,,,2.5,1.3,2.1"]).last?.mode == .threeD)
    #expect(Self.fixes([first, second, "GPGSA,A,1,,,,,,,,,,,,,,,"]).last?.mode == .noFix)
  }

  // MARK: Derived members (gpsd_error_model)

  @Test func aMissingGeoidSeparationComesFromTheGeoidModel() throws {
    let fix = try #require(
      Self.fixes(["GPGGA,094834,5250.9536,N,00518.6944,E,1,12,0.60,-5,M,,M,,"]).first)
    // gpsd's own output for this position in bundg_zeus_9.log: "geoidSep":43.515.
    #expect(abs(try #require(fix.geoidSeparation) - 43.515) < 0.0005)
    #expect(fix.altitudeHAE == -5 + fix.geoidSeparation!)
  }

  @Test func theGeoidModelInterpolatesGpsdsGrid() {
    // On a grid point the value is the table's: 17.23 m at 0° N 0° E.
    #expect(abs(WGS84Geoid.separation(latitude: 0, longitude: 0) - 17.23) < 1e-9)
    // Off the planet, or not a number, gpsd answers 0.
    #expect(WGS84Geoid.separation(latitude: .nan, longitude: 0) == 0)
    #expect(WGS84Geoid.separation(latitude: 95, longitude: 0) == 0)
    // Halfway between two points of a row, the mean of the two.
    let west = WGS84Geoid.separation(latitude: 50, longitude: 5)
    let east = WGS84Geoid.separation(latitude: 50, longitude: 10)
    #expect(abs(WGS84Geoid.separation(latitude: 50, longitude: 7.5) - (west + east) / 2) < 1e-9)
  }

  /// Vincenty's own test line (Flinders Peak to Buninyong, Australia), 54 972.271 m.
  @Test func ellipsoidalDistanceMatchesVincentysExample() throws {
    let flinders = (-(37 + 57 / 60.0 + 3.72030 / 3600), 144 + 25 / 60.0 + 29.52440 / 3600)
    let buninyong = (-(37 + 39 / 60.0 + 10.15610 / 3600), 143 + 55 / 60.0 + 35.38390 / 3600)
    let metres = try #require(EllipsoidalDistance.metres(from: flinders.0, flinders.1, to: buninyong.0, buninyong.1))
    #expect(abs(metres - 54_972.271) < 0.001)
    #expect(EllipsoidalDistance.metres(from: 10, 20, to: 10, 20) == 0)
  }

  @Test func aMissingSpeedComesFromTheDistanceToThePreviousFix() throws {
    // GGA only, one second apart, 0.001' of latitude (about 1.85 m) north.
    let fixes = Self.fixes([
      "GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
      "GPGGA,120001,4807.039,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
    ])
    #expect(fixes.first?.speed == nil)
    let south: Double = 48 + 7.038 / 60, north: Double = 48 + 7.039 / 60, east: Double = 11 + 31.0 / 60
    let expected = try #require(EllipsoidalDistance.metres(from: south, east, to: north, east))
    #expect(abs(try #require(fixes.last?.speed) - expected) < 1e-9)
    #expect(abs(expected - 1.853) < 0.002)
  }

  @Test func aMagneticHeadingGivesATrueTrackWithTheModelsVariation() throws {
    let fixes = Self.fixes([
      "GPGGA,094821,5250.9661,N,00518.7222,E,1,12,0.60,-5,M,46.8,M,,",
      "SDHDG,233.9,,,1.3,E",
    ])
    let fix = try #require(fixes.last)
    let variation = MagneticVariation.degrees(latitude: fix.latitude!, longitude: fix.longitude!)
    #expect(abs(try #require(fix.track) - (233.9 - variation)) < 1e-9)
    // gpsd's output in bundg_zeus_9.log near there: magnetic track 233.9, true track 232.3313.
    #expect(abs(variation - 1.5687) < 0.001)
  }

  @Test func garminAltitudeInFeetSetsTheAltitudeAboveSeaLevel() throws {
    let fixes = Self.fixes([
      "GPRMC,142216,A,4807.038,N,01131.000,E,0.0,0.0,081002,,",
      "PGRMZ,126,f,3",
    ])
    #expect(abs(try #require(fixes.last?.altitudeMSL) - 38.4048) < 1e-9)
  }
}
