import Geo

#if canImport(Glibc)
  import Glibc
#endif

/// Buffers standard output and writes it in large blocks; flushes at 64 KB and on request.
struct OutputBuffer {
  private var bytes: [UInt8] = []

  init() { bytes.reserveCapacity(1 << 16) }

  mutating func writeLine(_ line: String) {
    bytes.append(contentsOf: line.utf8)
    endLine()
  }

  /// Writes `fix` as a fix record line, with no `String` in between.
  mutating func writeLine(_ fix: LocationFix) {
    FixRecord.append(fix, to: &bytes)
    endLine()
  }

  private mutating func endLine() {
    bytes.append(0x0A)
    if bytes.count >= 1 << 16 { flush() }
  }

  mutating func flush() {
    guard !bytes.isEmpty else { return }
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let n = write(1, buffer.baseAddress! + offset, buffer.count - offset)
        if n <= 0 {
          if n < 0 && errno == EINTR { continue }
          return  // stdout closed (e.g. a pipe to head): drop the rest
        }
        offset += n
      }
    }
    bytes.removeAll(keepingCapacity: true)
  }
}

/// Writes one line to standard error.
func printError(_ message: String) {
  var line = message + "\n"
  line.withUTF8 { buffer in _ = write(2, buffer.baseAddress, buffer.count) }
}

/// A file (or standard output for `-`) written through a 64 KB buffer.
final class FileSink {
  let path: String
  private let fd: Int32
  private var buffer: [UInt8] = []

  init(path: String) throws {
    self.path = path
    if path == "-" {
      fd = 1
    } else {
      fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      guard fd >= 0 else { throw SinkError(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
    }
    buffer.reserveCapacity(1 << 16)
  }

  deinit { if fd > 1 { Glibc.close(fd) } }

  func write(_ text: String) throws {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 16 { try flush() }
  }

  func flush() throws {
    try buffer.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { throw SinkError(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
        offset += n
      }
    }
    buffer.removeAll(keepingCapacity: true)
  }

  func close() throws { try flush() }
}

struct SinkError: Error, CustomStringConvertible {
  var description: String
}
