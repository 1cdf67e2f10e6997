import Foundation
import LocationServices
import TestSupport
import Testing
import Traces

/// KML and GeoJSON as traces, everywhere a GPX is: tracks with times, paths without, points,
/// their detection by name and content, and what is wrong with a document that is neither.
@Suite("Traces: KML and GeoJSON")
struct KMLGeoJSONTests {
  static func epochs(_ text: String, name: String, format: Trace.Format? = nil) throws -> (epochs: [TraceEpoch], summary: String) {
    let trace = Trace(bytes: TraceBytes(Array(text.utf8)), name: name, format: format)
    let reader = try trace.makeReader()
    var epochs: [TraceEpoch] = []
    while let epoch = try reader.next() { epochs.append(epoch) }
    return (epochs, reader.summary)
  }

  /// Three timed points of a KML `gx:Track` (the bundled `traces/helsinki-steps.kml`).
  static let track = try! String(contentsOfFile: tracePath("helsinki-steps.kml"), encoding: .utf8)

  @Test("A KML gx:Track is a timed track: one epoch per point at its time, with altitude, speed and course")
  func kmlTrack() throws {
    let (epochs, summary) = try Self.epochs(Self.track, name: "walk.kml")
    #expect(epochs.count == 3)
    #expect(epochs.map { $0.fix.timestamp?.timeIntervalSince1970 } == [1_778_922_000, 1_778_922_001, 1_778_922_002])
    #expect(epochs[1].fix.coordinate == Coordinate(latitude: 60.16991, longitude: 24.9384))
    #expect(epochs[2].fix.altitudeMSL == 13)
    #expect(abs((epochs[1].fix.speed ?? 0) - 1.113) < 0.01 && epochs[1].fix.course.map { $0 < 1 || $0 > 359 } == true)
    #expect(summary == "3 KML points")
  }

  @Test("A KML LineString is walked at the pace, a lone Point is where the device stands; detected by content")
  func kmlLineStringAndPoint() throws {
    let line = """
      <kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><LineString><coordinates>
        24.9384,60.1699,0 24.9384,60.1700,0
      </coordinates></LineString></Placemark></kml>
      """
    let (epochs, summary) = try Self.epochs(line, name: "upload")
    // 11 m at 1.4 m/s: eight epochs a second apart along it, the last standing at its end.
    #expect(epochs.count == 9 && epochs.first?.fix.timestamp == nil)
    #expect(summary.hasPrefix("2 KML points without times"))
    let point = #"<kml><Placemark><Point><coordinates>-0.1276,51.5072</coordinates></Point></Placemark></kml>"#
    let standing = try Self.epochs(point, name: "home.kml").epochs
    #expect(standing.count == 1 && standing[0].fix.coordinate == Coordinate(latitude: 51.5072, longitude: -0.1276))
  }

  @Test("GeoJSON: a LineString with coordTimes is a timed track; a FeatureCollection's lines and points; detected by content")
  func geoJSON() throws {
    let timed = """
      {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"coordTimes": ["2026-05-16T09:00:00Z", "2026-05-16T09:00:05Z"]},
         "geometry": {"type": "LineString", "coordinates": [[151.2093, -33.8688, 5], [151.2094, -33.8688, 6]]}},
        {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [151.0, -33.0]}}
      ]}
      """
    let (epochs, summary) = try Self.epochs(timed, name: "upload")
    #expect(epochs.count == 2 && epochs[1].fix.timestamp?.timeIntervalSince1970 == 1_778_922_005)
    #expect(epochs[0].fix.coordinate == Coordinate(latitude: -33.8688, longitude: 151.2093) && epochs[1].fix.altitudeMSL == 6)
    #expect(summary == "2 GeoJSON points")
    let line = #"{"type":"LineString","coordinates":[[24.9384,60.1699],[24.9384,60.1700],[999,0]]}"#
    let walked = try Self.epochs(line, name: "path.geojson")
    #expect(walked.epochs.count == 9 && walked.summary.contains("1 invalid skipped"))
  }

  @Test("Not KML, not GeoJSON: a one-line error saying so, with the line for XML")
  func errors() {
    #expect(throws: TraceFileError.self) { try Self.epochs("<kml><Placemark>", name: "broken.kml") }
    do {
      _ = try Self.epochs(#"{"type": "Polygon", "coordinates": []}"#, name: "shape.geojson")
    } catch let error as TraceFileError {
      #expect(error.message.contains("not GeoJSON") && error.message.contains("Polygon"))
    } catch {
      Issue.record("\(error)")
    }
    #expect(throws: TraceFileError.self) { try Self.epochs("[1, 2]", name: "list.geojson") }
    #expect(!Trace.Format.kml.isWritable && !Trace.Format.geojson.isWritable && Trace.Format.gpx.isWritable)
  }
}
