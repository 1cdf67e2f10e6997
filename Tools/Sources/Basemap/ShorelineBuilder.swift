import Foundation

/// Turns the world's shorelines (GSHHG, the Global Self-consistent Hierarchical High-resolution
/// Geography of Wessel and Smith) into a basemap file of land, lakes, islands in lakes and
/// ponds (`locemu basemap shoreline`), drawn under a city's streets so that a map of any place
/// on Earth shows where the sea is.
///
/// The input is what GMT prints for `gmt coast -Rd -D<resolution> -W -M` (GMT reads GSHHG's
/// binned netCDF files; Debian's `gmt` and `gmt-gshhg-*` packages; `scripts/make-shoreline.sh`):
/// the shorelines cut into pieces at the edges of GSHHG's bins, each piece under a
/// `> … Level N` header, one `longitude latitude` pair a line. The pieces are joined end to
/// start into GSHHG's closed polygons (across the antimeridian too; the one that goes round the
/// globe, Antarctica, is closed along the pole), then each polygon is cut into 1° cells, so a
/// map reads only the cells it shows and a cell's land is a few small rings.
public enum ShorelineBuilder {
  /// What a build did.
  public struct Summary: Sendable, CustomStringConvertible {
    /// Pieces read (GMT's per-bin segments).
    public var pieces = 0
    /// Lines neither a header nor a coordinate pair, skipped.
    public var malformed = 0
    /// Closed polygons by GSHHG level (1 land, 2 lake, 3 island in a lake, 4 pond).
    public var polygons: [Int: Int] = [:]
    /// Chains of pieces that did not close (left out).
    public var unclosed = 0
    /// Features written (one per level and 1° cell).
    public var features = 0
    public var points = 0
    public var bytes = 0

    public var description: String {
      let levels = polygons.keys.sorted().map { "\(polygons[$0]!) of level \($0)" }.joined(separator: ", ")
      return "\(pieces) pieces read, \(malformed) malformed lines skipped; polygons: \(levels); \(unclosed) unclosed left out; "
        + "\(features) features (level × 1° cell), \(points) points; \(bytes) bytes"
    }
  }

  /// A point in 1e-7 degrees; the longitude may run past ±180° while a polygon is joined.
  struct Point: Hashable {
    var lat: Int64
    var lon: Int64
  }

  static let scale = 10_000_000.0
  static let degree: Int64 = 10_000_000
  static let turn: Int64 = 360 * degree

  /// A part of the world: south, north, west, east (degrees; west > east crosses the antimeridian).
  public typealias Region = (south: Double, north: Double, west: Double, east: Double)

  /// Builds `output` (written whole or not at all) from GMT's dump at `path` (`-`: standard input).
  /// - Parameters:
  ///   - resolution: GSHHG's resolution letter the dump was made at, recorded in the file.
  ///   - region: only the 1° cells that meet it (nil: the whole world). The dump must still be
  ///     the whole world's (`-Rd`): GMT cuts pieces at the edge of a smaller region, and those
  ///     would not close.
  ///   - progress: told, as the work goes, how much of it is done of how much in all: the dump's
  ///     bytes read, then as much again for its cells cut (for a progress line).
  /// - Throws: ``BasemapError`` when the input cannot be read or holds no polygon, or the
  ///   output cannot be written.
  public static func build(
    gmtDump path: String, output: String, resolution: String? = nil, region: Region? = nil,
    progress: (_ done: Int64, _ total: Int64) -> Void = { _, _ in }
  ) throws
    -> Summary
  {
    let data: Data
    if path == "-" {
      data = FileHandle.standardInput.readDataToEndOfFile()
    } else {
      guard let read = FileManager.default.contents(atPath: path) else { throw BasemapError(message: "\(path): no such file") }
      data = read
    }
    var summary = Summary()
    let size = Int64(data.count)
    let (pieces, malformed) = parse(data) { progress($0, 2 * size) }
    summary.pieces = pieces.count
    summary.malformed = malformed
    let (rings, unclosed) = join(pieces)
    summary.unclosed = unclosed
    guard !rings.isEmpty else {
      throw BasemapError(message: "\(path): no shoreline polygons (expected the output of 'gmt coast -Rd -Di -W -M')")
    }
    var cells: [CellKey: [[Point]]] = [:]
    for ring in rings {
      summary.polygons[ring.level, default: 0] += 1
      cut(ring.points) { cell, piece in cells[CellKey(level: ring.level, x: cell.x, y: cell.y), default: []].append(piece) }
    }
    let kinds: [Int: BasemapKind] = [1: .land, 2: .lake, 3: .lakeIsland, 4: .pond]
    var features: [(kind: BasemapKind, name: String?, rings: [[(lat: Int32, lon: Int32)]])] = []
    for (index, key) in cells.keys.sorted().enumerated() {
      progress(size + size * Int64(index) / Int64(cells.count), 2 * size)
      guard let kind = kinds[key.level] else { continue }
      // The cell back into -180..<180 (a polygon joined across the antimeridian runs past it).
      let shift = floorDivide(key.x * degree + 180 * degree, turn) * turn
      if let region {
        let west = Double(key.x * degree - shift) / scale, south = Double(key.y)
        let inLongitude =
          region.west <= region.east ? west + 1 > region.west && west < region.east : west + 1 > region.west || west < region.east
        guard inLongitude, south + 1 > region.south, south < region.north else { continue }
      }
      let rings = cells[key]!.map { ring in ring.map { (lat: Int32($0.lat), lon: Int32($0.lon - shift)) } }
      summary.points += rings.reduce(0) { $0 + $1.count }
      features.append((kind, nil, rings))
    }
    summary.features = features.count
    progress(2 * size, 2 * size)
    summary.bytes = try BasemapBuilder.write(
      features, to: output, source: path == "-" ? "gmt coast" : path,
      attribution: "GSHHG (Wessel & Smith, LGPL)",
      meta: [
        (
          "shoreline",
          "GSHHG" + (resolution.map { " (resolution \($0))" } ?? "")
            + (region.map { ", region \($0.south),\($0.north),\($0.west),\($0.east)" } ?? "")
        )
      ])
    return summary
  }

