import Geo
public import LocationModel

/// What a feature of the basemap is, in the order the renderer draws them (areas first, then
/// waterways, roads from small to large, railways, labels). A shoreline file
/// (``ShorelineBuilder``) holds only the four GSHHG levels: land, lakes, islands in lakes and
/// ponds on those islands, drawn in that order over the sea.
public enum BasemapKind: Int, Sendable, Hashable, CaseIterable {
  case forest = 1, park, water, building
  case land = 5, lake, lakeIsland, pond
  case stream = 10, river, coastline
  case footway = 20, service, residential, tertiary, secondary, primary, trunk, motorway
  case railway = 40
  case place = 50, station

  public var isArea: Bool { rawValue < 10 }
  public var isLabel: Bool { rawValue >= 50 }
  public var isRoad: Bool { (20..<40).contains(rawValue) }
  /// One of the shoreline's levels (GSHHG's 1–4).
  public var isShoreline: Bool { (5...8).contains(rawValue) }

  /// What OpenStreetMap's tags make of an element, nil for what the basemap leaves out.
  /// `closed`: a way whose first and last nodes are the same (an area can only be that).
  static func classify(_ tags: [String: String], closed: Bool, isNode: Bool = false) -> BasemapKind? {
    if isNode {
      guard tags["name"] != nil else { return nil }
      if let place = tags["place"], ["city", "town", "suburb", "quarter", "neighbourhood", "village", "island"].contains(place) {
        return .place
      }
      if tags["railway"] == "station" || (tags["public_transport"] == "station" && tags["railway"] != nil) { return .station }
      return nil
    }
    if closed, tags["area"] != "no" {
      if tags["natural"] == "water" || tags["water"] != nil || tags["waterway"] == "riverbank"
        || ["reservoir", "basin"].contains(tags["landuse"] ?? "")
      {
        return .water
      }
      if let building = tags["building"], building != "no" { return .building }
    }
    if let highway = tags["highway"], tags["area"] != "yes" {
      switch highway.hasSuffix("_link") ? String(highway.dropLast(5)) : highway {
      case "motorway": return .motorway
      case "trunk": return .trunk
      case "primary": return .primary
      case "secondary": return .secondary
      case "tertiary": return .tertiary
      case "residential", "unclassified", "living_street", "road": return .residential
      case "service": return .service
      case "footway", "path", "pedestrian", "cycleway", "steps", "track", "bridleway": return .footway
      default: break
      }
    }
    if let railway = tags["railway"], ["rail", "light_rail", "subway", "tram", "narrow_gauge"].contains(railway) { return .railway }
    if let waterway = tags["waterway"] {
      if ["river", "canal"].contains(waterway) { return .river }
      if ["stream", "ditch", "drain"].contains(waterway) { return .stream }
    }
    if tags["natural"] == "coastline" { return .coastline }
    if closed {
      let leisure = tags["leisure"] ?? "", landuse = tags["landuse"] ?? "", natural = tags["natural"] ?? ""
      if ["park", "garden", "playground", "pitch", "nature_reserve", "golf_course"].contains(leisure)
        || ["grass", "recreation_ground", "village_green", "meadow", "cemetery", "allotments"].contains(landuse)
      {
        return .park
      }
      if landuse == "forest" || ["wood", "scrub"].contains(natural) { return .forest }
    }
    return nil
  }
}

/// One feature: its kind, its name (roads, places), and its shape — rings of an area (the
/// first outer, the rest holes or more outers, drawn even-odd), one line, or one point.
public struct BasemapFeature: Sendable, Hashable {
  public var kind: BasemapKind
  public var name: String?
  public var rings: [[Coordinate]]

  public init(kind: BasemapKind, name: String?, rings: [[Coordinate]]) {
    self.kind = kind
    self.name = name
    self.rings = rings
  }
}

/// Shapes as stored: 1e-7 degrees, delta- and zigzag-varint-coded (a few bytes a point).
enum GeometryCoding {
  static let scale = 1e7

  static func encode(_ rings: [[(lat: Int32, lon: Int32)]]) -> [UInt8] {
    var out: [UInt8] = []
    varint(UInt64(rings.count), &out)
    var last: (lat: Int32, lon: Int32) = (0, 0)
    for ring in rings {
      varint(UInt64(ring.count), &out)
      for point in ring {
        varint(zigzag(Int64(point.lat) - Int64(last.lat)), &out)
        varint(zigzag(Int64(point.lon) - Int64(last.lon)), &out)
        last = point
      }
    }
    return out
  }

  static func decode(_ bytes: some Collection<UInt8>) -> [[Coordinate]]? {
    var iterator = bytes.makeIterator()
    func next() -> UInt64? {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while let byte = iterator.next() {
        value |= UInt64(byte & 0x7f) << shift
        if byte & 0x80 == 0 { return value }
        shift += 7
        if shift > 63 { return nil }
      }
      return nil
    }
    guard let ringCount = next(), ringCount < 1 << 20 else { return nil }
    var lat: Int64 = 0, lon: Int64 = 0
    var rings: [[Coordinate]] = []
    for _ in 0..<ringCount {
      guard let count = next(), count < 1 << 24 else { return nil }
      var ring: [Coordinate] = []
      ring.reserveCapacity(Int(count))
      for _ in 0..<count {
        guard let dLat = next(), let dLon = next() else { return nil }
        lat += unzigzag(dLat)
        lon += unzigzag(dLon)
        guard let c = Coordinate(latitude: Double(lat) / scale, longitude: Double(lon) / scale) else { return nil }
        ring.append(c)
      }
      rings.append(ring)
    }
    return rings
  }

  static func varint(_ value: UInt64, _ out: inout [UInt8]) {
    var v = value
    while v >= 0x80 {
      out.append(UInt8(v & 0x7f) | 0x80)
      v >>= 7
    }
    out.append(UInt8(v))
  }

  static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
  static func unzigzag(_ v: UInt64) -> Int64 { Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1) }
}
