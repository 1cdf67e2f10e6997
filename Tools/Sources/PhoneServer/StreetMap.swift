import Basemap
import Emulator
import Foundation
import Geo
import LocationModel
import MapRendering

/// The web page's map of a phone (`/phones/{id}/map.svg?view=street`): at street zoom around
/// its position (or, before its first fix, the basemap's middle, else the default fixed
/// point), over the basemap when the server has one and a plain grid otherwise, with the trail
/// of its source's fixes, the accuracy circle of the last one and a scale bar. The root
/// element's `data-corners` (north, west, south, east, degrees) lets the page turn a click into
/// a coordinate (the map is Web Mercator).
enum StreetMap {
  /// Where a map without a fix or basemap is centred (`--fixed`'s default).
  static let defaultCenter = Coordinate(latitude: 52.2297, longitude: 21.0122)!

  /// Where a phone without a fix is shown: the middle of the last city basemap (a shoreline's
  /// middle is the whole world's), else ``defaultCenter``.
  static func center(basemaps: [Basemap]) -> Coordinate {
    basemaps.last(where: { $0.shoreline == nil }).flatMap { b in
      Coordinate(latitude: (b.bounds.south + b.bounds.north) / 2, longitude: (b.bounds.west + b.bounds.east) / 2)
    } ?? defaultCenter
  }

  /// - Parameter basemaps: drawn in order (a shoreline, then a city's streets); none: a grid.
  static func render(_ served: ServedPhone, radius: Double, basemaps: [Basemap]) -> String {
    let phone = served.phone
    let fix = phone.latestFix.flatMap { $0.hasFix && !phone.isFixLost ? $0 : nil }
    let center = fix?.coordinate ?? Self.center(basemaps: basemaps)
    let region = center.mapRegion(radiusMeters: radius).fitted(aspectRatio: 16.0 / 9.0)
    let trail = TrailLayer(trail: served.trail, position: fix?.coordinate, accuracy: fix?.horizontalAccuracy)
    let layers: [any MapSnapshotLayer] = (basemaps.isEmpty ? [GridLayer()] : basemaps) + [trail]
    let request = MapSnapshotRequest(region: region, userLocation: fix?.coordinate)
    guard let snapshot = try? SVGMapSnapshotter(layers: layers, radiusMeters: nil).render(request) else {
      return ""
    }
    let p = snapshot.projection
    let topLeft = p.coordinate(x: 0, y: 0), bottomRight = p.coordinate(x: p.width, y: p.height)
    let corners = [topLeft.latitude, topLeft.longitude, bottomRight.latitude, bottomRight.longitude].map { String($0) }
    guard let open = snapshot.svg.range(of: "<svg ") else { return snapshot.svg }
    return snapshot.svg.replacingCharacters(in: open, with: "<svg data-corners=\"\(corners.joined(separator: ","))\" ")
  }
}

/// Grid lines a round number of metres apart (the scale bar's steps), for a map without a basemap.
struct GridLayer: MapSnapshotLayer {
  func draw(_ projection: SnapshotProjection) throws -> MapLayerDrawing {
    // About eight cells across.
    let pixels = projection.roundMeters(atMostPixels: projection.width / 8) / projection.metersPerPixel
    var path = ""
    var x = (projection.width / 2).truncatingRemainder(dividingBy: pixels)
    while x <= projection.width {
      path += "M\(Self.num(x)) 0V\(Self.num(projection.height))"
      x += pixels
    }
    var y = (projection.height / 2).truncatingRemainder(dividingBy: pixels)
    while y <= projection.height {
      path += "M0 \(Self.num(y))H\(Self.num(projection.width))"
      y += pixels
    }
    return MapLayerDrawing(svg: "<path class=\"grid\" d=\"\(path)\" stroke=\"#C9CED6\" stroke-width=\"1\" fill=\"none\"/>\n")
  }

  static func num(_ value: Double) -> String { String(format: "%.1f", value) }
}

/// The phone's trail (its source's fixes, oldest first) and the accuracy circle of its position.
struct TrailLayer: MapSnapshotLayer {
  var trail: [Coordinate]
  var position: Coordinate?
  var accuracy: Double?

  func draw(_ projection: SnapshotProjection) throws -> MapLayerDrawing {
    var svg = ""
    if trail.count >= 2 {
      let points = trail.map { projection.point(for: $0) }.map { "\(GridLayer.num($0.x)),\(GridLayer.num($0.y))" }
      svg +=
        "<polyline class=\"trail\" points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"#E53935\" "
        + "stroke-width=\"3\" stroke-opacity=\"0.7\" stroke-linejoin=\"round\"/>\n"
    }
    if let position, let accuracy, accuracy > 0 {
      let p = projection.point(for: position)
      svg +=
        "<circle class=\"accuracy\" cx=\"\(GridLayer.num(p.x))\" cy=\"\(GridLayer.num(p.y))\" r=\"\(GridLayer.num(accuracy / projection.metersPerPixel))\" "
        + "fill=\"#1E88E5\" fill-opacity=\"0.15\" stroke=\"#1E88E5\" stroke-opacity=\"0.6\"/>\n"
    }
    return MapLayerDrawing(svg: svg)
  }
}
