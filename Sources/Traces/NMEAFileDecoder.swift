public import NMEA
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A trace file that could not be read.
public struct TraceFileError: Error, Hashable, Sendable, CustomStringConvertible {
  public var path: String
  /// The operating system's message, e.g. "No such file or directory".
  public var message: String

  public init(path: String, message: String) {
    self.path = path
    self.message = message
  }

  public var description: String { "cannot read \(path): \(message)" }
}

/// Decodes an NMEA log from a file or standard input, streaming in fixed-size chunks.
///
/// Memory stays constant whatever the file size: one read buffer
/// (``chunkSize`` bytes) and the decoder's line buffer.
public enum NMEAFileDecoder {
  /// Bytes read per `read(2)` call.
  public static let chunkSize = 1 << 16

  /// Decodes `path` (`-` for standard input) and calls `onFix` for every epoch.
  ///
  /// A directory or a device is refused; ``TraceLimits/junkBytes`` read without a single
  /// well-formed sentence end the decoding with a ``TraceFileError`` (not an NMEA log).
  ///
  /// - Returns: what the decoder counted.
  /// - Throws: ``TraceFileError`` when the file cannot be opened or read; whatever `onFix` throws.
  @discardableResult
  public static func decode(
    path: String, options: NMEAEpochAssembler.Options = .init(), _ onFix: (NMEAFix) throws -> Void
  ) throws -> NMEADecoderStatistics {
    let input = try ByteInput(path: path)
    defer { input.close() }
    var decoder = NMEADecoder(options: options)
    var junk = JunkLimit(what: "NMEA sentence")
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let n = try input.read(into: buffer)
      if n == 0 { break }
      let wellFormed = decoder.statistics.accepted + decoder.statistics.unknown
      try decoder.decode(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), onFix)
      if decoder.statistics.accepted + decoder.statistics.unknown > wellFormed { junk.good() }
      try junk.read(n, path: path)
    }
    try decoder.finish(onFix)
    return decoder.statistics
  }
}
