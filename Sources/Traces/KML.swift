import Foundation
import Geo
import LocationModel

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// KML: the points of a document read whole (see ``TracePointList``).
extension TracePointList {
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
}
