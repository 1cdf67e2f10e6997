import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where a command reads and writes: the process's standard streams, or the descriptors a test
/// gives a command it runs in process (``LocEmu/execute(_:)`` under ``current``).
package struct StandardStreams: Sendable {
  package var input: Int32
  package var output: Int32
  package var error: Int32

  package init(input: Int32 = 0, output: Int32 = 1, error: Int32 = 2) {
    self.input = input
    self.output = output
    self.error = error
  }

  /// The streams of the command running in this task.
  @TaskLocal package static var current = StandardStreams()

  /// Writes all of `bytes` to `fd` (retrying on EINTR); false when a write fails (`errno` says
  /// why) or the descriptor takes nothing more.
  @discardableResult
  static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
      if n <= 0 {
        if n < 0 && errno == EINTR { continue }
        return false
      }
      offset += n
    }
    return true
  }
}

extension StandardStreams {
  /// The buffer ``widenPipe(_:)`` asks for: 1 MB, the most an unprivileged process may set by
  /// default (`/proc/sys/fs/pipe-max-size`).
  static let pipeBufferBytes: Int32 = 1 << 20

  /// Grows the buffer of `fd`, when it is a pipe or a FIFO, from the kernel's 64 KB to
  /// ``pipeBufferBytes``, for a command that writes megabytes: its writes then reach the reader
  /// in a few large handovers, not one wake-up of each side per 64 KB. `locemu decode` piped to
  /// a reader takes about 5 % less wall time on two cores. Anything but a pipe, a pipe already
  /// as large, or a refusal (a user over the kernel's per-user pipe limit) leaves `fd` as it is.
  static func widenPipe(_ fd: Int32) {
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return }
    if fcntl(fd, getPipeSize) < pipeBufferBytes { _ = fcntl(fd, setPipeSize, pipeBufferBytes) }
  }

  /// `F_GETPIPE_SZ` and `F_SETPIPE_SZ` (Linux's, behind `_GNU_SOURCE` in `fcntl.h`).
  static let getPipeSize: Int32 = 1032
  static let setPipeSize: Int32 = 1031
}

/// Writes `text` to standard output (the command's: ``StandardStreams/current``), unbuffered.
func writeOutput(_ text: String) {
  var text = text
  text.withUTF8 { _ = StandardStreams.write(UnsafeRawBufferPointer($0), to: StandardStreams.current.output) }
}

/// Buffers standard output and writes it in large blocks; flushes at 64 KB and on request.
struct OutputBuffer {
  private var bytes: [UInt8] = []

  init() { bytes.reserveCapacity(1 << 16) }

  mutating func writeLine(_ line: String) {
    bytes.append(contentsOf: line.utf8)
    endLine()
  }

  private mutating func endLine() {
    bytes.append(0x0A)
    if bytes.count >= 1 << 16 { flush() }
  }

  mutating func flush() {
    guard !bytes.isEmpty else { return }
    let fd = StandardStreams.current.output
    // stdout closed (e.g. a pipe to head): the rest is dropped.
    bytes.withUnsafeBytes { _ = StandardStreams.write($0, to: fd) }
    bytes.removeAll(keepingCapacity: true)
  }
}

/// Writes one line to standard error.
func printError(_ message: String) {
  var line = message + "\n"
  line.withUTF8 { _ = StandardStreams.write(UnsafeRawBufferPointer($0), to: StandardStreams.current.error) }
}

/// A file (or standard output for `-`) written through a 64 KB buffer.
///
/// A file is written as a temporary file beside it (`.NAME.locemu-XXXXXX`) and renamed over
/// `path` by ``close()``: a conversion that fails, or is interrupted, leaves the old file (or
/// none) and never a half-written one. Without ``close()`` the temporary file is removed. A
/// device or FIFO that exists at `path` (`/dev/null`, a named pipe) is written in place.
final class FileSink {
  let path: String
  private var fd: Int32
  /// Whether the sink opened `fd` (and closes it); not for standard output.
  private var ownsDescriptor = true
  /// The temporary file's path, until it is renamed.
  private var temporary: String?
  private var buffer: [UInt8] = []

  init(path: String) throws {
    self.path = path
    // What is there now, links followed (nil: nothing).
    let existing =
      (try? FileManager.default.attributesOfItem(atPath: URL(fileURLWithPath: path).resolvingSymlinksInPath().path))?[
        .type] as? FileAttributeType
    if path == "-" {
      fd = StandardStreams.current.output
      ownsDescriptor = false
      StandardStreams.widenPipe(fd)
    } else if let existing, existing != .typeRegular, existing != .typeDirectory {
      // A device or a FIFO (/dev/null, a named pipe) is written in place: renaming a
      // temporary file over it would replace the device with a file.
      fd = open(path, O_WRONLY | O_CLOEXEC)
      guard fd >= 0 else { throw SinkError(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
      StandardStreams.widenPipe(fd)
    } else {
      let url = URL(fileURLWithPath: path)
      var template = Array(
        url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".locemu-XXXXXX").path
          .utf8CString)
      fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
      guard fd >= 0 else { throw SinkError(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
      temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let mask = umask(0)
      umask(mask)
      fchmod(fd, 0o666 & ~mask)  // as a file opened with O_CREAT would be
    }
    buffer.reserveCapacity(1 << 16)
  }

  deinit {
    if ownsDescriptor { Glibc.close(fd) }
    if let temporary { unlink(temporary) }
  }

  func write(_ text: String) throws {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 16 { try flush() }
  }

  func flush() throws {
    let written = buffer.withUnsafeBytes { StandardStreams.write($0, to: fd) }
    guard written else { throw SinkError(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Writes what is buffered and, for a file, renames the temporary file to ``path``.
  func close() throws {
    try flush()
    guard let temporary else { return }
    Glibc.close(fd)
    fd = -1
    ownsDescriptor = false
    guard rename(temporary, path) == 0 else {
      throw SinkError(description: "cannot write \(path): \(String(cString: strerror(errno)))")
    }
    self.temporary = nil
  }

  /// Whether `a` and `b` name the same file (the same path, or a link to it); false when
  /// either does not exist or is standard input/output (`-`).
  static func sameFile(_ a: String, _ b: String) -> Bool {
    guard a != "-", b != "-" else { return false }
    // The device and inode of each, links followed.
    func identity(_ path: String) -> (NSNumber, NSNumber)? {
      let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
      guard let attributes = try? FileManager.default.attributesOfItem(atPath: target),
        let device = attributes[.systemNumber] as? NSNumber, let inode = attributes[.systemFileNumber] as? NSNumber
      else { return nil }
      return (device, inode)
    }
    guard let ia = identity(a), let ib = identity(b) else { return false }
    return ia == ib
  }
}

struct SinkError: Error, CustomStringConvertible {
  var description: String
}
