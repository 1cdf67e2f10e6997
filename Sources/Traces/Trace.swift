public import NMEA

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A trace file and how to read it: what replay, conversion and the feed start from.
public struct Trace: Sendable, Hashable {
  public enum Format: String, Sendable, Hashable, CaseIterable {
    /// An NMEA 0183 log.
    case nmea
    /// GPX 1.0/1.1: tracks, else routes, else waypoints.
    case gpx
    /// JSON lines of fix records, as `locemu decode`/`replay`/`watch` print them (and gpsd's TPV reports).
    case jsonl

    /// How messages name it: "NMEA", "GPX", "JSON lines".
    public var displayName: String {
      switch self {
      case .nmea: "NMEA"
      case .gpx: "GPX"
      case .jsonl: "JSON lines"
      }
    }
  }

  public var path: String
  public var format: Format
  /// For NMEA logs without dates.
  public var nmeaOptions: NMEAEpochAssembler.Options
  /// For GPX points without times.
  public var pace: TracePace
  /// Whether NMEA epochs keep their raw sentences (for the feed).
  public var keepSentences: Bool

  /// - Parameter format: nil to tell from the name (`.gpx`, `.jsonl`, `.nmea`) or else the first
  ///   bytes (`<` GPX, `{` fix records, anything else NMEA); standard input (`-`) by its first bytes.
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

  /// Opens a new reader at the start of the trace.
  public func makeReader() throws -> any TraceReader {
    switch format {
    case .nmea: try NMEATraceReader(path: path, options: nmeaOptions, keepSentences: keepSentences)
    case .gpx: try GPXTraceReader(path: path, pace: pace)
    case .jsonl: try FixRecordTraceReader(path: path)
    }
  }

  /// The format from the file name's extension, else from its first non-blank bytes: `<` is GPX
  /// (a KML or other XML document then fails with a message saying it is not GPX), `{` is JSON
  /// lines of fix records, anything else NMEA.
  /// - Throws: ``TraceFileError`` when the file cannot be opened or is a directory.
  public static func detectFormat(_ path: String) throws -> Format {
    let name = path.lowercased()
    if name.hasSuffix(".gpx") { return .gpx }
    if name.hasSuffix(".jsonl") || name.hasSuffix(".ndjson") { return .jsonl }
    if path == "-" { return format(ofHead: StandardInput.peek()) }
    let fd = try ByteInput.open(path)
    defer { close(fd) }
    var head = [UInt8](repeating: 0, count: 512)
    let n = read(fd, &head, head.count)
    if n < 0 { throw TraceFileError(path: path, message: String(cString: strerror(errno))) }
    if name.hasSuffix(".nmea") { return .nmea }
    return format(ofHead: Array(head[0..<n]))
  }

  static func format(ofHead head: [UInt8]) -> Format {
    var bytes = head[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    switch bytes.first(where: { !StandardInput.isBlank($0) }) {
    case UInt8(ascii: "<"): return .gpx
    case UInt8(ascii: "{"): return .jsonl
    default: return .nmea
    }
  }
}
