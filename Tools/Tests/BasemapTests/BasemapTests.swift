@testable import Basemap
import EmulatorTesting
import Foundation
import Geo
import MapRendering
import PetMap
import SwiftProtobuf
import Testing
import ToolsTestSupport
import LocationModel

/// `SVGPixels.read` through `offPool`: it runs two child processes and waits for them.
func svgPixels(_ svg: String, at points: [(Double, Double)]) async throws -> [[Int]] {
  try await offPool { try SVGPixels.read(svg, at: points) }
}

/// `SVGPixels.inspect` through `offPool`.
func svgInspection(
  _ svg: String, at points: [(Double, Double)], counting: [(String, Int)]
) async throws -> (pixels: [[Int]], counts: [Int], total: Int) {
  try await offPool { try SVGPixels.inspect(svg, at: points, counting: counting) }
}

/// `runProcess` through `offPool`.
func runOffPool(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
  try await offPool { try runProcess(executable, arguments) }
}

/// The basemap (issue 15): the bundled Helsinki extract built into an indexed file and drawn
/// under the snapshot, checked through a real SVG renderer (rsvg-convert) at the pixels of
/// features the extract has.
@Suite("Basemap: OpenStreetMap under the snapshot")
struct BasemapTests {
  static let extract = repositoryRoot.appendingPathComponent("data/helsinki/Helsinki.osm.pbf").path
  static let helsinki = Coordinate(latitude: 60.1699, longitude: 24.9384)!

  /// The bundled extract, built once for the suite into a temporary file.
  static let built: Result<(map: Basemap, summary: BasemapBuilder.Summary), any Error> = Result {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("helsinki-\(UUID()).basemap").path
    let summary = try BasemapBuilder.build(pbf: extract, output: path)
    return (try Basemap(path: path), summary)
  }

  @Test func theExtractBuildsIntoASmallIndexedBasemap() throws {
    let (map, summary) = try Self.built.get()
    #expect(summary.nodes > 10_000 && summary.ways > 1_000)
    let streetKinds: [BasemapKind] = [.residential, .primary, .secondary]
    let streets: Int = streetKinds.reduce(0) { $0 + (summary.features[$1] ?? 0) }
    #expect(streets > 100)
    #expect((summary.features[.building] ?? 0) > 100)
    #expect((summary.features[.water] ?? 0) >= 1 && (summary.features[.park] ?? 0) >= 1)
    #expect((summary.features[.place] ?? 0) + (summary.features[.station] ?? 0) >= 1)
    #expect(summary.bytes < 8_000_000)
    #expect(map.covers(south: 60.16, north: 60.17, west: 24.93, east: 24.94))
    #expect(!map.covers(south: 52.2, north: 52.3, west: 21.0, east: 21.1))
    #expect(map.attribution.contains("OpenStreetMap contributors"))
  }

