#if canImport(Glibc)
  import Glibc
#endif

/// Buffers standard output and writes it in large blocks; flushes at 64 KB and on request.
struct OutputBuffer {
  private var bytes: [UInt8] = []

  init() { bytes.reserveCapacity(1 << 16) }

  mutating func writeLine(_ line: String) {
    bytes.append(contentsOf: line.utf8)
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
