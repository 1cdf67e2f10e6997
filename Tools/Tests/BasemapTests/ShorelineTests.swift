@testable import Basemap
import Foundation
import Geo
import LocationModel
import MapRendering
import PetMap
import Testing
import ToolsTestSupport

/// Land and sea from GSHHG (issue 22, item 6): GMT's per-bin pieces joined into polygons (across
/// bins, the antimeridian and round the pole), cut into 1° cells without losing or gaining
/// area, and the bundled Gulf of Finland drawn under the main job's preview with the sea where
/// Helsinki's is, through a real SVG renderer.
@Suite("Shoreline: land and sea from GSHHG")
struct ShorelineTests {
  static let bundled = repositoryFile("data/shoreline/gulf-of-finland.basemap")

  /// Builds `dump` into a temporary file: the summary and the features, by kind.
  static func build(_ dump: String) throws -> (ShorelineBuilder.Summary, [BasemapKind: [BasemapFeature]]) {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shoreline-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let input = dir.appendingPathComponent("dump.txt").path, output = dir.appendingPathComponent("shore.basemap").path
    try dump.write(toFile: input, atomically: true, encoding: .utf8)
    let summary = try ShorelineBuilder.build(gmtDump: input, output: output, resolution: "x")
    let map = try Basemap(path: output)
    #expect(map.shoreline == "GSHHG (resolution x)")
    let features = try map.features(south: -90, north: 90, west: -180, east: 180)
    return (summary, Dictionary(grouping: features, by: \.kind))
  }

  /// Square degrees inside a feature's rings (each ring's shoelace area, absolute).
  static func area(_ features: [BasemapFeature]?) -> Double {
    var total = 0.0
    for ring in (features ?? []).flatMap(\.rings) {
      var twice = 0.0
      for (a, b) in zip(ring, ring.dropFirst()) { twice += a.longitude * b.latitude - b.longitude * a.latitude }
      total += abs(twice) / 2
    }
    return total
  }

  /// Every point of every ring inside one 1° cell, and every longitude within ±180°.
  static func inOneCell(_ feature: BasemapFeature) -> Bool {
    let points = feature.rings.flatMap { $0 }
    guard let west = points.map(\.longitude).min(), let south = points.map(\.latitude).min() else { return false }
    let x = (west + 1e-9).rounded(.down), y = (south + 1e-9).rounded(.down)
    return points.allSatisfy {
      $0.longitude >= x - 1e-9 && $0.longitude <= x + 1 + 1e-9 && $0.latitude >= y - 1e-9 && $0.latitude <= y + 1 + 1e-9
        && abs($0.longitude) <= 180
    }
  }

  @Test func piecesCutAtABinEdgeJoinIntoTheirPolygonAndTheCellsKeepItsArea() throws {
    // A 1° square island across four cells, cut by GMT at a bin edge (longitude 1) into two
    // pieces, and a lake on it that fits one cell.
    let (summary, kinds) = try Self.build(
      """
      > Shore Bin # 1, Level 1
      1\t0.5
      1.5\t0.5
      1.5\t1.5
      1\t1.5
      > Shore Bin # 2, Level 1
      1\t1.5
      0.5\t1.5
      0.5\t0.5
      1\t0.5
      > Shore Bin # 1, Level 2
      1.2\t1.2
      1.3\t1.2
      1.3\t1.3
      1.2\t1.3
      1.2\t1.2
      """)
    #expect(summary.pieces == 3 && summary.malformed == 0 && summary.unclosed == 0)
    #expect(summary.polygons == [1: 1, 2: 1])
    #expect(kinds[.land]?.count == 4 && kinds[.lake]?.count == 1)
    #expect(abs(Self.area(kinds[.land]) - 1) < 1e-9)
    #expect(abs(Self.area(kinds[.lake]) - 0.01) < 1e-9)
    #expect((kinds[.land] ?? []).filter { !Self.inOneCell($0) }.count == 0)
  }

