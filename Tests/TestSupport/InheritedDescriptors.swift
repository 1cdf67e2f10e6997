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
    let remote = "0100007F:" + String(format: "%04X", port)
    return Set(ProcNetSocket.table("tcp").filter { $0.remote == remote && $0.state != "0A" && $0.inode != "0" }.map(\.inode))
  }
}
