import Foundation
import LocationModel
import Testing

@testable import NMEA

/// The sentences gpsd's NMEA driver (3.27.6, `drivers/driver_nmea0183.c` at ntpsec/gpsd
/// 46977faa) reads into its fix beyond the standard ones, each as its decoder reads it: the
/// proprietary fixes (SkyTraq's `$PSTI,030`, Garmin's `$PGRMF`, Ashtech's `$PASHR,POS`), NMEA
/// 4.10's GNS navigational status, statuses of their own (`$PTNLRNM`), empty fields (NaN to
/// gpsd, so not merged) and sentences too short for their decoder (not decoded at all).
struct GPSDDriverSentencesTests {
  static func fixes(_ sentences: [String]) -> [NMEAFix] { GPSDFixMembersTests.fixes(sentences) }

  /// `$PSTI,030,hhmmss.sss,A,lat,N,lon,E,altMSL,vE,vN,vU,ddmmyy,mode,age,ratio`.
  static func psti030(
    _ time: String, status: String = "A", altitude: String = "103.3", east: String = "3.0", north: String = "4.0",
    up: String = "0.5", mode: String = "A"
  ) -> String {
    "PSTI,030,\(time),\(status),4916.45,N,12311.12,W,\(altitude),\(east),\(north),\(up),010326,\(mode),0.0,0.0"
  }

  // MARK: SkyTraq (processPSTI030 … 036)

  /// A receiver that sends only `$PSTI,030` still gives a whole fix: its time and date, the
  /// position, 3D with the MSL altitude, and from its velocity the climb (the up velocity),
  /// speed and track gpsd's error model derives.
  @Test func psti030IsAWholeFixWithItsVelocity() throws {
    let fixes = Self.fixes([Self.psti030("225446.000"), Self.psti030("225447.000")])
    let fix = try #require(fixes.last)
    #expect(fix.time?.iso8601 == "2026-03-01T22:54:47.000Z")
    #expect(fix.mode == .threeD && fix.status == .gnss)
    #expect(abs(fix.latitude! - (49 + 16.45 / 60)) < 1e-9 && abs(fix.longitude! + (123 + 11.12 / 60)) < 1e-9)
    #expect(fix.altitudeMSL == 103.3)
    #expect(fix.climb == 0.5)
    #expect(abs(fix.speed! - 5) < 1e-9 && abs(fix.track! - atan2(3.0, 4.0) * 180 / .pi) < 1e-9)
  }

  /// Status V, or mode N: no fix (mode 1, status 0) and nothing else from it.
  @Test(arguments: [("V", "A"), ("A", "N")])
  func psti030NotValidIsNoFix(status: String, mode: String) throws {
    let fixes = Self.fixes([
      "GPGGA,225446.000,4916.45,N,12311.12,W,1,08,0.9,103.3,M,-17.0,M,,", Self.psti030("225446.000", status: status, mode: mode),
    ])
    #expect(fixes.last?.mode == .noFix)
  }

  /// Without the altitude the fix is 2D; a velocity field left empty is NaN to gpsd: no climb.
  @Test func psti030WithoutAltitudeIsTwoD() throws {
    let fix = try #require(Self.fixes([Self.psti030("225446.000", altitude: "", up: "")]).last)
    #expect(fix.mode == .twoD && fix.climb == nil)
  }

