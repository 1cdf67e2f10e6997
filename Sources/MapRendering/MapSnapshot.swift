public import Foundation
public import Geo
public import LocationModel

#if canImport(Glibc)
  import Glibc
#endif

/// A pin to draw: where, in what colour, and the id the SVG gives it (`data-id`).
public struct MapPin: Sendable, Hashable, Identifiable {
  public var id: String
  public var coordinate: Coordinate
  /// The fill colour, `#RRGGBB`.
  public var colorHex: String

  public init(id: String, coordinate: Coordinate, colorHex: String) {
    self.id = id
    self.coordinate = coordinate
    self.colorHex = colorHex
  }
}

/// One row of a map's legend: a colour and what it means.
public struct MapLegendEntry: Sendable, Hashable {
  public var label: String
  /// The colour, `#RRGGBB`.
  public var colorHex: String

  public init(label: String, colorHex: String) {
    self.label = label
    self.colorHex = colorHex
  }
}

/// What to draw: the platform's equivalent of `MKMapSnapshotter.Options` plus the overlay.
public struct MapSnapshotRequest: Sendable, Hashable {
  public var region: MapRegion
  public var pins: [MapPin]
  public var userLocation: Coordinate?
  public var legend: [MapLegendEntry]
  /// Pixels (16:9 by default).
  public var width: Int
  public var height: Int

  public init(
    region: MapRegion, pins: [MapPin] = [], userLocation: Coordinate? = nil, legend: [MapLegendEntry] = [],
    width: Int = 640, height: Int = 360
  ) {
    self.region = region
    self.pins = pins
    self.userLocation = userLocation
    self.legend = legend
    self.width = width
    self.height = height
  }
}

/// A rendered map: the SVG document and the projection it was drawn with.
public struct MapSnapshot: Sendable, Hashable {
  public var svg: String
  public var projection: SnapshotProjection
  /// Raster tiles drawn under the map (0 without a tile directory).
  public var tileCount: Int
  /// Basemap features drawn (0 without a basemap, or where it has none).
  public var basemapFeatureCount = 0

  public init(svg: String, projection: SnapshotProjection, tileCount: Int) {
    self.svg = svg
    self.projection = projection
    self.tileCount = tileCount
  }
}

/// Where coordinates land in a snapshot: Web Mercator around the region's centre, scaled so
/// the region fills the image (the image's aspect ratio wins over the region's).
public struct SnapshotProjection: Sendable, Hashable {
  public var center: Coordinate
  public var width: Double
  public var height: Double
  /// Pixels per world unit (see `WebMercator`).
  public var scale: Double

  public init(region: MapRegion, width: Int, height: Int) {
    center = region.center
    self.width = Double(width)
    self.height = Double(height)
    let frame = WebMercator.frame(of: region)
    scale = min(self.width / max(frame.width, 1e-12), self.height / max(frame.height, 1e-12))
  }

  /// The projection of web map tile `z`/`x`/`y` (OpenStreetMap's numbering: x east from the
  /// antimeridian, y south from the top of the world square), `size` pixels square.
  /// - Precondition: `x` and `y` within `0..<2^z`, `z` within 0...30.
  public init(tileZ z: Int, x: Int, y: Int, size: Int = 256) {
    let n = Double(1 << z)
    center = WebMercator.coordinate(x: (Double(x) + 0.5) / n, y: (Double(y) + 0.5) / n)
    width = Double(size)
    height = Double(size)
    scale = Double(size) * n
  }

  /// The pixel of `coordinate` (x right, y down, origin at the top left).
  public func point(for coordinate: Coordinate) -> (x: Double, y: Double) {
    let d = WebMercator.displacement(of: coordinate, from: center)
    return (width / 2 + d.dx * scale, height / 2 + d.dy * scale)
  }

