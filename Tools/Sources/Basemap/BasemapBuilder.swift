import Foundation
import GRDB
import Geo
import LocationModel

/// Turns an OpenStreetMap extract (`.osm.pbf`) into a basemap file: the roads, railways,
/// waterways, water, parks, forests, buildings and place and station labels the snapshot
/// renderer draws, in an SQLite file with an R*Tree index over their bounding boxes, so that any
/// region's features are found without reading the rest (`locemu basemap build`).
///
/// Two passes over the extract: the first finds the multipolygon relations worth keeping
/// (lakes, parks, forests drawn from several ways) and the ways they need; the second keeps the
/// nodes' positions, makes features of tagged ways and labelled nodes, and assembles those
/// relations' rings.
public enum BasemapBuilder {
  /// What a build did.
  public struct Summary: Sendable, CustomStringConvertible {
    public var nodes = 0
    public var ways = 0
    public var relations = 0
    public var features: [BasemapKind: Int] = [:]
    /// Ways or relations left out because a node they need is not in the extract.
    public var incomplete = 0
    public var bytes = 0

    public var description: String {
      let kept = features.values.reduce(0, +)
      let kinds = BasemapKind.allCases.compactMap { kind in features[kind].map { "\($0) \(kind)" } }.joined(separator: ", ")
      return "\(nodes) nodes, \(ways) ways, \(relations) relations read; \(kept) features (\(kinds)); "
        + "\(incomplete) incomplete left out; \(bytes) bytes"
    }
  }

  /// Builds `output` from the extract at `pbf`; `output` is written whole or not at all.
  /// - Parameter progress: told after each block the bytes read and the bytes to read in all
  ///   (the extract is read twice: relations first, then nodes and ways).
  /// - Throws: ``OSMPBFError`` for an extract that cannot be read; ``BasemapError`` when the
  ///   output cannot be written or the extract holds nothing to draw.
  public static func build(
    pbf: String, output: String, progress: (_ done: Int64, _ total: Int64) -> Void = { _, _ in }
  ) throws -> Summary {
    let size = ((try? FileManager.default.attributesOfItem(atPath: pbf)[.size]) as? Int64) ?? 0
    var summary = Summary()
    // Pass 1: the relations to keep, and the ways they are made of.
    var relations: [(kind: BasemapKind, name: String?, outer: [Int64], inner: [Int64])] = []
    var neededWays = Set<Int64>()
    try forEachBlock(pbf, progress: { progress($0, 2 * size) }) { block in
      let strings = block.stringtable.s.map { String(decoding: $0, as: UTF8.self) }
      for group in block.primitivegroup {
        for relation in group.relations {
          summary.relations += 1
          let tags = Self.tags(relation.keys, relation.vals, strings)
          guard tags["type"] == "multipolygon", let kind = BasemapKind.classify(tags, closed: true), kind.isArea else { continue }
          var outer: [Int64] = [], inner: [Int64] = []
          var id: Int64 = 0
          for (index, delta) in relation.memids.enumerated() {
            id += delta
            guard index < relation.types.count, relation.types[index] == .way else { continue }
            let role = index < relation.rolesSid.count ? strings[safe: Int(relation.rolesSid[index])] ?? "" : ""
            if role == "inner" { inner.append(id) } else { outer.append(id) }
          }
          guard !outer.isEmpty else { continue }
          relations.append((kind, tags["name"], outer, inner))
          neededWays.formUnion(outer)
          neededWays.formUnion(inner)
        }
      }
    }

    // Pass 2: nodes, then ways (the format's order), with the features they make.
    var positions: [Int64: (lat: Int32, lon: Int32)] = [:]
    var wayRefs: [Int64: [Int64]] = [:]
    var features: [(kind: BasemapKind, name: String?, rings: [[(lat: Int32, lon: Int32)]])] = []
    try forEachBlock(pbf, progress: { progress(size + $0, 2 * size) }) { block in
      let strings = block.stringtable.s.map { String(decoding: $0, as: UTF8.self) }
      let granularity = Int64(block.granularity)
      func position(_ lat: Int64, _ lon: Int64) -> (lat: Int32, lon: Int32) {
        // Nanodegrees to 1e-7 degrees.
        (Int32(clamping: (block.latOffset + granularity * lat) / 100), Int32(clamping: (block.lonOffset + granularity * lon) / 100))
      }
      for group in block.primitivegroup {
        for node in group.nodes {
          summary.nodes += 1
          let p = position(node.lat, node.lon)
          positions[node.id] = p
          let tags = Self.tags(node.keys, node.vals, strings)
          if let kind = BasemapKind.classify(tags, closed: false, isNode: true) { features.append((kind, tags["name"], [[p]])) }
        }
        if group.hasDense {
          let dense = group.dense
          var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
          var kv = 0
          for i in 0..<dense.id.count {
            id += dense.id[i]
            lat += i < dense.lat.count ? dense.lat[i] : 0
            lon += i < dense.lon.count ? dense.lon[i] : 0
            summary.nodes += 1
            let p = position(lat, lon)
            positions[id] = p
            // keys_vals: key, value, key, value, …, 0 per node (empty when no node has tags).
            var tags: [String: String] = [:]
            while kv < dense.keysVals.count, dense.keysVals[kv] != 0 {
              if kv + 1 < dense.keysVals.count, let k = strings[safe: Int(dense.keysVals[kv])],
                let v = strings[safe: Int(dense.keysVals[kv + 1])]
              {
                tags[k] = v
              }
              kv += 2
            }
            kv += 1
            if !tags.isEmpty, let kind = BasemapKind.classify(tags, closed: false, isNode: true) {
              features.append((kind, tags["name"], [[p]]))
            }
          }
        }
        for way in group.ways {
          summary.ways += 1
          var refs: [Int64] = []
          refs.reserveCapacity(way.refs.count)
          var ref: Int64 = 0
          for delta in way.refs {
            ref += delta
            refs.append(ref)
          }
          if neededWays.contains(way.id) { wayRefs[way.id] = refs }
          guard refs.count >= 2 else { continue }
          let tags = Self.tags(way.keys, way.vals, strings)
          let closed = refs.count >= 4 && refs.first == refs.last
          guard let kind = BasemapKind.classify(tags, closed: closed) else { continue }
          guard let points = Self.points(refs, positions) else {
            summary.incomplete += 1
            continue
          }
          features.append((kind, tags["name"], [points]))
        }
      }
    }

    // Multipolygons: their ways joined end to end into rings.
    for relation in relations {
      guard let outer = Self.rings(relation.outer, wayRefs, positions), !outer.isEmpty else {
        summary.incomplete += 1
        continue
      }
      let inner = Self.rings(relation.inner, wayRefs, positions) ?? []
      features.append((relation.kind, relation.name, outer + inner))
    }
    // The sea: coastline ways (land on their left, water on their right) closed along the
    // extract's edge into water areas.
    let coastlines = features.filter { $0.kind == .coastline }.map { $0.rings[0] }
    if !coastlines.isEmpty {
      var box = (south: Int32.max, north: Int32.min, west: Int32.max, east: Int32.min)
      for p in positions.values {
        box = (min(box.south, p.lat), max(box.north, p.lat), min(box.west, p.lon), max(box.east, p.lon))
      }
      for sea in Self.sea(coastlines, box: box) { features.append((.water, nil, sea)) }
    }
    guard !features.isEmpty else { throw BasemapError(message: "\(pbf): nothing to draw (no roads, water, parks or labels)") }
    for feature in features { summary.features[feature.kind, default: 0] += 1 }
    // Whether the extract reached the coast (its sea is then exact across it: see `BasemapLayer`).
    summary.bytes = try write(features, to: output, source: pbf, meta: [("coast", coastlines.isEmpty ? "no" : "yes")])
    return summary
  }

