import EmulatorTesting
import Foundation
import ToolsTestSupport
import Testing

/// `locemu basemap` and `preview --basemap` end to end on the built binary (issue 15).
@Suite("basemap")
struct BasemapCommandTests {
  /// What `locemu basemap info` prints of a basemap (one JSON object): the members the tests read.
  struct Info: Decodable {
    var features: Int
    var south: Double
    var attribution: String
    /// The shoreline's source, in a shoreline basemap.
    var shoreline: String?
  }

  static let extract = SourceCommandTests.root.appendingPathComponent("data/helsinki/Helsinki.osm.pbf").path

  /// A GET of `path` on the server, off the pool; a receive timeout that only a hang reaches (a
  /// zoom-0 tile has taken 8 s under ThreadSanitizer beside a build).
  static func get(_ server: ServeCommandTests.Server, _ path: String) async throws -> (status: Int, body: String) {
    let port = try #require(URL(string: server.url)?.port)
    return try await offPool {
      let (status, data) = try LoopbackHTTPConnection(port: port, receiveTimeout: 600).request("GET", path, body: nil)
      return (status, String(decoding: data, as: UTF8.self))
    }
  }

  @Test func buildInfoAndPreviewWithABasemap() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("basemap-cli-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let map = dir.appendingPathComponent("helsinki.basemap").path
    let built = try await DecodeCommandTests.run(["basemap", "build", Self.extract, map])
    #expect(built.status == 0, "\(built.stderr)")
    #expect(built.stderr.hasPrefix("locemu basemap: \(map): ") && built.stderr.contains(" features ("))
    let info = try await DecodeCommandTests.run(["basemap", "info", map])
    let object = try JSONDecoder().decode(Info.self, from: Data(info.stdout.utf8))
    #expect(object.features > 1000 && object.south > 60)

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
    _ = try await server.state(["location", "set", "60.1716,24.9440"])
    let served = try await Self.get(server, "/phones/1/map.svg?radius=500")
    #expect(served.status == 200 && served.body.contains("class=\"basemap\"") && served.body.contains("class=\"user\""))

    // Bad input: one line, exit 1; nothing written.
    let missing = try await DecodeCommandTests.run(["basemap", "build", dir.appendingPathComponent("none.osm.pbf").path, map + "2"])
    #expect(missing.status == 1 && missing.stderr.split(separator: "\n").count == 1 && missing.stderr.contains("no such file"))
    let notPBF = try await DecodeCommandTests.run(["basemap", "build", SourceCommandTests.trace("drive.gpx"), map + "2"])
    #expect(notPBF.status == 1 && notPBF.stderr.contains("not an OpenStreetMap PBF file"))
    #expect(!FileManager.default.fileExists(atPath: map + "2"))
    #expect(try await DecodeCommandTests.run(["basemap", "info", Self.extract]).status == 1)
    #expect(try await DecodeCommandTests.run(["preview", "--basemap", map]).status == 64)
  }

  /// `locemu basemap shoreline` (issue 22): GMT's dump (from a file or standard input) into a
  /// shoreline basemap, a region of it, bad input said in one line; a served phone's map over a
  /// shoreline and a city stacked.
  @Test func shorelineFromGMTsDumpAndStackedUnderACity() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shoreline-cli-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    // Two islands: one off Helsinki (a 1° square cut at a bin edge), one in the Pacific.
    let dump = """
      > Shore Bin # 1, Level 1
      25\t59.5
      25.5\t59.5
      25.5\t60.5
      25\t60.5
      > Shore Bin # 2, Level 1
      25\t60.5
      24.5\t60.5
      24.5\t59.5
      25\t59.5
      > Shore Bin # 3, Level 1
      -150\t10
      -149.5\t10
      -149.5\t10.5
      -150\t10
      """
    let input = dir.appendingPathComponent("dump.txt").path, shore = dir.appendingPathComponent("shore.basemap").path
    try dump.write(toFile: input, atomically: true, encoding: .utf8)
    let built = try await DecodeCommandTests.runInProcess(["basemap", "shoreline", "--resolution", "h", input, shore])
    #expect(built.status == 0, "\(built.stderr)")
    #expect(built.stderr.contains("polygons: 2 of level 1") && built.stderr.contains("0 unclosed"))
    let info = try await DecodeCommandTests.runInProcess(["basemap", "info", shore])
    let object = try JSONDecoder().decode(Info.self, from: Data(info.stdout.utf8))
    #expect(object.shoreline == "GSHHG (resolution h)" && object.features == 5)
    #expect(object.attribution.contains("GSHHG"))

    // A region keeps only its cells; standard input works as a file does.
    let regional = dir.appendingPathComponent("regional.basemap").path
    let cut = try await DecodeCommandTests.run(["basemap", "shoreline", "--region", "59,61,22,28", "-", regional], stdin: Data(dump.utf8))
    #expect(cut.status == 0, "\(cut.stderr)")
    let regionInfo = try await DecodeCommandTests.runInProcess(["basemap", "info", regional])
    #expect(regionInfo.stdout.contains("\"features\":4") && regionInfo.stdout.contains("region 59.0,61.0,22.0,28.0"))