  /// The coordinate at pixel (`x`, `y`).
  public func coordinate(x: Double, y: Double) -> Coordinate {
    WebMercator.coordinate(x: origin.x + x / scale, y: origin.y + y / scale)
  }

  /// The world coordinates (`WebMercator`) of the top-left pixel.
  public var origin: (x: Double, y: Double) {
    let c = WebMercator.project(center)
    return (c.x - width / 2 / scale, c.y - height / 2 / scale)
  }

  /// Ground metres per pixel at the centre.
  public var metersPerPixel: Double { WebMercator.metersPerWorldUnit(atLatitude: center.latitude) / scale }

  /// The longest round distance — 1, 2 or 5 × 10ⁿ metres — at most `pixels` long at the
  /// centre (at least 1 m): a scale bar's length, a grid's step.
  public func roundMeters(atMostPixels pixels: Double) -> Double {
    let target = metersPerPixel * pixels
    var length = 1.0
    while length * 10 <= target { length *= 10 }
    for step in [5.0, 2.0] where length * step <= target { return length * step }
    return length
  }
}

/// What a snapshot draws under its search circle, pins and user: a basemap of streets and
/// water, raster tiles, a shoreline. Layers are drawn in the order given.
public protocol MapSnapshotLayer: Sendable {
  /// The layer's SVG for a snapshot drawn with `projection`.
  /// - Throws: when the layer's data cannot be read (the snapshot fails with it).
  func draw(_ projection: SnapshotProjection) throws -> MapLayerDrawing

  /// The layer's SVG, its labels placed clear of `keepClear`: the pixels of what the snapshot
  /// draws over the layers (pins, the user, the scale bar, the legend, the attribution).
  /// The default ignores the boxes and calls ``draw(_:)``.
  func draw(_ projection: SnapshotProjection, keepClear: [SnapshotBox]) throws -> MapLayerDrawing
}

extension MapSnapshotLayer {
  public func draw(_ projection: SnapshotProjection, keepClear: [SnapshotBox]) throws -> MapLayerDrawing {
    try draw(projection)
  }
}

/// A rectangle of a snapshot's pixels (x right, y down).
public struct SnapshotBox: Sendable, Hashable {
  public var minX: Double
  public var minY: Double
  public var maxX: Double
  public var maxY: Double

  public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
    self.minX = minX
    self.minY = minY
    self.maxX = maxX
    self.maxY = maxY
  }

  /// The square of half-side `radius` around (`x`, `y`).
  public init(around point: (x: Double, y: Double), radius: Double) {
    self.init(minX: point.x - radius, minY: point.y - radius, maxX: point.x + radius, maxY: point.y + radius)
  }

  /// Whether the two share any area.
  public func overlaps(_ other: SnapshotBox) -> Bool {
    minX < other.maxX && maxX > other.minX && minY < other.maxY && maxY > other.minY
  }
}

/// What a ``MapSnapshotLayer`` drew.
public struct MapLayerDrawing: Sendable, Hashable {
  /// SVG elements, in the snapshot's pixels.
  public var svg: String
  /// Raster tiles drawn (counted in ``MapSnapshot/tileCount``).
  public var tiles: Int
  /// Vector features drawn (counted in ``MapSnapshot/basemapFeatureCount``).
  public var features: Int
  /// Credit for the data, shown at the top right when something was drawn.
  public var attribution: String?
  /// Set when the layer's data does not reach the region: what to tell the user.
  public var notCovered: String?

  public init(svg: String, tiles: Int = 0, features: Int = 0, attribution: String? = nil, notCovered: String? = nil) {
    self.svg = svg
    self.tiles = tiles
    self.features = features
    self.attribution = attribution
    self.notCovered = notCovered
  }
}

/// Raster tiles from a local directory in OpenStreetMap's `z/x/y.png` layout, drawn at the
/// zoom whose tiles come out at 1–2 times their size. Missing tiles are left out.
public struct TileDirectoryLayer: MapSnapshotLayer {
  public var path: String

