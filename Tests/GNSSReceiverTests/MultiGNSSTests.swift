import Foundation
import GNSS
import GNSSReceiver
import LocationModel
import NMEA
import EmulatorTesting
import Testing

/// A phone's multi-GNSS receiver: GPS, GLONASS, Galileo and BeiDou by default, NMEA as such
/// receivers write it, and what gpsd's decoder (our port) makes of it.
@Suite("Multi-GNSS receiver")
struct MultiGNSSTests {
  static let start = ReceiverTests.start

  static func epochs(
    _ profile: ReceiverProfile, at coordinate: Coordinate = ReceiverTests.helsinki, seed: UInt64 = 3, count: Int, step: Double = 1
  ) -> [ReceiverEpoch] {
    var receiver = GNSSReceiver(options: .init(profile: profile, seed: seed, start: .hot))
    return (0..<count).map { receiver.measure(ReceiverTests.truth($0, step: step, at: coordinate)) }
  }

  @Test("Every system's nominal constellation is in view: GPS, GLONASS, Galileo and BeiDou (GEO and IGSO over Asia)")
  func everySystemInView() {
    func counts(_ coordinate: Coordinate) -> [GNSSSystem: Int] {
      let epoch = Self.epochs(.openSky, at: coordinate, count: 1)[0]
      return Dictionary(grouping: epoch.satellites, by: \.system).mapValues(\.count)
    }
    let helsinki = counts(ReceiverTests.helsinki)
    print("satellites in view from Helsinki: \(helsinki.sorted { $0.key < $1.key })")
    for system in GNSSSystem.allCases { #expect((helsinki[system] ?? 0) >= 4, "\(system)") }
    // From Beijing the three GEO and three IGSO satellites are up, the GEO ones well above the
    // horizon; from Helsinki the GEO at 140° E is below it.
    let beijing = Self.epochs(.openSky, at: Coordinate(latitude: 39.9, longitude: 116.4)!, count: 1)[0].satellites.filter {
      $0.system == .beidou
    }
    let geo = beijing.filter { (1...3).contains($0.prn) }
    #expect(geo.count == 3 && geo.allSatisfy { $0.elevation > 20 })
    #expect(beijing.count { (6...8).contains($0.prn) } >= 1)
    let fromHelsinki = Self.epochs(.openSky, count: 1)[0].satellites
    #expect(!fromHelsinki.contains { $0.system == .beidou && $0.prn == 3 })
  }

  @Test("A geostationary BeiDou satellite stays over its longitude")
  func geostationaryStaysPut() {
    let sky = Sky(almanac: NominalConstellation.beidou.filter { $0.prn == 2 }, elevationMask: -90)
    let here = ReceiverPosition(latitude: 30, longitude: 110.5)
    let looks = (0..<4).map { hour in
      sky.satellites(at: GPSTime(Self.start + Double(hour) * 7_200), from: here)[0]
    }
    // Due south of a place on its longitude, high, and still there hours later.
    for look in looks {
      #expect(abs(look.azimuth - 180) < 0.5 && abs(look.elevation - looks[0].elevation) < 0.1 && look.elevation > 50)
    }
  }

  @Test("NMEA as a multi-GNSS receiver writes it: GN talker, a GSA per system by its talker, GSV per system with its signal")
  func sentences() {
    let epoch = Self.epochs(.openSky, count: 3)[2]
    let lines = epoch.nmeaSentences
    #expect(lines.first?.hasPrefix("$GNGGA,") == true)
    // One GSA per system, named by its talker, with the system's used satellites.
    for system in GNSSSystem.allCases {
      let gsa = lines.filter { $0.hasPrefix("$\(system.talker)GSA,") }
      #expect(gsa.count == 1, "\(system)")
      let named = gsa.first.map { line in
        line.split(separator: "*")[0].split(separator: ",", omittingEmptySubsequences: false)[3..<15].compactMap { Int($0) }
      }
      #expect(named == epoch.used.filter { $0.system == system }.map { system.nmeaNumber($0.prn) }, "\(system)")
    }
    for talker in ["GP", "GL", "GA", "GB"] { #expect(lines.contains { $0.hasPrefix("$\(talker)GSV,") }, "\(talker)") }
    #expect(lines.contains { $0.hasPrefix("$GLGSV,") && $0.contains(",1*") })
    #expect(lines.contains { $0.hasPrefix("$GAGSV,") && $0.contains(",7*") })
    // GLONASS satellites are written 65–96.
    let glonass = lines.filter { $0.hasPrefix("$GLGSV,") }.flatMap { line in
      line.split(separator: "*")[0].split(separator: ",", omittingEmptySubsequences: false).dropFirst(4).enumerated()
        .filter { $0.offset % 4 == 0 && $0.element.count == 2 }.map { Int($0.element)! }
    }
    #expect(!glonass.isEmpty && glonass.allSatisfy { (65...96).contains($0) })
    for line in lines {
      let parts = line.dropFirst().split(separator: "*")
      let sum = parts[0].utf8.reduce(UInt8(0), ^)
      #expect(parts.count == 2 && UInt8(parts[1], radix: 16) == sum, "\(line)")
    }
  }

  @Test("gpsd's decoder reads the multi-GNSS epochs: the fix, and epx/epy/epv from GBS")
  func gpsdReadsIt() {
    let epochs = Self.epochs(.suburban, seed: 21, count: 120)
    var decoder = NMEADecoder()
    var fixes: [NMEAFix] = []
    decoder.decode(Array(epochs.flatMap { $0.nmeaSentences.map { $0 + "\r\n" } }.joined().utf8)) { fixes.append($0) }
    decoder.finish { fixes.append($0) }
    let withFix = epochs.filter { $0.fix.hasFix }
    let decoded = fixes.filter { $0.mode >= .twoD }
    #expect(decoded.count == withFix.count)
    for (ours, theirs) in zip(withFix, decoded).dropFirst() {
      #expect(abs(theirs.latitude! - ours.fix.coordinate!.latitude) < 1e-7)
      #expect(abs(theirs.errors.epx! - ours.fix.errors.epx!) < 0.006)
      #expect(abs(theirs.verticalError! - Double(ours.sigma!.up!)) < 0.006)
      #expect(theirs.satellitesUsed == ours.used.count)
    }
  }

  @Test("GPS alone stays available (profile systems), and writes GP as before")
  func gpsOnly() throws {
    var profile = ReceiverProfile.openSky
    profile.systems = [.gps]
    let epoch = Self.epochs(profile, count: 3)[2]
    #expect(epoch.satellites.allSatisfy { $0.system == .gps })
    #expect(epoch.nmeaSentences.allSatisfy { $0.hasPrefix("$GP") })
    let decoded = try ReceiverProfile.decode(json: Data(#"{"base": "open-sky", "systems": ["GPS", "galileo"]}"#.utf8))
    #expect(decoded.systems == [.gps, .galileo])
    #expect(throws: ReceiverProfileError(message: "no system 'navic' (gps, glonass, galileo, beidou)")) {
      try ReceiverProfile.decode(json: Data(#"{"systems": ["navic"]}"#.utf8))
    }
  }

  @Test(
    "In a street canyon the other systems keep the 3D fix that GPS alone degrades to 2D or loses to poor geometry", .notUnderThreadSanitizer
  )
  func canyonAvailability() {
    var gpsOnly = ReceiverProfile.urbanCanyon
    gpsOnly.systems = [.gps]
    func availability(_ profile: ReceiverProfile) -> Double {
      var fixed = 0, total = 0
      // A day, a minute apart: the geometry of every hour, not of one.
      for seed in 0..<2 {
        let epochs = Self.epochs(profile, seed: UInt64(seed), count: 1_440, step: 60)
        fixed += epochs.count { $0.state == .fix3D }
        total += epochs.count
      }
      return Double(fixed) / Double(total)
    }
    let gps = availability(gpsOnly), all = availability(.urbanCanyon)
    print(
      "urban canyon: a 3D fix \(String(format: "%.1f", gps * 100)) % of the time with GPS alone, \(String(format: "%.1f", all * 100)) % with four systems"
    )
    #expect(all > gps + 0.2)
  }
}