    // Bad input: one line and exit 1 (nothing to join, no such file), 64 for a bad region.
    let empty = dir.appendingPathComponent("empty.txt").path
    try "> Shore Bin # 1, Level 1\n1 1\n2 2\n".write(toFile: empty, atomically: true, encoding: .utf8)
    let nothing = try await DecodeCommandTests.runInProcess(["basemap", "shoreline", empty, dir.appendingPathComponent("x.basemap").path])
    #expect(nothing.status == 1 && nothing.stderr.split(separator: "\n").count == 1 && nothing.stderr.contains("no shoreline polygons"))
    let missing = try await DecodeCommandTests.runInProcess([
      "basemap", "shoreline", dir.appendingPathComponent("none.txt").path, shore + "2",
    ])
    #expect(missing.status == 1 && missing.stderr.contains("no such file"))
    #expect(
      try await DecodeCommandTests.runInProcess(["basemap", "shoreline", "--region", "61,59,22,28", input, shore + "2"]).status == 64)
    #expect(!FileManager.default.fileExists(atPath: shore + "2"))

    // A served phone's map over both: the sea, the island's land, the city's streets over it.
    let city = dir.appendingPathComponent("helsinki.basemap").path
    #expect(try await DecodeCommandTests.runInProcess(["basemap", "build", Self.extract, city]).status == 0)
    let server = try await ServeCommandTests.Server.start(["--basemap", shore, "--basemap", city])
    defer { server.stop() }
    _ = try await server.state(["location", "set", "60.1716,24.9440"])
    for view in ["", "&view=street"] {
      let served = try await Self.get(server, "/phones/1/map.svg?radius=500" + view).body
      #expect(served.contains("class=\"shoreline\"") && served.contains("class=\"land\"") && served.contains("class=\"basemap\""))
      #expect(served.contains("GSHHG (Wessel &amp; Smith, LGPL); © OpenStreetMap contributors"))
    }
  }

  /// Issue 32 item 3: `locemu serve` with no options draws land and sea anywhere in the world
  /// (the bundled GSHHG shoreline) and Helsinki's streets, on the phones' maps and as web map
  /// tiles (`/tiles/Z/X/Y.svg`), checked in pixels through a real SVG renderer.
  @Test(.enabled(if: SVGPixels.rsvg != nil)) func aFreshServerShowsLandAndSeaAnywhereAndServesTiles() async throws {
    let server = try await ServeCommandTests.Server.start([])
    defer { server.stop() }
    func get(_ path: String) async throws -> (status: Int, body: String) { try await Self.get(server, path) }
    /// The pixels drawn by a real renderer (two child processes, waited for off the pool).
    func inspect(_ svg: String, counting colours: [(String, Int)]) async throws -> (pixels: [[Int]], counts: [Int], total: Int) {
      try await offPool { try SVGPixels.inspect(svg, at: [], counting: colours) }
    }
    let colours = [("#AAD3DF", 6), ("#F2EFE9", 6)]  // sea, land
    // Coasts on three continents, set from the API as a test would.
    for place in ["-33.8568,151.2153", "38.7223,-9.1393", "-22.9068,-43.1729"] {
      _ = try await server.state(["location", "set", place])
      let map = try await get("/phones/1/map.svg?view=street&radius=20000")
      #expect(map.status == 200 && map.body.contains("class=\"shoreline\""), "\(place)")
      let seen = try await inspect(map.body, counting: colours)
      #expect(
        seen.counts[0] > seen.total / 20 && seen.counts[1] > seen.total / 20,
        "\(place): sea \(seen.counts[0]), land \(seen.counts[1]) of \(seen.total)")
    }
    // The world at zoom 0: land and sea, and no city's names at that scale.
    let world = try await get("/tiles/0/0/0.svg")
    #expect(world.status == 200 && !world.body.contains("Kaartinkaupunki"))
    let worldPixels = try await inspect(world.body, counting: colours)
    #expect(
      worldPixels.total == 256 * 256 && worldPixels.counts[0] > worldPixels.total / 3 && worldPixels.counts[1] > worldPixels.total / 10)
    // Central Helsinki at zoom 16: the bundled extract's streets; the same tile again is the same.
    let street = try await get("/tiles/16/37307/18969.svg")
    #expect(street.status == 200 && street.body.contains("class=\"roads\"") && street.body.contains("stroke=\"#FFFFFF\""))
    #expect(try await get("/tiles/16/37307/18969.svg").body == street.body)
    // Search (issue 32 item 5): names on the bundled maps, case and accents ignored, best
    // first; a coordinate typed in first; nothing found is an empty list; no text is a 400.
    let places = try await get("/places?q=kaartin")
    #expect(places.status == 200 && places.body.contains(#""name":"Kaartinkaupunki""#) && places.body.contains(#""kind":"place""#))
    let streets = try await get("/places?q=toolonlahden")
    #expect(streets.body.contains("Töölönlahdenkatu") && streets.body.contains(#""kind":"street""#), "\(streets.body)")
    #expect(streets.body.components(separatedBy: "Töölönlahdenkatu").count == 2, "one street of many ways: \(streets.body)")
    let typed = try await get("/places?q=60%C2%B010.194'N%2024%C2%B056.304'E")
    #expect(
      typed.body.hasPrefix(#"{"places":[{"kind":"coordinate","lat":60.1699"#) || typed.body.contains(#""name":"60.169900, 24.938400""#),
      "\(typed.body)")
    #expect(try await get("/places?q=Atlantis").body == "{\"places\":[]}\n")
    #expect(try await get("/places?q=").status == 400)
    // Not a tile: 404 with a reason.
    for bad in ["/tiles/21/0/0.svg", "/tiles/1/2/0.svg", "/tiles/1/0/-1.svg", "/tiles/x/0/0.svg"] {
      let answer = try await get(bad)
      #expect(answer.status == 404 && answer.body.contains("no such tile"), "\(bad): \(answer)")
    }
  }
}