  public init(path: String) { self.path = path }

  public func draw(_ projection: SnapshotProjection) -> MapLayerDrawing {
    let path = self.path
    return Self.draw(projection) { z, x, y in FileManager.default.contents(atPath: "\(path)/\(z)/\(x)/\(y).png") }
  }

  /// Tiles from any store, `tile(z, x, y)` giving a PNG or JPEG (by its first bytes) or nil.
  public static func draw(_ projection: SnapshotProjection, tile: (Int, Int, Int) -> Data?) -> MapLayerDrawing {
    // The zoom whose tiles are drawn at 1–2× their size.
    let z = max(0, min(19, Int(log2(projection.scale / 256).rounded(.down))))
    let n = 1 << z
    let tileWorld = 1 / Double(n), tilePixels = tileWorld * projection.scale
    let origin = projection.origin
    let firstX = Int((origin.x / tileWorld).rounded(.down)),
      lastX = Int(((origin.x + projection.width / projection.scale) / tileWorld).rounded(.down))
    let firstY = max(0, Int((origin.y / tileWorld).rounded(.down)))
    let lastY = min(n - 1, Int(((origin.y + projection.height / projection.scale) / tileWorld).rounded(.down)))
    guard firstY <= lastY, lastX - firstX < 64 else { return MapLayerDrawing(svg: "") }
    var out = "", count = 0
    for ty in firstY...lastY {
      for tx in firstX...lastX {
        let wrapped = ((tx % n) + n) % n
        guard let data = tile(z, wrapped, ty) else { continue }
        let type = data.starts(with: [0xFF, 0xD8]) ? "image/jpeg" : "image/png"
        let x = (Double(tx) * tileWorld - origin.x) * projection.scale
        let y = (Double(ty) * tileWorld - origin.y) * projection.scale
        out +=
          "<image x=\(num(x)) y=\(num(y)) width=\(num(tilePixels)) height=\(num(tilePixels)) preserveAspectRatio=\"none\" "
          + "xlink:href=\"data:\(type);base64,\(data.base64EncodedString())\"/>\n"
        count += 1
      }
    }
    return MapLayerDrawing(svg: out, tiles: count)
  }
}

/// Renders map snapshots asynchronously (the platform's `MKMapSnapshotter`).
public protocol MapSnapshotting: Sendable {
  /// The snapshot of `request`.
  /// - Throws: when it cannot be made (``MapSnapshotError``); cancellation ends it.
  func snapshot(_ request: MapSnapshotRequest) async throws -> MapSnapshot
}

/// Why a snapshot failed.
public enum MapSnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
  case invalidSize(width: Int, height: Int)
  case cannotWrite(path: String, reason: String)

  public var description: String {
    switch self {
    case .invalidSize(let w, let h): "invalid snapshot size \(w)x\(h)"
    case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
    }
  }
}

/// Draws the preview as SVG: the region in Web Mercator, its ``layers`` (a basemap, raster
/// tiles) as the background, the search radius, the user's position, pins coloured by status,
/// a scale bar and the legend; and writes it to ``outputPath`` when set.
///
/// Rendering runs off the caller's task (FR-002a). A file that cannot be written fails the
/// snapshot (and so the preview, as a failed `MKMapSnapshotter` would).
public struct SVGMapSnapshotter: MapSnapshotting {
  /// Drawn under everything else, in order.
  public var layers: [any MapSnapshotLayer]
  /// Where to write the SVG, or nil to keep it in memory only.
  public var outputPath: String?
  /// The radius drawn around the user, metres (nil: none).
  public var radiusMeters: Double?
  /// Told when a layer does not reach the region drawn (the snapshot is made without it).
  public var warn: (@Sendable (String) -> Void)?

  public init(
    layers: [any MapSnapshotLayer] = [], outputPath: String? = nil, radiusMeters: Double? = 10_000,
    warn: (@Sendable (String) -> Void)? = nil
  ) {
    self.layers = layers
    self.outputPath = outputPath
    self.radiusMeters = radiusMeters
    self.warn = warn
  }

