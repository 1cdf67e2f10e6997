package import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The `locemu` binary next to the test bundle (`swift build` puts both in the same directory).
package let locemuBinary: URL = {
  let candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
    .map { $0.appendingPathComponent("locemu") }
  return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
}()

/// A server started as a child process that announces itself with a first line ending in its
/// URL (`locemu serve-announcements` prints `listening on http://HOST:PORT`).
package final class ServerProcess: @unchecked Sendable {
  package let process: Process
  /// The last word of the first line; empty when the server printed nothing and ended.
  package let url: String

  private init(process: Process, url: String) {
    self.process = process
    self.url = url
  }

  /// Starts `executable` with `arguments` and reads its first line, on a thread of its own (a
  /// blocked cooperative thread would starve the other tests).
  package static func start(_ executable: URL = locemuBinary, _ arguments: [String]) async throws -> ServerProcess {
    try await withCheckedThrowingContinuation { continuation in
      Thread {
        continuation.resume(
          with: Result {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            var text = ""
            while !text.contains("\n") {
              let chunk = out.fileHandleForReading.availableData
              if chunk.isEmpty { break }
              text += String(decoding: chunk, as: UTF8.self)
            }
            let url = text.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
            return ServerProcess(process: process, url: url)
          })
      }.start()
    }
  }

  /// SIGKILL: the test runner blocks SIGTERM and its children inherit the block.
  package func stop() {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }
}

/// Why a loopback port could not be had.
package struct LoopbackError: Error, CustomStringConvertible {
  package var description: String
  package init(description: String) { self.description = description }
}

/// A TCP socket bound to a free loopback port (port 0, read back), listening when asked: a
/// peer that accepts and never answers, a port in use, or a server's own listener. Closed when
/// it goes away.
package final class LoopbackListener: @unchecked Sendable {
  package let fd: Int32
  package let port: Int

  /// - Parameter backlog: `listen(2)`'s backlog; nil binds without listening.
  package init(backlog: Int32? = 8) throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && (backlog.map { listen(fd, $0) == 0 } ?? true) && getsockname(fd, $0, &length) == 0
      }
    }
    guard ok else {
      let message = String(cString: strerror(errno))
      close(fd)
      throw LoopbackError(description: "no free port: \(message)")
    }
    self.fd = fd
    port = Int(UInt16(bigEndian: address.sin_port))
  }

  deinit { close(fd) }
}

/// A loopback TCP port nobody listens on right now (bound to port 0, read back, released).
package func freeLoopbackPort() throws -> Int { try LoopbackListener(backlog: nil).port }

/// A real gpsd (`gpsd -N -n`) on a free loopback port reading `device` (e.g.
/// `tcp://127.0.0.1:PORT`, an NMEA feed), with its control socket in a directory of its own.
/// Stopped by its PID (SIGKILL), never by name.
package final class GPSDProcess: @unchecked Sendable {
  package let port: Int
  package let device: String
  private var process: Process?
  private let directory: URL

  /// gpsd's executable, where Debian's package puts it; nil when it is not installed.
  package static var path: String? {
    ["/usr/sbin/gpsd", "/usr/local/sbin/gpsd", "/usr/bin/gpsd"].first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Starts gpsd reading `device` and waits (at most 10 s) until it accepts clients.
  package init(reading device: String) throws {
    self.device = device
    port = try freeLoopbackPort()
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("gpsd-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try start()
  }

  /// Starts gpsd (again) on ``port`` and waits until it accepts clients.
  package func start() throws {
    guard let path = Self.path else { throw LoopbackError(description: "gpsd is not installed (apt-get install gpsd)") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["-N", "-n", "-S", String(port), "-F", directory.appendingPathComponent("sock").path, device]
    process.standardError = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    self.process = process
    guard waitForListener(process, port: port, limit: .seconds(10)) else {
      kill()
      throw LoopbackError(description: "gpsd did not start on port \(port) within 10 s")
    }
  }

  /// Kills gpsd (SIGKILL: no goodbye to clients) and waits for it.
  package func kill() {
    guard let process, process.isRunning else { return }
    Glibc.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    self.process = nil
  }

  package func stop() {
    kill()
    try? FileManager.default.removeItem(at: directory)
  }

  deinit { stop() }
}

/// Whether something accepts TCP connections on loopback `port` now.
package func loopbackAccepts(_ port: Int) -> Bool {
  guard let fd = connectLoopback(port) else { return false }
  close(fd)
  return true
}

/// A TCP socket connected to 127.0.0.1:`port` (the caller closes it), or nil when nothing
/// accepts there.
package func connectLoopback(_ port: Int) -> Int32? {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard fd >= 0 else { return nil }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
  }
  guard connected else {
    close(fd)
    return nil
  }
  return fd
}

/// Waits (blocking, at most `limit`) until a child process just started accepts on loopback
/// `port`; false when it ended first or the limit passed.
package func waitForListener(_ process: Process, port: Int, limit: Duration) -> Bool {
  let deadline = ContinuousClock.now + limit
  while !loopbackAccepts(port) {
    guard ContinuousClock.now < deadline, process.isRunning else { return false }
    Thread.sleep(forTimeInterval: 0.02)
  }
  return true
}

/// A keep-alive HTTP/1.1 connection to a server on loopback over a plain socket, for clients
/// that must not go through URLSession: a benchmark measuring the server itself, chromedriver
/// (whose header lines, without a space after the colon, FoundationNetworking refuses).
/// Responses are read by their `Content-Length`. Blocking; every read is bounded.
package final class LoopbackHTTPConnection {
  package let fd: Int32
  private var buffer: [UInt8] = []

  /// - Parameter receiveTimeout: seconds a read may wait before the request fails.
  package init(port: Int, receiveTimeout: Int = 60) throws {
    guard let fd = connectLoopback(port) else { throw LoopbackError(description: "cannot connect to 127.0.0.1:\(port)") }
    self.fd = fd
    var yes: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  deinit { close(fd) }

  /// Sends a request; a body goes as JSON.
  package func write(_ method: String, _ path: String, body: Data? = nil) throws {
    var request = Data("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8)
    if let body {
      request += Data("Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
    } else {
      request += Data("Content-Length: 0\r\n\r\n".utf8)
    }
    let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    guard sent == request.count else { throw LoopbackError(description: "cannot send a request") }
  }

  /// Reads one response: its status and body.
  package func readResponse() throws -> (status: Int, body: Data) {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      if let end = buffer.firstRange(of: [13, 10, 13, 10]) {
        let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self).lowercased()
        var length = 0
        for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
          length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        if buffer.count >= end.upperBound + length {
          let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
          let body = Data(buffer[end.upperBound..<(end.upperBound + length)])
          buffer.removeFirst(end.upperBound + length)
          return (status, body)
        }
      }
      let n = recv(fd, &chunk, chunk.count, 0)
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        throw LoopbackError(description: n < 0 ? "no answer within the receive timeout" : "the server closed the connection")
      }
      buffer.append(contentsOf: chunk[0..<n])
    }
  }

  /// One request and its response.
  package func request(_ method: String, _ path: String, body: Data? = nil) throws -> (status: Int, body: Data) {
    try write(method, path, body: body)
    return try readResponse()
  }
}