  /// Water areas from coastline ways. OpenStreetMap draws coastlines with the land on the left
  /// and the water on the right. Ways are joined end to start into chains; a chain that closes
  /// is an island (a hole in the sea); the open ones, which the extract cut at its edge, are
  /// joined into sea polygons by walking the edge of their bounding box clockwise from one
  /// chain's end to the next chain's start, which keeps the water inside. Islands inside a sea
  /// polygon are its holes (drawn even-odd). No open chain: no sea (closed chains alone may be
  /// islands in a lake or land in a sea the extract does not show).
  /// - Parameter box: the extract's extent (south, north, west, east), whose edge closes the sea.
  static func sea(
    _ ways: [[(lat: Int32, lon: Int32)]], box: (south: Int32, north: Int32, west: Int32, east: Int32)
  )
    -> [[[(lat: Int32, lon: Int32)]]]
  {
    typealias P = (lat: Int32, lon: Int32)
    func same(_ a: P, _ b: P) -> Bool { a.lat == b.lat && a.lon == b.lon }
    var open = ways.filter { $0.count >= 2 }
    var chains: [[P]] = []
    while !open.isEmpty {
      var chain = open.removeFirst()
      var grew = true
      while grew, !same(chain[0], chain[chain.count - 1]) {
        grew = false
        if let i = open.firstIndex(where: { same($0[0], chain[chain.count - 1]) }) {
          chain += open.remove(at: i).dropFirst()
          grew = true
        } else if let i = open.firstIndex(where: { same($0[$0.count - 1], chain[0]) }) {
          chain = open.remove(at: i) + chain.dropFirst()
          grew = true
        }
      }
      chains.append(chain)
    }
    let islands = chains.filter { $0.count >= 4 && same($0[0], $0[$0.count - 1]) }
    let cut = chains.filter { !same($0[0], $0[$0.count - 1]) }
    guard !cut.isEmpty else { return [] }
    // The box the edge walk follows (widened to every coastline point, in case).
    var (south, north, west, east) = box
    for chain in chains {
      for p in chain {
        south = min(south, p.lat)
        north = max(north, p.lat)
        west = min(west, p.lon)
        east = max(east, p.lon)
      }
    }
    guard north > south, east > west else { return [] }
    // Position along the box's edge, clockwise from the north-west corner (y up: along the top
    // eastwards, down the right side, along the bottom westwards, up the left side).
    let width = Double(east) - Double(west), height = Double(north) - Double(south)
    func perimeter(_ p: P) -> Double {
      let x = Double(p.lon) - Double(west), y = Double(p.lat) - Double(south)
      let distances = [(height - y, 0), (width - x, 1), (y, 2), (x, 3)]
      switch distances.min(by: { $0.0 < $1.0 })!.1 {
      case 0: return x
      case 1: return width + (height - y)
      case 2: return width + height + (width - x)
      default: return 2 * width + height + y
      }
    }
    let corners: [(at: Double, point: P)] = [
      (0, (north, west)), (width, (north, east)), (width + height, (south, east)), (2 * width + height, (south, west)),
    ]
    let total = 2 * (width + height)
    /// The box's corners passed walking clockwise from `a` to `b`.
    func walk(from a: Double, to b: Double) -> [P] {
      let span: Double = (b - a + total).truncatingRemainder(dividingBy: total)
      let ahead: [(distance: Double, point: P)] = corners.map { corner in
        ((corner.at - a + total).truncatingRemainder(dividingBy: total), corner.point)
      }
      return ahead.filter { $0.distance > 0 && $0.distance < span }.sorted { $0.distance < $1.distance }.map(\.point)
    }
    var polygons: [[P]] = []
    var unused = Set(cut.indices)
    while let first = unused.min() {
      unused.remove(first)
      var ring = cut[first]
      var current = first
      while true {
        let end = perimeter(cut[current][cut[current].count - 1])
        // The next chain start clockwise from this end (possibly this chain's own start).
        let next = cut.indices.filter { unused.contains($0) || $0 == first }
          .min { a, b in
            let da = (perimeter(cut[a][0]) - end + total).truncatingRemainder(dividingBy: total)
            let db = (perimeter(cut[b][0]) - end + total).truncatingRemainder(dividingBy: total)
            return da < db
          }!
        ring += walk(from: end, to: perimeter(cut[next][0]))
        if next == first { break }
        unused.remove(next)
        ring += cut[next]
        current = next
      }
      ring.append(ring[0])
      polygons.append(ring)
    }
    // Each island goes with the sea polygon around it (its first point inside), as a hole.
    func inside(_ p: P, _ ring: [P]) -> Bool {
      var c = false
      for (a, b) in zip(ring, ring.dropFirst()) where (a.lat > p.lat) != (b.lat > p.lat) {
        let x = Double(b.lon - a.lon) * Double(p.lat - a.lat) / Double(b.lat - a.lat) + Double(a.lon)
        if Double(p.lon) < x { c.toggle() }
      }
      return c
    }
    return polygons.map { polygon in [polygon] + islands.filter { inside($0[0], polygon) } }
  }

