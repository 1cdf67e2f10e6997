import NMEA
import Testing

/// ``NMEAEpochAssembler/Reporting/gpsd``: epochs as gpsd reports them, after the sentence that
/// it learned ends the receiver's cycle. The real logs behind each case are in the conformance test.
struct GPSDReportingTests {
  static let sentence = EpochAssemblerTests.sentence

  static func gpsd(_ text: String) -> ([NMEAFix], NMEADecoderStatistics) {
    EpochAssemblerTests.decode(text, date: NMEADate(year: 2018, month: 8, day: 20), reporting: .gpsd)
  }

  static func gga(_ time: String, _ lat: String) -> String {
    sentence("GPGGA,\(time),\(lat),N,00518.8172,E,1,12,0.60,-4,M,46.8,M,,")
  }
  static func gll(_ time: String, _ lat: String) -> String { sentence("GPGLL,\(lat),N,00518.8170,E,\(time),A,A") }
  static func rmc(_ time: String, _ lat: String) -> String {
    sentence("GPRMC,\(time),A,\(lat),N,00518.8170,E,5.6,230.5,200818,1.4,E,A")
  }

  static func latitudeMinutes(_ fix: NMEAFix) -> Double { ((fix.latitude! - 52) * 60 * 10_000).rounded() / 10_000 }

  @Test func isTheDefault() {
    #expect(NMEAEpochAssembler.Options().reporting == .gpsd)
  }

  @Test func receiversWithAFixedCycleGiveTheSameFixesEitherWay() {
    var text = ""
    for second in 0..<5 {
      let t = "12000\(second)"
      text +=
        Self.gga(t, "5251.00\(second)0") + Self.sentence("GPGSA,A,3,07,08,10,16,,,,,,,,,1.10,0.60,0.90")
        + Self.rmc(t, "5251.00\(second)1")
    }
    let (gpsd, stats) = Self.gpsd(text)
    let every = EpochAssemblerTests.decode(text, date: NMEADate(year: 2018, month: 8, day: 20)).0
    #expect(gpsd == every)
    #expect(gpsd.count == 5 && stats.unreported == 0)
  }

  /// bundg_zeus_9: GLL ends the cycle; later the chartplotter stamps its GLL with the next second,
  /// so each epoch is reported at that GLL, with its position, before the RMC and GGA of the same second.
  @Test func anEpochIsReportedAsItStoodAtItsCycleEnder() {
    let text =
      Self.gga("094736", "5251.0094") + Self.gll("094736", "5251.0093")
      + Self.rmc("094737", "5251.0093") + Self.gga("094737", "5251.0085") + Self.gll("094737", "5251.0084")
      + Self.rmc("094738", "5251.0084") + Self.gga("094738", "5251.0074") + Self.gll("094739", "5251.0074")
      + Self.rmc("094739", "5251.0074") + Self.gga("094739", "5251.0066") + Self.gll("094740", "5251.0066")
      + Self.rmc("094740", "5251.0065")
    let (fixes, stats) = Self.gpsd(text)
    #expect(fixes.map { $0.time!.iso8601.dropFirst(11).prefix(8) } == ["09:47:36", "09:47:37", "09:47:39", "09:47:40"])
    // 09:47:39 as gpsd reported it: the GLL's position, not the GGA that followed.
    #expect(Self.latitudeMinutes(fixes[2]) == 51.0074)
    // 09:47:38 had no GLL: gpsd never reported it.
    #expect(stats.unreported == 1)
    let every = EpochAssemblerTests.decode(text, date: NMEADate(year: 2018, month: 8, day: 20)).0
    #expect(every.count == 5)
    #expect(Self.latitudeMinutes(every[3]) == 51.0066)
  }