  public func snapshot(_ request: MapSnapshotRequest) async throws -> MapSnapshot {
    let renderer = self
    let snapshot = try await Task.detached { try renderer.render(request) }.value
    try Task.checkCancellation()
    if let outputPath {
      do {
        try Data(snapshot.svg.utf8).write(to: URL(fileURLWithPath: outputPath), options: .atomic)
      } catch {
        throw MapSnapshotError.cannotWrite(path: outputPath, reason: (error as NSError).localizedDescription)
      }
    }
    return snapshot
  }

  /// The snapshot, synchronously.
  public func render(_ request: MapSnapshotRequest) throws -> MapSnapshot {
    guard request.width > 0, request.height > 0, request.width <= 16_384, request.height <= 16_384 else {
      throw MapSnapshotError.invalidSize(width: request.width, height: request.height)
    }
    let projection = SnapshotProjection(region: request.region, width: request.width, height: request.height)
    let w = request.width, h = request.height
    var svg = """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="\(w)" height="\(h)" viewBox="0 0 \(w) \(h)">
      <rect width="\(w)" height="\(h)" fill="#EEF1F4"/>

      """
    var tiles = 0, features = 0
    var attributions: [String] = []
    let keepClear = overlayBoxes(request, projection)
    for layer in layers {
      let drawing = try layer.draw(projection, keepClear: keepClear)
      svg += drawing.svg
      tiles += drawing.tiles
      features += drawing.features
      if let attribution = drawing.attribution, drawing.tiles + drawing.features > 0, !attributions.contains(attribution) {
        attributions.append(attribution)
      }
      if let message = drawing.notCovered { warn?(message) }
    }
    if let radiusMeters, let user = request.userLocation {
      let r = radiusMeters / projection.metersPerPixel
      let p = projection.point(for: user)
      svg +=
        "<circle cx=\(num(p.x)) cy=\(num(p.y)) r=\(num(r)) fill=\"#1E88E5\" fill-opacity=\"0.06\" stroke=\"#1E88E5\" stroke-opacity=\"0.5\" stroke-dasharray=\"6 4\"/>\n"
    }
    for pin in request.pins {
      let p = projection.point(for: pin.coordinate)
      let color = pin.colorHex
      svg +=
        "<circle class=\"pin\" data-id=\(attr(pin.id)) cx=\(num(p.x)) cy=\(num(p.y)) r=\"7\" fill=\"\(color)\" stroke=\"#FFFFFF\" stroke-width=\"2\"/>\n"
    }
    if let user = request.userLocation {
      let p = projection.point(for: user)
      svg += "<circle class=\"user\" cx=\(num(p.x)) cy=\(num(p.y)) r=\"6\" fill=\"#1E88E5\" stroke=\"#FFFFFF\" stroke-width=\"2\"/>\n"
    }
    svg += scaleBar(projection)
    svg += legend(request.legend, width: w, height: h)
    if !attributions.isEmpty {
      // Top right, clear of the centre, the scale bar and the legend.
      svg +=
        "<text class=\"attribution\" x=\(num(Double(w) - 4)) y=\"12\" text-anchor=\"end\" font-family=\"sans-serif\" font-size=\"9\" "
        + "fill=\"#333333\" stroke=\"#FFFFFF\" stroke-width=\"2\" paint-order=\"stroke\">\(escaped(attributions.joined(separator: "; ")))</text>\n"
    }
    svg += "</svg>\n"
    var snapshot = MapSnapshot(svg: svg, projection: projection, tileCount: tiles)
    snapshot.basemapFeatureCount = features
    return snapshot
  }

