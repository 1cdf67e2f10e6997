import Foundation
import Geo
public import PetMap

extension Basemap: MapSnapshotLayer {
  /// The basemap under a snapshot (see `BasemapLayer`), with the OpenStreetMap attribution; a
  /// region it does not reach is said in ``MapLayerDrawing/notCovered`` and drawn without it.
  public func draw(_ projection: SnapshotProjection) throws -> MapLayerDrawing {
    let layer = try BasemapLayer.svg(self, projection: projection)
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
/// and names on the larger ones where they fit, railways, and place and station labels. Shapes
/// are projected, simplified to the pixel (points closer than half a pixel dropped) and left out
/// when they miss the frame, so a 10 km preview stays small.
enum BasemapLayer {
  struct Style {
    var fill: String?
    var stroke: String?
    var width: Double = 0
    var casing: String?
  }

  /// Colours that read like a familiar web map.
  static func style(_ kind: BasemapKind, metersPerPixel: Double) -> Style {
    // Road widths: metres on the ground, at least a pixel-ish minimum so they stay visible.
    func road(_ metres: Double, _ minimum: Double) -> Double { max(minimum, metres / metersPerPixel) }
    switch kind {
    case .water: return Style(fill: "#AAD3DF")
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
  static func svg(_ basemap: Basemap, projection: SnapshotProjection) throws -> (svg: String, count: Int, covered: Bool) {
    // The frame in degrees, with a margin for wide strokes and labels.
    let corners = [
      projection.coordinate(x: -20, y: -20), projection.coordinate(x: projection.width + 20, y: projection.height + 20),
    ]
    let south = min(corners[0].latitude, corners[1].latitude), north = max(corners[0].latitude, corners[1].latitude)
    let west = min(corners[0].longitude, corners[1].longitude), east = max(corners[0].longitude, corners[1].longitude)
    guard basemap.covers(south: south, north: north, west: west, east: east) else { return ("", 0, false) }
    let mpp = projection.metersPerPixel
    var kinds = Set(BasemapKind.allCases)
    if mpp > 4 { kinds.remove(.building) }
    if mpp > 12 { kinds.remove(.footway) }
    if mpp > 30 { kinds.subtract([.service, .stream]) }
    if mpp > 60 { kinds.remove(.residential) }
    let features = try basemap.features(south: south, north: north, west: west, east: east, kinds: kinds)
    var areas = "", lines = "", casings = "", labels = "", defs = ""
    var count = 0
    var labelled = 0
    // Labels never overlap: each takes its box, and one that would meet a taken box is left out.
    var taken: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []
    func place(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Bool {
      guard !taken.contains(where: { x0 < $0.x1 && x1 > $0.x0 && y0 < $0.y1 && y1 > $0.y0 }) else { return false }
      taken.append((x0, y0, x1, y1))
      return true
    }
    for (index, feature) in features.enumerated() {
      let style = style(feature.kind, metersPerPixel: mpp)
      if feature.kind.isLabel {
        guard let name = feature.name, let point = feature.rings.first?.first else { continue }
        let p = projection.point(for: point)
        guard p.x >= 0, p.x <= projection.width, p.y >= 0, p.y <= projection.height, labelled < 40 else { continue }
        let size = feature.kind == .place ? 13 : 10
        let width = Double(name.count * size) * 0.6
        let x0 = feature.kind == .place ? p.x - width / 2 : p.x - 3
        guard place(x0, p.y - Double(size), x0 + width + 6, p.y + 5) else { continue }
        if feature.kind == .station {
          labels += "<rect x=\"\(f(p.x - 3))\" y=\"\(f(p.y - 3))\" width=\"6\" height=\"6\" fill=\"#7B1FA2\"/>"
        }
        labels +=
          "<text x=\"\(f(p.x + (feature.kind == .station ? 6 : 0)))\" y=\"\(f(p.y + 4))\" font-size=\"\(size)\""
          + "\(feature.kind == .place ? " text-anchor=\"middle\" font-weight=\"bold\"" : "")>\(escaped(name))</text>\n"
        labelled += 1
        count += 1
        continue
      }
      let rings = feature.rings.map { simplified($0.map { projection.point(for: $0) }) }.filter { $0.count >= 2 }
      guard !rings.isEmpty, rings.contains(where: { touches($0, projection) }) else { continue }
      if feature.kind.isArea {
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
        // Names on the larger roads, along them, where the road is long enough for the text.
        if let name = feature.name, [.motorway, .trunk, .primary, .secondary, .tertiary].contains(feature.kind),
          length(rings[0]) > Double(name.count) * 6.5 + 20, labelled < 40
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
    let svg = """
      <g class="basemap">
      \(defs.isEmpty ? "" : "<defs>\(defs)</defs>\n")<g class="areas">
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

  static func length(_ points: [(x: Double, y: Double)]) -> Double {
    zip(points, points.dropFirst()).reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
  }

  /// One decimal: a tenth of a pixel is enough, and keeps the file small.
  static func f(_ value: Double) -> String { FixRecord.fixed(value, 1) }

}
