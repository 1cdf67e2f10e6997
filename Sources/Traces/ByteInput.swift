import Geo

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A trace's bytes, read in chunks from a file or standard input (`-`).
///
/// Standard input cannot be read twice, so the bytes read from it to tell its format
/// (``StandardInput/head()``) are served first and the rest comes from the descriptor.
final class ByteInput {
  let path: String
  private var fd: Int32
  private var head: [UInt8]
  private var headOffset = 0

  /// Opens `path`; a directory, or anything that cannot be opened, is a ``TraceFileError``.
  init(path: String) throws {
    self.path = path
    if path == "-" {
      fd = 0
      head = StandardInput.takeHead()
      return
    }
    fd = try Self.open(path)
    head = []
  }

  deinit { close() }

  /// Opens `path` for reading, refusing directories with a message that says so.
  static func open(_ path: String) throws -> Int32 {
    let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw TraceFileError(path: path, message: String(cString: strerror(errno))) }
    var status = stat()
    if fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
      _ = Glibc.close(fd)
      throw TraceFileError(path: path, message: "is a directory, not a trace file")
    }
    return fd
  }

  /// Reads up to `buffer.count` bytes; 0 at the end.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    if headOffset < head.count {
      let n = min(buffer.count, head.count - headOffset)
      head.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + headOffset, byteCount: n) }
      headOffset += n
      if headOffset == head.count { head = [] ; headOffset = 0 }
      return n
    }
    guard fd >= 0 else { return 0 }
    var n: Int
    repeat { n = Glibc.read(fd, buffer.baseAddress, buffer.count) } while n < 0 && errno == EINTR
    if n < 0 { throw TraceFileError(path: path, message: String(cString: strerror(errno))) }
    return n
  }

  /// Releases the descriptor (standard input stays open for the process).
  func close() {
    if fd > 0 { _ = Glibc.close(fd) }
    fd = -1
    head = []
  }
}

/// The first bytes of standard input, read once to tell a trace's format and then handed to
/// the one reader that goes on reading it.
public enum StandardInput {
  private static let state = Locked<(head: [UInt8], taken: Bool, peeked: Bool)>(([], false, false))

  /// Up to 4 KB from the start of standard input (fewer at its end), without consuming them.
  static func peek() -> [UInt8] {
    state.withLock { state in
      if !state.peeked {
        state.peeked = true
        var head = [UInt8](repeating: 0, count: 4096)
        var count = 0
        // A pipe hands over what was written so far: read until something other than
        // white space is seen, 4 KB are in, or the input ends.
        while count < head.count {
          let n = head.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress! + count, $0.count - count) }
          if n < 0 && errno == EINTR { continue }
          if n <= 0 { break }
          count += n
          if head[..<count].contains(where: { !Self.isBlank($0) }) { break }
        }
        state.head = Array(head[..<count])
      }
      return state.head
    }
  }

  /// The peeked bytes, once; later calls get none (they were handed to a reader).
  static func takeHead() -> [UInt8] {
    _ = peek()
    return state.withLock { state in
      defer { state.head = []; state.taken = true }
      return state.taken ? [] : state.head
    }
  }

  static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}
