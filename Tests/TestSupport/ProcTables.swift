import Foundation

/// A file of `/proc` read to its end. Foundation's `String(contentsOfFile:)` and
/// `Data(contentsOf:)` read one page of a file whose size is 0, as `/proc`'s are: with 600 sockets
/// open they gave 27 of `/proc/net/tcp`'s 617 lines, and a socket further down was not there.
package func wholeProcFile(_ path: String) -> String? {
  guard let handle = FileHandle(forReadingAtPath: path), let data = try? handle.readToEnd() else { return nil }
  return String(decoding: data, as: UTF8.self)
}

/// One socket of a `/proc/net` table (`tcp`, `tcp6`, `udp`, `udp6`), as the kernel lists it:
/// `sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode`.
package struct ProcNetSocket {
  /// `ADDRESS:PORT` in hex, as listed (`0100007F:0B13` is 127.0.0.1:2835).
  package var local: Substring
  package var remote: Substring
  /// `0A` listening, `01` established.
  package var state: Substring
  /// 0 for a socket no descriptor holds any more (`TIME_WAIT`).
  package var inode: String

  /// The local port.
  package var localPort: Int? { local.split(separator: ":").last.flatMap { Int($0, radix: 16) } }

  /// The sockets of `/proc/net/TABLE`, the table read whole.
  package static func table(_ name: String) -> [ProcNetSocket] {
    guard let text = wholeProcFile("/proc/net/\(name)") else { return [] }
    return text.split(separator: "\n").dropFirst().compactMap { line in
      let fields = line.split(separator: " ")
      guard fields.count > 9 else { return nil }
      return ProcNetSocket(local: fields[1], remote: fields[2], state: fields[3], inode: String(fields[9]))
    }
  }
}

/// The inodes of the sockets among `pid`'s descriptors (`socket:[INODE]` links).
package func socketInodes(of pid: Int32) -> Set<String> {
  let folder = "/proc/\(pid)/fd"
  let links = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
    .compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)") }
  return Set(links.filter { $0.hasPrefix("socket:[") }.map { String($0.dropFirst(8).dropLast()) })
}
