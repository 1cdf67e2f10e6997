import Emulator
import Foundation
import Geo
import NMEA
import Testing
import Traces
import LocationModel

@Suite("Trace files: NMEA streaming, GPX, writers, format detection")
struct TraceFileTests {
  @Test func nmeaReaderAgreesWithTheFileDecoder() throws {
    let path = tracePath("gpsd-corpus/bundg_zeus_9.log")
    var expected: [LocationFix] = []
    try NMEAFileDecoder.decode(path: path) { expected.append(LocationFix($0)) }
    let reader = try NMEATraceReader(path: path)
    var got: [LocationFix] = []
    while let epoch = try reader.next() { got.append(epoch.fix) }
    #expect(got.count == expected.count)
    #expect(got.map(\.timestamp) == expected.map(\.timestamp))
    #expect(got.map(\.coordinate) == expected.map(\.coordinate))
    #expect(reader.statistics.unknown == 3686)
  }

  @Test func nmeaReaderKeepsEverySentenceWithItsEpoch() throws {
    let path = tracePath("city-walk.nmea")
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
    let reader = try NMEATraceReader(path: path, keepSentences: true)
    var kept: [String] = []
    var epochs = 0
    while let epoch = try reader.next() {
      epochs += 1
      #expect(epoch.sentences.count == 2)  // GGA + RMC
      kept += epoch.sentences
    }
    #expect(epochs == 973)
    #expect(kept == lines)
  }