  @Test func aPolygonAcrossTheAntimeridianClosesAndLandsOnBothSides() throws {
    // An island from 179.5° E to 179.5° W: GMT gives the part west of the line and the part east of it.
    let (summary, kinds) = try Self.build(
      """
      > Shore Bin # 71, Level 1
      180\t11
      179.5\t11
      179.5\t10
      180\t10
      > Shore Bin # 0, Level 1
      -180\t10
      -179.5\t10
      -179.5\t11
      -180\t11
      """)
    #expect(summary.unclosed == 0 && summary.polygons == [1: 1])
    let land = try #require(kinds[.land])
    #expect(land.count == 2)
    #expect(land.filter { !Self.inOneCell($0) }.count == 0)
    #expect(Set(land.map { $0.rings[0].map(\.longitude).min()! < 0 }) == [true, false])
    #expect(abs(Self.area(land) - 1 * 0.5 * 2) < 1e-9)
  }

  /// A map across the antimeridian draws the cells of both sides.
  @Test func aMapAcrossTheAntimeridianDrawsBothSides() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shoreline-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let input = dir.appendingPathComponent("dump.txt").path, output = dir.appendingPathComponent("shore.basemap").path
    try
      "> Shore Bin # 71, Level 1\n180 10.6\n179.9 10.6\n179.9 10.4\n180 10.4\n> Shore Bin # 0, Level 1\n-180 10.4\n-179.9 10.4\n-179.9 10.6\n-180 10.6\n"
      .write(toFile: input, atomically: true, encoding: .utf8)
    _ = try ShorelineBuilder.build(gmtDump: input, output: output)
    let center = Coordinate(latitude: 10.5, longitude: 179.99)!
    let snapshot = try SVGMapSnapshotter(layers: [try Basemap(path: output)], radiusMeters: nil).render(
      MapSnapshotRequest(region: center.mapRegion(radiusMeters: 20_000).fitted(aspectRatio: 16.0 / 9.0)))
    let p = snapshot.projection
    let points = [(10.5, 179.95), (10.5, -179.95), (10.5, 179.8), (10.5, -179.8)].map {
      p.point(for: Coordinate(latitude: $0.0, longitude: $0.1)!)
    }
    let colours = try await svgPixels(snapshot.svg, at: points.map { ($0.x, $0.y) }).map { Array($0.prefix(3)) }
    #expect(colours == [SVGPixels.rgb("#F2EFE9"), SVGPixels.rgb("#F2EFE9"), SVGPixels.rgb("#AAD3DF"), SVGPixels.rgb("#AAD3DF")])
  }

  @Test func aPolygonRoundTheGlobeIsClosedAlongThePole() throws {
    // Antarctica's kind: the coast runs all the way round, land to the south.
    let (summary, kinds) = try Self.build(
      """
      > Shore Bin # 0, Level 1
      -180\t-88
      0\t-88.5
      > Shore Bin # 1, Level 1
      0\t-88.5
      180\t-88
      """)
    #expect(summary.unclosed == 0 && summary.polygons == [1: 1])
    let land = try #require(kinds[.land])
    #expect(land.count == 720)
    #expect(land.filter { !Self.inOneCell($0) }.count == 0)
    // Between the pole and a coast from 88° S at ±180° to 88.5° S at 0°: 360° × 1.75° on average.
    #expect(abs(Self.area(land) - 630) < 1e-6)
  }

  @Test func badLinesAreCountedOpenChainsLeftOutAndNothingAtAllIsAClearError() throws {
    let (summary, kinds) = try Self.build(
      """
      # a comment
      > Shore Bin # 1, Level 1
      0.2 0.2
      0.4 0.2
      0.4 0.4
      0.2 0.2
      not a point
      > Shore Bin # 2, Level 9
      5 5
      6 6
      > Shore Bin # 3, Level 1
      10 10
      10.5 10.5
      """)
    #expect(summary.malformed == 2)
    #expect(summary.unclosed == 1)
    #expect(summary.polygons == [1: 1] && kinds[.land]?.count == 1)
    #expect(throws: BasemapError.self) { try Self.build("> Shore Bin # 1, Level 1\n1 1\n2 2\n") }
    #expect(throws: BasemapError.self) { try ShorelineBuilder.build(gmtDump: "/nonexistent/dump.txt", output: "/tmp/x.basemap") }
  }

  /// The main job's preview (scripts/run.sh): 10 km around the walk in Helsinki, the bundled
  /// shoreline under the city's streets. More than a third of it is sea, and the sea and the
  /// land are where the city's are.
  @Test func snapshot_FR002_thePreviewOfHelsinkiShowsTheSeaWhereItIs() async throws {
    let shore = try Basemap(path: Self.bundled)
    #expect(shore.shoreline?.hasPrefix("GSHHG") == true)
    let (city, _) = try BasemapTests.built.get()
    let center = Coordinate(latitude: 60.1712049, longitude: 24.9417355)!
    let region = center.mapRegion(radiusMeters: 10_000).fitted(aspectRatio: 16.0 / 9.0)
    let request = MapSnapshotRequest(region: region, userLocation: center, legend: LegendItem.legend(MapStrings()).map(\.entry))
    let snapshot = try SVGMapSnapshotter(layers: [shore, city]).render(request)
    #expect(snapshot.svg.contains("GSHHG (Wessel &amp; Smith, LGPL); © OpenStreetMap contributors"))
    let p = snapshot.projection
    let sea: [(Double, Double)] = [(60.10, 24.95), (60.12, 25.10), (60.13, 24.85)]
    let land: [(Double, Double)] = [(60.20, 24.93), (60.245, 24.85), (60.215, 25.08), (60.22, 24.70)]
    let points = (sea + land).map { p.point(for: Coordinate(latitude: $0.0, longitude: $0.1)!) }.map { ($0.x, $0.y) }
    // Water and land, as drawn or under the search circle's tint.
    let (pixels, counts, total) = try await svgInspection(snapshot.svg, at: points, counting: [("#AAD3DF", 12)])
    func near(_ pixel: [Int], _ hex: String) -> Bool { zip(pixel, SVGPixels.rgb(hex)).allSatisfy { abs($0 - $1) <= 14 } }
    for (index, pixel) in pixels.enumerated() {
      if index < sea.count {
        #expect(near(pixel, "#AAD3DF"), "sea at \(sea[index]) is \(pixel)")
      } else {
        #expect(!near(pixel, "#AAD3DF"), "land at \(land[index - sea.count]) is \(pixel)")
      }
    }
    #expect(Double(counts[0]) > Double(total) / 3, "\(counts[0]) sea pixels of \(total)")
  }

  /// Labels keep clear of the pins and of each other: pins right on the places' points push
  /// their names aside (above, below or beside) rather than under the pins.
  @Test func snapshot_labelsKeepClearOfPinsAndEachOther() throws {
    let (city, _) = try BasemapTests.built.get()
    let center = Coordinate(latitude: 60.1716, longitude: 24.9440)!
    let region = center.mapRegion(radiusMeters: 700).fitted(aspectRatio: 16.0 / 9.0)
    let places = try city.features(south: 60.160, north: 60.183, west: 24.92, east: 24.97, kinds: [.place])
    #expect(places.count >= 3)
    let pins = places.enumerated().map { PinModel(id: "p\($0.offset)", coordinate: $0.element.rings[0][0], status: .active) }
    let request = MapSnapshotRequest(region: region, pins: pins.map(\.mapPin), userLocation: center)
    let snapshot = try SVGMapSnapshotter(layers: [city], radiusMeters: nil).render(request)
    let p = snapshot.projection
    let pinBoxes = pins.map { SnapshotBox(around: p.point(for: $0.coordinate), radius: 7) }
    // The place labels drawn: bold, centred, 13 px; their boxes as wide as the renderer allows for.
    let pattern = /<text x="([0-9.-]+)" y="([0-9.-]+)" font-size="13" text-anchor="middle" font-weight="bold">([^<]+)<\/text>/
    let labels = snapshot.svg.matches(of: pattern).map { match in
      let x = Double(match.1)!, y = Double(match.2)!, width = Double(match.3.count) * 13 * 0.6
      return (name: String(match.3), box: SnapshotBox(minX: x - width / 2, minY: y - 12, maxX: x + width / 2, maxY: y + 3))
    }
    #expect(labels.count >= 2, "\(labels.map(\.name))")
    for (i, label) in labels.enumerated() {
      #expect(!pinBoxes.contains { $0.overlaps(label.box) }, "\(label.name) under a pin")
      for other in labels[(i + 1)...] { #expect(!label.box.overlaps(other.box), "\(label.name) over \(other.name)") }
    }
  }
}