  /// What the snapshot draws over its layers, as boxes the layers' labels keep clear of: the
  /// pins, the user, the scale bar, the legend and the attribution (its longest possible text).
  private func overlayBoxes(_ request: MapSnapshotRequest, _ projection: SnapshotProjection) -> [SnapshotBox] {
    var boxes = request.pins.map { SnapshotBox(around: projection.point(for: $0.coordinate), radius: 10) }
    if let user = request.userLocation { boxes.append(SnapshotBox(around: projection.point(for: user), radius: 9)) }
    let bar = scaleBarLength(projection).pixels
    boxes.append(SnapshotBox(minX: 8, minY: projection.height - 32, maxX: 16 + bar, maxY: projection.height - 6))
    if !request.legend.isEmpty {
      let h = Double(request.legend.count) * 18 + 8
      boxes.append(
        SnapshotBox(
          minX: projection.width - 120, minY: projection.height - h - 10, maxX: projection.width - 10, maxY: projection.height - 10))
    }
    boxes.append(SnapshotBox(minX: projection.width - 360, minY: 0, maxX: projection.width, maxY: 16))
    return boxes
  }

  /// The scale bar's length: 1, 2 or 5 × 10ⁿ metres, at most a quarter of the width.
  private func scaleBarLength(_ projection: SnapshotProjection) -> (meters: Double, pixels: Double) {
    let length = projection.roundMeters(atMostPixels: projection.width / 4)
    return (length, length / projection.metersPerPixel)
  }

  private func scaleBar(_ projection: SnapshotProjection) -> String {
    let (length, pixels) = scaleBarLength(projection)
    let label = length >= 1000 ? "\(Int(length / 1000)) km" : "\(Int(length)) m"
    let x = 12.0, y = projection.height - 14
    return """
      <g class="scale-bar"><rect x=\(num(x - 4)) y=\(num(y - 18)) width=\(num(pixels + 8)) height="26" fill="#FFFFFF" fill-opacity="0.8"/>\
      <path d="M\(num(x, quoted: false)) \(num(y - 4, quoted: false)) V\(num(y + 2, quoted: false)) H\(num(x + pixels, quoted: false)) V\(num(y - 4, quoted: false))" fill="none" stroke="#212121" stroke-width="2"/>\
      <text x=\(num(x)) y=\(num(y - 7)) font-family="sans-serif" font-size="11" fill="#212121">\(label)</text></g>

      """
  }

  private func legend(_ items: [MapLegendEntry], width: Int, height: Int) -> String {
    guard !items.isEmpty else { return "" }
    let rowHeight = 18.0, boxWidth = 110.0
    let boxHeight = Double(items.count) * rowHeight + 8
    let x = Double(width) - boxWidth - 10, y = Double(height) - boxHeight - 10
    var out =
      "<g class=\"legend\"><rect x=\(num(x)) y=\(num(y)) width=\(num(boxWidth)) height=\(num(boxHeight)) rx=\"4\" fill=\"#FFFFFF\" fill-opacity=\"0.9\"/>"
    for (i, item) in items.enumerated() {
      let cy = y + 4 + rowHeight * (Double(i) + 0.5)
      out += "<circle cx=\(num(x + 12)) cy=\(num(cy)) r=\"5\" fill=\"\(item.colorHex)\"/>"
      out +=
        "<text x=\(num(x + 24)) y=\(num(cy + 4)) font-family=\"sans-serif\" font-size=\"12\" fill=\"#212121\">\(escaped(item.label))</text>"
    }
    return out + "</g>\n"
  }
}

/// `value` with two decimals, as an attribute value in quotes (or bare).
func num(_ value: Double, quoted: Bool = true) -> String {
  let text = FixRecord.fixed(value, 2)
  return quoted ? "\"\(text)\"" : text
}

/// `text` as SVG text or an attribute value: `&`, `<`, `>` and `"` escaped.
public func escaped(_ text: String) -> String {
  text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
}

private func attr(_ text: String) -> String { "\"\(escaped(text))\"" }
