import Foundation
import Geo
import LocationModel
public import MapRendering

extension Basemap: MapSnapshotLayer {
  /// The basemap under a snapshot (see `BasemapLayer`), with its attribution; a region it does
  /// not reach is said in ``MapLayerDrawing/notCovered`` and drawn without it.
  public func draw(_ projection: SnapshotProjection) throws -> MapLayerDrawing {
    try draw(projection, keepClear: [])
  }

  /// The basemap, its labels placed clear of each other and of `keepClear`.
  public func draw(_ projection: SnapshotProjection, keepClear: [SnapshotBox]) throws -> MapLayerDrawing {
    let layer = try BasemapLayer.svg(self, projection: projection, keepClear: keepClear)
    guard layer.covered else {
      let c = projection.center
      return MapLayerDrawing(
        svg: "",
        notCovered: "the basemap \(path) does not cover this region (around \(FixRecord.fixed(c.latitude, 4)),"
          + "\(FixRecord.fixed(c.longitude, 4))): the snapshot is drawn without it")
    }
    return MapLayerDrawing(svg: layer.svg, features: layer.count, attribution: attribution)
  }
}

extension MBTiles: MapSnapshotLayer {
  /// The file's raster tiles (PNG or JPEG) under a snapshot.
  public func draw(_ projection: SnapshotProjection) -> MapLayerDrawing {
    TileDirectoryLayer.draw(projection) { z, x, y in tile(z: z, x: x, y: y) }
  }
}

/// The basemap drawn into a snapshot, under the circle, the pins and the user: areas (water,
/// parks, forests; buildings from about 4 m a pixel), waterways, roads by class with a casing
/// and names on the larger ones where they fit, railways, and place and station labels placed
/// clear of each other and of the pins (each label tries a few positions around its point and
/// is left out when none is free). Shapes are projected, simplified to the pixel (points closer
/// than half a pixel dropped) and left out when they miss the frame, so a 10 km preview stays
/// small.
///
/// A shoreline file (``ShorelineBuilder``) is drawn as the sea over the whole frame (a region's
/// file: over its cells) with the land, lakes, islands and ponds over it, each level one path (so the 1° cells it is stored in
/// show no seams). A city's basemap whose extract reaches the coast lays land under its own
/// sea across the extract, so its exact coast wins over the coarser shoreline beneath.
enum BasemapLayer {
  struct Style {
    var fill: String?
    var stroke: String?
    var width: Double = 0
    var casing: String?
  }

  /// Water and land as a familiar web map paints them.
  static let water = "#AAD3DF", land = "#F2EFE9"

  /// Colours that read like a familiar web map.
  static func style(_ kind: BasemapKind, metersPerPixel: Double) -> Style {
    // Road widths: metres on the ground, at least a pixel-ish minimum so they stay visible.
    func road(_ metres: Double, _ minimum: Double) -> Double { max(minimum, metres / metersPerPixel) }
    switch kind {
    case .water, .lake, .pond: return Style(fill: BasemapLayer.water)
    case .land, .lakeIsland: return Style(fill: BasemapLayer.land)
    case .park: return Style(fill: "#C8FACC")
    case .forest: return Style(fill: "#ADD19E")
    case .building: return Style(fill: "#D9D0C9", stroke: "#C4B6AB", width: 0.5)
    case .river: return Style(stroke: "#AAD3DF", width: road(30, 2))
    case .stream: return Style(stroke: "#AAD3DF", width: road(6, 1))
    case .coastline: return Style(stroke: "#AAD3DF", width: 1.5)
    case .motorway: return Style(stroke: "#E892A2", width: road(24, 2.6), casing: "#DC2A67")
    case .trunk: return Style(stroke: "#F9B29C", width: road(22, 2.4), casing: "#C84E2F")
    case .primary: return Style(stroke: "#FCD6A4", width: road(20, 2.2), casing: "#A06B00")
    case .secondary: return Style(stroke: "#F7FABF", width: road(18, 2), casing: "#707D05")
    case .tertiary: return Style(stroke: "#FFFFFF", width: road(14, 1.6), casing: "#8F8F8F")
    case .residential: return Style(stroke: "#FFFFFF", width: road(10, 1.1), casing: "#BBBBBB")
    case .service: return Style(stroke: "#FFFFFF", width: road(6, 0.7))
    case .footway: return Style(stroke: "#FA8072", width: 0.8)
    case .railway: return Style(stroke: "#707070", width: 1.4)
    case .place, .station: return Style()
    }
  }

