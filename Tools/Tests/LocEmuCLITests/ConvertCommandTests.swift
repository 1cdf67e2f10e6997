import Foundation
import Testing
import ToolsTestSupport

/// `locemu convert` never loses data: it refuses to write over its input and writes through a
/// temporary file, so a failed conversion leaves the output as it was (issue 16, item 1).
struct ConvertCommandTests {
  static let gga = DecodeCommandTests.sentence("GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
  static let rmc = DecodeCommandTests.sentence("GPRMC,120000,A,4807.038,N,01131.000,E,0.5,84.4,010326,,")

  /// A fresh directory, removed after `body`.
  static func inDirectory(_ body: (URL) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("convert-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try await body(directory)
  }

  static func contents(_ url: URL) -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: url.path))?.sorted() ?? []
  }

  @Test(arguments: ["trace.nmea", "trace.gpx"])
  func refusesToWriteOverItsInput(name: String) async throws {
    try await Self.inDirectory { directory in
      let path = directory.appendingPathComponent(name).path
      let nmea = directory.appendingPathComponent("source.nmea").path
      try (Self.gga + Self.rmc).write(toFile: nmea, atomically: true, encoding: .utf8)
      if name.hasSuffix(".gpx") {
        let made = try await DecodeCommandTests.runInProcess(["convert", nmea, path])
        #expect(made.status == 0)
      } else {
        try FileManager.default.copyItem(atPath: nmea, toPath: path)
      }
      let before = try Data(contentsOf: URL(fileURLWithPath: path))
      let run = try await DecodeCommandTests.runInProcess(["convert", path, path, "--to", "nmea"])
      #expect(run.status == 64)
      #expect(run.stderr.split(separator: "\n").count == 1)
      #expect(run.stderr.contains("is the input file"))
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
  }

  /// KML and GeoJSON convert as a GPX does (to NMEA, GPX, fix records); they are read, not written.
  @Test func kmlAndGeoJSONConvertAndAreNotWritten() async throws {
    try await Self.inDirectory { directory in
      let kml = directory.appendingPathComponent("walk.kml").path
      try """
      <kml xmlns:gx="http://www.google.com/kml/ext/2.2"><Placemark><gx:Track>
      <when>2026-05-16T09:00:00Z</when><when>2026-05-16T09:00:01Z</when>
      <gx:coord>24.9384 60.1699 12</gx:coord><gx:coord>24.9384 60.16991 12</gx:coord>
      </gx:Track></Placemark></kml>
      """.write(toFile: kml, atomically: true, encoding: .utf8)
      let nmea = directory.appendingPathComponent("walk.nmea").path
      let run = try await DecodeCommandTests.runInProcess(["convert", kml, nmea])
      #expect(run.status == 0, "\(run.stderr)")
      let written = try String(contentsOfFile: nmea, encoding: .utf8)
      #expect(written.contains("$GPGGA,090000.00,6010.194000,N,02456.304000,E,") && written.contains("$GPRMC,090001.00,A,"))
      let geojson = directory.appendingPathComponent("walk.geojson").path
      try #"{"type":"LineString","coordinates":[[24.9384,60.1699],[24.9385,60.1699]]}"#.write(
        toFile: geojson, atomically: true, encoding: .utf8)
      let jsonl = directory.appendingPathComponent("out.jsonl").path
      let records = try await DecodeCommandTests.runInProcess(["convert", geojson, jsonl])
      #expect(records.status == 0 && records.stderr.contains("written as JSON lines"), "\(records.stderr)")
      let lines = try String(contentsOfFile: jsonl, encoding: .utf8).split(separator: "\n")
      #expect(lines.count >= 2 && lines[0].contains("60.1699") && lines[0].contains("24.9384"), "\(lines.first ?? "")")
      let refused = try await DecodeCommandTests.runInProcess([
        "convert", nmea, directory.appendingPathComponent("out.txt").path, "--to", "kml",
      ])
      #expect(refused.status == 64 && refused.stderr.contains("KML is read, not written"), "\(refused.stderr)")
    }
  }

  @Test func refusesTheInputThroughALink() async throws {
    try await Self.inDirectory { directory in
      let path = directory.appendingPathComponent("trace.nmea").path
      let link = directory.appendingPathComponent("link.nmea").path
      try (Self.gga + Self.rmc).write(toFile: path, atomically: true, encoding: .utf8)
      try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
      let run = try await DecodeCommandTests.runInProcess(["convert", path, link])
      #expect(run.status == 64)
      #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.gga + Self.rmc)
    }
  }

  @Test func aFailedConversionLeavesTheOutputAsItWas() async throws {
    try await Self.inDirectory { directory in
      let bad = directory.appendingPathComponent("bad.gpx").path
      let out = directory.appendingPathComponent("out.nmea").path
      try "<gpx><trk><trkseg><trkpt lat=\"1\"".write(toFile: bad, atomically: true, encoding: .utf8)
      try "keep me\n".write(toFile: out, atomically: true, encoding: .utf8)
      let run = try await DecodeCommandTests.runInProcess(["convert", bad, out])
      #expect(run.status == 1)
      #expect(try String(contentsOfFile: out, encoding: .utf8) == "keep me\n")
      // No temporary file left beside it.
      #expect(Self.contents(directory) == ["bad.gpx", "out.nmea"])
    }
  }

  @Test func aConversionReplacesTheOutputWhole() async throws {
    try await Self.inDirectory { directory in
      let nmea = directory.appendingPathComponent("in.nmea").path
      let gpx = directory.appendingPathComponent("out.gpx").path
      try (Self.gga + Self.rmc).write(toFile: nmea, atomically: true, encoding: .utf8)
      try String(repeating: "old content\n", count: 10_000).write(toFile: gpx, atomically: true, encoding: .utf8)
      let run = try await DecodeCommandTests.runInProcess(["convert", nmea, gpx])
      #expect(run.status == 0)
      let text = try String(contentsOfFile: gpx, encoding: .utf8)
      #expect(text.hasPrefix("<?xml") && text.contains("<trkpt") && !text.contains("old content"))
      #expect(Self.contents(directory) == ["in.nmea", "out.gpx"])
      let mode = try FileManager.default.attributesOfItem(atPath: gpx)[.posixPermissions] as? Int
      #expect(mode.map { $0 & 0o644 == 0o644 } == true)
    }
  }
}
