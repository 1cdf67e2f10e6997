import Foundation
import ToolsTestSupport
import Testing

/// `locemu basemap` and `preview --basemap` end to end on the built binary (issue 15).
@Suite("basemap")
struct BasemapCommandTests {
  static let extract = SourceCommandTests.root.appendingPathComponent("data/helsinki/Helsinki.osm.pbf").path

  @Test func buildInfoAndPreviewWithABasemap() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("basemap-cli-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let map = dir.appendingPathComponent("helsinki.basemap").path
    let built = try await DecodeCommandTests.run(["basemap", "build", Self.extract, map])
    #expect(built.status == 0, "\(built.stderr)")
    #expect(built.stderr.hasPrefix("locemu basemap: \(map): ") && built.stderr.contains(" features ("))
    let info = try await DecodeCommandTests.run(["basemap", "info", map])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])
    #expect((object["features"] as? Int ?? 0) > 1000 && (object["south"] as? Double ?? 0) > 60)

    // The preview over Helsinki draws it; over Warsaw it says the basemap does not reach and draws without it.
    let svg = dir.appendingPathComponent("h.svg").path
    let here = try await DecodeCommandTests.run([
      "preview", "--virtual-time", "--fixed", "60.1716,24.9440", "--permission", "authorizedWhenInUse", "--snapshot", svg,
      "--basemap", map, "--duration", "2",
    ])
    #expect(here.status == 0, "\(here.stderr)")
    let drawn = try String(contentsOfFile: svg, encoding: .utf8)
    #expect(drawn.contains("class=\"basemap\"") && drawn.contains("© OpenStreetMap contributors"))
    let there = try await DecodeCommandTests.run([
      "preview", "--virtual-time", "--fixed", "52.2297,21.0122", "--permission", "authorizedWhenInUse", "--snapshot", svg,
      "--basemap", map, "--duration", "2",
    ])
    #expect(there.status == 0)
    #expect(there.stderr.contains("does not cover this region"))
    #expect(!(try String(contentsOfFile: svg, encoding: .utf8)).contains("OpenStreetMap"))

    // The fullscreen map as an image when it is shown: the screen's size, the legend, the basemap.
    let full = dir.appendingPathComponent("full.svg").path
    let shown = try await DecodeCommandTests.run([
      "preview", "--virtual-time", "--fixed", "60.1716,24.9440", "--permission", "authorizedWhenInUse", "--basemap", map,
      "--snapshot-fullscreen", full, "--at", "1=tap", "--duration", "2", "--json",
    ])
    #expect(shown.status == 0, "\(shown.stderr)")
    let fullscreen = try String(contentsOfFile: full, encoding: .utf8)
    #expect(fullscreen.contains("width=\"390\" height=\"844\""))
    #expect(fullscreen.contains("class=\"legend\"") && fullscreen.contains("class=\"basemap\"") && fullscreen.contains("class=\"user\""))
    #expect(try await DecodeCommandTests.run(["preview", "--snapshot-fullscreen", "x.png"]).status == 64)

    // A served phone's map over the basemap too.
    let server = try await ServeCommandTests.Server.start(["--basemap", map])
    defer { server.stop() }
    _ = try await server.object(["location", "set", "60.1716,24.9440"])
    let url = URL(string: server.url + "/phones/1/map.svg?radius=500")!
    let served = try await offPool { String(decoding: try Data(contentsOf: url), as: UTF8.self) }
    #expect(served.contains("class=\"basemap\"") && served.contains("class=\"user\""))

    // Bad input: one line, exit 1; nothing written.
    let missing = try await DecodeCommandTests.run(["basemap", "build", dir.appendingPathComponent("none.osm.pbf").path, map + "2"])
    #expect(missing.status == 1 && missing.stderr.split(separator: "\n").count == 1 && missing.stderr.contains("no such file"))
    let notPBF = try await DecodeCommandTests.run(["basemap", "build", SourceCommandTests.trace("drive.gpx"), map + "2"])
    #expect(notPBF.status == 1 && notPBF.stderr.contains("not an OpenStreetMap PBF file"))
    #expect(!FileManager.default.fileExists(atPath: map + "2"))
    #expect(try await DecodeCommandTests.run(["basemap", "info", Self.extract]).status == 1)
    #expect(try await DecodeCommandTests.run(["preview", "--basemap", map]).status == 64)
  }
}
