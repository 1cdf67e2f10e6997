public import Foundation
import Geo
import NMEA

#if canImport(Glibc)
  import Glibc
#endif

import CLibXML2
public import LocationModel

/// One GPX point (`trkpt`, `rtept` or `wpt`).
public struct GPXPoint: Sendable, Hashable {
  /// The point's `lat` and `lon`.
  public var coordinate: Coordinate
  /// `<ele>`, metres (taken as above mean sea level, as GPS receivers and Xcode write it).
  public var elevation: Double?
  /// `<time>`; nil when absent or not a valid time stamp.
  public var time: Date?
  /// `<fix>`: none, 2d, 3d, dgps or pps; nil when absent.
  public var fixType: GPXFixType?
  /// The fix mode `<fix>` gives (dgps and pps count as 3d); nil when absent.
  public var fix: LocationFix.Mode? { fixType?.mode }
  /// `<sat>`: satellites used.
  public var satellites: Int?
  /// `<geoidheight>`: the geoid's height above the WGS 84 ellipsoid, metres (so that the
  /// ellipsoidal altitude is `elevation + geoidHeight`).
  public var geoidHeight: Double?
  /// `<hdop>`: horizontal dilution of precision.
  public var hdop: Double?
  /// `<vdop>`: vertical dilution of precision.
  public var vdop: Double?
  /// GPX 1.0's `<speed>` (m/s) and `<course>` (degrees), which some writers still emit.
  public var speed: Double?
  /// GPX 1.0's `<course>`, degrees (see ``speed``).
  public var course: Double?

  /// Creates a point with nothing but a position, an elevation and a time.
  /// - Parameters:
  ///   - coordinate: the point's position.
  ///   - elevation: `<ele>`, metres above mean sea level.
  ///   - time: `<time>`.
  public init(coordinate: Coordinate, elevation: Double? = nil, time: Date? = nil) {
    self.coordinate = coordinate
    self.elevation = elevation
    self.time = time
  }
}

/// GPX's `fixType`.
public enum GPXFixType: String, Sendable, Hashable {
  /// `none`: no fix.
  case none
  /// `2d`: a 2D fix.
  case twoD = "2d"
  /// `3d`: a 3D fix.
  case threeD = "3d"
  /// `dgps`: a fix with differential corrections.
  case dgps
  /// `pps`: a fix from the precise positioning service (military signal).
  case pps

  /// The fix mode it means: `dgps` and `pps` count as 3D.
  public var mode: LocationFix.Mode {
    switch self {
    case .none: .noFix
    case .twoD: .twoD
    case .threeD, .dgps, .pps: .threeD
    }
  }
}

/// A parsed GPX 1.0/1.1 document: the points of its tracks, routes and waypoints, in document order.
public struct GPXDocument: Sendable, Hashable {
  /// One array per `trkseg`.
  public var trackSegments: [[GPXPoint]] = []
  /// One array per `rte`.
  public var routes: [[GPXPoint]] = []
  /// The `wpt` points.
  public var waypoints: [GPXPoint] = []
  /// Points skipped because their `lat`/`lon` were missing or out of range.
  public var invalidPoints = 0

  /// Creates an empty document.
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
    try self.init(stream: GPXPointStream(bytes: Array(data)))
  }

  /// Reads and parses a GPX file. (Replays read GPX as a stream instead: see ``GPXTraceReader``.)
  /// - Throws: ``TraceFileError`` when the file cannot be read or is not GPX.
  public init(path: String) throws {
    do {
      try self.init(stream: GPXPointStream(input: ByteInput(path: path)))
    } catch let error as GPXError {
      throw TraceFileError(path: path, message: error.description)
    }
  }

  private init(stream: GPXPointStream) throws {
    var document = GPXDocument()
    while let item = try stream.next() {
      switch item {
      case .startTrackSegment: document.trackSegments.append([])
      case .startRoute: document.routes.append([])
      case .point(let point, .track): document.trackSegments[document.trackSegments.count - 1].append(point)
      case .point(let point, .route): document.routes[document.routes.count - 1].append(point)
      case .point(let point, .waypoint): document.waypoints.append(point)
      }
    }
    document.invalidPoints = stream.invalidPoints
    self = document
  }
}

/// A GPX document that could not be parsed.
public struct GPXError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The line of the document where parsing failed; 0 when unknown.
  public var line: Int
  /// What was wrong, in libxml2's words or the reader's.
  public var message: String
  /// The error as `not GPX (line n): message`.
  public var description: String { "not GPX (line \(line)): \(message)" }
}

/// GPX points pulled one at a time from a document of any size with libxml2's streaming
/// reader (`xmlTextReader`): memory holds the current point, never the document.
final class GPXPointStream {
  enum Kind { case track, route, waypoint }
  enum Item {
    case startTrackSegment
    case startRoute
    case point(GPXPoint, Kind)
  }

