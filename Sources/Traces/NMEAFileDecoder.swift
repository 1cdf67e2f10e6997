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
  /// - Returns: what the decoder counted.
  /// - Throws: ``TraceFileError`` when the file cannot be opened or read; whatever `onFix` throws.
  @discardableResult
  public static func decode(
    path: String, options: NMEAEpochAssembler.Options = .init(), _ onFix: (NMEAFix) throws -> Void
  ) throws -> NMEADecoderStatistics {
    let fd: Int32 = path == "-" ? 0 : open(path, O_RDONLY)
    guard fd >= 0 else { throw TraceFileError(path: path, message: String(cString: strerror(errno))) }
    defer { if fd != 0 { close(fd) } }
    var decoder = NMEADecoder(options: options)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let n = read(fd, buffer.baseAddress, chunkSize)
      if n < 0 {
        if errno == EINTR { continue }
        throw TraceFileError(path: path, message: String(cString: strerror(errno)))
      }
      if n == 0 { break }
      try decoder.decode(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), onFix)
    }
    try decoder.finish(onFix)
    return decoder.statistics
  }
}