  @Test func nmeaTraceTimesWithoutDatesUnwrapAtMidnight() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("midnight-\(UUID()).nmea")
    let body = ["235958.00", "235959.00", "000000.00", "000001.00"].map {
      NMEAWriter.framed("GPGGA,\($0),5214.370000,N,02101.800000,E,1,08,0.9,95.0,M,,,,")
    }
    try (body.joined(separator: "\r\n") + "\r\n").write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    let reader = try NMEATraceReader(path: url.path)
    var times: [Double] = []
    while let e = try reader.next() { times.append(e.traceTime!) }
    #expect(times == [86_398, 86_399, 86_400, 86_401])
  }

  @Test func aMissingFileIsATraceFileError() {
    #expect(throws: TraceFileError.self) { try NMEATraceReader(path: "/nonexistent/trace.nmea") }
    #expect(throws: TraceFileError.self) { try GPXDocument(path: "/nonexistent/trace.gpx") }
  }

  @Test func gpxTracksRoutesAndWaypointsParse() throws {
    let xml = """
      <?xml version="1.0"?>
      <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
        <wpt lat="52.1" lon="21.1"><time>2024-05-01T10:00:00Z</time></wpt>
        <rte><rtept lat="52.2" lon="21.2"/><rtept lat="52.3" lon="21.3"/></rte>
        <trk><trkseg>
          <trkpt lat="52.4" lon="21.4"><ele>101.5</ele><time>2024-05-01T10:00:01.250Z</time><fix>3d</fix><hdop>1.2</hdop></trkpt>
          <trkpt lat="95" lon="21.4"/>
        </trkseg><trkseg>
          <trkpt lat="52.5" lon="21.5"><time>2024-05-01T12:00:02+02:00</time><fix>none</fix></trkpt>
        </trkseg></trk>
      </gpx>
      """
    let doc = try GPXDocument(data: Data(xml.utf8))
    #expect(doc.waypoints.count == 1)
    #expect(
      doc.routes == [
        [
          GPXPoint(coordinate: Coordinate(latitude: 52.2, longitude: 21.2)!),
          GPXPoint(coordinate: Coordinate(latitude: 52.3, longitude: 21.3)!),
        ]
      ])
    #expect(doc.trackSegments.map(\.count) == [1, 1])
    #expect(doc.invalidPoints == 1)
    let first = doc.trackSegments[0][0]
    #expect(first.elevation == 101.5)
    #expect(first.fix == .threeD)
    #expect(first.hdop == 1.2)
    #expect(first.time == Date(timeIntervalSince1970: 1_714_557_601.25))
    #expect(doc.trackSegments[1][0].time == Date(timeIntervalSince1970: 1_714_557_602))
    #expect(doc.trackSegments[1][0].fix == .noFix)
    #expect(doc.path.map(\.coordinate.latitude) == [52.4, 52.5])
  }

  @Test func gpxWithoutTracksFallsBackToRoutesThenWaypoints() throws {
    let routes = try GPXDocument(
      data: Data(#"<gpx><wpt lat="1" lon="1"/><rte><rtept lat="2" lon="2"/></rte></gpx>"#.utf8))
    #expect(routes.path.map(\.coordinate.latitude) == [2])
    let waypoints = try GPXDocument(data: Data(#"<gpx><wpt lat="1" lon="1"/><wpt lat="3" lon="3"/></gpx>"#.utf8))
    #expect(waypoints.path.map(\.coordinate.latitude) == [1, 3])
  }

  @Test func malformedGPXIsAnErrorWithALine() {
    #expect(throws: GPXError.self) { try GPXDocument(data: Data("<gpx>\n<trk><trkseg></trk>".utf8)) }
    #expect(throws: GPXError.self) { try GPXDocument(data: Data("$GPGGA,1\n".utf8)) }
    #expect(throws: GPXError.self) { try GPXDocument(data: Data("<gpx><a></b></gpx>".utf8)) }
    #expect(throws: GPXError.self) { try GPXDocument(data: Data("<kml></kml>".utf8)) }
  }

  @Test(arguments: [
    ("2024-05-01T10:00:00Z", 1_714_557_600.0), ("2024-05-01T10:00:00.5Z", 1_714_557_600.5),
    ("2024-05-01T10:00:00-01:30", 1_714_563_000.0), ("2024-05-01T10:00:00", 1_714_557_600.0),
  ])
  func gpxTimesParse(text: String, seconds: Double) {
    #expect(GPXTime.parse(text)?.timeIntervalSince1970 == seconds)
  }

  @Test(arguments: ["2024-13-01T10:00:00Z", "2024-05-01 25:00:00Z", "yesterday", "2024-05-01T10:00:00Zjunk"])
  func badGPXTimesAreRejected(text: String) {
    #expect(GPXTime.parse(text) == nil)
  }

  @Test func timedGPXGetsSpeedAndCourseFromItsSteps() throws {
    let reader = try Trace(path: tracePath("drive.gpx")).makeReader()
    var fixes: [LocationFix] = []
    while let e = try reader.next() { fixes.append(e.fix) }
    #expect(fixes.count == 326)
    let cruising = fixes.compactMap(\.speed).filter { $0 > 13.6 }
    #expect(!cruising.isEmpty && cruising.allSatisfy { abs($0 - 13.9) < 0.1 })
    #expect(fixes.compactMap(\.course).allSatisfy { (45...100).contains($0) })  // eastwards
  }

  @Test func timelessGPXIsWalkedAtAConstantPace() throws {
    let trace = try Trace(path: tracePath("old-town-route.gpx"), pace: .walk)
    #expect(trace.format == .gpx)
    let reader = try trace.makeReader()
    var epochs: [TraceEpoch] = []
    while let e = try reader.next() { epochs.append(e) }
    let doc = try GPXDocument(path: tracePath("old-town-route.gpx"))
    let length: Double = zip(doc.path, doc.path.dropFirst()).reduce(0.0) { $0 + $1.0.coordinate.distance(to: $1.1.coordinate) }
    let walked: Double = (length / 1.4).rounded(.up) + 1
    #expect(abs(Double(epochs.count) - walked) <= 1)
    let seconds: [Double] = (0..<epochs.count).map { Double($0) }
    #expect(epochs.map(\.traceTime) == seconds)
    #expect(epochs.allSatisfy { $0.fix.timestamp == nil })
    // Each step covers at most 1.4 m (less where it cuts a corner).
    for (a, b) in zip(epochs, epochs.dropFirst()) {
      #expect(a.fix.coordinate!.distance(to: b.fix.coordinate!) <= 1.4 + 1e-6)
    }
    #expect(epochs.first?.fix.coordinate == doc.path.first?.coordinate)
    #expect(epochs.last?.fix.coordinate == doc.path.last?.coordinate)
    #expect(epochs.last?.fix.speed == 0)
  }

  @Test func drivingPaceIsFaster() throws {
    let walk = try count(Trace(path: tracePath("old-town-route.gpx"), pace: .walk))
    let drive = try count(Trace(path: tracePath("old-town-route.gpx"), pace: .drive))
    let custom = try count(Trace(path: tracePath("old-town-route.gpx"), pace: .metresPerSecond(2.8)))
    #expect(drive < walk / 9)
    #expect(abs(custom - walk / 2) <= 1)
  }

  private func count(_ trace: Trace) throws -> Int {
    let reader = try trace.makeReader()
    var n = 0
    while try reader.next() != nil { n += 1 }
    return n
  }

  @Test func nmeaWriterRoundTripsThroughTheDecoder() throws {
    let fix = LocationFix(
      timestamp: Date(timeIntervalSince1970: 1_778_924_096.37), mode: .threeD,
      coordinate: Coordinate(latitude: -33.856784, longitude: 151.215297), altitudeMSL: 42.3, altitudeHAE: 64.5,
      speed: 12.5, course: 271.25, horizontalAccuracy: 4.5)
    let text = NMEAWriter.sentences(for: fix).joined(separator: "\r\n") + "\r\n"
    var decoder = NMEADecoder()
    var decoded: [NMEAFix] = []
    decoder.decode(Array(text.utf8)) { decoded.append($0) }
    decoder.finish { decoded.append($0) }
    #expect(decoder.statistics.rejected == 0)
    let back = try #require(decoded.first.map(LocationFix.init))
    #expect(back.timestamp == fix.timestamp)
    #expect(back.mode == .threeD)
    #expect(abs(back.coordinate!.latitude - fix.coordinate!.latitude) < 1e-8)
    #expect(abs(back.coordinate!.longitude - fix.coordinate!.longitude) < 1e-8)
    #expect(back.altitudeMSL == 42.3)
    #expect(abs(back.altitudeHAE! - 64.5) < 1e-9)
    #expect(abs(back.speed! - 12.5) < 0.001)
    #expect(back.course == 271.25)
    // Through gpsd's error model: HDOP 4.5 / 19 m, written with 2 decimals, times 19 m.
    #expect(abs(back.horizontalAccuracy! - 4.5) <= 19 * 0.005)
  }

  @Test func nmeaWriterWritesNoFixAsStatusVoid() {
    let sentences = NMEAWriter.sentences(for: LocationFix(timestamp: Date(timeIntervalSince1970: 0), mode: .noFix))
    #expect(sentences.count == 2)
    #expect(sentences.first?.hasPrefix("$GPGGA,000000.00,,,,,0,") == true)
    #expect(sentences.last?.hasPrefix("$GPRMC,000000.00,V,,,,,,,010170,") == true)
    var decoder = NMEADecoder()
    var decoded: [NMEAFix] = []
    decoder.decode(Array(sentences.joined(separator: "\n").utf8)) { decoded.append($0) }
    decoder.finish { decoded.append($0) }
    #expect(decoder.statistics.accepted == 2 && decoded.map(\.mode) == [.noFix])
    #expect(NMEAWriter.sentences(for: LocationFix(mode: .twoD)).isEmpty)
  }

  @Test func gpxWriterRoundTripsAndBreaksSegmentsAtLostFixes() throws {
    let t0 = Date(timeIntervalSince1970: 1_778_924_096)
    let fixes = [
      LocationFix(timestamp: t0, mode: .threeD, coordinate: Coordinate(latitude: 52.1, longitude: 21.1), altitudeMSL: 100),
      LocationFix(timestamp: t0 + 1, mode: .noFix),
      LocationFix(timestamp: t0 + 2, mode: .twoD, coordinate: Coordinate(latitude: 52.2, longitude: 21.2), horizontalAccuracy: 6),
    ]
    var writer = GPXWriter()
    var xml = writer.header(name: "a & b")
    for fix in fixes { xml += writer.append(fix) }
    xml += writer.footer()
    let doc = try GPXDocument(data: Data(xml.utf8))
    #expect(doc.trackSegments.count == 2)
    #expect(doc.path.map(\.coordinate) == [fixes[0].coordinate, fixes[2].coordinate])
    #expect(doc.path.map(\.time) == [t0, t0 + 2])
    #expect(doc.path[0].elevation == 100 && doc.path[0].fix == .threeD)
    // 6 m is HDOP 0.32 by gpsd's range error for HDOP (19 m).
    #expect(doc.path[1].fix == .twoD && doc.path[1].hdop == 0.32)
  }

  @Test func formatIsDetectedFromNameOrContent() throws {
    #expect(try Trace.detectFormat(tracePath("drive.gpx")) == .gpx)
    #expect(try Trace.detectFormat(tracePath("drive.nmea")) == .nmea)
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("unnamed-\(UUID())")
    try "\n  <?xml version=\"1.0\"?><gpx></gpx>".write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    #expect(try Trace.detectFormat(url.path) == .gpx)
  }

  @Test func aBundledTraceReplaysToTheEndOnAVirtualClock() async throws {
    func modes(_ reporting: NMEAEpochAssembler.Reporting) async throws -> ([LocationFix.Mode], Duration) {
      let trace = try Trace(path: tracePath("tunnel.nmea"), nmeaOptions: .init(reporting: reporting))
      let clock = makeClock()
      let replay = TraceReplay(trace: trace, options: .init(), clock: clock)
      let task = clock.spawn("replay") { () -> ([LocationFix.Mode], Duration) in
        var modes: [LocationFix.Mode] = []
        var last = Duration.zero
        do {
          for try await e in replay {
            modes.append(e.fix.mode)
            last = e.elapsed
          }
        } catch {}
        return (modes, last)
      }
      return try await clock.advance(until: task)
    }
    // As gpsd reports it: at the tunnel's entrance the RMC turns invalid, and gpsd, which reported
    // at RMC, reports nothing for that second (then it learns to report at GGA).
    let (gpsd, end) = try await modes(.gpsd)
    #expect(gpsd.count == 178)
    #expect(gpsd.filter { $0 == .noFix }.count == 39)
    #expect(end == .seconds(178))
    let (every, _) = try await modes(.everyTimeStamp)
    #expect(every.count == 179)
    #expect(every.filter { $0 == .noFix }.count == 40)
  }
}

@Suite("Geodesy and the fixed-point source")
struct GeoTests {
  let warsaw = Coordinate(latitude: 52.2297, longitude: 21.0122)!

  @Test func distancesAndBearings() {
    let north = Coordinate(latitude: 53.2297, longitude: 21.0122)!
    #expect(abs(warsaw.distance(to: north) - 111_195) < 1)
    #expect(abs(warsaw.bearing(to: north)) < 1e-9)
    let east = Coordinate(latitude: 0, longitude: 1)!
    #expect(abs(Coordinate(latitude: 0, longitude: 0)!.bearing(to: east) - 90) < 1e-9)
    #expect(abs(east.bearing(to: Coordinate(latitude: 0, longitude: 0)!) - 270) < 1e-9)
    #expect(warsaw.distance(to: warsaw) == 0)
  }

  @Test func interpolationStaysOnTheGreatCircle() {
    let krakow = Coordinate(latitude: 50.0647, longitude: 19.9450)!
    let mid = warsaw.interpolated(to: krakow, fraction: 0.5)
    let whole = warsaw.distance(to: krakow)
    #expect(abs(warsaw.distance(to: mid) - whole / 2) < 0.01)
    #expect(abs(mid.distance(to: krakow) - whole / 2) < 0.01)
    #expect(warsaw.interpolated(to: krakow, fraction: 0) == warsaw)
  }

  @Test func aFixedPointReportsOnTheClock() async throws {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let clock = makeClock()
    let source = FixedPointSource(
      coordinate: warsaw, horizontalAccuracy: 8, interval: .seconds(2), count: 3, start: start, clock: clock)
    let task = clock.spawn("fixed point") { () -> [LocationFix] in
      var out: [LocationFix] = []
      do {
        for try await fix in source { out.append(fix) }
      } catch {}
      return out
    }
    let fixes = try await clock.advance(until: task)
    #expect(clock.now.offset == .seconds(4))
    #expect(fixes.map(\.timestamp) == [start, start + 2, start + 4])
    #expect(fixes.allSatisfy { $0.coordinate == warsaw && $0.horizontalAccuracy == 8 && $0.mode == .twoD })
  }
}
