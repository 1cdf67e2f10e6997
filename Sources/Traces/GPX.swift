public import Foundation
public import Geo
import NMEA

#if canImport(Glibc)
  import Glibc
#endif

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// One GPX point (`trkpt`, `rtept` or `wpt`).
public struct GPXPoint: Sendable, Hashable {
  public var coordinate: Coordinate
  /// `<ele>`, metres (taken as above mean sea level, as GPS receivers and Xcode write it).
  public var elevation: Double?
  public var time: Date?
  /// `<fix>`: none, 2d, 3d (dgps and pps count as 3d); nil when absent.
  public var fix: LocationFix.Mode?
  public var hdop: Double?
  public var vdop: Double?
  /// GPX 1.0's `<speed>` (m/s) and `<course>` (degrees), which some writers still emit.
  public var speed: Double?
  public var course: Double?

  public init(coordinate: Coordinate, elevation: Double? = nil, time: Date? = nil) {
    self.coordinate = coordinate
    self.elevation = elevation
    self.time = time
  }
}

/// A parsed GPX 1.0/1.1 document: the points of its tracks, routes and waypoints, in document order.
public struct GPXDocument: Sendable, Hashable {
  /// One array per `trkseg`.
  public var trackSegments: [[GPXPoint]] = []
  /// One array per `rte`.
  public var routes: [[GPXPoint]] = []
  public var waypoints: [GPXPoint] = []
  /// Points skipped because their `lat`/`lon` were missing or out of range.
  public var invalidPoints = 0

  public init() {}

  /// The path a device follows: the tracks if there are any, else the routes, else the waypoints (Xcode's style).
  public var path: [GPXPoint] {
    let track = trackSegments.flatMap { $0 }
    if !track.isEmpty { return track }
    let route = routes.flatMap { $0 }
    return route.isEmpty ? waypoints : route
  }

  /// Parses GPX from memory.
  /// - Throws: ``GPXError`` when the XML is malformed or has no `<gpx>` root.
  public init(data: Data) throws {
    let delegate = GPXParserDelegate()
    let parser = XMLParser(data: data)
    parser.delegate = delegate
    let ok = parser.parse()
    // swift-corelibs' parser can return true for a truncated document; its error still tells.
    if !ok || parser.parserError != nil || !delegate.sawRoot {
      let code = (parser.parserError as? NSError)?.code
      throw GPXError(line: parser.lineNumber, message: delegate.sawRoot || code != nil ? Self.explain(code) : "no <gpx> element")
    }
    self = delegate.document
  }

  private static func explain(_ code: Int?) -> String {
    switch code {
    case 4, 5: "the document ends early (an element is not closed)"
    case 76: "an end tag does not match its start tag"
    case 26: "an undeclared entity"
    case 38, 39, 40, 41, 65, 73: "a malformed attribute"
    case let code?: "malformed XML (libxml2 error \(code))"
    case nil: "malformed XML"
    }
  }

  /// Reads and parses a GPX file.
  public init(path: String) throws {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw TraceFileError(path: path, message: String(cString: strerror(errno == 0 ? ENOENT : errno)))
    }
    do {
      try self.init(data: data)
    } catch let error as GPXError {
      throw TraceFileError(path: path, message: error.description)
    }
  }
}

/// A GPX document that could not be parsed.
public struct GPXError: Error, Hashable, Sendable, CustomStringConvertible {
  public var line: Int
  public var message: String
  public var description: String { "not GPX (line \(line)): \(message)" }
}

private final class GPXParserDelegate: NSObject, XMLParserDelegate {
  var document = GPXDocument()
  var sawRoot = false
  private var point: GPXPoint?
  private var text = ""
  private var segment: [GPXPoint] = []
  private var route: [GPXPoint] = []

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    text = ""
    switch local(name) {
    case "gpx": sawRoot = true
    case "trkseg": segment = []
    case "rte": route = []
    case "trkpt", "rtept", "wpt":
      if let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init),
        let coordinate = Coordinate(latitude: lat, longitude: lon)
      {
        point = GPXPoint(coordinate: coordinate)
      } else {
        point = nil
        document.invalidPoints += 1
      }
    default: break
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

  func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
    let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
    switch local(name) {
    case "ele": point?.elevation = Double(value)
    case "time": if point != nil { point?.time = GPXTime.parse(value) }
    case "fix":
      switch value {
      case "none": point?.fix = .noFix
      case "2d": point?.fix = .twoD
      case "3d", "dgps", "pps": point?.fix = .threeD
      default: break
      }
    case "hdop": point?.hdop = Double(value)
    case "vdop": point?.vdop = Double(value)
    case "speed": point?.speed = Double(value)
    case "course": point?.course = Double(value)
    case "trkpt":
      if let point { segment.append(point) }
      point = nil
    case "rtept":
      if let point { route.append(point) }
      point = nil
    case "wpt":
      if let point { document.waypoints.append(point) }
      point = nil
    case "trkseg": document.trackSegments.append(segment)
    case "rte": document.routes.append(route)
    default: break
    }
    text = ""
  }

  private func local(_ name: String) -> Substring {
    name.lastIndex(of: ":").map { name[name.index(after: $0)...] } ?? name[...]
  }
}

/// GPX's `xsd:dateTime`: `2024-05-01T10:00:00Z`, optional fraction, `Z` or `±hh:mm`.
public enum GPXTime {
  /// Parses an ISO 8601 / xsd:dateTime time stamp (see ``ISO8601Time/parse(_:)``).
  public static func parse(_ text: String) -> Date? { ISO8601Time.parse(text) }
}