  /// Each of 030, 032, 033, 035 and 036 carries the current time under a tag of its own, so the
  /// last of them in a receiver's cycle is the one gpsd learns to report at (PX1172RH: 036);
  /// 000, 001 and 005 have no decoder, and a sentence shorter than its decoder takes is not decoded.
  @Test func psti03xSentencesEachHaveATagOfTheirOwn() {
    func tag(_ body: String) -> GPSDCycleDetector.Tag {
      let line = Array(EpochAssemblerTests.sentence(body).utf8.dropLast(2))
      return line.withUnsafeBytes { raw in
        let frame = try! SentenceFrame(raw)
        var fields = frame.fields
        return GPSDCycleDetector.tag(
          address: UnsafeRawBufferPointer(rebasing: raw[1..<frame.addressEnd]), hasTalker: frame.talker != nil,
          subtype: fields.next(), fieldCount: frame.gpsdFieldCount)
      }
    }
    #expect(tag(Self.psti030("225446.000")) == .skytraq030)
    #expect(tag("PSTI,036,225446.000,181194,1.0,2.0,3.0,A") == .skytraq036)
    #expect(tag("PSTI,032,225446.000,181194,A,R,1,2,3,4,5,,,,,") == .skytraq032)
    #expect(tag("PSTI,005,1,2") == .undecoded)
    #expect(tag("PSTI,030,225446.000,A") == .undecoded)  // 4 fields of 16
    #expect(tag("PGRME,1.7,M") == .undecoded)  // 3 of 7
    #expect(tag("PGRME,1.7,M,2.4,M,3.0,M") == .other)
    #expect(tag("PERC,GPppr,293895,290,50,9,0,0") == .other)
    #expect(tag("PERC,GPxyz,1,2,3,4,5") == .undecoded)
    #expect(tag("PASHR,POS,0,08,225446.00,4916.45,N,12311.12,W,100.0,,90.0,36.0,0.5,1.6,0.9,1.3,1.0,X") == .ashtechPosition)
    #expect(tag("GPROT,1.0,A") == .other && tag("GPROT,1.0") == .undecoded)
  }

  // MARK: GNS's navigational status (processGNS)

  /// NMEA 4.10's GNS with navigational status V (not valid) or U (unsafe): gpsd takes its time
  /// only: no position, mode, status or HDOP. S (safe) and C (caution) are fixes.
  @Test(arguments: [("V", false), ("U", false), ("S", true), ("C", true), ("", true)])
  func gnsNavigationalStatus(status: String, fix: Bool) throws {
    let gns = { (t: String) in "GNGNS,\(t),6001.336799,N,03014.169008,E,AAN,09,0.9,16.5,18.0,,,\(status)" }
    let fixes = Self.fixes([gns("051347.00"), gns("051348.00")])
    let last = try #require(fixes.last)
    #expect((last.latitude != nil) == fix)
    #expect(last.mode == (fix ? .threeD : .noFix))
  }

  /// A GNS whose first mode letter is N is no fix, whatever the other systems' letters say
  /// (gpsd reads only the first).
  @Test func gnsReadsOnlyTheFirstModeLetter() {
    let gns = { (t: String) in "GNGNS,\(t),6001.336799,N,03014.169008,E,NAA,09,0.9,16.5,18.0,,,S" }
    #expect(Self.fixes([gns("051347.00"), gns("051348.00")]).last?.mode == .noFix)
  }

  // MARK: Garmin (processPGRMF)

  /// `$PGRMF` after an RMC (as a Garmin 17N sends it): its speed (km/h) and track replace the
  /// RMC's, its fix type gives the mode, and it stamps the fix with its UTC time (no leap
  /// seconds given: no GPS week time).
  @Test func pgrmfGivesModeSpeedAndTrack() throws {
    let epoch = { (t: String, mode: String) in
      [
        "GPRMC,\(t),A,5213.1439,N,02100.6511,E,000.0,226.0,010326,004.2,E,A",
        "PGRMF,290,293895,010326,\(t),,5213.1439,N,02100.6511,E,A,\(mode),36,90,2,1",
      ]
    }
    let fixes = Self.fixes(epoch("093802", "1") + epoch("093803", "1"))
    let fix = try #require(fixes.last)
    #expect(fix.time?.iso8601 == "2026-03-01T09:38:03.000Z")
    #expect(fix.mode == .twoD)
    #expect(abs(fix.speed! - 10) < 1e-9 && fix.track == 90)
  }

  // MARK: Ashtech (processPASHR)