  /// Roads are drawn where the extract has them, water is water-coloured, and the pins and the
  /// user are still on top at their pixels; the attribution is in the top-right corner.
  @Test func snapshot_FR002_streetsWaterAndPinsAtTheirPixels() async throws {
    let (map, _) = try Self.built.get()
    // The middle of the extract, close in (about 2 m a pixel): streets are wide enough to hit.
    let center = Coordinate(latitude: 60.1716, longitude: 24.9440)!
    let region = center.mapRegion(radiusMeters: 400).fitted(aspectRatio: 16.0 / 9.0)
    let pin = PinModel(id: "p", coordinate: Coordinate(latitude: 60.1705, longitude: 24.9420)!, status: .active)
    let request = MapSnapshotRequest(
      region: region, pins: [pin.mapPin], userLocation: center, legend: LegendItem.legend(MapStrings()).map(\.entry))
    let snapshot = try SVGMapSnapshotter(layers: [map], radiusMeters: nil).render(request)
    let p = snapshot.projection
    #expect(snapshot.basemapFeatureCount > 100)
    #expect(snapshot.svg.contains("© OpenStreetMap contributors"))

    // Road samples: the middle of a segment of each larger road in view, away from the frame's
    // edge, the centre, and any railway or tram line (drawn over roads, as on any map).
    let box = (
      south: region.center.latitude - region.latitudeDelta / 2, north: region.center.latitude + region.latitudeDelta / 2,
      west: region.center.longitude - region.longitudeDelta / 2, east: region.center.longitude + region.longitudeDelta / 2
    )
    let roads = try map.features(south: box.south, north: box.north, west: box.west, east: box.east, kinds: [.primary, .secondary])
    // What is drawn over a primary or secondary road: railways and tram lines, larger roads (and,
    // at crossings, other roads of its class). Footways and smaller roads are drawn under it.
    let over = try map.features(
      south: box.south, north: box.north, west: box.west, east: box.east, kinds: [.railway, .primary, .trunk, .motorway])
    var samples: [(x: Double, y: Double, kind: BasemapKind)] = []
    for road in roads where samples.count < 8 {
      let line = road.rings[0].map { p.point(for: $0) }
      let others = over.filter { $0 != road }.map { $0.rings.map { $0.map { p.point(for: $0) } } }
      for (a, b) in zip(line, line.dropFirst()) where hypot(b.x - a.x, b.y - a.y) > 10 {
        let q = ((a.x + b.x) / 2, (a.y + b.y) / 2)
        guard q.0 > 40, q.0 < 600, q.1 > 40, q.1 < 320, hypot(q.0 - 320, q.1 - 180) > 12,
          !others.contains(where: { Self.distance($0, q.0, q.1) < 8 })
        else { continue }
        samples.append((q.0, q.1, road.kind))
        break
      }
    }
    try #require(samples.count >= 3, "too few primary/secondary roads in view")
    let user = p.point(for: center), pinPoint = p.point(for: pin.coordinate)
    let colours = try await svgPixels(snapshot.svg, at: samples.map { ($0.x, $0.y) } + [(user.x, user.y), (pinPoint.x, pinPoint.y)])
    let roadColours = Array(colours.prefix(samples.count)).map { Array($0.prefix(3)) }
    let fills = [BasemapKind.primary: SVGPixels.rgb("#FCD6A4"), .secondary: SVGPixels.rgb("#F7FABF")]
    // A sample may sit under a label's halo: most must be their road's fill.
    let matching = zip(samples, roadColours).filter { fills[$0.kind] == $1 }.count
    #expect(matching >= samples.count - 1, "\(roadColours)")
    #expect(Array(colours[colours.count - 2].prefix(3)) == SVGPixels.rgb("#1E88E5"))
    #expect(Array(colours[colours.count - 1].prefix(3)) == SVGPixels.rgb(LegendItem.color(of: .missing)))
    // The attribution sits in the top-right corner, far from the centre.
    let attribution = try #require(snapshot.svg.split(separator: "\n").first { $0.contains("class=\"attribution\"") })
    #expect(attribution.contains("y=\"12\"") && attribution.contains("text-anchor=\"end\""))
  }

