public import NMEA

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A trace file and how to read it: what replay, conversion and the feed start from.
public struct Trace: Sendable, Hashable {
  public enum Format: String, Sendable, Hashable, CaseIterable {
    case nmea, gpx
  }

  public var path: String
  public var format: Format
  /// For NMEA logs without dates.
  public var nmeaOptions: NMEAEpochAssembler.Options
  /// For GPX points without times.
  public var pace: TracePace
  /// Whether NMEA epochs keep their raw sentences (for the feed).
  public var keepSentences: Bool

  /// - Parameter format: nil to tell from the name (`.gpx`) or the first bytes (`<?xml`, `<gpx`).
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
    case .gpx: GPXTraceReader(document: try GPXDocument(path: path), pace: pace)
    }
  }

  /// The format from the file name, else from its first non-blank bytes; NMEA when in doubt.
  public static func detectFormat(_ path: String) throws -> Format {
    if path.lowercased().hasSuffix(".gpx") { return .gpx }
    if path == "-" { return .nmea }
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw TraceFileError(path: path, message: String(cString: strerror(errno))) }
    defer { close(fd) }
    var head = [UInt8](repeating: 0, count: 512)
    let n = read(fd, &head, head.count)
    guard n > 0 else { return .nmea }
    let text = String(decoding: head[0..<n], as: UTF8.self).drop { $0.isWhitespace || $0 == "\u{FEFF}" }
    return text.hasPrefix("<?xml") || text.hasPrefix("<gpx") ? .gpx : .nmea
  }
}