  /// tn204: the first time change comes after an RMC, so gpsd waits for RMCs; a cycle without one is lost.
  @Test func anEpochWithoutItsCycleEnderIsNotReported() {
    let text =
      Self.rmc("230148", "5251.0010") + Self.gga("230149", "5251.0020") + Self.gll("230149", "5251.0021")
      + Self.rmc("230150", "5251.0030") + Self.gga("230150", "5251.0031")
    let (fixes, stats) = Self.gpsd(text)
    #expect(fixes.map { $0.time!.iso8601.dropFirst(17).prefix(2) } == ["48", "50"])
    // Reported at the RMC, before the GGA of the same second.
    #expect(Self.latitudeMinutes(fixes[1]) == 51.0030)
    #expect(stats.unreported == 1)
    #expect(stats.summary.hasSuffix(", unreported 1"))
  }

  @Test func untilACycleEnderIsKnownEverySentenceIsReported() {
    let text = Self.gga("120000", "5251.0010") + Self.gll("120000", "5251.0011") + Self.rmc("120000", "5251.0012")
    let (fixes, stats) = Self.gpsd(text)
    #expect(fixes.count == 1 && Self.latitudeMinutes(fixes[0]) == 51.0012)
    #expect(stats.unreported == 0)
  }

  /// A GLL continues gpsd's cycle: an untimed sentence gpsd cannot decode that follows it
  /// becomes a cycle ender, and gpsd reports there.
  @Test func aGLLContinuesTheCycle() {
    let text =
      Self.rmc("100000", "5251.0000") + Self.gga("100001", "5251.0010")  // learns RMC
      + Self.gll("100001", "5251.0011") + Self.sentence("GPXTE,,,,,N,N")  // no RMC, but XTE reports
      + Self.gga("100002", "5251.0020")
    let (fixes, stats) = Self.gpsd(text)
    #expect(fixes.map { $0.time!.iso8601.dropFirst(17).prefix(2) } == ["00", "01"])
    #expect(Self.latitudeMinutes(fixes[1]) == 51.0011)
    // The last epoch, a lone GGA, is never reported.
    #expect(stats.unreported == 1)
  }

  @Test func sentencesWithoutAFixGiveNoFixEpochs() {
    let text =
      Self.sentence("GPGGA,120000,,,,,0,00,,,M,,M,,") + Self.sentence("GPRMC,120000,V,,,,,,,200818,,")
      + Self.sentence("GPGGA,120001,,,,,0,00,,,M,,M,,") + Self.sentence("GPRMC,120001,V,,,,,,,200818,,")
    let (fixes, _) = Self.gpsd(text)
    #expect(!fixes.isEmpty && fixes.allSatisfy { $0.mode == .noFix })
  }

  // MARK: GPS week rollover against the day gpsd ran

  /// rst39: a 2014 log with no `# Date:` header. gpsd resolved it against the day it ran (in 2025)
  /// and moved it 1024 weeks forward; without a reference we leave the receiver's date alone.
  @Test func aLogWithoutHeaderIsResolvedAgainstTheRolloverReferenceOnlyWhenGiven() {
    let rmc = Self.sentence("GPRMC,204132.00,A,4205.733476,N,08802.041110,W,9.415,21.404,190214,,,D")
    #expect(EpochAssemblerTests.decode(rmc).0.first?.time?.iso8601 == "2014-02-19T20:41:32.000Z")
    let asGPSDRan = NMEAEpochAssembler.Options(rolloverReference: NMEADate(year: 2025, month: 6, day: 1))
    #expect(EpochAssemblerTests.decode(rmc, options: asGPSDRan).0.first?.time?.iso8601 == "2033-10-05T20:41:32.000Z")
    // Less than 512 weeks before the reference: no rollover.
    let recent = NMEAEpochAssembler.Options(rolloverReference: NMEADate(year: 2020, month: 1, day: 1))
    #expect(EpochAssemblerTests.decode(rmc, options: recent).0.first?.time?.iso8601 == "2014-02-19T20:41:32.000Z")
    // A header is the log's own reference and wins.
    let headed = "# Date: 2014-02-19\n" + rmc
    #expect(EpochAssemblerTests.decode(headed, options: asGPSDRan).0.first?.time?.iso8601 == "2014-02-19T20:41:32.000Z")
  }
}
