import Geo
import LocationModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A directory of traces that untrusted names are resolved in (`locemu serve --traces DIR`):
/// a name's real path — links and `..` followed — must lie inside the directory and be a
/// regular file no larger than a limit, or it is refused. Nothing outside is opened for
/// reading, and a name that leads outside is refused exactly as a missing one is.
public struct TraceDirectory: Sendable, Hashable {
  /// The directory's real path (no link, no `..`).
  public let path: String

  /// Why a name was refused.
  public enum Refusal: Error, Hashable, Sendable {
    /// Not a trace in the directory: missing, outside it, or a link out of it.
    case notFound
    /// In the directory, but not a regular file (a FIFO, a device, a directory).
    case notRegularFile
    /// Larger than the limit it was read with.
    case tooLarge
    /// The system refused to read it.
    case unreadable(String)
  }

  /// - Throws: ``TraceFileError`` when `path` is not a directory.
  public init(_ path: String) throws(TraceFileError) {
    guard let resolved = Self.realPath(path) else {
      throw TraceFileError(path: path, message: String(cString: strerror(errno)))
    }
    var status = stat()
    guard stat(resolved, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
      throw TraceFileError(path: path, message: "not a directory")
    }
    self.path = resolved
  }

  /// The regular files in the directory and its subdirectories (as `sub/name`), sorted, at most
  /// `limit` of them; hidden files and links that lead outside are not listed.
  public func names(limit: Int = 10_000) -> [String] {
    var names: [String] = []
    list(relative: "", depth: 0, into: &names, limit: limit)
    return names.sorted()
  }

  private func list(relative: String, depth: Int, into names: inout [String], limit: Int) {
    guard depth < 8, let dir = opendir(relative.isEmpty ? path : path + "/" + relative) else { return }
    defer { closedir(dir) }
    while names.count < limit, let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      guard !name.hasPrefix(".") else { continue }
      let child = relative.isEmpty ? name : relative + "/" + name
      guard let resolved = Self.realPath(path + "/" + child), resolved.hasPrefix(path + "/") else { continue }
      var status = stat()
      guard stat(resolved, &status) == 0 else { continue }
      switch status.st_mode & S_IFMT {
      case S_IFREG: names.append(child)
      case S_IFDIR: list(relative: child, depth: depth + 1, into: &names, limit: limit)
      default: continue
      }
    }
  }

  /// The bytes of the trace `name`, at most `maxBytes`. Blocking.
  /// - Throws: a ``Refusal``.
  public func read(name: String, maxBytes: Int) throws(Refusal) -> TraceBytes {
    guard !name.isEmpty, name.utf8.count <= 1024, !name.hasPrefix("/"), !name.utf8.contains(0) else { throw .notFound }
    guard let resolved = Self.realPath(path + "/" + name), resolved.hasPrefix(path + "/") else { throw .notFound }
    // O_NOFOLLOW: the resolved path has no link left; O_NONBLOCK: a FIFO does not hold the open.
    let fd = open(resolved, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
    guard fd >= 0 else { throw .notFound }
    defer { close(fd) }
    // What was opened is still inside (a component swapped for a link since realpath is caught here).
    guard let opened = Self.path(of: fd), opened.hasPrefix(path + "/") else { throw .notFound }
    var status = stat()
    guard fstat(fd, &status) == 0 else { throw .notFound }
    guard status.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile }
    guard Int(status.st_size) <= maxBytes else { throw .tooLarge }
    // One byte more than the limit: a file that grew since fstat is seen and refused.
    var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
    var count = 0
    while count < bytes.count {
      let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
      if n < 0 && errno == EINTR { continue }
      if n < 0 { throw .unreadable(String(cString: strerror(errno))) }
      if n == 0 { break }
      count += n
    }
    guard count <= maxBytes else { throw .tooLarge }
    bytes.removeLast(bytes.count - count)
    return TraceBytes(bytes)
  }

  /// `realpath(3)`: nil when the path does not resolve.
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// The path the kernel has for an open descriptor (`/proc/self/fd/N`).
  static func path(of fd: Int32) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
    guard n > 0 else { return nil }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
