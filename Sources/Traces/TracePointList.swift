/// The points of a trace document that is read whole (KML, GeoJSON): what ``GPXTraceReader``
/// makes epochs of, as it does of a GPX file's, in document order.
///
/// - KML: a `gx:Track` is a track whose points have times (`<when>` and `<gx:coord>`, paired in
///   order); a `LineString` a track without times; a `Point` a waypoint. Coordinates are
///   `longitude,latitude[,altitude]` (`<gx:coord>`: separated by spaces), altitudes in metres.
/// - GeoJSON (RFC 7946): a `LineString` or `MultiLineString` is a track, a `Point` or
///   `MultiPoint` waypoints, in a `FeatureCollection`, a `Feature`, a `GeometryCollection` or
///   alone. Times, where given, come from a feature's `properties`: `coordTimes` (one per
///   position, an array per line of a `MultiLineString`, as togeojson and Strava write them),
///   `times`, or `time` for a point. Positions are `[longitude, latitude, altitude?]`.
///
/// Positions out of range are counted and skipped, as a GPX file's are. ``kml(_:)`` reads KML
/// (in `KML.swift`), ``geoJSON(_:)`` GeoJSON through the model ``GeoJSON`` (in `GeoJSON.swift`).
struct TracePointList: TracePointSource {
  private(set) var items: [GPXPointStream.Item]
  private(set) var invalidPoints: Int
  private var index = 0

  init(items: [GPXPointStream.Item], invalidPoints: Int) {
    self.items = items
    self.invalidPoints = invalidPoints
  }

  mutating func next() throws -> GPXPointStream.Item? {
    guard index < items.count else { return nil }
    defer { index += 1 }
    return items[index]
  }

  /// The largest KML or GeoJSON document read (256 MB).
  static let maximumBytes = 256 << 20

  /// All of `input`, up to ``maximumBytes``.
  static func readAll(_ input: ByteInput, what: String) throws -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = try chunk.withUnsafeMutableBytes { try input.read(into: $0) }
      if n == 0 { break }
      bytes += chunk[0..<n]
      if bytes.count > maximumBytes {
        throw TraceFileError(path: input.path, message: "\(what) larger than \(maximumBytes >> 20) MB")
      }
    }
    input.close()
    return bytes
  }
}

/// Where ``GPXTraceReader`` takes its points from: a GPX file's stream, or a document read whole.
protocol TracePointSource {
  /// Points skipped because their position was missing or out of range.
  var invalidPoints: Int { get }
  mutating func next() throws -> GPXPointStream.Item?
}

extension GPXPointStream: TracePointSource {}