  private static func forEachBlock(
    _ path: String, progress: (Int64) -> Void = { _ in }, _ body: (OSMPBF_PrimitiveBlock) throws -> Void
  ) throws {
    let reader = try OSMPBFReader(path: path)
    var sawHeader = false
    while let block = try reader.next() {
      switch block {
      case .header: sawHeader = true
      case .data(let data): try body(data)
      }
      progress(Int64(reader.offset))
    }
    guard sawHeader else { throw OSMPBFError(path: path, message: "not an OpenStreetMap PBF file (no header block)") }
  }

  static func tags(_ keys: [UInt32], _ values: [UInt32], _ strings: [String]) -> [String: String] {
    var tags: [String: String] = [:]
    for (k, v) in zip(keys, values) {
      if let key = strings[safe: Int(k)], let value = strings[safe: Int(v)] { tags[key] = value }
    }
    return tags
  }

  static func points(_ refs: [Int64], _ positions: [Int64: (lat: Int32, lon: Int32)]) -> [(lat: Int32, lon: Int32)]? {
    var out: [(lat: Int32, lon: Int32)] = []
    out.reserveCapacity(refs.count)
    for ref in refs {
      guard let p = positions[ref] else { return nil }
      out.append(p)
    }
    return out
  }

  /// Ways joined end to end into closed rings (a way may need reversing); nil when a way or a
  /// node is missing, and rings that do not close are dropped.
  static func rings(
    _ wayIDs: [Int64], _ wayRefs: [Int64: [Int64]], _ positions: [Int64: (lat: Int32, lon: Int32)]
  )
    -> [[(lat: Int32, lon: Int32)]]?
  {
    var open: [[Int64]] = []
    for id in wayIDs {
      guard let refs = wayRefs[id], refs.count >= 2 else { return nil }
      open.append(refs)
    }
    var rings: [[Int64]] = []
    while var ring = open.popLast() {
      while ring.first != ring.last {
        guard let index = open.firstIndex(where: { $0.first == ring.last || $0.last == ring.last }) else { break }
        let next = open.remove(at: index)
        ring += (next.first == ring.last ? next : next.reversed()).dropFirst()
      }
      if ring.count >= 4, ring.first == ring.last { rings.append(ring) }
    }
    var out: [[(lat: Int32, lon: Int32)]] = []
    for ring in rings {
      guard let points = points(ring, positions) else { return nil }
      out.append(points)
    }
    return out
  }