  /// The layer's SVG, how many features it drew, and whether the basemap reaches the frame at all.
  static func svg(
    _ basemap: Basemap, projection: SnapshotProjection, keepClear: [SnapshotBox] = []
  ) throws -> (
    svg: String, count: Int, covered: Bool
  ) {
    // The frame in degrees, with a margin for wide strokes and labels.
    let corners = [
      projection.coordinate(x: -20, y: -20), projection.coordinate(x: projection.width + 20, y: projection.height + 20),
    ]
    let south = min(corners[0].latitude, corners[1].latitude), north = max(corners[0].latitude, corners[1].latitude)
    // West to east: one span, or two when the frame crosses the antimeridian (its west edge's
    // longitude then above its east edge's).
    // A frame as wide as the world (a world-zoom tile) is the whole span: its edges wrap onto
    // each other.
    let west = corners[0].longitude, east = corners[1].longitude
    let wholeWorld = (projection.width + 40) / projection.scale >= 1
    let spans = wholeWorld ? [(-180.0, 180.0)] : west <= east ? [(west, east)] : [(west, 180.0), (-180.0, east)]
    guard spans.contains(where: { basemap.covers(south: south, north: north, west: $0.0, east: $0.1) }) else {
      return ("", 0, false)
    }
    let mpp = projection.metersPerPixel
    var kinds = Set(BasemapKind.allCases)
    if mpp > 4 { kinds.remove(.building) }
    if mpp > 12 { kinds.remove(.footway) }
    if mpp > 30 { kinds.subtract([.service, .stream]) }
    if mpp > 60 { kinds.remove(.residential) }
    // A city's names at country zoom would stand for a dot.
    if mpp > 200 { kinds.subtract([.place, .station]) }
    var features: [BasemapFeature] = []
    for span in spans { features += try basemap.features(south: south, north: north, west: span.0, east: span.1, kinds: kinds) }
    // Two spans' features in drawing order again (by kind; each span's own order kept).
    if spans.count > 1 {
      features = features.enumerated().sorted { ($0.element.kind.rawValue, $0.offset) < ($1.element.kind.rawValue, $1.offset) }.map(
        \.element)
    }
    var areas = "", lines = "", casings = "", labels = "", defs = ""
    var shore: [BasemapKind: String] = [:]
    var count = 0
    var labelled = 0
    // Labels never overlap: each takes its box, and one that would meet a taken box (another
    // label, or what the snapshot draws over the layers) tries its next position.
    var taken = keepClear
    func place(_ box: SnapshotBox) -> Bool {
      guard box.minX >= 0, box.maxX <= projection.width, box.minY >= 0, box.maxY <= projection.height,
        !taken.contains(where: { $0.overlaps(box) })
      else { return false }
      taken.append(box)
      return true
    }
    if !features.isEmpty, basemap.shoreline == nil,
      basemap.hasCoastline ?? features.contains(where: { $0.kind == .coastline })
    {
      // The extract's own coast: land across it under its sea (see the type's comment).
      let b = basemap.bounds
      let ring = [(b.north, b.west), (b.north, b.east), (b.south, b.east), (b.south, b.west)].compactMap {
        Coordinate(latitude: $0.0, longitude: $0.1).map { projection.point(for: $0) }
      }
      areas += "<path d=\"\(path(ring))Z\" fill=\"\(land)\"/>\n"
    }
    for (index, feature) in features.enumerated() {
      let style = style(feature.kind, metersPerPixel: mpp)
      if feature.kind.isLabel {
        guard let name = feature.name, let point = feature.rings.first?.first, labelled < 40 else { continue }
        let p = projection.point(for: point)
        guard p.x >= 0, p.x <= projection.width, p.y >= 0, p.y <= projection.height else { continue }
        let size = Double(feature.kind == .place ? 13 : 10)
        let width = Double(name.count) * size * 0.6 + 4
        if feature.kind == .place {
          // Centred on the place, else above, below, right or left of it.
          let spots: [(x: Double, y: Double)] = [
            (p.x, p.y + 4), (p.x, p.y - 14), (p.x, p.y + 24), (p.x + width / 2 + 12, p.y + 4), (p.x - width / 2 - 12, p.y + 4),
          ]
          guard
            let spot = spots.first(where: {
              place(SnapshotBox(minX: $0.x - width / 2, minY: $0.y - size, maxX: $0.x + width / 2, maxY: $0.y + 4))
            })
          else { continue }
          labels +=
            "<text x=\"\(f(spot.x))\" y=\"\(f(spot.y))\" font-size=\"13\" text-anchor=\"middle\" font-weight=\"bold\">"
            + "\(escaped(name))</text>\n"
        } else {
          // A station: its square, and its name on the right, else on the left.
          guard place(SnapshotBox(around: p, radius: 4)) else { continue }
          let right = SnapshotBox(minX: p.x + 5, minY: p.y - size, maxX: p.x + 7 + width, maxY: p.y + 5)
          let left = SnapshotBox(minX: p.x - 7 - width, minY: p.y - size, maxX: p.x - 5, maxY: p.y + 5)
          labels += "<rect x=\"\(f(p.x - 3))\" y=\"\(f(p.y - 3))\" width=\"6\" height=\"6\" fill=\"#7B1FA2\"/>"
          if place(right) {
            labels += "<text x=\"\(f(p.x + 6))\" y=\"\(f(p.y + 4))\" font-size=\"10\">\(escaped(name))</text>\n"
          } else if place(left) {
            labels +=
              "<text x=\"\(f(p.x - 6))\" y=\"\(f(p.y + 4))\" font-size=\"10\" text-anchor=\"end\">\(escaped(name))</text>\n"
          }
        }
        labelled += 1
        count += 1
        continue
      }
      let rings = feature.rings.map { simplified($0.map { projection.point(for: $0) }) }.filter { $0.count >= 2 }
      guard !rings.isEmpty, rings.contains(where: { touches($0, projection) }) else { continue }
      if feature.kind.isShoreline {
        for ring in rings where ring.count >= 3 { shore[feature.kind, default: ""] += path(ring) + "Z" }
      } else if feature.kind.isArea {
        guard rings[0].count >= 3 else { continue }
        var d = ""
        for ring in rings where ring.count >= 3 { d += path(ring) + "Z" }
        areas +=
          "<path d=\"\(d)\" fill=\"\(style.fill ?? "none")\""
          + (style.stroke.map { " stroke=\"\($0)\" stroke-width=\"\(f(style.width))\"" } ?? "") + "/>\n"
      } else {
        let d = rings.map(path).joined()
        if let casing = style.casing {
          casings += "<path d=\"\(d)\" stroke=\"\(casing)\" stroke-width=\"\(f(style.width + 1.2))\"/>\n"
        }
        let dash = feature.kind == .railway ? " stroke-dasharray=\"6 4\"" : feature.kind == .footway ? " stroke-dasharray=\"2 2\"" : ""
        let id = "r\(index)"
        lines += "<path id=\"\(id)\" d=\"\(d)\" stroke=\"\(style.stroke ?? "none")\" stroke-width=\"\(f(style.width))\"\(dash)/>\n"
        // Names on the larger roads, along them, where the road is long enough for the text
        // and the middle of the road is clear.
        if let name = feature.name, [.motorway, .trunk, .primary, .secondary, .tertiary].contains(feature.kind),
          length(rings[0]) > Double(name.count) * 6.5 + 20, labelled < 40,
          place(SnapshotBox(around: middle(rings[0]), radius: Double(name.count) * 2.7 + 2))
        {
          let ring = rings[0].first!.x <= rings[0].last!.x ? rings[0] : rings[0].reversed()
          defs += "<path id=\"\(id)t\" d=\"\(path(ring))\"/>"
          labels +=
            "<text font-size=\"9\" dy=\"3\"><textPath href=\"#\(id)t\" startOffset=\"50%\" text-anchor=\"middle\">"
            + "\(escaped(name))</textPath></text>\n"
          labelled += 1
        }
      }
      count += 1
    }
    var shoreline = ""
    if basemap.shoreline != nil {
      // The sea over the frame, or over a region's cells only (a finer coast laid over the
      // world's: the world's shows around it).
      var sea = (minX: 0.0, minY: 0.0, maxX: projection.width, maxY: projection.height)
      if basemap.isRegionalShoreline {
        let b = basemap.bounds
        if let nw = Coordinate(latitude: min(b.north, 85.05), longitude: b.west),
          let se = Coordinate(latitude: max(b.south, -85.05), longitude: b.east)
        {
          let (a, c) = (projection.point(for: nw), projection.point(for: se))
          sea = (max(0, a.x), max(0, a.y), min(projection.width, c.x), min(projection.height, c.y))
        }
      }
      shoreline =
        "<g class=\"shoreline\"><rect x=\"\(f(sea.minX))\" y=\"\(f(sea.minY))\" width=\"\(f(max(0, sea.maxX - sea.minX)))\" "
        + "height=\"\(f(max(0, sea.maxY - sea.minY)))\" fill=\"\(water)\"/>\n"
      for kind in [BasemapKind.land, .lake, .lakeIsland, .pond] {
        guard let d = shore[kind] else { continue }
        shoreline += "<path class=\"\(kind)\" d=\"\(d)\" fill=\"\(style(kind, metersPerPixel: mpp).fill ?? "none")\"/>\n"
      }
      shoreline += "</g>\n"
    }
    let svg = """
      <g class="basemap">
      \(shoreline)\(defs.isEmpty ? "" : "<defs>\(defs)</defs>\n")<g class="areas">
      \(areas)</g>
      <g class="roads" fill="none" stroke-linecap="round" stroke-linejoin="round">
      \(casings)\(lines)</g>
      <g class="labels" font-family="sans-serif" fill="#333333" stroke="#FFFFFF" stroke-width="2.5" paint-order="stroke">
      \(labels)</g>
      </g>

      """
    return (svg, count, true)
  }

