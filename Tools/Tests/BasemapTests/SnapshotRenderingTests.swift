import Foundation
import Basemap
import Geo
import MapRendering
import PetMap
import Testing
import ToolsTestSupport
import LocationModel

/// The SVG snapshot (the platform's MKMapSnapshotter) drawn by a real SVG renderer
/// (rsvg-convert): pins at their pixels, raster tiles under them from a directory and from an
/// MBTiles file.
@Suite struct SnapshotRenderingTests {
  let region = warsaw.mapRegion(radiusMeters: 10_000).fitted(aspectRatio: 16.0 / 9.0)
  let missing = PinModel(id: "m", coordinate: north(of: warsaw, 6_000), status: .active)
  let found = PinModel(
    id: "f", coordinate: Coordinate(latitude: warsaw.latitude - 0.04, longitude: warsaw.longitude - 0.15)!, status: .found)

  @Test func snapshot_FR002_pinsLandAtTheirCoordinatesInARealRenderer() async throws {
    let request = MapSnapshotRequest(
      region: region, pins: [missing.mapPin, found.mapPin], userLocation: warsaw,
      legend: LegendItem.legend(MapStrings()).map(\.entry))
    let snapshot = try SVGMapSnapshotter().render(request)
    let p = snapshot.projection
    let user = p.point(for: warsaw), m = p.point(for: missing.coordinate), f = p.point(for: found.coordinate)
    // Independent of the projection code: the user is in the middle; 6 km north is 6000 m / (m per pixel) up
    // (Mercator's scale grows ~0.1 % over 6 km here); 0.15° west is a fixed share of the 16:9 width.
    #expect(abs(user.x - 320) < 0.01 && abs(user.y - 180) < 0.01)
    let metersPerPixel = 2 * Double.pi * Coordinate.earthRadius * cos(warsaw.latitude * .pi / 180) / p.scale
    #expect(abs(m.y - (180 - 6_000 / metersPerPixel)) < 1.5)
    #expect(abs(f.x - (320 - 0.15 / region.longitudeDelta * 640)) < 0.5)
    let colours = try await svgPixels(snapshot.svg, at: [(user.x, user.y), (m.x, m.y), (f.x, f.y), (m.x + 12, m.y)])
    #expect(Array(colours[0].prefix(3)) == SVGPixels.rgb("#1E88E5"))
    #expect(Array(colours[1].prefix(3)) == SVGPixels.rgb(LegendItem.color(of: .missing)))
    #expect(Array(colours[2].prefix(3)) == SVGPixels.rgb(LegendItem.color(of: .found)))
    // Just beside a pin is the map, not the pin.
    #expect(Array(colours[3].prefix(3)) != SVGPixels.rgb(LegendItem.color(of: .missing)))
  }

  @Test func snapshot_drawsRasterTilesFromALocalDirectoryUnderThePins() async throws {
    let rsvg = try #require(SVGPixels.rsvg)
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
    let converted = try await runOffPool(rsvg, ["-o", png, tile.path])
    #expect(converted.status == 0, "rsvg-convert: \(converted.stderr)")
    for dx in -2...2 {
      for dy in -2...2 {
        let x = Int(c.x * n) + dx, y = Int(c.y * n) + dy
        let dir = tiles.appendingPathComponent("\(z)/\(x)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: png, toPath: dir.appendingPathComponent("\(y).png").path)
      }
    }
    let snapshot = try SVGMapSnapshotter(layers: [TileDirectoryLayer(path: tiles.path)]).render(
      MapSnapshotRequest(region: region, pins: [missing.mapPin]))
    #expect(snapshot.tileCount > 0)
    let m = snapshot.projection.point(for: missing.coordinate)
    let colours = try await svgPixels(snapshot.svg, at: [(40, 40), (m.x, m.y)])
    #expect(Array(colours[0].prefix(3)) == [255, 0, 255])
    #expect(Array(colours[1].prefix(3)) == SVGPixels.rgb(LegendItem.color(of: .missing)))
    // Without tiles there, the plain background.
    #expect(
      try SVGMapSnapshotter(layers: [TileDirectoryLayer(path: "/nonexistent")]).render(MapSnapshotRequest(region: region)).tileCount == 0)

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
    let written = try await runOffPool("/usr/bin/env", ["python3", "-c", script, mbtiles, png])
    #expect(written.status == 0, "python3: \(written.stderr)")
    let fromFile = try SVGMapSnapshotter(layers: [try MBTiles(path: mbtiles)]).render(
      MapSnapshotRequest(region: region, pins: [missing.mapPin]))
    #expect(fromFile.tileCount == snapshot.tileCount)
    let again = try await svgPixels(fromFile.svg, at: [(40, 40), (m.x, m.y)])
    #expect(Array(again[0].prefix(3)) == [255, 0, 255])
    #expect(Array(again[1].prefix(3)) == SVGPixels.rgb(LegendItem.color(of: .missing)))
  }
}