  /// `$PASHR,POS`: a 3D fix with the height above the ellipsoid, track, speed (km/h) and the
  /// climb the receiver gives.
  @Test func pashrPositionIsAThreeDFix() throws {
    let pos = { (t: String) in "PASHR,POS,1,08,\(t),4916.45,N,12311.12,W,100.0,,90.0,36.0,0.5,1.6,0.9,1.3,1.0,X" }
    let fix = try #require(Self.fixes([pos("225446.00"), pos("225447.00")]).last)
    #expect(fix.mode == .threeD && fix.status == .differential)
    #expect(fix.altitudeHAE == 100 && fix.climb == 0.5 && fix.track == 90 && abs(fix.speed! - 10) < 1e-9)
  }

  /// `$PGPSP`: the status word's second byte gives mode and status (3: GPS 3D), the position
  /// is in degrees; after a GGA of the same epoch it is the fix gpsd reports.
  @Test func pgpspGivesModeStatusAndPosition() throws {
    let gga = { (t: String) in "GPGGA,\(t),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,," }
    let gpsp = "PGPSP,123456000,2300,\(3 << 8 | 8),48.2,11.6,600.0,550.0,1.2,2.0,3.0,0,0,0,0.1,40,0,18"
    let fix = try #require(Self.fixes([gga("120000"), gpsp, gga("120001"), gpsp]).last)
    #expect(fix.mode == .threeD && fix.altitudeHAE == 600 && fix.altitudeMSL == 550)
  }

  /// Found by the fuzzer: a `$PGPSP` whose longitude is not a number (NaN to gpsd) gave the
  /// epoch a NaN position, and two decodings of the same input were no longer equal.
  @Test func pgpspWithoutANumberForItsPositionGivesNoPosition() throws {
    let gpsp = "PGPSP,123456000,2300,\(3 << 8 | 8),48.2,11.x,600.0,550.0,1.2,2.0,3.0,0,0,0,0.1,40,0,18"
    let fixes = Self.fixes(["PASHR,POS,1,08,120000.00,4807.038,N,01131.000,E,100.0,,90.0,36.0,0.5,1.6,0.9,1.3,1.0,X", gpsp])
    let fix = try #require(fixes.last)
    #expect(fix.latitude.map { $0.isFinite } ?? true && fix.longitude.map { $0.isFinite } ?? true)
    #expect(fixes == Self.fixes(["PASHR,POS,1,08,120000.00,4807.038,N,01131.000,E,100.0,,90.0,36.0,0.5,1.6,0.9,1.3,1.0,X", gpsp]))
  }

  /// `$PMGNST` as gpsd reads it (the mode one field off the sentence's layout): a real one
  /// always says no fix.
  @Test func pmgnstAsGpsdReadsIt() {
    let gga = { (t: String) in "GPGGA,\(t),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,," }
    let status = "PMGNST,02.12,3,T,534,05.0,+03327,00"
    #expect(Self.fixes([gga("120000"), status, gga("120001"), status]).last?.mode == .noFix)
  }

  // MARK: Statuses and empty fields

  /// Trimble's `$PTNLRNM,D` raises the cycle's status to differential (gpsd's status only rises).
  @Test func ptnlrnmGivesAStatus() throws {
    let gga = { (t: String) in "GPGGA,\(t),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,," }
    let fixes = Self.fixes([gga("120000"), "PTNLRNM,D", gga("120001"), "PTNLRNM,D"])
    #expect(fixes.last?.status == .differential)
  }

  /// A GBS or `$PGRME` with empty error fields: NaN to gpsd, which its merge leaves out; the
  /// errors stay those of gpsd's error model (from HDOP), not zero.
  @Test func emptyErrorFieldsAreNotTaken() throws {
    let gga = { (t: String) in "GPGGA,\(t),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,," }
    for extra in ["GPGBS,120001.00,,,,,,,", "PGRME,,M,,M,,M"] {
      let fix = try #require(Self.fixes([gga("120000"), extra, gga("120001"), extra]).last)
      #expect(fix.verticalError != 0 && fix.errors.epx != 0, "\(extra)")
    }
  }
}
