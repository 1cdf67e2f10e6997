import NMEA
import Testing

struct SentenceTests {
  @Test func decodesGGA() throws {
    guard case .gga(let s) = try NMEAMessage("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47") else {
      Issue.record("not a GGA")
      return
    }
    #expect(s.talker == .gps)
    #expect(s.time == NMEATimeOfDay(hours: 12, minutes: 35, seconds: 19))
    #expect(abs(s.latitude! - 48.1173) < 1e-12)
    #expect(abs(s.longitude! - 11.516666666666667) < 1e-12)
    #expect(s.quality == 1 && s.satellitesUsed == 8 && s.hdop == 0.9)
    #expect(s.altitudeMSL == 545.4 && s.geoidSeparation == 46.9)
    #expect(s.hasFix)
  }

  @Test func rejectsBadChecksum() {
    #expect(throws: NMEAParseError.checksumMismatch(expected: 0x48, actual: 0x47)) {
      try NMEAMessage("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*48")
    }
    #expect(throws: NMEAParseError.malformedChecksum) {
      try NMEAMessage("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*4")
    }
  }

  @Test func acceptsSentenceWithoutChecksum() throws {
    guard case .zda(let z) = try NMEAMessage("$GPZDA,201530.00,04,07,2002,00,00") else {
      Issue.record("not a ZDA")
      return
    }
    #expect(z.date == NMEADate(year: 2002, month: 7, day: 4))
  }

  @Test(arguments: ["GP", "GN", "GL", "GA", "GB", "BD", "QZ", "GI"])
  func acceptsEveryTalker(talker: String) throws {
    let body = "\(talker)RMC,225446,A,4916.45,N,12311.12,W,000.5,054.7,191194,020.3,E"
    let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
    let hex = String(sum, radix: 16, uppercase: true)
    let line = "$\(body)*\(hex.count == 1 ? "0" + hex : hex)"
    guard case .rmc(let r) = try NMEAMessage(line) else {
      Issue.record("not an RMC")
      return
    }
    #expect(r.talker.description == talker)
    #expect(r.date == RMC.Date(day: 19, month: 11, yearOfCentury: 94))
    #expect(r.magneticVariation == 20.3)
  }

  @Test func countsProprietaryAndUnknownAsUnknown() throws {
    #expect(try NMEAMessage("$PGRME,15.0,M,45.0,M,25.0,M*1C") == .unknown(NMEAAddress(talker: nil, type: "GRME", start: "$")))
    guard case .unknown(let a) = try NMEAMessage("$GPXTE,A,A,0.67,L,N*6F") else {
      Issue.record("XTE should be unknown")
      return
    }
    #expect(a.type == "XTE" && a.talker == .gps)
  }

  @Test func parsesGSVSatellitesAndSignalID() throws {
    guard case .gsv(let g) = try NMEAMessage("$GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00*74") else {
      Issue.record("not a GSV")
      return
    }
    #expect(g.totalMessages == 3 && g.messageNumber == 1 && g.satellitesInView == 11)
    #expect(g.satellites.map(\.id) == [3, 4, 6, 13])
    #expect(g.satellites[1] == GSV.Satellite(id: 4, elevation: 15, azimuth: 270, snr: 0))
  }

  /// Some receivers write more than NMEA's four satellites in a GSV: every one is kept, in
  /// order, and a GSV's satellites set from an array read back the same and compare equal.
  @Test func aGSVKeepsSatellitesBeyondFour() throws {
    let line = "$GPGSV,2,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00,14,20,100,30,17,45,200,41*70"
    guard case .gsv(let g) = try NMEAMessage(line), case .gsv(let again) = try NMEAMessage(line) else {
      Issue.record("not a GSV")
      return
    }
    #expect(g.satellites.map(\.id) == [3, 4, 6, 13, 14, 17])
    #expect(g.satellites[5] == GSV.Satellite(id: 17, elevation: 45, azimuth: 200, snr: 41))
    #expect(g == again && g.hashValue == again.hashValue)
    var shorter = g
    shorter.satellites = Array(g.satellites.prefix(5))
    #expect(shorter.satellites.map(\.id) == [3, 4, 6, 13, 14] && shorter != g)
    shorter.satellites = g.satellites
    #expect(shorter == g && shorter.hashValue == g.hashValue)
  }

  @Test func aGSAsSatelliteIDsReadBackAsSet() throws {
    guard case .gsa(var s) = try NMEAMessage("$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39") else {
      Issue.record("not a GSA")
      return
    }
    #expect(s.satelliteIDs == [4, 5, 9, 12, 24])
    let parsed = s
    s.satelliteIDs = [4, 5, 9, 12]
    #expect(s.satelliteIDs == [4, 5, 9, 12] && s != parsed)
    s.satelliteIDs = [4, 5, 9, 12, 24]
    #expect(s == parsed)
  }

  @Test func invalidFieldsBecomeNil() throws {
    guard case .gga(let s) = try NMEAMessage("$GPGGA,9x3519,4897.038,N,01131.000,E,1,08,0.9,abc,M,46.9,M,,") else {
      Issue.record("not a GGA")
      return
    }
    #expect(s.time == nil)
    #expect(s.latitude == nil && s.longitude == nil)  // 97 minutes is not an angle
    #expect(s.altitudeMSL == nil)
    #expect(!s.hasFix)
  }

  @Test func leapSecondKeepsItsComponents() throws {
    let t = try #require(NMEATimeOfDay(hours: 23, minutes: 59, seconds: 60, nanoseconds: 500_000_000))
    #expect(t.hours == 23 && t.minutes == 59 && t.seconds == 60)
    #expect(t.description == "23:59:60.500")
    let plain = try #require(NMEATimeOfDay(hours: 12, minutes: 34, seconds: 56))
    #expect(plain.hours == 12 && plain.minutes == 34 && plain.seconds == 56)
  }
}
