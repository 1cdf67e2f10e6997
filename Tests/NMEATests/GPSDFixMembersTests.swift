import Geo
@testable import NMEA
import LocationModel
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
    // gpsd takes the heading once it knows the GGA ends the cycle (after the second): until
    // then it reports only sentences with a position or a mode.
    let fixes = Self.fixes([
      "GPGGA,094820,5250.9661,N,00518.7222,E,1,12,0.60,-5,M,46.8,M,,",
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

  // MARK: gpsd's error model (gpsd_error_model, fill_dop)

  /// Sentences as a receiver sent them (with `$` and checksum), decoded as gpsd reports.
  static func fixes(raw: [String]) -> [NMEAFix] {
    fixes(raw.map { String($0.dropFirst().prefix { $0 != "*" }) })
  }

  /// com-1289.log: two epochs of RMC, GGA, GSA and a GSV set. gpsd's TPV for the second:
  /// `"epx":9.117,"epy":13.708,"epv":27.600,"climb":0.000,"eps":27.42,"epc":55.20,"eph":20.900,"sep":32.300`.
  @Test func theErrorsAreGpsdsFromTheReportedAndTheGeometricDOPs() throws {
    let epoch = { (t: String, rmc: String, gga: String) in
      [
        "$GPRMC,\(t),A,4806.3731,N,00138.6217,W,0.00,266.5,121007,2.6,W,A*\(rmc)",
        "$GPGGA,\(t),4806.3731,N,00138.6217,W,1,10,1.1,42.2,M,48.5,M,,*\(gga)",
        "$GPGSA,A,3,05,06,07,10,16,21,23,24,30,31,,,1.7,1.1,1.2*30",
        "$GPGSV,3,1,11,01,06,230,35,05,16,114,43,06,65,063,50,07,72,061,47*79",
        "$GPGSV,3,2,11,10,09,057,40,16,35,295,48,21,43,153,53,23,12,316,51*72",
        "$GPGSV,3,3,11,24,51,098,55,30,33,110,50,31,60,230,47*4A",
      ]
    }
    let fixes = Self.fixes(raw: epoch("143748.77", "0A", "4B") + epoch("143749.77", "0B", "4A"))
    let fix = try #require(fixes.last)
    func near(_ value: Double?, _ expected: Double, _ digits: Double) -> Bool {
      value.map { abs($0 - expected) <= 0.5 * digits } ?? false
    }
    // HDOP 1.1 × 19 m, VDOP 1.2 × 23 m, PDOP 1.7 × 19 m; XDOP, YDOP from the used satellites × 15 m.
    #expect(near(fix.horizontalError, 20.9, 0.001) && near(fix.verticalError, 27.6, 0.001))
    #expect(near(fix.errors.sep, 32.3, 0.001))
    #expect(near(fix.errors.epx, 9.117, 0.001) && near(fix.errors.epy, 13.708, 0.001))
    // Over the second between the epochs: the larger of epx, epy at both, and epv at both.
    #expect(near(fix.errors.eps, 27.42, 0.01) && near(fix.errors.epc, 55.2, 0.01))
    #expect(fix.errors.ept == 0.005 && fix.climb == 0 && fix.status == .gnss)
    // The first epoch was reported before its GSV set: no geometry yet, and no earlier epoch.
    #expect(fixes.first?.errors.epx == nil && fixes.first?.errors.eps == nil)
  }

  /// garmin17n.log: a DGPS fix (GGA quality 2) uses gpsd's smaller range errors, and Garmin's
  /// `$PGRME` estimates (taken for 50 % CEP) are scaled to gpsd's 95 %. gpsd's TPV:
  /// `"status":2,…,"epx":2.496,"epy":2.496,"epv":4.983,…,"eph":4.275,"sep":6.229`.
  @Test func differentialFixesAndGarminsEstimates() throws {
    let epoch = { (t: String, rmc: String, gga: String, gll: String) in
      [
        "$GPRMC,\(t),A,5213.1439,N,02100.6511,E,000.0,226.0,160305,004.2,E,D*\(rmc)",
        "$GPGGA,\(t),5213.1439,N,02100.6511,E,2,10,0.9,137.2,M,36.2,M,,*\(gga)",
        "$GPGSA,A,3,03,06,15,16,18,19,21,22,,27,29,,1.6,0.9,1.3*34",
        "$PGRME,1.7,M,2.4,M,3.0,M*2D",
        "$GPGLL,5213.1439,N,02100.6511,E,\(t),A,D*\(gll)",
      ]
    }
    let fixes = Self.fixes(raw: epoch("093802", "15", "43", "48") + epoch("093803", "14", "42", "49"))
    let fix = try #require(fixes.last)
    #expect(fix.status == .differential)
    #expect(abs(fix.horizontalError! - 0.9 * GPSDRangeErrors.differential.position) < 1e-9)
    #expect(abs(fix.errors.epx! - 2.496) < 0.0005 && abs(fix.errors.epy! - 2.496) < 0.0005)
    #expect(abs(fix.verticalError! - 4.983) < 0.0005 && abs(fix.errors.sep! - 6.229) < 0.0005)
  }

  /// A GBS's 1-sigma errors, for the fix of its time, are the fix's (here GBS ends each cycle,
  /// so gpsd reports after it).
  @Test func gbsErrorsAreTheFixs() throws {
    let gga = { (t: String) in "GPGGA,\(t),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,," }
    let fixes = Self.fixes([
      gga("120000"), "GPGBS,120000.00,2.0,1.0,3.0,,,,", gga("120001"), "GPGBS,120001.00,2.4,1.5,3.9,,,,",
    ])
    let fix = try #require(fixes.last)
    #expect(fix.errors.epy == 2.4 && fix.errors.epx == 1.5 && fix.verticalError == 3.9)
    // HDOP still gives eph: GBS has none.
    #expect(abs(fix.horizontalError! - 0.9 * 19) < 1e-9)
  }

  /// gpsd's range for reported DOPs: 0.00 and 99.99 stand for "unknown" and give no error.
  @Test func dopsOutsideGpsdsRangeAreUnknown() throws {
    let fixes = Self.fixes([
      "GPGGA,120000,4807.038,N,01131.000,E,1,08,99.99,545.4,M,46.9,M,,",
      "GPGGA,120001,4807.038,N,01131.000,E,1,08,0.00,545.4,M,46.9,M,,",
    ])
    #expect(fixes.allSatisfy { $0.horizontalError == nil })
    #expect(fixes.allSatisfy { $0.errors.ept == 0.005 })
  }

  /// gpsd's DOPs from geometry (`fill_dop`) for com-1289.log's satellites: its SKY report says
  /// `"gdop":1.88,"tdop":0.86,"xdop":0.61,"ydop":0.91` (hdop, vdop, pdop were the GSA's).
  @Test func dopsFromTheUsedSatellitesGeometryAreGpsds() throws {
    var sky = GPSDSky()
    for line in [
      "$GPGSA,A,3,05,06,07,10,16,21,23,24,30,31,,,1.7,1.1,1.2*30",
      "$GPGSV,3,1,11,01,06,230,35,05,16,114,43,06,65,063,50,07,72,061,47*79",
      "$GPGSV,3,2,11,10,09,057,39,16,35,295,48,21,43,153,53,23,12,316,51*7C",
      "$GPGSV,3,3,11,24,51,098,55,30,33,110,50,31,60,230,47*4A",
    ] {
      switch try NMEAMessage(line) {
      case .gsa(let s):
        sky.gsa(s)
        sky.endRuns(gsa: true)
      case .gsv(let s):
        let complete = sky.gsv(s)
        #expect(complete == (s.messageNumber == 3))
        sky.endRuns(gsv: true)
      default: Issue.record("unexpected \(line)")
      }
    }
    #expect(sky.satellites.filter(\.used).count == 10)
    var dops = GPSDDOPs()
    dops.horizontal = 1.1
    sky.fillDOPs(&dops)
    #expect(abs(dops.geometric - 1.88) < 0.005 && abs(dops.time - 0.86) < 0.005)
    #expect(abs(dops.x - 0.61) < 0.005 && abs(dops.y - 0.91) < 0.005)
    // A DOP already known is kept; the others come from the geometry.
    #expect(dops.horizontal == 1.1 && dops.vertical.isFinite && dops.position.isFinite)
  }

  /// The memo of the last geometry gives the DOPs a fresh computation gives, bit for bit, as
  /// the sky keeps, changes (an elevation by a degree, a satellite no longer used, one more
  /// satellite, a signal only) and comes back.
  @Test func dopsFromTheMemoOfTheLastGeometryAreTheComputedOnes() throws {
    let gsa = "GPGSA,A,3,05,06,07,10,16,21,23,24,30,31,,,,,"
    let sets: [[String]] = [
      [gsa, "GPGSV,2,1,06,05,16,114,43,06,65,063,50,07,72,061,47,10,09,057,39", "GPGSV,2,2,06,16,35,295,48,21,43,153,53"],
      [gsa, "GPGSV,2,1,06,05,16,114,40,06,65,063,50,07,72,061,47,10,09,057,39", "GPGSV,2,2,06,16,35,295,48,21,43,153,53"],
      [gsa, "GPGSV,2,1,06,05,17,114,40,06,65,063,50,07,72,061,47,10,09,057,39", "GPGSV,2,2,06,16,35,295,48,21,43,153,53"],
      [
        "GPGSA,A,3,05,06,07,10,16,,,,,,,,,,", "GPGSV,2,1,06,05,17,114,40,06,65,063,50,07,72,061,47,10,09,057,39",
        "GPGSV,2,2,06,16,35,295,48,21,43,153,53",
      ],
      [gsa, "GPGSV,2,1,07,05,17,114,40,06,65,063,50,07,72,061,47,10,09,057,39", "GPGSV,2,2,07,16,35,295,48,21,43,153,53,23,12,316,51"],
      [gsa, "GPGSV,2,1,06,05,16,114,43,06,65,063,50,07,72,061,47,10,09,057,39", "GPGSV,2,2,06,16,35,295,48,21,43,153,53"],
    ]
    var sky = GPSDSky()
    var seen: [[UInt64]] = []
    for set in sets {
      for body in set {
        switch try NMEAMessage(String(EpochAssemblerTests.sentence(body).dropLast())) {
        case .gsa(let s):
          sky.endRuns(gsa: true)
          sky.gsa(s)
        case .gsv(let s):
          sky.endRuns(gsv: true)
          _ = sky.gsv(s)
        default: Issue.record("unexpected \(body)")
        }
      }
      sky.endRuns()
      var fresh = sky
      fresh.forgetGeometry()
      var memo = GPSDDOPs(), computed = GPSDDOPs()
      sky.fillDOPs(&memo)
      fresh.fillDOPs(&computed)
      let bits = { (d: GPSDDOPs) in [d.x, d.y, d.horizontal, d.vertical, d.position, d.time, d.geometric].map(\.bitPattern) }
      #expect(bits(memo) == bits(computed))
      #expect(memo.geometric.isFinite)
      seen.append(bits(memo))
    }
    #expect(seen[0] == seen[1] && seen[0] == seen[5], "a signal alone leaves the geometry as it was")
    #expect(seen[1] != seen[2] && seen[2] != seen[3] && seen[3] != seen[4], "each change of geometry changes the DOPs")
  }

  /// gpsd's status for each GGA quality (`driver_nmea0183.c`'s table): PPS is its Precise
  /// Positioning Service (9), RTK fixed and float, dead reckoning shift down one; others none.
  @Test(arguments: [(0, 0), (1, 1), (2, 2), (3, 9), (4, 3), (5, 4), (6, 5), (7, 7), (8, 8), (9, nil), (-1, nil)])
  func ggaQualitiesGiveGpsdsStatus(quality: Int, status: Int?) {
    #expect(GPSDFixModel.ggaStatus(quality) == status)
  }

  /// gpsd's satellite numbers (`nmeaid_to_prn`): GLONASS and BeiDou talkers move 1–32 to their
  /// ranges; NMEA 4.1 system IDs decide for GN; SBAS 33–64 and BeiDou 201–237 as gpsd files them.
  @Test(arguments: [
    ("GP", 7, 0, 7), ("GL", 7, 0, 71), ("BD", 7, 0, 407), ("GA", 7, 0, 307), ("GN", 40, 0, 40), ("GN", 205, 0, 405),
    ("GN", 70, 2, 70), ("GN", 7, 4, 407), ("GN", 138, 0, 138), ("GN", 110, 0, 0), ("GN", 0, 0, 0),
  ])
  func satelliteNumbersAreGpsds(talker: String, id: Int, system: Int, prn: Int) throws {
    #expect(GPSDSky.prn(talker: try #require(NMEATalker(talker)), id, system: system) == prn)
  }
}
