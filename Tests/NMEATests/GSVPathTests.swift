import LocationModel
import NMEA
import Testing

/// The decoder reads a GSV's satellites straight into gpsd's sky; `NMEAEpochAssembler.add(_:)`
/// takes a parsed `GSV`. Both must give the same epochs, down to the DOPs and error members
/// gpsd derives from the sky.
struct GSVPathTests {
  static let sentence = EpochAssemblerTests.sentence

  /// A multi-GNSS epoch at second `s`: GN fixes, a GSA per system with its system ID, GSV sets of
  /// four constellations with signal IDs, and GSVs that gpsd reads its own way.
  static func epoch(_ s: Int) -> String {
    let time = "1200\(s < 10 ? "0" : "")\(s).00"
    var text = sentence("GNGGA,\(time),4807.038,N,01131.000,E,1,14,0.9,545.4,M,46.9,M,,")
    text += sentence("GNRMC,\(time),A,4807.038,N,01131.000,E,010.0,084.4,230394,003.1,W,A")
    text += sentence("GNGSA,A,3,04,05,09,12,24,,,,,,,,1.8,0.9,1.5,1")
    text += sentence("GNGSA,A,3,65,70,,,,,,,,,,,1.8,0.9,1.5,2")
    text += sentence("GNGSA,A,3,03,11,,,,,,,,,,,1.8,0.9,1.5,3")
    text += sentence("GPGSV,2,1,06,04,45,120,42,05,30,\(200 + s),38,09,12,300,,12,60,045,45,1")
    // An empty number, a number 0, an elevation beyond 90 and an azimuth of 360.
    text += sentence("GPGSV,2,2,06,,10,100,30,00,20,200,30,24,95,360,33,,,,,1")
    text += sentence("GLGSV,1,1,02,65,50,080,40,70,25,190,36,1")
    text += sentence("GAGSV,1,1,02,03,40,140,41,11,35,\(250 + s),39,7")
    text += sentence("GBGSV,1,1,01,06,55,220,44,1")
    // No valid message number: gpsd empties its sky.
    if s == 3 { text += sentence("GPGSV,1,0,01,04,45,120,42") }
    text += sentence("GPVTG,084.4,T,081.3,M,010.0,N,018.5,K,A")
    return text
  }

  /// A GSV set of 50 sentences, 200 satellites: more than gpsd's 184 channels. The 47th
  /// sentence overflows the sky (gpsd empties it and leaves that sentence's other satellites
  /// out), and its satellites are used: the DOPs gpsd computes from the last 16 tell whether
  /// they were left out.
  static func overflowingSet(_ s: Int) -> String {
    let time = "1200\(s < 10 ? "0" : "")\(s).00"
    var text = sentence("GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
    text += sentence("GPGSA,A,3,01,02,03,04,05,06,07,08,,,,,1.8,0.9,1.5")
    for part in 1...50 {
      let satellites = (0..<4).map { i in
        // Parts 47 to 50: numbers 1 to 16; before them, numbers gpsd files under no PRN.
        let id = part >= 47 ? (part - 47) * 4 + i + 1 : 600 + (part - 1) * 4 + i
        return "\(id),\(10 + id % 80),\((id * 37) % 360),\(20 + id % 30)"
      }
      text += sentence("GPGSV,50,\(part),200,\(satellites.joined(separator: ","))")
    }
    return text
  }

  static func throughMessages(_ text: String, options: NMEAEpochAssembler.Options) throws -> [NMEAFix] {
    var assembler = NMEAEpochAssembler(options: options)
    var fixes: [NMEAFix] = []
    for line in text.split(separator: "\r\n") {
      if let fix = assembler.add(try NMEAMessage(String(line))) { fixes.append(fix) }
    }
    if let fix = assembler.finish() { fixes.append(fix) }
    return fixes
  }

  @Test(
    "a GSV read straight into the sky gives the epochs a parsed GSV gives: four constellations, odd satellites, a set too large",
    arguments: [NMEAEpochAssembler.Reporting.gpsd, .everyTimeStamp])
  func samePath(reporting: NMEAEpochAssembler.Reporting) throws {
    // The set too large first: once other constellations' GSVs were seen, gpsd takes a GPS set
    // only as the last of a cycle's runs.
    let text = Self.overflowingSet(0) + (1..<9).map(Self.epoch).joined()
    let options = NMEAEpochAssembler.Options(date: NMEADate(year: 2026, month: 11, day: 28), reporting: reporting)
    let (decoded, statistics) = EpochAssemblerTests.decode(text, options: options)
    let parsed = try Self.throughMessages(text, options: options)
    #expect(statistics.rejected == 0)
    #expect(decoded.count >= 8)
    // Described, so that NaN members compare equal.
    let (a, b) = (decoded.map { "\($0)" }, parsed.map { "\($0)" })
    #expect(a.count == b.count)
    if let i = (0..<min(a.count, b.count)).first(where: { a[$0] != b[$0] }) {
      Issue.record("epoch \(i) differs:\n\(a[i])\n\(b[i])")
    }
    // The sky's DOPs reached the fixes: a satellite kept or left out, a wrong `used` flag or
    // PRN would change them (leaving out the satellites after the overflow is caught so).
    #expect(decoded.dropFirst().contains { $0.errors.epx != nil })
  }
}
