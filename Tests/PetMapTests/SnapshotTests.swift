import Foundation
import Geo
import PetMap
import Testing

/// The SVG snapshot (the platform's MKMapSnapshotter), rendered by a real SVG renderer.
@Suite struct SnapshotTests {
  static let rsvg = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"].first { FileManager.default.isExecutableFile(atPath: $0) }

  let region = warsaw.mapRegion(radiusMeters: 10_000).fitted(aspectRatio: 16.0 / 9.0)
  let missing = PinModel(id: "m", coordinate: north(of: warsaw, 6_000), status: .active)
  let found = PinModel(id: "f", coordinate: Coordinate(latitude: warsaw.latitude - 0.04, longitude: warsaw.longitude - 0.15)!, status: .found)

  /// Renders `svg` to PNG and reads the pixels at `points`.
  func pixels(of svg: String, at points: [(Double, Double)]) throws -> [[Int]] {
    let rsvg = try #require(Self.rsvg, "rsvg-convert is missing (apt package librsvg2-bin; tools/test.sh installs it)")
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("locemu-snapshot-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let svgPath = dir.appendingPathComponent("map.svg").path, pngPath = dir.appendingPathComponent("map.png").path
    try svg.write(toFile: svgPath, atomically: true, encoding: .utf8)
    let converted = try run(rsvg, ["-o", pngPath, svgPath])
    #expect(converted.status == 0, "\(converted.stderr)")
    let script = repositoryRoot.appendingPathComponent("tools/png-pixels.py").path
    let read = try run("/usr/bin/env", ["python3", script, pngPath] + points.map { "\($0.0),\($0.1)" })
    #expect(read.status == 0, "\(read.stderr)")
    let object = try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any]
    return (object?["pixels"] as? [[Int]]) ?? []
  }

  func rgb(_ hex: String) -> [Int] {
    let v = Int(hex.dropFirst(), radix: 16)!
    return [v >> 16 & 255, v >> 8 & 255, v & 255]
  }

  @Test func snapshot_FR002_pinsLandAtTheirCoordinatesInARealRenderer() throws {
    let request = MapSnapshotRequest(region: region, pins: [missing, found], userLocation: warsaw, legend: LegendItem.legend(MapStrings()))
    let snapshot = try SVGMapSnapshotter().render(request)
    let p = snapshot.projection
    let user = p.point(for: warsaw), m = p.point(for: missing.coordinate), f = p.point(for: found.coordinate)
    // Independent of the projection code: the user is in the middle; 6 km north is 6000 m / (m per pixel) up
    // (Mercator's scale grows ~0.1 % over 6 km here); 0.15° west is a fixed share of the 16:9 width.
    #expect(abs(user.x - 320) < 0.01 && abs(user.y - 180) < 0.01)
    let metersPerPixel = 2 * Double.pi * Coordinate.earthRadius * cos(warsaw.latitude * .pi / 180) / p.scale
    #expect(abs(m.y - (180 - 6_000 / metersPerPixel)) < 1.5)
    #expect(abs(f.x - (320 - 0.15 / region.longitudeDelta * 640)) < 0.5)
    let colours = try pixels(of: snapshot.svg, at: [(user.x, user.y), (m.x, m.y), (f.x, f.y), (m.x + 12, m.y)])
    #expect(Array(colours[0].prefix(3)) == rgb("#1E88E5"))
    #expect(Array(colours[1].prefix(3)) == rgb(LegendItem.color(of: .missing)))
    #expect(Array(colours[2].prefix(3)) == rgb(LegendItem.color(of: .found)))
    // Just beside a pin is the map, not the pin.
    #expect(Array(colours[3].prefix(3)) != rgb(LegendItem.color(of: .missing)))
  }