  /// Points closer than half a pixel to the last kept one are dropped (the last point is kept).
  static func simplified(_ points: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
    guard points.count > 2 else { return points }
    var out = [points[0]]
    for p in points.dropFirst().dropLast() {
      let last = out[out.count - 1]
      if abs(p.x - last.x) + abs(p.y - last.y) >= 0.5 { out.append(p) }
    }
    out.append(points[points.count - 1])
    return out
  }

  static func touches(_ points: [(x: Double, y: Double)], _ projection: SnapshotProjection) -> Bool {
    var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
    for p in points {
      minX = min(minX, p.x)
      maxX = max(maxX, p.x)
      minY = min(minY, p.y)
      maxY = max(maxY, p.y)
    }
    return maxX >= 0 && minX <= projection.width && maxY >= 0 && minY <= projection.height
  }

  static func path(_ points: [(x: Double, y: Double)]) -> String {
    var d = "M\(f(points[0].x)) \(f(points[0].y))"
    for p in points.dropFirst() { d += "L\(f(p.x)) \(f(p.y))" }
    return d
  }

  /// The point halfway along a line.
  static func middle(_ points: [(x: Double, y: Double)]) -> (x: Double, y: Double) {
    var left = length(points) / 2
    for (a, b) in zip(points, points.dropFirst()) {
      let step = hypot(b.x - a.x, b.y - a.y)
      if step >= left, step > 0 { return (a.x + (b.x - a.x) * left / step, a.y + (b.y - a.y) * left / step) }
      left -= step
    }
    return points[points.count - 1]
  }

  static func length(_ points: [(x: Double, y: Double)]) -> Double {
    zip(points, points.dropFirst()).reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
  }

  /// One decimal: a tenth of a pixel is enough, and keeps the file small.
  static func f(_ value: Double) -> String { FixRecord.fixed(value, 1) }

}