  /// Points skipped because their `lat`/`lon` were missing or out of range.
  private(set) var invalidPoints = 0
  private let path: String
  private let input: ByteInput?
  private var memory: [UInt8] = []
  private var reader: xmlTextReaderPtr?
  private var sawRoot = false
  private var finished = false
  private var point: GPXPoint?
  private var pointKind = Kind.waypoint
  /// The text of the element being read, as bytes (numbers and times are parsed from them).
  private var text: [UInt8] = []
  /// The first error libxml2 reported, with its line.
  private var error: (line: Int, message: String)?
  /// Why the input could not be read, if it could not.
  private var readError: TraceFileError?

  /// Streams `input` (a file or standard input).
  init(input: ByteInput) throws {
    self.input = input
    path = input.path
    let context = Unmanaged.passUnretained(self).toOpaque()
    reader = xmlReaderForIO(
      { context, buffer, length in
        guard let context, let buffer, length > 0 else { return 0 }
        let stream = Unmanaged<GPXPointStream>.fromOpaque(context).takeUnretainedValue()
        do {
          return Int32(try stream.input!.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(length))))
        } catch {
          stream.readError = error as? TraceFileError ?? TraceFileError(path: stream.path, message: "\(error)")
          return -1
        }
      }, nil, context, nil, nil, Self.options)
    try setUp(context: context)
  }

  /// Parses a document held in memory.
  init(bytes: [UInt8]) throws {
    input = nil
    path = "(memory)"
    memory = bytes
    let context = Unmanaged.passUnretained(self).toOpaque()
    reader = memory.withUnsafeBufferPointer { buffer in
      buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
        xmlReaderForMemory($0, Int32(buffer.count), nil, nil, Self.options)
      }
    }
    try setUp(context: context)
  }

  deinit {
    if let reader { xmlFreeTextReader(reader) }
    input?.close()
  }

  /// No network, no entity expansion (a GPX needs neither), and libxml2's own limits kept
  /// (no `XML_PARSE_HUGE`: a text node over 10 MB or a tree over 256 deep is an error, so a
  /// hostile document cannot make the reader hold it).
  private static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOWARNING.rawValue)

  private func setUp(context: UnsafeMutableRawPointer) throws {
    guard let reader else { throw GPXError(line: 0, message: "libxml2 could not start a reader") }
    xmlTextReaderSetStructuredErrorHandler(
      reader,
      { context, error in
        guard let context, let error else { return }
        let stream = Unmanaged<GPXPointStream>.fromOpaque(context).takeUnretainedValue()
        guard stream.error == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        let message = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
        stream.error = (Int(error.pointee.line), message.trimmingCharacters(in: .whitespacesAndNewlines))
      }, context)
  }

  /// The next item in document order; nil at the end.
  /// - Throws: ``GPXError`` (with the line) when the XML is malformed or is not GPX;
  ///   ``TraceFileError`` when the input cannot be read.
  func next() throws -> Item? {
    while !finished, let reader {
      let status = xmlTextReaderRead(reader)
      if status < 0 || error != nil { try fail(line: Int(xmlTextReaderGetParserLineNumber(reader))) }
      if status == 0 {
        finished = true
        if !sawRoot { try fail(line: Int(xmlTextReaderGetParserLineNumber(reader)), message: "no <gpx> element") }
        return nil
      }
      if let item = try handleNode(reader) { return item }
    }
    return nil
  }

  private func fail(line: Int, message: String? = nil) throws -> Never {
    finished = true
    if let readError { throw readError }
    if let message { throw GPXError(line: line, message: message) }
    throw GPXError(line: error?.line ?? line, message: error?.message ?? "malformed XML")
  }

  /// The elements the stream acts on; the rest are read past.
  private enum Tag {
    case gpx, trkseg, rte, trkpt, rtept, wpt, ele, time, fix, sat, geoidheight, hdop, vdop, speed, course, other

    static let names: [(Tag, [UInt8])] = [
      (.trkpt, Array("trkpt".utf8)), (.ele, Array("ele".utf8)), (.time, Array("time".utf8)), (.fix, Array("fix".utf8)),
      (.sat, Array("sat".utf8)), (.hdop, Array("hdop".utf8)), (.vdop, Array("vdop".utf8)),
      (.geoidheight, Array("geoidheight".utf8)), (.speed, Array("speed".utf8)), (.course, Array("course".utf8)),
      (.trkseg, Array("trkseg".utf8)), (.rtept, Array("rtept".utf8)), (.rte, Array("rte".utf8)), (.wpt, Array("wpt".utf8)),
      (.gpx, Array("gpx".utf8)),
    ]

    /// The tag a local name (a NUL-terminated UTF-8 string from libxml2) stands for, without
    /// making a String of it.
    init(_ name: UnsafePointer<xmlChar>) {
      let length = strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
      for (tag, bytes) in Self.names where bytes.count == length {
        if bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, name, length) == 0 }) {
          self = tag
          return
        }
      }
      self = .other
    }
  }

  private func handleNode(_ reader: xmlTextReaderPtr) throws -> Item? {
    switch xmlTextReaderNodeType(reader) {
    case Int32(XML_READER_TYPE_ELEMENT.rawValue):
      guard let name = xmlTextReaderConstLocalName(reader) else { return nil }
      let tag = Tag(name)
      if !sawRoot {
        guard tag == .gpx else {
          try fail(
            line: Int(xmlTextReaderGetParserLineNumber(reader)),
            message: "no <gpx> element (the document is <\(String(cString: name))>)")
        }
        sawRoot = true
        return nil
      }
      let empty = xmlTextReaderIsEmptyElement(reader) == 1
      let started = start(tag, reader)
      if empty {
        if let item = end(tag) { return item }
      }
      return started
    case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
      guard let name = xmlTextReaderConstLocalName(reader) else { return nil }
      return end(Tag(name))
    case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue):
      if point != nil, let value = xmlTextReaderConstValue(reader) {
        text.append(
          contentsOf: UnsafeBufferPointer(start: value, count: strlen(UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self))))
      }
      return nil
    default:
      return nil
    }
  }

  private func start(_ tag: Tag, _ reader: xmlTextReaderPtr) -> Item? {
    text.removeAll(keepingCapacity: true)
    switch tag {
    case .trkseg: return .startTrackSegment
    case .rte: return .startRoute
    case .trkpt, .rtept, .wpt:
      pointKind = tag == .trkpt ? .track : tag == .rtept ? .route : .waypoint
      if let lat = attribute("lat", reader).flatMap(Double.init), let lon = attribute("lon", reader).flatMap(Double.init),
        let coordinate = Coordinate(latitude: lat, longitude: lon)
      {
        point = GPXPoint(coordinate: coordinate)
      } else {
        point = nil
        invalidPoints += 1
      }
      return nil
    default: return nil
    }
  }

  private func end(_ tag: Tag) -> Item? {
    defer { text.removeAll(keepingCapacity: true) }
    guard point != nil else { return nil }
    switch tag {
    case .ele: point?.elevation = number()
    case .time: point?.time = GPXTime.parse(String(decoding: trimmedText(), as: UTF8.self))
    case .fix: point?.fixType = GPXFixType(rawValue: String(decoding: trimmedText(), as: UTF8.self))
    case .sat: point?.satellites = number().flatMap { $0 >= 0 && $0 < 1000 && $0 == $0.rounded() ? Int($0) : nil }
    case .geoidheight: point?.geoidHeight = number()
    case .hdop: point?.hdop = number()
    case .vdop: point?.vdop = number()
    case .speed: point?.speed = number()
    case .course: point?.course = number()
    case .trkpt, .rtept, .wpt:
      defer { point = nil }
      return .point(point!, pointKind)
    default: break
    }
    return nil
  }

  /// The element's text without surrounding XML white space.
  private func trimmedText() -> ArraySlice<UInt8> {
    var slice = text[...]
    while let first = slice.first, StandardInput.isBlank(first) { slice = slice.dropFirst() }
    while let last = slice.last, StandardInput.isBlank(last) { slice = slice.dropLast() }
    return slice
  }

  /// The element's text as a finite decimal number; nil when it is anything else.
  private func number() -> Double? {
    var bytes = Array(trimmedText())
    // xsd:decimal/double as GPX writes them: digits, sign, point, exponent (strtod alone would
    // also take hexadecimal, "inf" and "nan").
    guard !bytes.isEmpty, bytes.count < 64,
      bytes.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E || $0 == 0x45 || $0 == 0x65 })
    else { return nil }
    bytes.append(0)
    return bytes.withUnsafeBufferPointer { buffer -> Double? in
      let start = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
      var end: UnsafeMutablePointer<CChar>?
      let value = strtod(start, &end)
      guard let end, end == UnsafeMutablePointer(mutating: start) + (buffer.count - 1), value.isFinite else { return nil }
      return value
    }
  }

  private func attribute(_ name: String, _ reader: xmlTextReaderPtr) -> String? {
    guard let value = xmlTextReaderGetAttribute(reader, name) else { return nil }
    defer { locemu_xml_free(value) }
    return String(cString: value)
  }
}

/// GPX's `xsd:dateTime`: `2024-05-01T10:00:00Z`, optional fraction, `Z` or `±hh:mm`.
public enum GPXTime {
  /// Parses an ISO 8601 / xsd:dateTime time stamp (see `ISO8601Time.parse(_:)`).
  public static func parse(_ text: String) -> Date? { ISO8601Time.parse(text) }
}
