import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What a child process inherits: the library's connections (to gpsd, to a served phone) must
/// not be among the descriptors of a process the app starts, or the child keeps them open.
package enum InheritedDescriptors {
  /// Starts `/bin/sleep 3600` with `posix_spawn` and nothing else, as a C library or an app's
  /// own code might: no descriptor is closed for it, so it gets every one not marked
  /// close-on-exec. Kill it with ``end(_:)``.
  package static func startChild() throws -> Int32 {
    var pid: pid_t = 0
    let words: [String] = ["/bin/sleep", "3600"]
    let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let status = posix_spawn(&pid, "/bin/sleep", nil, nil, argv, environ)
    guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL) }
    return pid
  }

  /// Kills the child, and reaps it on a thread of its own (not on Swift's cooperative pool).
  package static func end(_ child: Int32) {
    kill(child, SIGKILL)
    Thread { waitpid(child, nil, 0) }.start()
  }

  /// The inodes of the TCP sockets whose remote end is `127.0.0.1:port` (the clients' ends of
  /// its connections, in any state: a non-blocking connect may still be in `SYN_SENT`, as
  /// libgps's was under ThreadSanitizer), from `/proc/net/tcp`. A socket no descriptor holds any
  /// more (`TIME_WAIT`, inode 0) is not one.
  package static func connections(toLoopbackPort port: Int) -> Set<String> {
    guard let table = wholeProcFile("/proc/net/tcp") else { return [] }
    let remote = "0100007F:" + String(format: "%04X", port)
    return Set(
      table.split(separator: "\n").dropFirst().compactMap { line -> String? in
        let fields = line.split(separator: " ")
        return fields.count > 9 && fields[2] == remote && fields[3] != "0A" && fields[9] != "0" ? String(fields[9]) : nil
      })
  }

  /// The inodes of the sockets among `pid`'s descriptors.
  package static func sockets(of pid: Int32) -> Set<String> {
    let folder = "/proc/\(pid)/fd"
    let links = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
      .compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)") }
    return Set(links.filter { $0.hasPrefix("socket:[") }.map { String($0.dropFirst(8).dropLast()) })
  }
}

/// A file of `/proc` read to its end. Foundation's `String(contentsOfFile:)` and
/// `Data(contentsOf:)` read one page of a file whose size is 0, as `/proc`'s are: with 600 sockets
/// open they gave 27 of `/proc/net/tcp`'s 617 lines, and a socket further down was not there.
package func wholeProcFile(_ path: String) -> String? {
  guard let handle = FileHandle(forReadingAtPath: path), let data = try? handle.readToEnd() else { return nil }
  return String(decoding: data, as: UTF8.self)
}
