import Foundation
import Geo
import NMEA
import Testing
import Traces
import LocationModel

/// Trace formats beyond NMEA: fix-record JSON lines, GPX read as a stream, and what GPX says
/// of the receiver carried into NMEA (issue 16 items 5, 8, 9).
@Suite("Trace formats: fix records, streaming GPX, receiver details")
struct TraceFormatTests {
  static func temporaryFile(_ name: String, _ text: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)")
    try text.write(to: url, atomically: false, encoding: .utf8)
    return url
  }

  static func epochs(_ trace: Trace) throws -> (epochs: [TraceEpoch], summary: String) {
    let reader = try trace.makeReader()
    var epochs: [TraceEpoch] = []
    while let e = try reader.next() { epochs.append(e) }
    return (epochs, reader.summary)
  }

  /// What `locemu decode` prints reads back as the same fixes (the writer and reader agree).
  @Test func fixRecordsReadBackAsTheFixesTheyWereWrittenFrom() throws {
    let fixes = [
      LocationFix(
        timestamp: Date(timeIntervalSince1970: 1_778_924_096.37), mode: .threeD,
        coordinate: Coordinate(latitude: -33.856784, longitude: 151.215297), altitudeMSL: 42.3, altitudeHAE: 64.5,
        speed: 12.5, course: 271.25, horizontalAccuracy: 4.5, verticalAccuracy: 7.25),
      LocationFix(timestamp: Date(timeIntervalSince1970: 1_778_924_097), mode: .noFix),
      LocationFix(
        timestamp: Date(timeIntervalSince1970: 1_778_924_098), mode: .twoD,
        coordinate: Coordinate(latitude: 52.2, longitude: 21.0)),
    ]
    let url = try Self.temporaryFile("fixes", fixes.map { FixRecord.json($0) + "\n" }.joined())
    defer { try? FileManager.default.removeItem(at: url) }
    let trace = try Trace(path: url.path)
    #expect(trace.format == .jsonl)
    let (epochs, summary) = try Self.epochs(trace)
    #expect(epochs.map(\.fix) == fixes)
    #expect(epochs.map(\.traceTime) == fixes.map { $0.timestamp!.timeIntervalSince1970 })
    #expect(summary == "3 fix records")
  }

  /// gpsd's own reports (`gpspipe -w`): TPV lines are fixes, the rest is skipped and counted;
  /// a corrupt line is counted with its line number and skipped, nothing else is lost.
  @Test func gpsdReportsAndCorruptLinesAreCountedAndSkipped() throws {
    let text = """
      {"class":"VERSION","release":"3.25"}
      {"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2026-05-16T09:00:00.000Z","lat":52.2476,"lon":21.0137,"altMSL":101.5,"speed":1.4,"track":90.0}
      {"class":"TPV","mode":3,"lat":52.2
      not json at all
      {"class":"SKY","satellites":[]}
      {"mode":true,"lat":52.2,"lon":21.0}
      {"mode":1,"time":"2026-05-16T09:00:02.000Z"}

      {"mode":2,"time":"2026-05-16T09:00:03.000Z","lat":52.2477,"lon":21.0138}
      """
    let url = try Self.temporaryFile("reports.json", text)
    defer { try? FileManager.default.removeItem(at: url) }
    let (epochs, summary) = try Self.epochs(Trace(path: url.path))
    #expect(epochs.map(\.fix.mode) == [.threeD, .noFix, .twoD])
    #expect(epochs[0].fix.altitudeMSL == 101.5 && epochs[0].fix.course == 90)
    #expect(summary == "3 fix records, 2 other reports skipped, 3 corrupt lines skipped (line 3, 4, 6)")
  }

  @Test(arguments: [
    ("{\"mode\":1}", Trace.Format.jsonl), ("\u{FEFF}  <?xml version=\"1.0\"?><gpx/>", .gpx), ("<kml/>", .kml),
    ("<?xml version=\"1.0\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\">", .kml), ("<rss/>", .gpx),
    ("{ \"type\": \"FeatureCollection\", \"features\": [] }", .geojson), ("{\"class\":\"TPV\",\"mode\":3}", .jsonl),
    ("$GPGGA,1*00", .nmea), ("", .nmea),
  ])
  func contentTellsTheFormatOfAFileWithNoTellingName(text: String, format: Trace.Format) throws {
    let url = try Self.temporaryFile("trace", text)
    defer { try? FileManager.default.removeItem(at: url) }
    #expect(try Trace.detectFormat(url.path) == format)
  }

  @Test func aDirectoryIsNoTrace() throws {
    let error = try #require(throws: TraceFileError.self) { try Trace(path: NSTemporaryDirectory()) }
    #expect(error.message.contains("directory"))
    #expect(throws: TraceFileError.self) { try NMEATraceReader(path: NSTemporaryDirectory()) }
  }

  /// A GPX over 10 MB used to fail near its end ("malformed XML (libxml2 error 1)") because
  /// the whole document went to the parser at once; read as a stream, any size works.
  @Test func aLargeGPXIsReadToTheEnd() throws {
    let count = 135_000
    var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + #"<gpx version="1.1" creator="test"><trk><trkseg>"# + "\n"
    let start = 1_778_924_096
    for i in 0..<count {
      let lat = 52.0 + Double(i) * 1e-6
      text +=
        #"  <trkpt lat="\#(lat)" lon="21.0"><ele>100.0</ele><time>\#(FixRecord.iso8601(Date(timeIntervalSince1970: Double(start + i))))</time></trkpt>"#
      text += "\n"
    }
    text += "</trkseg></trk></gpx>\n"
    #expect(text.utf8.count > 12_000_000)
    let url = try Self.temporaryFile("large.gpx", text)
    defer { try? FileManager.default.removeItem(at: url) }
    let reader = try Trace(path: url.path).makeReader()
    var n = 0
    var last: TraceEpoch?
    while let e = try reader.next() {
      n += 1
      last = e
    }
    #expect(n == count)
    #expect(last?.traceTime == Double(start + count - 1))
    #expect(reader.summary == "\(count) GPX points")
  }

  /// A truncated GPX gives the points before the damage, then an error with its line.
  @Test func aTruncatedGPXGivesItsPointsThenAnErrorWithTheLine() throws {
    let text = """
      <gpx><trk><trkseg>
      <trkpt lat="52.1" lon="21.1"><time>2026-05-16T09:00:00Z</time></trkpt>
      <trkpt lat="52.2" lon="21.2"><time>2026-05-16T09:00:01Z</time></trkpt>
      <trkpt lat="52.3" lon="21.3"><time>2026-05-16T09:00:02Z</ti
      """
    let url = try Self.temporaryFile("cut.gpx", text)
    defer { try? FileManager.default.removeItem(at: url) }
    let reader = try Trace(path: url.path).makeReader()
    var seen = 0
    let error = try #require(throws: TraceFileError.self) {
      while try reader.next() != nil { seen += 1 }
    }
    #expect(seen >= 1)
    #expect(error.message.hasPrefix("not GPX (line 4)"))
  }

  /// Tracks win over routes and waypoints wherever they come in the document.
  @Test func aTrackAfterWaypointsIsThePath() throws {
    let text = """
      <gpx><wpt lat="1" lon="1"/><rte><rtept lat="2" lon="2"/></rte>
      <trk><trkseg><trkpt lat="3" lon="3"/><trkpt lat="3.00001" lon="3"/></trkseg></trk><wpt lat="4" lon="4"/></gpx>
      """
    let url = try Self.temporaryFile("mixed.gpx", text)
    defer { try? FileManager.default.removeItem(at: url) }
    let (epochs, _) = try Self.epochs(Trace(path: url.path))
    #expect(epochs.first?.fix.coordinate == Coordinate(latitude: 3, longitude: 3))
    #expect(epochs.allSatisfy { $0.fix.coordinate!.latitude >= 3 })
  }

  /// GPX → NMEA used to write 8 satellites and quality 1 whatever the GPX said.
  @Test func gpxSatellitesFixTypeAndGeoidHeightReachTheGGA() throws {
    let text = """
      <gpx><trk><trkseg>
      <trkpt lat="52.1" lon="21.1"><ele>100</ele><time>2026-05-16T09:00:00Z</time><geoidheight>33.5</geoidheight><fix>dgps</fix><sat>11</sat></trkpt>
      <trkpt lat="52.1" lon="21.1"><ele>100</ele><time>2026-05-16T09:00:01Z</time><fix>3d</fix><sat>5</sat></trkpt>
      <trkpt lat="52.1" lon="21.1"><time>2026-05-16T09:00:02Z</time><fix>none</fix></trkpt>
      </trkseg></trk></gpx>
      """
    let url = try Self.temporaryFile("receiver.gpx", text)
    defer { try? FileManager.default.removeItem(at: url) }
    let (epochs, _) = try Self.epochs(Trace(path: url.path))
    #expect(
      epochs.map(\.receiver) == [
        ReceiverDetails(satellitesUsed: 11, quality: 2), ReceiverDetails(satellitesUsed: 5, quality: 1),
        ReceiverDetails(satellitesUsed: nil, quality: 0),
      ])
    #expect(epochs[0].fix.altitudeHAE == 133.5)
    let gga = epochs.map { NMEAWriter.sentences(for: $0.fix, receiver: $0.receiver)[0] }
    let fields = gga.map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    #expect(fields.map { $0[6] } == ["2", "1", "0"])
    #expect(fields.map { $0[7] } == ["11", "05", "00"])
    #expect(fields[0][11] == "33.5")
    // And back: the decoder reads what was written.
    var decoder = NMEADecoder()
    var decoded: [NMEAFix] = []
    decoder.decode(Array(gga.joined(separator: "\r\n").utf8 + [13, 10])) { decoded.append($0) }
    decoder.finish { decoded.append($0) }
    #expect(decoded.first?.quality == 2 && decoded.first?.satellitesUsed == 11)

    // NMEA → GPX keeps them too.
    var writer = GPXWriter()
    let markup = writer.append(epochs[0].fix, receiver: epochs[0].receiver)
    #expect(markup.contains("<geoidheight>33.500</geoidheight>") && markup.contains("<fix>dgps</fix>") && markup.contains("<sat>11</sat>"))
  }

  /// Values are read from the element's bytes: white space around them is XML's, anything that
  /// is not a finite number is no value (not a crash, not a zero).
  @Test func gpxValuesAreReadStrictly() throws {
    let doc = try GPXDocument(
      data: Data(
        """
        <gpx><wpt lat="52.1" lon="21.1"><ele>
          12.5 </ele><hdop>nan</hdop><vdop>1e999</vdop><sat>7.5</sat><speed>3 m/s</speed><course>0x10</course>
        <geoidheight><![CDATA[33.5]]></geoidheight><fix> dgps </fix><time> 2026-05-16T09:00:00Z </time></wpt></gpx>
        """.utf8))
    let point = try #require(doc.waypoints.first)
    #expect(point.elevation == 12.5)
    #expect(point.hdop == nil && point.vdop == nil && point.satellites == nil && point.speed == nil)
    #expect(point.geoidHeight == 33.5)
    #expect(point.fixType == .dgps)
    #expect(point.time == Date(timeIntervalSince1970: 1_778_922_000))
    // A GPX number is decimal: no hexadecimal (which strtod alone would read).
    #expect(point.course == nil)
  }
}
