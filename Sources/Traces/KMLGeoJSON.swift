import Foundation
import Geo
import LocationServices

#if canImport(FoundationXML)
  import FoundationXML
#endif

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
/// Positions out of range are counted and skipped, as a GPX file's are.
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

  // MARK: KML

  /// The points of a KML document.
  /// - Throws: ``TraceFileError`` when it is not KML.
  static func kml(_ input: ByteInput) throws -> TracePointList {
    let bytes = try readAll(input, what: "a KML document")
    let collector = KMLCollector()
    let parser = XMLParser(data: Data(bytes))
    parser.shouldProcessNamespaces = true
    parser.shouldResolveExternalEntities = false
    parser.delegate = collector
    if !parser.parse() {
      let message = parser.parserError.map { "\($0.localizedDescription)" } ?? "unreadable XML"
      throw TraceFileError(path: input.path, message: "not KML (line \(parser.lineNumber)): \(message)")
    }
    guard collector.sawRoot else { throw TraceFileError(path: input.path, message: "not KML: no <kml> element") }
    if let open = collector.openElement {
      throw TraceFileError(path: input.path, message: "not KML (line \(parser.lineNumber)): the document ends inside <\(open)>")
    }
    return TracePointList(items: collector.items, invalidPoints: collector.invalid)
  }

  /// Collects a KML document's points as the parser goes.
  private final class KMLCollector: NSObject, XMLParserDelegate {
    var items: [GPXPointStream.Item] = []
    var invalid = 0
    var sawRoot = false
    /// The innermost element still open once the parser stopped, if any (a cut-off document).
    var openElement: String? { path.last }
    private var text = ""
    private var path: [String] = []
    private var whens: [Date?] = []
    private var coords: [String] = []

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      if path.isEmpty && name == "kml" { sawRoot = true }
      path.append(name)
      text = ""
      if name == "Track" {
        whens = []
        coords = []
      }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
      path.removeLast()
      let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
      text = ""
      switch name {
      case "when" where path.last == "Track": whens.append(ISO8601Time.parse(value))
      case "coord" where path.last == "Track": coords.append(value)
      case "Track":
        items.append(.startTrackSegment)
        for (i, coord) in coords.enumerated() {
          let numbers = coord.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
          add(numbers, time: i < whens.count ? whens[i] : nil, kind: .track)
        }
      case "coordinates":
        let tuples = value.split(whereSeparator: \.isWhitespace).map { $0.split(separator: ",").compactMap { Double($0) } }
        switch path.last {
        case "LineString":
          items.append(.startTrackSegment)
          for tuple in tuples { add(tuple, time: nil, kind: .track) }
        case "Point":
          if let tuple = tuples.first { add(tuple, time: nil, kind: .waypoint) }
        default: break  // a polygon's rings are no path
        }
      default: break
      }
    }

    private func add(_ numbers: [Double], time: Date?, kind: GPXPointStream.Kind) {
      guard numbers.count >= 2, let coordinate = Coordinate(latitude: numbers[1], longitude: numbers[0]) else {
        invalid += 1
        return
      }
      items.append(.point(GPXPoint(coordinate: coordinate, elevation: numbers.count > 2 ? numbers[2] : nil, time: time), kind))
    }
  }

  // MARK: GeoJSON

  /// The points of a GeoJSON document.
  /// - Throws: ``TraceFileError`` when it is not GeoJSON.
  static func geoJSON(_ input: ByteInput) throws -> TracePointList {
    let bytes = try readAll(input, what: "a GeoJSON document")
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: Data(bytes))
    } catch {
      throw TraceFileError(path: input.path, message: "not GeoJSON: \((error as NSError).localizedDescription)")
    }
    guard let root = object as? [String: Any], let type = root["type"] as? String else {
      throw TraceFileError(path: input.path, message: "not GeoJSON: no \"type\" at the top")
    }
    var list = TracePointList(items: [], invalidPoints: 0)
    switch type {
    case "FeatureCollection":
      for case let feature as [String: Any] in root["features"] as? [Any] ?? [] { list.feature(feature) }
    case "Feature": list.feature(root)
    case "Point", "MultiPoint", "LineString", "MultiLineString", "GeometryCollection": list.geometry(root, properties: [:])
    default: throw TraceFileError(path: input.path, message: "not GeoJSON: type \"\(type)\" is no geometry or feature")
    }
    return list
  }

  private mutating func feature(_ feature: [String: Any]) {
    guard let shape = feature["geometry"] as? [String: Any] else { return }
    geometry(shape, properties: feature["properties"] as? [String: Any] ?? [:])
  }

  private mutating func geometry(_ geometry: [String: Any], properties: [String: Any]) {
    let times = (properties["coordTimes"] ?? properties["times"]) as? [Any]
    switch geometry["type"] as? String {
    case "Point":
      add(geometry["coordinates"], time: (properties["time"] ?? times?.first) as? String, kind: .waypoint)
    case "MultiPoint":
      for (i, position) in (geometry["coordinates"] as? [Any] ?? []).enumerated() {
        add(position, time: Self.time(times, i), kind: .waypoint)
      }
    case "LineString":
      line(geometry["coordinates"] as? [Any] ?? [], times: times)
    case "MultiLineString":
      for (i, positions) in (geometry["coordinates"] as? [Any] ?? []).enumerated() {
        line(positions as? [Any] ?? [], times: times.flatMap { i < $0.count ? $0[i] as? [Any] : nil })
      }
    case "GeometryCollection":
      for case let member as [String: Any] in geometry["geometries"] as? [Any] ?? [] { self.geometry(member, properties: properties) }
    default: break  // polygons are no path
    }
  }

  private mutating func line(_ positions: [Any], times: [Any]?) {
    items.append(.startTrackSegment)
    for (i, position) in positions.enumerated() { add(position, time: Self.time(times, i), kind: .track) }
  }

  private static func time(_ times: [Any]?, _ i: Int) -> String? {
    guard let times, i < times.count else { return nil }
    return times[i] as? String
  }

  private mutating func add(_ position: Any?, time: String?, kind: GPXPointStream.Kind) {
    let numbers = (position as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue } ?? []
    guard numbers.count >= 2, let coordinate = Coordinate(latitude: numbers[1], longitude: numbers[0]) else {
      invalidPoints += 1
      return
    }
    items.append(
      .point(
        GPXPoint(coordinate: coordinate, elevation: numbers.count > 2 ? numbers[2] : nil, time: time.flatMap(ISO8601Time.parse)),
        kind))
  }
}

/// Where ``GPXTraceReader`` takes its points from: a GPX file's stream, or a document read whole.
protocol TracePointSource {
  /// Points skipped because their position was missing or out of range.
  var invalidPoints: Int { get }
  mutating func next() throws -> GPXPointStream.Item?
}

extension GPXPointStream: TracePointSource {}