  @Test func snapshot_drawsRasterTilesFromALocalDirectoryUnderThePins() throws {
    let rsvg = try #require(Self.rsvg)
    let tiles = FileManager.default.temporaryDirectory.appendingPathComponent("locemu-tiles-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: tiles) }
    // One magenta tile at every position this view needs, at the zoom the snapshot picks.
    let projection = SnapshotProjection(region: region, width: 640, height: 360)
    let z = Int(log2(projection.scale / 256).rounded(.down))
    let c = WebMercator.project(warsaw), n = Double(1 << z)
    let tile = tiles.appendingPathComponent("tile.svg")
    try FileManager.default.createDirectory(at: tiles, withIntermediateDirectories: true)
    try "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"256\" height=\"256\"><rect width=\"256\" height=\"256\" fill=\"#FF00FF\"/></svg>"
      .write(to: tile, atomically: true, encoding: .utf8)
    let png = tiles.appendingPathComponent("tile.png").path
    #expect(try run(rsvg, ["-o", png, tile.path]).status == 0)
    for dx in -2...2 {
      for dy in -2...2 {
        let x = Int(c.x * n) + dx, y = Int(c.y * n) + dy
        let dir = tiles.appendingPathComponent("\(z)/\(x)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: png, toPath: dir.appendingPathComponent("\(y).png").path)
      }
    }
    let snapshot = try SVGMapSnapshotter(tilesDirectory: tiles.path).render(MapSnapshotRequest(region: region, pins: [missing]))
    #expect(snapshot.tileCount > 0)
    let m = snapshot.projection.point(for: missing.coordinate)
    let colours = try pixels(of: snapshot.svg, at: [(40, 40), (m.x, m.y)])
    #expect(Array(colours[0].prefix(3)) == [255, 0, 255])
    #expect(Array(colours[1].prefix(3)) == rgb(LegendItem.color(of: .missing)))
    // Without tiles there, the plain background.
    #expect(try SVGMapSnapshotter(tilesDirectory: "/nonexistent").render(MapSnapshotRequest(region: region)).tileCount == 0)

    // The same tiles in an MBTiles file (SQLite; rows counted from the south), made by Python's sqlite3.
    let mbtiles = tiles.appendingPathComponent("tiles.mbtiles").path
    let rows = (-2...2).flatMap { dx in (-2...2).map { dy in "(\(z), \(Int(c.x * n) + dx), \((1 << z) - 1 - (Int(c.y * n) + dy)))" } }
    let script = """
      import sqlite3, sys
      db = sqlite3.connect(sys.argv[1]); tile = open(sys.argv[2], 'rb').read()
      db.execute('CREATE TABLE metadata (name TEXT, value TEXT)'); db.execute("INSERT INTO metadata VALUES ('format', 'png')")
      db.execute('CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)')
      for z, x, y in [\(rows.joined(separator: ", "))]: db.execute('INSERT INTO tiles VALUES (?, ?, ?, ?)', (z, x, y, tile))
      db.commit()
      """
    #expect(try run("/usr/bin/env", ["python3", "-c", script, mbtiles, png]).status == 0)
    let fromFile = try SVGMapSnapshotter(tilesDirectory: mbtiles).render(MapSnapshotRequest(region: region, pins: [missing]))
    #expect(fromFile.tileCount == snapshot.tileCount)
    let again = try pixels(of: fromFile.svg, at: [(40, 40), (m.x, m.y)])
    #expect(Array(again[0].prefix(3)) == [255, 0, 255])
    #expect(Array(again[1].prefix(3)) == rgb(LegendItem.color(of: .missing)))
  }

  @Test func snapshot_US2_AS3_FR008_legendStaysInACornerClearOfTheCentre() throws {
    let svg = try SVGMapSnapshotter().render(MapSnapshotRequest(region: region, legend: LegendItem.legend(MapStrings(.polish)))).svg
    #expect(svg.contains("Zaginione") && svg.contains("Znalezione"))
    let legend = try #require(svg.range(of: "<g class=\"legend\"><rect "))
    let attributes = svg[legend.upperBound...].prefix(80)
    func value(_ name: String) -> Double {
      let start = attributes.range(of: "\(name)=\"")!.upperBound
      return Double(attributes[start...].prefix { $0 != "\"" })!
    }
    let x = value("x"), y = value("y"), w = value("width"), h = value("height")
    #expect(x > 320 && y > 180)  // the bottom-right quarter
    #expect(w * h < 640 * 360 * 0.1)
    #expect(x + w <= 640 && y + h <= 360)
  }

  @Test func snapshot_scaleBarIsARoundDistance() throws {
    let svg = try SVGMapSnapshotter().render(MapSnapshotRequest(region: region)).svg
    // 640 px over ~35 km: a quarter of the width is ~8.9 km, so the bar is 5 km.
    #expect(svg.contains(">5 km</text>"))
  }

  @Test func snapshot_invalidSizeFails() {
    #expect(throws: MapSnapshotError.invalidSize(width: 0, height: 360)) {
      try SVGMapSnapshotter().render(MapSnapshotRequest(region: region, width: 0, height: 360))
    }
  }

  @Test func snapshot_writeFailureIsThePreviewsErrorState() async throws {
    let h = PreviewHarness(snapshotter: SVGMapSnapshotter(outputPath: "/nonexistent/dir/preview.svg"))
    try await h.start()
    await h.deliverFix()
    #expect(h.state.name == "error")
    if case .snapshotFailed(let reason) = h.preview.lastError {
      #expect(reason.contains("/nonexistent/dir/preview.svg"))
    } else {
      Issue.record("expected a snapshot failure, got \(String(describing: h.preview.lastError))")
    }
  }

  @Test func snapshot_previewWritesTheFileWhenTheMapLoads() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("locemu-preview-\(UUID().uuidString).svg").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let h = PreviewHarness(
      repository: FileAnnouncementRepository([announcement("p1", north(of: warsaw, 2_000))]),
      snapshotter: SVGMapSnapshotter(outputPath: path))
    #expect(try await h.startLoaded())
    let svg = try String(contentsOfFile: path, encoding: .utf8)
    #expect(svg.contains("data-id=\"p1\""))
    #expect(h.preview.snapshot?.svg == svg)
  }
}
