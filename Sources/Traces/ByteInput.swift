import Geo
import LocationModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A trace's bytes, read in chunks from a file, standard input (`-`) or memory.
///
/// Standard input cannot be read twice, so the bytes read from it to tell its format
/// (``StandardInput/head()``) are served first and the rest comes from the descriptor.
final class ByteInput {
  let path: String
  private var fd: Int32
  private var head: [UInt8]
  private var headOffset = 0

  /// Opens `path`; a directory, a device, or anything that cannot be opened, is a ``TraceFileError``.
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

  /// Serves `bytes` (a trace held in memory, e.g. one uploaded to a server) under the name `name`.
  init(bytes: TraceBytes, name: String) {
    path = name
    fd = -1
    head = bytes.bytes
  }

  deinit { close() }

  /// Opens `path` for reading. Refused with a message that says why: a directory, and a
  /// character or block device (`/dev/zero`, `/dev/urandom`, a serial port: endless input that
  /// is not a trace; read a live receiver through gpsd). A FIFO or socket (`<(…)`, a pipe) is
  /// read as it comes; the readers' limits on junk bound what it can make them read.
  ///
  /// A FIFO is opened as `cat` opens it: waiting for a writer.
  static func open(_ path: String) throws -> Int32 {
    let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { throw TraceFileError(path: path, message: String(cString: strerror(errno))) }
    var status = stat()
    guard fstat(fd, &status) == 0 else {
      let message = String(cString: strerror(errno))
      _ = Glibc.close(fd)
      throw TraceFileError(path: path, message: message)
    }
    let refusal: String? =
      switch status.st_mode & S_IFMT {
      case S_IFDIR: "is a directory, not a trace file"
      case S_IFCHR: "is a character device, not a trace file (read a live receiver through gpsd)"
      case S_IFBLK: "is a block device, not a trace file"
      default: nil
      }
    if let refusal {
      _ = Glibc.close(fd)
      throw TraceFileError(path: path, message: refusal)
    }
    if status.st_mode & S_IFMT == S_IFIFO {
      // Opened again, blocking, as `cat` would: a FIFO without a writer yet waits for one
      // (else its first read would be the end).
      _ = Glibc.close(fd)
      let blocking = Glibc.open(path, O_RDONLY | O_CLOEXEC)
      guard blocking >= 0 else { throw TraceFileError(path: path, message: String(cString: strerror(errno))) }
      return blocking
    }
    // Reads block as usual from here on.
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    return fd
  }

  /// Reads up to `buffer.count` bytes; 0 at the end.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    if headOffset < head.count {
      let n = min(buffer.count, head.count - headOffset)
      head.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + headOffset, byteCount: n) }
      headOffset += n
      if headOffset == head.count {
        head = []
        headOffset = 0
      }
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

/// A bound on how much a trace reader reads without finding anything it can use, so that
/// input that is not a trace (a FIFO fed from `/dev/urandom`, a 1 GB file without a line
/// break) ends the read with one ``TraceFileError`` instead of running on for good.
struct JunkLimit {
  /// Bytes read since the last good line, sentence or record.
  private(set) var junkBytes = 0
  /// What is tolerated between two good items.
  let limit: Int
  let what: String

  /// - Parameter what: what a good item is, for the message ("NMEA sentence").
  init(limit: Int = TraceLimits.junkBytes, what: String) {
    self.limit = limit
    self.what = what
  }

  /// Counts `bytes` read with no good item among them.
  mutating func read(_ bytes: Int, path: String) throws(TraceFileError) {
    junkBytes += bytes
    guard junkBytes > limit else { return }
    throw TraceFileError(path: path, message: "\(limit >> 20) MB read without a valid \(what): not a trace of that format")
  }

  /// A good item was read: the count starts again.
  mutating func good() { junkBytes = 0 }
}

/// The bounds every trace reader keeps, whatever it is fed.
public enum TraceLimits {
  /// Bytes a reader reads without a single usable line before it gives up (16 MB).
  public static let junkBytes = 16 << 20
  /// The longest JSON line a fix-record reader keeps (64 KB: gpsd's longest reports are a few
  /// KB); a longer one is counted as corrupt and skipped without being held.
  public static let jsonLineBytes = 64 << 10
}

/// A trace's bytes held in memory (one uploaded to a server): shared, never copied, compared
/// by identity.
public final class TraceBytes: Sendable, Hashable {
  /// The trace's contents.
  public let bytes: [UInt8]

  /// Holds `bytes` in memory to be shared.
  /// - Parameter bytes: the trace's contents.
  public init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Whether `a` and `b` are the same object: identity, not contents.
  /// - Parameters:
  ///   - a: some trace bytes.
  ///   - b: other trace bytes.
  /// - Returns: true when both are the same object.
  public static func == (a: TraceBytes, b: TraceBytes) -> Bool { a === b }
  /// Hashes the object's identity, not its contents.
  /// - Parameter hasher: the hasher to feed.
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension TraceBytes {
  /// A whole trace file (`-` for standard input) read into memory, refused as the readers
  /// refuse it (a directory, a device) and when it is over `maxBytes`.
  /// - Throws: ``TraceFileError``.
  public static func read(path: String, maxBytes: Int) throws(TraceFileError) -> TraceBytes {
    let input: ByteInput
    do {
      input = try ByteInput(path: path)
    } catch let error as TraceFileError {
      throw error
    } catch {
      throw TraceFileError(path: path, message: "\(error)")
    }
    defer { input.close() }
    var bytes: [UInt8] = []
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    defer { chunk.deallocate() }
    while true {
      let n: Int
      do { n = try input.read(into: chunk) } catch { throw error as? TraceFileError ?? TraceFileError(path: path, message: "\(error)") }
      if n == 0 { break }
      guard bytes.count + n <= maxBytes else { throw TraceFileError(path: path, message: "larger than \(maxBytes) bytes") }
      bytes.append(contentsOf: chunk[0..<n])
    }
    return TraceBytes(bytes)
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
      defer {
        state.head = []
        state.taken = true
      }
      return state.taken ? [] : state.head
    }
  }

  static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}