  /// Water is water-coloured: points well inside the extract's largest lake or pond, in a
  /// close view around it (the extract's sea is drawn by coastline, not as areas).
  @Test func snapshot_waterIsWaterColoured() async throws {
    let (map, _) = try Self.built.get()
    let b = map.bounds
    let all = try map.features(south: b.south, north: b.north, west: b.west, east: b.east, kinds: [.water])
    func area(_ f: BasemapFeature) -> Double {
      let lats = f.rings[0].map(\.latitude), lons = f.rings[0].map(\.longitude)
      return (lats.max()! - lats.min()!) * (lons.max()! - lons.min()!)
    }
    let lake = try #require(all.max { area($0) < area($1) })
    let lats = lake.rings[0].map(\.latitude), lons = lake.rings[0].map(\.longitude)
    let center = Coordinate(latitude: (lats.min()! + lats.max()!) / 2, longitude: (lons.min()! + lons.max()!) / 2)!
    let region = center.mapRegion(radiusMeters: 150).fitted(aspectRatio: 16.0 / 9.0)
    let snapshot = try SVGMapSnapshotter(layers: [map], radiusMeters: nil).render(MapSnapshotRequest(region: region))
    let p = snapshot.projection
    let rings = lake.rings.map { $0.map { p.point(for: $0) } }
    var inside: [(Double, Double)] = []
    for y in stride(from: 10.0, to: 350, by: 6) {
      for x in stride(from: 10.0, to: 630, by: 6) where inside.count < 12 {
        if Self.contains(rings, x, y) && Self.distance(rings, x, y) > 4 { inside.append((x, y)) }
      }
    }
    try #require(inside.count >= 4, "no open water in view")
    let colours = try await svgPixels(snapshot.svg, at: inside).map { Array($0.prefix(3)) }
    // Something may cross the water (a footbridge, a label): most points are water.
    #expect(colours.filter { $0 == SVGPixels.rgb("#AAD3DF") }.count >= inside.count * 3 / 4, "\(colours)")
  }

  /// A 10 km preview stays small: under 500 KB of SVG.
  @Test func aTenKilometrePreviewStaysSmall() throws {
    let (map, _) = try Self.built.get()
    let region = Self.helsinki.mapRegion(radiusMeters: 10_000).fitted(aspectRatio: 16.0 / 9.0)
    let snapshot = try SVGMapSnapshotter(layers: [map]).render(MapSnapshotRequest(region: region, userLocation: Self.helsinki))
    #expect(snapshot.svg.utf8.count < 500_000, "\(snapshot.svg.utf8.count) bytes")
    #expect(snapshot.basemapFeatureCount > 100)
  }