  /// GMT's multisegment text as pieces with their level; lines that are neither a header nor a
  /// coordinate pair are counted. `read` is told the bytes read so far, line by line.
  static func parse(_ data: Data, read: (Int64) -> Void = { _ in }) -> (pieces: [(level: Int, points: [Point])], malformed: Int) {
    var pieces: [(level: Int, points: [Point])] = []
    var malformed = 0
    for rawLine in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
      read(Int64(rawLine.endIndex - data.startIndex))
      let line = String(decoding: rawLine, as: UTF8.self).trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") { continue }
      if line.hasPrefix(">") {
        // "> Shore Bin # 364, Level 1"
        var level = 1
        if let range = line.range(of: "Level ") {
          level = Int(line[range.upperBound...].prefix { $0.isNumber }) ?? 0
        }
        guard (1...4).contains(level) else {
          malformed += 1
          pieces.append((0, []))
          continue
        }
        pieces.append((level, []))
        continue
      }
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
      guard fields.count >= 2, let lon = Double(fields[0]), let lat = Double(fields[1]), (-90...90).contains(lat),
        (-360...360).contains(lon)
      else {
        malformed += 1
        continue
      }
      if pieces.isEmpty { pieces.append((1, [])) }
      let point = Point(lat: Int64((lat * scale).rounded()), lon: Int64((lon * scale).rounded()))
      if pieces[pieces.count - 1].points.last != point { pieces[pieces.count - 1].points.append(point) }
    }
    return (pieces.filter { $0.level > 0 && $0.points.count >= 2 }, malformed)
  }

  /// Pieces joined end to start into closed rings. A piece that ends where another starts
  /// (the same point, or the same point 360° away across the antimeridian) goes on with it,
  /// shifted by whole turns so the longitude runs on; a chain that comes back to its start a
  /// turn away went round the globe and is closed along the nearer pole.
  static func join(_ pieces: [(level: Int, points: [Point])]) -> (rings: [(level: Int, points: [Point])], unclosed: Int) {
    func key(_ p: Point) -> Point { Point(lat: p.lat, lon: p.lon - floorDivide(p.lon + 180 * degree, turn) * turn) }
    var rings: [(level: Int, points: [Point])] = []
    var open: [(level: Int, points: [Point])] = []
    for piece in pieces {
      if piece.points.count >= 4, piece.points[0] == piece.points[piece.points.count - 1] {
        rings.append(piece)
      } else {
        open.append(piece)
      }
    }
    var starts: [Point: [Int]] = [:]
    for (index, piece) in open.enumerated() { starts[key(piece.points[0]), default: []].append(index) }
    var used = [Bool](repeating: false, count: open.count)
    var unclosed = 0
    for index in open.indices where !used[index] {
      used[index] = true
      let level = open[index].level
      var chain = open[index].points
      while true {
        let first = chain[0], end = chain[chain.count - 1]
        if chain.count > 2, end.lat == first.lat, (end.lon - first.lon) % turn == 0 {
          if end.lon != first.lon {
            // Round the globe: down (or up) to the pole and back along it.
            let pole = chain.reduce(0) { $0 + $1.lat } < 0 ? -90 * degree : 90 * degree
            chain += [Point(lat: pole, lon: end.lon), Point(lat: pole, lon: first.lon), first]
          }
          if chain.count >= 4 { rings.append((level, chain)) }
          break
        }
        let candidates = starts[key(end)] ?? []
        guard let next = candidates.first(where: { !used[$0] && open[$0].level == level }) ?? candidates.first(where: { !used[$0] })
        else {
          unclosed += 1
          break
        }
        used[next] = true
        let shift = end.lon - open[next].points[0].lon
        chain += open[next].points.dropFirst().map { Point(lat: $0.lat, lon: $0.lon + shift) }
      }
    }
    return (rings, unclosed)
  }

  struct CellKey: Hashable, Comparable {
    var level: Int
    var x: Int64
    var y: Int64
    static func < (a: CellKey, b: CellKey) -> Bool { (a.level, a.y, a.x) < (b.level, b.y, b.x) }
  }

  /// A closed ring cut along the 1° grid (Sutherland–Hodgman, halving the ring's span of cells
  /// each time); `emit` gets each cell's piece, closed, with the cell's south-west corner in
  /// whole degrees. Pieces without area are left out.
  static func cut(_ ring: [Point], emit: ((x: Int64, y: Int64), [Point]) -> Void) {
    guard ring.count >= 4 else { return }
    var minLat = Int64.max, maxLat = Int64.min, minLon = Int64.max, maxLon = Int64.min
    for p in ring {
      minLat = min(minLat, p.lat)
      maxLat = max(maxLat, p.lat)
      minLon = min(minLon, p.lon)
      maxLon = max(maxLon, p.lon)
    }
    guard maxLat > minLat, maxLon > minLon, area(ring) != 0 else { return }
    let x0 = floorDivide(minLon, degree), x1 = floorDivide(maxLon - 1, degree)
    let y0 = floorDivide(minLat, degree), y1 = floorDivide(maxLat - 1, degree)
    if x0 == x1, y0 == y1 {
      emit((x0, y0), ring)
      return
    }
    let alongLongitude = x1 - x0 >= y1 - y0
    let line = (alongLongitude ? x0 + (x1 - x0 + 1) / 2 : y0 + (y1 - y0 + 1) / 2) * degree
    for keepBelow in [true, false] {
      cut(clip(ring, alongLongitude: alongLongitude, at: line, keepBelow: keepBelow), emit: emit)
    }
  }

  /// The part of a closed ring on one side of a meridian (`alongLongitude`) or a parallel.
  static func clip(_ ring: [Point], alongLongitude: Bool, at line: Int64, keepBelow: Bool) -> [Point] {
    func value(_ p: Point) -> Int64 { alongLongitude ? p.lon : p.lat }
    func inside(_ p: Point) -> Bool { keepBelow ? value(p) <= line : value(p) >= line }
    var out: [Point] = []
    out.reserveCapacity(ring.count / 2 + 4)
    func add(_ p: Point) { if out.last != p { out.append(p) } }
    for (a, b) in zip(ring, ring.dropFirst()) {
      let inA = inside(a), inB = inside(b)
      if inA { add(a) }
      if inA != inB, value(a) != line, value(b) != line {
        let t = Double(line - value(a)) / Double(value(b) - value(a))
        if alongLongitude {
          add(Point(lat: a.lat + Int64((Double(b.lat - a.lat) * t).rounded()), lon: line))
        } else {
          add(Point(lat: line, lon: a.lon + Int64((Double(b.lon - a.lon) * t).rounded())))
        }
      }
    }
    guard out.count >= 3 else { return [] }
    if out[0] != out[out.count - 1] { out.append(out[0]) }
    return out
  }

  /// Twice the signed area of a closed ring (square 1e-7 degrees), by the shoelace formula.
  static func area(_ ring: [Point]) -> Double {
    zip(ring, ring.dropFirst()).reduce(0) { $0 + Double($1.0.lon) * Double($1.1.lat) - Double($1.1.lon) * Double($1.0.lat) }
  }

  static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
  }
}
