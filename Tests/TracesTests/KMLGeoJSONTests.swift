import Foundation
import LocationModel
import TestSupport
import Testing
import Traces

/// KML and GeoJSON as traces, everywhere a GPX is: tracks with times, paths without, points,
/// their detection by name and content, GeoJSON members of unexpected types, and what is wrong
/// with a document that is neither.
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

  @Test("GeoJSON: a GeometryCollection's lines share the feature's times (an array per line of a MultiLineString); altitudes kept")
  func geoJSONGeometryCollection() throws {
    let collection = """
      {"type": "Feature",
       "properties": {"name": 7, "coordTimes": [["2026-05-16T09:00:00Z", 5], "no times", ["2026-05-16T09:00:02Z"]]},
       "geometry": {"type": "GeometryCollection", "geometries": [
         "no geometry",
         {"type": "Polygon", "coordinates": [[[24.9, 60.1], [25.0, 60.1], [25.0, 60.2], [24.9, 60.1]]]},
         {"type": "MultiLineString", "coordinates": [
           [[24.9384, 60.1699, 12.5], [24.9385, 60.1699, "high"]], "no line", [[24.9386, 60.1699, 14]]]},
         {"type": "Point", "coordinates": [0, 0]}
      ]}}
      """
    let (epochs, summary) = try Self.epochs(collection, name: "walk.geojson")
    // The second position's time is no string: it is skipped in the timed track; the Point, a waypoint, is left
    // out where there is a track.
    #expect(epochs.map { $0.fix.timestamp?.timeIntervalSince1970 } == [1_778_922_000, 1_778_922_002])
    #expect(epochs.map(\.fix.altitudeMSL) == [12.5, 14])
    #expect(epochs[1].fix.coordinate == Coordinate(latitude: 60.1699, longitude: 24.9386))
    #expect(summary == "3 GeoJSON points, 1 without a time in a timed track skipped")
  }

  @Test("GeoJSON: a member of an unexpected type counts as absent (yet coordTimes still hides times); odd features are skipped")
  func geoJSONMembersOfUnexpectedTypes() throws {
    let point = #""geometry": {"type": "Point", "coordinates": [24.9384, 60.1699]}"#
    let timed = try Self.epochs(#"{"type": "Feature", "properties": {"times": ["2026-05-16T09:00:00Z"]}, \#(point)}"#, name: "a.geojson")
    #expect(timed.epochs.map { $0.fix.timestamp?.timeIntervalSince1970 } == [1_778_922_000])
    // A point's `time` that is no string: no time, not the first of `times`.
    let numbered = try Self.epochs(
      #"{"type": "Feature", "properties": {"time": 3, "times": ["2026-05-16T09:00:00Z"]}, \#(point)}"#, name: "b.geojson")
    #expect(numbered.epochs.count == 1 && numbered.epochs[0].fix.timestamp == nil)
    let line = """
      {"type": "Feature",
       "properties": {"coordTimes": "2026-05-16T09:00:00Z", "times": ["2026-05-16T09:00:00Z", "2026-05-16T09:00:05Z"]},
       "geometry": {"type": "LineString", "coordinates": [[24.9384, 60.1699], "here", [24.9384, 60.1700]]}}
      """
    let walked = try Self.epochs(line, name: "c.geojson")
    #expect(walked.epochs.count == 9 && walked.epochs[0].fix.timestamp == nil)
    #expect(walked.summary.hasPrefix("2 GeoJSON points without times") && walked.summary.contains("1 invalid skipped"))
    let odd = """
      {"type": "FeatureCollection", "features": ["not a feature", 42, null,
        {"type": "Feature", "properties": "none", "geometry": null}, {"type": "Feature", "geometry": "LineString"},
        {"properties": 1, \(point)}]}
      """
    let standing = try Self.epochs(odd, name: "d.geojson")
    #expect(standing.epochs.map(\.fix.coordinate) == [Coordinate(latitude: 60.1699, longitude: 24.9384)])
    #expect(standing.summary == "1 GeoJSON points without times, moving at 1.4 m/s")
  }

  @Test("JSON that is no GeoJSON: a lone value reads as unreadable JSON; an object without a type, or of an unknown one, says so")
  func jsonThatIsNoGeoJSON() throws {
    func message(_ text: String) throws -> String {
      let error = try #require(throws: TraceFileError.self) { try Self.epochs(text, name: "data.geojson") }
      return error.message
    }
    let unreadable = try message(#"{"type": "Feature", "geometry": "#)
    #expect(unreadable.hasPrefix("not GeoJSON: "))
    for scalar in [#""FeatureCollection""#, "42", "true", "null"] { #expect(try message(scalar) == unreadable, "\(scalar)") }
    for untyped in [#"{"features": []}"#, #"{"type": 7}"#, "[]"] {
      #expect(try message(untyped) == #"not GeoJSON: no "type" at the top"#, "\(untyped)")
    }
    #expect(try message(#"{"type": "Topology", "objects": {}}"#) == #"not GeoJSON: type "Topology" is no geometry or feature"#)
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
