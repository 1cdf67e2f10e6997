import NMEA
import Testing

struct EpochAssemblerTests {
  /// Decodes `text` in one chunk and returns every epoch.
  static func decode(
    _ text: String, date: NMEADate? = nil, reporting: NMEAEpochAssembler.Reporting = .everyTimeStamp
  ) -> ([NMEAFix], NMEADecoderStatistics) {
    decode(text, options: .init(date: date, reporting: reporting))
  }

  static func decode(_ text: String, options: NMEAEpochAssembler.Options) -> ([NMEAFix], NMEADecoderStatistics) {
    var decoder = NMEADecoder(options: options)
    var fixes: [NMEAFix] = []
    decoder.decode(Array(text.utf8)) { fixes.append($0) }
    decoder.finish { fixes.append($0) }
    return (fixes, decoder.statistics)
  }

  static func sentence(_ body: String) -> String {
    let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
    let hex = String(sum, radix: 16, uppercase: true)
    return "$\(body)*\(hex.count == 1 ? "0" + hex : hex)\r\n"
  }

  @Test func mergesOneTimeStampIntoOneFix() {
    let text =
      Self.sentence("GPGGA,120000.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
      + Self.sentence("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1")
      + Self.sentence("GPRMC,120000.00,A,4807.038,N,01131.000,E,010.0,084.4,230394,003.1,W")
      + Self.sentence("GPGGA,120001.00,4807.040,N,01131.000,E,1,08,0.9,545.5,M,46.9,M,,")
    let (fixes, stats) = Self.decode(text)
    #expect(fixes.count == 2)
    #expect(fixes[0].time?.iso8601 == "1994-03-23T12:00:00.000Z")
    #expect(fixes[0].mode == .threeD)
    #expect(fixes[0].altitudeHAE == 545.4 + 46.9)
    #expect(abs(fixes[0].speed! - 10 * 1852.0 / 3600) < 1e-9)
    #expect(fixes[0].pdop == 2.5 && fixes[0].vdop == 2.1)
    #expect(fixes[1].time?.iso8601 == "1994-03-23T12:00:01.000Z")
    #expect(stats.accepted == 4 && stats.epochs == 2 && stats.fixes == 2)
  }

  @Test func reportsNoFixEpochsAsModeOne() {
    let (fixes, _) = Self.decode(Self.sentence("GPRMC,120000,V,,,,,,,230394,,") + Self.sentence("GPGGA,120001,,,,,0,00,,,M,,M,,"))
    #expect(fixes.map(\.mode) == [.noFix, .noFix])
    #expect(fixes[0].latitude == nil)
  }

  @Test func epochsWithoutDateHaveNoTimeUnlessDateIsGiven() {
    let gga =
      Self.sentence("GPGGA,235959,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
      + Self.sentence("GPGGA,000000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
    #expect(Self.decode(gga).0.allSatisfy { $0.time == nil })
    let dated = Self.decode(gga, date: NMEADate(year: 2024, month: 2, day: 28)).0
    // The date advances at midnight.
    #expect(dated.map { $0.time?.iso8601 } == ["2024-02-28T23:59:59.000Z", "2024-02-29T00:00:00.000Z"])
  }

  @Test func headerSetsCenturyAndCorrectsWeekRollover() {
    // A receiver 1024 weeks behind (1999-08-22 instead of 2019-04-07), as in gpsd's april6_2019 log.
    let rmc = Self.sentence("GPRMC,000231.42,A,4829.0005,N,00022.0016,E,0.16,212.28,220899,,,A")
    #expect(Self.decode(rmc).0.first?.time?.iso8601 == "1999-08-22T00:02:31.420Z")
    let fixed = Self.decode("# Date: 2019-3-14\n" + rmc).0
    #expect(fixed.first?.time?.iso8601 == "2019-04-07T00:02:31.420Z")
  }

  @Test func twoDigitYearsFollowTheHeaderCentury() {
    let rmc = Self.sentence("GPRMC,120000,A,4807.038,N,01131.000,E,0,0,010198,,")
    #expect(Self.decode(rmc).0.first?.time?.iso8601 == "1998-01-01T12:00:00.000Z")
    #expect(
      Self.decode("# Date: 2001-05-05\n" + Self.sentence("GPRMC,120000,A,4807.038,N,01131.000,E,0,0,010102,,")).0.first?.time?.iso8601
        == "2002-01-01T12:00:00.000Z")
  }

  @Test func zdaGivesFourDigitYear() {
    let text =
      Self.sentence("GPZDA,120000.50,29,02,2032,00,00")
      + Self.sentence("GPGLL,4807.038,N,01131.000,E,120000.50,A,A")
    let fixes = Self.decode(text).0
    #expect(fixes.count == 1)
    #expect(fixes[0].time?.iso8601 == "2032-02-29T12:00:00.500Z")
    #expect(fixes[0].mode == .twoD)
  }

  @Test func countsRejectionsByReason() {
    let text = "$GPGGA,1*00\r\nnot nmea\r\n$PGRME,15.0,M,45.0,M,25.0,M*1C\r\n$GP\u{1}GA\r\n"
    let (fixes, stats) = Self.decode(text)
    #expect(fixes.isEmpty)
    #expect(stats.checksum == 1 && stats.framing == 2 && stats.unknown == 1 && stats.accepted == 0)
    #expect(stats.lines == 4)
  }

  /// Found by the fuzzer: a ZDA year of 20010 overflowed the nanosecond timestamp.
  @Test func outOfRangeYearGivesNoTimeInsteadOfCrashing() {
    let text = Self.sentence("GPZDA,153347.000,23,4,20010,,") + Self.sentence("GPGLL,3940.6986,N,07544.9356,W,153347.000,A,A")
    let fixes = Self.decode(text).0
    #expect(fixes.count == 1)
    #expect(fixes[0].time == nil)
    #expect(fixes[0].mode == .twoD)
  }
}
