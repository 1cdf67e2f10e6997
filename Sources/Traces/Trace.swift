public import NMEA

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A trace file and how to read it: what replay, conversion and the feed start from.
public struct Trace: Sendable, Hashable {
  /// The formats a trace can be read in.
  public enum Format: String, Sendable, Hashable, CaseIterable, Codable {
    /// An NMEA 0183 log.
    case nmea
    /// GPX 1.0/1.1: tracks, else routes, else waypoints.
    case gpx
    /// JSON lines of fix records, as `locemu decode`/`replay`/`watch` print them (and gpsd's TPV reports).
    case jsonl
    /// KML (Google Earth's): `gx:Track` with times, `LineString`, `Point` (read, not written).
    case kml
    /// GeoJSON: `LineString`, `MultiLineString`, `Point`, features and collections, with times
    /// from `properties.coordTimes` where given (read, not written).
    case geojson

    /// Whether traces can be written in this format (KML and GeoJSON are only read).
    public var isWritable: Bool { self != .kml && self != .geojson }

    /// How messages name it: "NMEA", "GPX", "JSON lines".
    public var displayName: String {
      switch self {
      case .nmea: "NMEA"
      case .gpx: "GPX"
      case .jsonl: "JSON lines"
      case .kml: "KML"
      case .geojson: "GeoJSON"
      }
    }
  }

  /// The file's path, or the name of a trace held in memory.
  public var path: String
  /// How the trace is read.
  public var format: Format
  /// The trace's bytes when it is held in memory (``init(bytes:name:format:nmeaOptions:pace:keepSentences:)``);
  /// nil when it is read from ``path``.
  public var bytes: TraceBytes?
  /// For NMEA logs without dates.
  public var nmeaOptions: NMEAEpochAssembler.Options
  /// For GPX points without times.
  public var pace: TracePace
  /// Whether NMEA epochs keep their raw sentences (for the feed).
  public var keepSentences: Bool

  /// - Parameters:
  ///   - path: the file's path; `-` for standard input.
  ///   - format: nil to tell from the name (`.gpx`, `.kml`, `.geojson`, `.jsonl`, `.nmea`)
  ///     or else the first bytes (as ``detectFormat(_:)`` does); standard input (`-`) by its first bytes.
  ///   - nmeaOptions: for NMEA logs without dates.
  ///   - pace: for GPX points without times.
  ///   - keepSentences: whether NMEA epochs keep their raw sentences (for the feed).
  public init(
    path: String, format: Format? = nil, nmeaOptions: NMEAEpochAssembler.Options = .init(), pace: TracePace = .walk,
    keepSentences: Bool = false
  ) throws {
    self.path = path
    self.format = try format ?? Trace.detectFormat(path)
    self.nmeaOptions = nmeaOptions
    self.pace = pace
    self.keepSentences = keepSentences
  }

  /// A trace held in memory (uploaded to a server, say), read as a file would be.
  /// - Parameters:
  ///   - bytes: the trace's bytes.
  ///   - name: what messages and summaries call it.
  ///   - format: nil to tell from the name's extension, else from the first bytes.
  ///   - nmeaOptions: for NMEA logs without dates.
  ///   - pace: for GPX points without times.
  ///   - keepSentences: whether NMEA epochs keep their raw sentences (for the feed).
  public init(
    bytes: TraceBytes, name: String, format: Format? = nil, nmeaOptions: NMEAEpochAssembler.Options = .init(),
    pace: TracePace = .walk, keepSentences: Bool = false
  ) {
    self.path = name
    self.bytes = bytes
    self.format = format ?? Trace.format(ofName: name) ?? Trace.format(ofHead: Array(bytes.bytes.prefix(512)))
    self.nmeaOptions = nmeaOptions
    self.pace = pace
    self.keepSentences = keepSentences
  }

  /// Opens a new reader at the start of the trace.
  public func makeReader() throws -> any TraceReader {
    let input = try bytes.map { ByteInput(bytes: $0, name: path) } ?? ByteInput(path: path)
    return switch format {
    case .nmea: NMEATraceReader(input: input, options: nmeaOptions, keepSentences: keepSentences)
    case .gpx: try GPXTraceReader(input: input, pace: pace)
    case .jsonl: FixRecordTraceReader(input: input)
    case .kml: GPXTraceReader(points: try TracePointList.kml(input), format: "KML", path: path, pace: pace)
    case .geojson: GPXTraceReader(points: try TracePointList.geoJSON(input), format: "GeoJSON", path: path, pace: pace)
    }
  }

  /// The format a file name's extension says, if it says one.
  static func format(ofName path: String) -> Format? {
    let name = path.lowercased()
    if name.hasSuffix(".gpx") { return .gpx }
    if name.hasSuffix(".kml") { return .kml }
    if name.hasSuffix(".geojson") { return .geojson }
    if name.hasSuffix(".jsonl") || name.hasSuffix(".ndjson") { return .jsonl }
    if name.hasSuffix(".nmea") { return .nmea }
    return nil
  }

  /// The format from the file name's extension, else from its first non-blank bytes: `<` is KML
  /// when a `<kml` element opens within them, else GPX (another XML document then fails with a
  /// message saying it is not GPX); `{` is GeoJSON when a GeoJSON type (`"FeatureCollection"`,
  /// `"Feature"`, a geometry) is named within them, else JSON lines of fix records; anything
  /// else NMEA; a pipe or FIFO (not read twice) is NMEA unless
  /// its name says otherwise.
  /// - Throws: ``TraceFileError`` when the file cannot be opened or is a directory.
  public static func detectFormat(_ path: String) throws -> Format {
    if let format = format(ofName: path), format != .nmea { return format }
    if path == "-" { return format(ofHead: StandardInput.peek()) }
    // Opened even when the name says NMEA, so that a missing file or a device is refused here.
    let fd = try ByteInput.open(path)
    defer { close(fd) }
    if format(ofName: path) == .nmea { return .nmea }
    // A pipe cannot be read twice: its first bytes are not taken to tell its format (give
    // the format for a pipe of GPX or fix records).
    var status = stat()
    if fstat(fd, &status) == 0, status.st_mode & S_IFMT != S_IFREG { return .nmea }
    var head = [UInt8](repeating: 0, count: 512)
    let n = read(fd, &head, head.count)
    if n < 0 { throw TraceFileError(path: path, message: String(cString: strerror(errno))) }
    return format(ofHead: Array(head[0..<n]))
  }

  static func format(ofHead head: [UInt8]) -> Format {
    var bytes = head[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    let text = String(decoding: bytes, as: UTF8.self)
    switch bytes.first(where: { !StandardInput.isBlank($0) }) {
    case UInt8(ascii: "<"): return text.contains("<kml") ? .kml : .gpx
    case UInt8(ascii: "{"):
      let types = ["FeatureCollection", "Feature", "LineString", "MultiLineString", "Point", "MultiPoint", "GeometryCollection"]
      return types.contains { text.contains("\"type\":\"\($0)\"") || text.contains("\"type\": \"\($0)\"") } ? .geojson : .jsonl
    default: return .nmea
    }
  }
}