  /// Writes the features through a temporary file renamed into place; the file's size.
  /// - Parameters:
  ///   - attribution: what a map drawn from it must credit.
  ///   - meta: more entries for the `meta` table.
  static func write(
    _ features: [(kind: BasemapKind, name: String?, rings: [[(lat: Int32, lon: Int32)]])], to output: String, source: String,
    attribution: String = "© OpenStreetMap contributors (ODbL)", meta extra: [(String, String)] = []
  ) throws -> Int {
    let temporary = output + ".part-\(getpid())"
    try? FileManager.default.removeItem(atPath: temporary)
    do {
      let queue = try DatabaseQueue(path: temporary)
      try queue.write { db in
        try db.execute(sql: "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        try db.execute(sql: "CREATE TABLE feature(id INTEGER PRIMARY KEY, kind INTEGER NOT NULL, name TEXT, geometry BLOB NOT NULL)")
        try db.execute(sql: "CREATE VIRTUAL TABLE feature_box USING rtree(id, minLat, maxLat, minLon, maxLon)")
        var minLat = Int32.max, maxLat = Int32.min, minLon = Int32.max, maxLon = Int32.min
        let insert = try db.makeStatement(sql: "INSERT INTO feature(id, kind, name, geometry) VALUES (?, ?, ?, ?)")
        let box = try db.makeStatement(sql: "INSERT INTO feature_box(id, minLat, maxLat, minLon, maxLon) VALUES (?, ?, ?, ?, ?)")
        for (index, feature) in features.enumerated() {
          var fLat = (Int32.max, Int32.min), fLon = (Int32.max, Int32.min)
          for ring in feature.rings {
            for p in ring {
              fLat = (min(fLat.0, p.lat), max(fLat.1, p.lat))
              fLon = (min(fLon.0, p.lon), max(fLon.1, p.lon))
            }
          }
          minLat = min(minLat, fLat.0)
          maxLat = max(maxLat, fLat.1)
          minLon = min(minLon, fLon.0)
          maxLon = max(maxLon, fLon.1)
          try insert.execute(arguments: [index + 1, feature.kind.rawValue, feature.name, Data(GeometryCoding.encode(feature.rings))])
          try box.execute(arguments: [
            index + 1, Double(fLat.0) / GeometryCoding.scale, Double(fLat.1) / GeometryCoding.scale,
            Double(fLon.0) / GeometryCoding.scale, Double(fLon.1) / GeometryCoding.scale,
          ])
        }
        let meta: [(String, String)] =
          [
            ("format", Basemap.format), ("source", (source as NSString).lastPathComponent),
            ("attribution", attribution),
            ("bounds", [minLat, maxLat, minLon, maxLon].map { String(Double($0) / GeometryCoding.scale) }.joined(separator: ",")),
            ("features", String(features.count)),
          ] + extra
        for (key, value) in meta { try db.execute(sql: "INSERT INTO meta(key, value) VALUES (?, ?)", arguments: [key, value]) }
      }
      try queue.vacuum()
      try queue.close()
      if FileManager.default.fileExists(atPath: output) { try FileManager.default.removeItem(atPath: output) }
      try FileManager.default.moveItem(atPath: temporary, toPath: output)
    } catch {
      try? FileManager.default.removeItem(atPath: temporary)
      throw BasemapError(message: "cannot write \(output): \(error)")
    }
    return (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
  }
}

/// A basemap that cannot be built, opened or read.
public struct BasemapError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  public init(message: String) { self.message = message }
  public var description: String { message }
}

extension Array {
  subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