  /// Bad input: a clear error, never a crash; a region the extract does not reach is drawn
  /// without it, and says so.
  @Test func badExtractsAreClearErrorsAndAnUncoveredRegionIsSaid() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("basemap-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let whole = try Data(contentsOf: URL(fileURLWithPath: Self.extract))
    func failure(_ data: Data?, _ name: String) -> String {
      let input = dir.appendingPathComponent(name).path
      if let data { _ = FileManager.default.createFile(atPath: input, contents: data) }
      do {
        _ = try BasemapBuilder.build(pbf: input, output: dir.appendingPathComponent(name + ".basemap").path)
        return "built"
      } catch {
        return "\(error)"
      }
    }
    #expect(failure(whole.prefix(200_000), "truncated.osm.pbf").contains("truncated"))
    #expect(failure(Data("<gpx></gpx>\n".utf8), "route.gpx").contains("not an OpenStreetMap PBF file"))
    #expect(failure(Data(), "empty.osm.pbf").contains("empty"))
    #expect(failure(nil, "missing.osm.pbf").contains("no such file"))
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("truncated.osm.pbf.basemap").path))
    #expect(throws: BasemapError.self) { try Basemap(path: Self.extract) }

    let (map, _) = try Self.built.get()
    let warsaw = Coordinate(latitude: 52.2297, longitude: 21.0122)!
    let said = Locked<[String]>([])
    let snapshot = try SVGMapSnapshotter(layers: [map], warn: { message in said.withLock { $0.append(message) } })
      .render(MapSnapshotRequest(region: warsaw.mapRegion().fitted(aspectRatio: 16.0 / 9.0), userLocation: warsaw))
    #expect(snapshot.basemapFeatureCount == 0 && !snapshot.svg.contains("OpenStreetMap"))
    #expect(said.withLock { $0 }.first?.contains("does not cover this region") == true)
  }

  /// Even-odd point in rings.
  static func contains(_ rings: [[(x: Double, y: Double)]], _ x: Double, _ y: Double) -> Bool {
    var inside = false
    for ring in rings {
      for (a, b) in zip(ring, ring.dropFirst() + [ring[0]]) where (a.y > y) != (b.y > y) {
        if x < (b.x - a.x) * (y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
      }
    }
    return inside
  }

  /// Distance from a point to the rings' edges, pixels.
  static func distance(_ rings: [[(x: Double, y: Double)]], _ x: Double, _ y: Double) -> Double {
    var best = Double.infinity
    for ring in rings {
      for (a, b) in zip(ring, ring.dropFirst()) {
        let dx = b.x - a.x, dy = b.y - a.y
        let t = max(0, min(1, ((x - a.x) * dx + (y - a.y) * dy) / max(dx * dx + dy * dy, 1e-9)))
        best = min(best, hypot(a.x + t * dx - x, a.y + t * dy - y))
      }
    }
    return best
  }

  /// The sea from coastlines: land on the left of a coastline, water on its right, closed
  /// clockwise along the extract's edge; an island in it is a hole; no open coastline, no sea.
  @Test func theSeaIsClosedAlongTheEdgeOnTheWaterSide() {
    let box: (south: Int32, north: Int32, west: Int32, east: Int32) = (0, 100, 0, 100)
    // West to east across the middle: the water is south of it.
    let coast: [(lat: Int32, lon: Int32)] = [(50, 0), (55, 50), (50, 100)]
    let island: [(lat: Int32, lon: Int32)] = [(20, 40), (25, 45), (20, 50), (20, 40)]
    let sea = BasemapBuilder.sea([Array(coast.prefix(2)), Array(coast.suffix(2)), island], box: box)
    #expect(sea.count == 1)
    let outer = sea[0][0]
    #expect(outer.map { [$0.lat, $0.lon] } == [[50, 0], [55, 50], [50, 100], [0, 100], [0, 0], [50, 0]])
    #expect(sea[0].count == 2 && sea[0][1].map(\.lat) == island.map(\.lat))
    // East to west: the water is north of it.
    let north = BasemapBuilder.sea([coast.reversed()], box: box)
    #expect(north[0][0].map { [$0.lat, $0.lon] } == [[50, 100], [55, 50], [50, 0], [100, 0], [100, 100], [50, 100]])
    // Only an island: no sea.
    #expect(BasemapBuilder.sea([island], box: box).isEmpty)
    // Two coastlines cutting off the south-west and north-east corners, land between them: two
    // sea polygons, each closed round its own corner.
    let corners = BasemapBuilder.sea([[(30, 0), (0, 30)], [(70, 100), (100, 70)]], box: box)
    #expect(
      corners.map { $0[0].map { [$0.lat, $0.lon] } } == [
        [[30, 0], [0, 30], [0, 0], [30, 0]], [[70, 100], [100, 70], [100, 100], [70, 100]],
      ])
  }

  /// End to end on an extract written here with the generated messages: a coastline across it
  /// (west to east) becomes sea south of it, drawn water-coloured; land north of it is not.
  @Test func aCoastlineInAnExtractBecomesSeaOnTheMap() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("coast-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    // Nodes 1–2: the coastline at 60.10° N; 3–4: a street from the south-west to the north-east corner.
    let nodes: [(id: Int64, lat: Double, lon: Double)] = [(1, 60.10, 24.90), (2, 60.10, 25.00), (3, 60.05, 24.90), (4, 60.15, 25.00)]
    var dense = OSMPBF_DenseNodes()
    var last: (id: Int64, lat: Int64, lon: Int64) = (0, 0, 0)
    for node in nodes {
      let lat = Int64((node.lat * 1e7).rounded()), lon = Int64((node.lon * 1e7).rounded())
      dense.id.append(node.id - last.id)
      dense.lat.append(lat - last.lat)
      dense.lon.append(lon - last.lon)
      last = (node.id, lat, lon)
    }
    var coast = OSMPBF_Way()
    coast.id = 10
    coast.keys = [1]
    coast.vals = [2]
    coast.refs = [1, 1]
    var street = OSMPBF_Way()
    street.id = 11
    street.keys = [3]
    street.vals = [4]
    street.refs = [3, 1]
    var nodesGroup = OSMPBF_PrimitiveGroup()
    nodesGroup.dense = dense
    var waysGroup = OSMPBF_PrimitiveGroup()
    waysGroup.ways = [coast, street]
    var block = OSMPBF_PrimitiveBlock()
    block.stringtable.s = ["", "natural", "coastline", "highway", "residential"].map { Data($0.utf8) }
    block.primitivegroup = [nodesGroup, waysGroup]
    var header = OSMPBF_HeaderBlock()
    header.requiredFeatures = ["OsmSchema-V0.6", "DenseNodes"]
    var file = Data()
    for (type, payload) in [("OSMHeader", try header.serializedData()), ("OSMData", try block.serializedData())] {
      var blob = OSMPBF_Blob()
      blob.raw = payload
      let blobBytes = try blob.serializedData()
      var blobHeader = OSMPBF_BlobHeader()
      blobHeader.type = type
      blobHeader.datasize = Int32(blobBytes.count)
      let headerBytes = try blobHeader.serializedData()
      file.append(contentsOf: withUnsafeBytes(of: UInt32(headerBytes.count).bigEndian) { Array($0) })
      file.append(headerBytes)
      file.append(blobBytes)
    }
    let extract = dir.appendingPathComponent("coast.osm.pbf").path, output = dir.appendingPathComponent("coast.basemap").path
    try file.write(to: URL(fileURLWithPath: extract))
    let summary = try BasemapBuilder.build(pbf: extract, output: output)
    #expect(summary.features[.coastline] == 1 && summary.features[.water] == 1 && summary.features[.residential] == 1)

    let map = try Basemap(path: output)
    let center = Coordinate(latitude: 60.10, longitude: 24.95)!
    let snapshot = try SVGMapSnapshotter(layers: [map], radiusMeters: nil).render(
      MapSnapshotRequest(region: center.mapRegion(radiusMeters: 3_000).fitted(aspectRatio: 16.0 / 9.0)))
    let p = snapshot.projection
    let south = p.point(for: Coordinate(latitude: 60.085, longitude: 24.93)!),
      north = p.point(for: Coordinate(latitude: 60.115, longitude: 24.93)!)
    let colours = try await svgPixels(snapshot.svg, at: [(south.x, south.y), (north.x, north.y)]).map { Array($0.prefix(3)) }
    #expect(colours[0] == SVGPixels.rgb("#AAD3DF"))
    #expect(colours[1] != SVGPixels.rgb("#AAD3DF"))
    #expect(map.hasCoastline == true)
    #expect(try Self.built.get().map.hasCoastline == false)

    // Over a shoreline that has only sea here, the extract's own coast wins across it: its
    // land north of the coastline is land, its sea south of it sea.
    let dump = dir.appendingPathComponent("dump.txt").path, shore = dir.appendingPathComponent("shore.basemap").path
    try "> Shore Bin # 1, Level 1\n0.2 0.2\n0.4 0.2\n0.4 0.4\n0.2 0.2\n".write(toFile: dump, atomically: true, encoding: .utf8)
    _ = try ShorelineBuilder.build(gmtDump: dump, output: shore)
    let stacked = try SVGMapSnapshotter(layers: [try Basemap(path: shore), map], radiusMeters: nil).render(
      MapSnapshotRequest(region: center.mapRegion(radiusMeters: 3_000).fitted(aspectRatio: 16.0 / 9.0)))
    let over = try await svgPixels(stacked.svg, at: [(south.x, south.y), (north.x, north.y)]).map { Array($0.prefix(3)) }
    #expect(over[0] == SVGPixels.rgb("#AAD3DF"))
    #expect(over[1] == SVGPixels.rgb("#F2EFE9"))
  }
}
